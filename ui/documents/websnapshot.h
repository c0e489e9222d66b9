#pragma once
// DOM snapshot of a rendered page: every element's and text node's box and visibility, keyed by
// the same XPaths the HTML loader writes, plus one box per word of each text node.
//
//   // a page already loaded in a view:
//   folio::captureDomSnapshot(page, this, [](const QByteArray &json, const QString &error) { ... });
//
//   // or load + render offscreen + capture in one go (folio-websnapshot, tests):
//   auto *r = new folio::OffscreenSnapshot(this);
//   connect(r, &folio::OffscreenSnapshot::finished, this, [](const QByteArray &json) { ... });
//   connect(r, &folio::OffscreenSnapshot::failed, this, [](const QString &message) { ... });
//   r->start("/data/page.html", /*javaScript=*/false, /*viewportWidth=*/1280);
//
// The script runs in QWebEngineScript::ApplicationWorld (isolated from the page's own scripts,
// and it runs even when page JavaScript is off). The JSON is DomSnapshot's format
// (document/domsnapshot.h): parse it with parseDomSnapshotJson, merge with mergeDomSnapshot.
// GUI thread only; needs a QApplication (offscreen works; as root set QTWEBENGINE_DISABLE_SANDBOX=1).

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QWebEnginePage;
class QWebEngineView;
class QTimer;

namespace folio {

class WebPage;

// The snapshot script (JavaScript source). maxNodes bounds the work on huge pages.
QString domSnapshotScript(int maxNodes = 500000);

// Runs the snapshot script on `page` (loaded) and calls `done` on the GUI thread with the JSON or
// an error message. `context` guards the callback's lifetime.
void captureDomSnapshot(QWebEnginePage *page, QObject *context,
                        std::function<void(const QByteArray &json, const QString &error)> done);

class OffscreenSnapshot : public QObject
{
    Q_OBJECT
public:
    explicit OffscreenSnapshot(QObject *parent = nullptr);
    ~OffscreenSnapshot() override;

    // Loads `path` in an untrusted WebPage inside a (not necessarily visible) view of the given
    // width, waits for the load, captures. One run per object.
    void start(const QString &path, bool javaScript = false, int viewportWidth = 1280, int timeoutMs = 60000);
    WebPage *page() const;

Q_SIGNALS:
    void finished(const QByteArray &json);
    void failed(const QString &message);

private:
    void fail(const QString &message);

    QWebEngineView *m_view = nullptr;
    WebPage *m_page = nullptr;
    QTimer *m_timeout = nullptr;
    QString m_path;
    bool m_done = false;
};

} // namespace folio
