#include "pipeline/hub/hubhttp.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <vector>

namespace folio::hub {

QByteArray HttpReply::header(const char *name) const
{
    const QByteArray key(name);
    for (const auto &h : headers)
        if (h.first.compare(key, Qt::CaseInsensitive) == 0)
            return h.second;
    return {};
}

bool HttpReply::hasHeader(const char *name) const
{
    const QByteArray key(name);
    for (const auto &h : headers)
        if (h.first.compare(key, Qt::CaseInsensitive) == 0)
            return true;
    return false;
}

HubHttp::HubHttp(int timeoutMs, const std::atomic<bool> *cancel)
    : m_manager(new QNetworkAccessManager), m_timeoutMs(timeoutMs), m_cancel(cancel)
{
}

HubHttp::~HubHttp() = default;

HttpReply HubHttp::request(const QByteArray &verb, const QUrl &url, const QList<QPair<QByteArray, QByteArray>> &headers,
                           qint64 maxBody, const Sink &sink, const Start &start, const Buffer &buffer)
{
    HttpReply out;
    QNetworkRequest req(url);
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    req.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    req.setTransferTimeout(m_timeoutMs);
    // The bytes as stored: no transparent gunzip (sizes, hashes and Range offsets are the file's).
    req.setRawHeader("Accept-Encoding", "identity");
    req.setRawHeader("User-Agent", "folio; hf_hub-compatible");
    for (const auto &h : headers)
        req.setRawHeader(h.first, h.second);

    // HEAD through head(): as a custom verb Qt would wait for the body its Content-Length announces.
    QNetworkReply *reply = verb == "HEAD"  ? m_manager->head(req)
                           : verb == "GET" ? m_manager->get(req)
                                           : m_manager->sendCustomRequest(req, verb);
    // A streamed body: Qt's network thread reads at most 4 MB ahead of the sink. Unbounded, it read
    // into ever new buffers (50-110 k page faults per 512 MB, ~6 % more CPU than with the bound;
    // 64 KB costs more in wake-ups), and a disk slower than the network let the file pile up in memory.
    if (sink)
        reply->setReadBufferSize(4 << 20);
    QEventLoop loop;
    bool streaming = false, decided = false;
    std::vector<char> block(sink && !buffer ? (1 << 20) : 0); // what Qt has buffered, handed on in pieces of up to 1 MB
    auto decide = [&] {
        if (decided)
            return;
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (!status.isValid())
            return;
        decided = true;
        out.status = status.toInt();
        streaming = sink && (out.status == 200 || out.status == 206);
        if (streaming && start) {
            out.headers = reply->rawHeaderPairs();
            if (!start(out)) {
                streaming = false;
                out.aborted = true;
                reply->abort();
            }
        }
    };
    auto drain = [&] {
        decide();
        if (!decided || out.aborted)
            return;
        while (reply->bytesAvailable() > 0) {
            if (streaming) {
                qint64 capacity = qint64(block.size());
                char *into = buffer ? buffer(&capacity) : block.data();
                const qint64 n = reply->read(into, capacity);
                if (n <= 0)
                    break;
                out.streamed += n;
                if (!sink(into, n)) {
                    out.aborted = true;
                    reply->abort();
                    return;
                }
            } else {
                const QByteArray chunk = reply->read(64 * 1024);
                if (chunk.isEmpty())
                    break;
                const qint64 room = (streaming || maxBody <= 0 ? 64 * 1024 : maxBody) - out.body.size();
                if (chunk.size() > room) {
                    out.body += chunk.left(room);
                    if (out.status >= 200 && out.status < 300 && !sink) {
                        out.networkError = QStringLiteral("answer larger than %1 bytes").arg(maxBody);
                        out.aborted = true;
                        reply->abort();
                        return;
                    }
                } else {
                    out.body += chunk;
                }
            }
        }
    };
    QObject::connect(reply, &QNetworkReply::metaDataChanged, &loop, decide);
    QObject::connect(reply, &QIODevice::readyRead, &loop, drain);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer poll;
    poll.setInterval(50);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (cancelled() && reply->isRunning()) {
            out.aborted = true;
            reply->abort();
        }
    });
    poll.start();
    if (reply->isRunning())
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    poll.stop();
    if (!out.aborted)
        drain();
    decide();
    out.headers = reply->rawHeaderPairs();
    if (reply->error() != QNetworkReply::NoError && out.networkError.isEmpty()) {
        // An HTTP error status is not a network failure: Qt reports 4xx/5xx as errors too.
        const int e = reply->error();
        const bool httpStatusOnly = out.status != 0 && ((e >= QNetworkReply::ContentAccessDenied && e <= QNetworkReply::UnknownContentError)
                                                        || (e >= QNetworkReply::InternalServerError && e <= QNetworkReply::UnknownServerError));
        if (!httpStatusOnly && !out.aborted)
            out.networkError = reply->errorString();
    }
    if (out.aborted && out.networkError.isEmpty() && cancelled())
        out.networkError = QStringLiteral("cancelled");
    reply->disconnect();
    delete reply;
    return out;
}

} // namespace folio::hub
