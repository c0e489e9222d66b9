#pragma once
// WebPage: a QWebEnginePage for untrusted, saved web pages, shown offline.
//
//   auto *page = new folio::WebPage(parent);          // scripts off, network off
//   page->setJavaScriptEnabled(userSaidYes);          // per document, before loadLocalFile()
//   page->loadLocalFile("/data/page.html");           // .html/.htm/.xhtml (.gz inflated to a temp copy)
//   connect(page, &QWebEnginePage::loadFinished, ...);
//   page->requestLog();                               // every request the page tried, and the verdict
//   page->loadOutcome();                              // how the page's own document load ended
//
// Safety:
//  - OfflineUrlInterceptor blocks every request whose scheme is not file:, data:, qrc:, blob: or
//    about:, and file: requests outside the page's own folder; each request is logged.
//  - An MHTML archive (.mht / .mhtml, document/html/mhtml.h) is shown from its own parts: the page is
//    loaded from folio-archive: (ui/documents/webarchive.h), which answers only from the archive; absolute
//    http(s) references to saved parts are redirected there, all else is blocked, no file: at all.
//  - A page saved as "Web Page, complete" (X.html + X_files/) reads its resources as files from its
//    own folder, like any page.
//  - Navigation away from the loaded page (link clicks, form posts, redirects, window.open) is refused.
//  - Page JavaScript (main world) is off unless setJavaScriptEnabled(true); Folio's own scripts run
//    in QWebEngineScript::ApplicationWorld and are not affected.
//  - The profile is off-the-record (nothing written to disk), no DNS prefetch, no remote access
//    from local content, no plugins.
// GUI thread only.

#include "document/html/mhtml.h"

#include <QMutex>
#include <QStringList>
#include <QUrl>
#include <QWebEnginePage>
#include <QWebEngineUrlRequestInterceptor>

#include <memory>

class QTemporaryDir;

namespace folio {

struct WebRequestRecord
{
    QUrl url;
    bool allowed = false;
    int resourceType = 0; // QWebEngineUrlRequestInfo::ResourceType
    bool redirected = false; // an absolute reference to a saved MHTML part, sent to the archive
};

// How the load of the page's own document ended, from Chromium's loading info (the main frame,
// the loaded URL only: refused navigations elsewhere do not count).
struct WebLoadOutcome
{
    enum class State { None, Loading, Succeeded, Failed, Stopped };
    State state = State::None;
    QString errorString; // Chromium's words, e.g. "net::ERR_FILE_NOT_FOUND"
    int errorCode = 0;
    bool errorPage = false; // Chromium showed its own error page in place of the file
};

// A resource type in words, plural when n != 1: "image", "style sheets", "script", ...
QString webResourceTypeName(int resourceType, int n = 1);
// The blocked entries of a request log, one line each ("image  https://cdn.example.com/a.png"),
// in request order, repeated URLs once; at most maxLines (0 = all), then "... and N more".
QStringList blockedRequestLines(const QList<WebRequestRecord> &log, int maxLines = 0);
// Local resources the page was given: allowed entries other than the page itself and inline data,
// each resource once (a redirected MHTML reference and its archive request are one).
int servedResourceCount(const QList<WebRequestRecord> &log);
// "5 images, 3 style sheets, 1 script": the blocked entries counted by type, most first.
QString blockedRequestKinds(const QList<WebRequestRecord> &log);

class OfflineUrlInterceptor : public QWebEngineUrlRequestInterceptor
{
    Q_OBJECT
public:
    explicit OfflineUrlInterceptor(QObject *parent = nullptr);
    // file: requests are allowed only under this folder (empty: no file: at all), judged by where
    // the file really is: links (page_files/x -> /etc/passwd) are resolved first.
    void setAllowedRoot(const QString &folder);
    // The canonical form of a local path, links resolved; for a missing file, its deepest existing
    // folder's canonical path with the rest appended; "" for a dangling link or a loop.
    static QString resolvedLocalPath(const QString &localFile);
    // The MHTML archive the page is served from (null: none) and its folio-archive token (port).
    void setArchive(std::shared_ptr<const MhtmlArchive> archive, int token);
    void interceptRequest(QWebEngineUrlRequestInfo &info) override;

    QList<WebRequestRecord> log() const;
    void clearLog();
    // Adds one entry (requests decided elsewhere: refused frame navigations).
    void record(const QUrl &url, bool allowed, int resourceType);
    // Entries that were blocked.
    int blockedCount() const;
    // The policy itself, for tests and for acceptNavigationRequest.
    bool isAllowed(const QUrl &url) const;

private:
    // An http(s)/cid reference to a saved part of the archive: its folio-archive URL, else empty.
    QUrl archiveTarget(const QUrl &url) const;

    mutable QMutex m_mutex;
    QString m_root;
    std::shared_ptr<const MhtmlArchive> m_archive;
    int m_archiveToken = 0;
    QList<WebRequestRecord> m_log;
};

class WebPage : public QWebEnginePage
{
    Q_OBJECT
public:
    explicit WebPage(QObject *parent = nullptr);
    ~WebPage() override;

    void setJavaScriptEnabled(bool enabled);
    bool javaScriptEnabled() const;

    // Loads a local file (an MHTML file from its parts); returns false (with *error naming the file)
    // when it does not exist or cannot be prepared. The result comes with loadFinished().
    bool loadLocalFile(const QString &path, QString *error = nullptr);
    QString localFile() const { return m_path; }
    // The archive the page is shown from (null unless an MHTML file is loaded).
    std::shared_ptr<const MhtmlArchive> archive() const { return m_archive; }

    QList<WebRequestRecord> requestLog() const { return m_interceptor->log(); }
    WebLoadOutcome loadOutcome() const { return m_outcome; }
    OfflineUrlInterceptor *interceptor() const { return m_interceptor; }

protected:
    bool acceptNavigationRequest(const QUrl &url, NavigationType type, bool isMainFrame) override;
    QWebEnginePage *createWindow(WebWindowType type) override;
    void javaScriptConsoleMessage(JavaScriptConsoleMessageLevel level, const QString &message,
                                  int lineNumber, const QString &sourceID) override;

private:
    OfflineUrlInterceptor *m_interceptor = nullptr;
    std::unique_ptr<QTemporaryDir> m_inflated;
    std::shared_ptr<const MhtmlArchive> m_archive;
    int m_archiveToken = 0;
    void dropArchive();
    QString m_path;
    QUrl m_url;
    WebLoadOutcome m_outcome;
};

} // namespace folio
