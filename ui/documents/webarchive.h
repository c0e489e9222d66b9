#pragma once
// Serving a saved MHTML page to QtWebEngine from its own parts, offline.
//
// The page of an archive is loaded from the custom scheme "folio-archive": the URL mirrors the
// page's original address (its Content-Location), https://shop.example/p/item.html becoming
// folio-archive://shop.example:<token>/p/item.html, so relative links resolve inside the archive.
// The port is the archive's token (each loaded archive has its own). WebArchiveSchemeHandler
// answers folio-archive requests from the registered archive's parts only (a part it does not
// hold: "not found"); OfflineUrlInterceptor (webpage.h) redirects absolute http(s) references to
// saved parts onto this scheme and blocks everything else.
//
//   auto *handler = WebArchiveSchemeHandler::installOn(page->profile());
//   const int token = handler->add(archive);            // shared_ptr<const MhtmlArchive>
//   page->load(archivePageUrl(*archive, token));
//   ...
//   handler->remove(token);
//
// The scheme is registered with QtWebEngine at QCoreApplication construction (a startup function
// in webarchive.cpp): WebEngine takes new schemes only before its first object exists.
// GUI thread only (the handler's requests come on it).

#include "document/html/mhtml.h"

#include <QHash>
#include <QUrl>
#include <QWebEngineUrlSchemeHandler>

#include <memory>

class QWebEngineProfile;

namespace folio {

QByteArray webArchiveScheme(); // "folio-archive"

// folio-archive URL of an original resource address, and back (scheme-less: http and https alike).
QUrl archiveUrlFor(const QUrl &original, int token);
QUrl originalUrlOf(const QUrl &archiveUrl);
// The page's own folio-archive URL (from the HTML part's Content-Location, or a stand-in name).
QUrl archivePageUrl(const MhtmlArchive &archive, int token);

class WebArchiveSchemeHandler : public QWebEngineUrlSchemeHandler
{
    Q_OBJECT
public:
    // The handler installed on `profile` (created and installed on the first call for it).
    static WebArchiveSchemeHandler *installOn(QWebEngineProfile *profile);

    int add(std::shared_ptr<const MhtmlArchive> archive);
    void remove(int token);
    std::shared_ptr<const MhtmlArchive> archive(int token) const { return m_archives.value(token); }
    // Requests answered from an archive part, and those it did not hold.
    int servedCount() const { return m_served; }
    int missingCount() const { return m_missing; }

    void requestStarted(QWebEngineUrlRequestJob *job) override;

private:
    explicit WebArchiveSchemeHandler(QObject *parent);

    QHash<int, std::shared_ptr<const MhtmlArchive>> m_archives;
    int m_nextToken = 1024;
    int m_served = 0;
    int m_missing = 0;
};

} // namespace folio
