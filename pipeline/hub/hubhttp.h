#pragma once
// One HTTP request at a time, synchronously, for the Hub client (internal to pipeline/hub).
// QNetworkAccessManager under a local event loop, so it runs in whichever thread calls it (the CLI's
// main thread, the GUI's download worker). Redirects are never followed here: the caller decides
// (huggingface_hub follows only relative ones for metadata and takes the absolute one as the
// download address). Bodies are bounded: a small answer is kept up to `maxBody` bytes, a streamed
// one goes to a sink that may stop it. Cancelling aborts the transfer within 50 ms.

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

#include <atomic>
#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace folio::hub {

struct HttpReply
{
    int status = 0;           // 0: no HTTP answer at all
    QString networkError;     // set when the transfer failed or broke off (status may still be set)
    bool aborted = false;     // stopped by the sink or by cancelling
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;          // small answers (and error answers' first 64 KB)
    qint64 streamed = 0;      // bytes handed to the sink
    QByteArray header(const char *name) const; // case-insensitive; empty when absent
    bool hasHeader(const char *name) const;
};

class HubHttp
{
public:
    // `sink(data, size)` receives a 200/206 answer's body; returning false aborts the transfer.
    using Sink = std::function<bool(const char *data, qint64 size)>;
    // Called once when a 200/206 answer's status and headers are known, before its body reaches the
    // sink; returning false aborts the transfer.
    using Start = std::function<bool(const HttpReply &reply)>;

    HubHttp(int timeoutMs, const std::atomic<bool> *cancel);
    ~HubHttp();
    // Where a streamed body is read to before the sink sees it (its bytes are then `data`): a
    // buffer of *capacity bytes, the same or another each time; none: one of this class's own.
    using Buffer = std::function<char *(qint64 *capacity)>;

    HttpReply request(const QByteArray &verb, const QUrl &url, const QList<QPair<QByteArray, QByteArray>> &headers,
                      qint64 maxBody, const Sink &sink = {}, const Start &start = {}, const Buffer &buffer = {});
    bool cancelled() const { return m_cancel && m_cancel->load(); }

private:
    std::unique_ptr<QNetworkAccessManager> m_manager;
    int m_timeoutMs;
    const std::atomic<bool> *m_cancel;
};

} // namespace folio::hub
