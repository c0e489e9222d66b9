#include "ui/documents/webarchive.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QWebEngineProfile>
#include <QWebEngineUrlRequestJob>
#include <QWebEngineUrlScheme>

namespace folio {

namespace {

// A page saved from a file: URL (no host) gets this stand-in host in its archive URL.
const char kNoHost[] = "saved-page.invalid";

void registerArchiveScheme()
{
    QWebEngineUrlScheme scheme(webArchiveScheme());
    scheme.setSyntax(QWebEngineUrlScheme::Syntax::HostAndPort);
    scheme.setDefaultPort(1);
    // Secure: a saved https page's parts are not "mixed content". Not local: it reaches no file.
    scheme.setFlags(QWebEngineUrlScheme::SecureScheme);
    QWebEngineUrlScheme::registerScheme(scheme);
}

} // namespace

// WebEngine takes custom schemes only before its first object: at QCoreApplication construction.
Q_COREAPP_STARTUP_FUNCTION(registerArchiveScheme)

QByteArray webArchiveScheme()
{
    return QByteArrayLiteral("folio-archive");
}

QUrl archiveUrlFor(const QUrl &original, int token)
{
    QUrl u;
    u.setScheme(QString::fromLatin1(webArchiveScheme()));
    u.setHost(original.host().isEmpty() ? QString::fromLatin1(kNoHost) : original.host().toLower());
    u.setPort(token);
    u.setPath(original.path(QUrl::FullyEncoded).isEmpty() ? QStringLiteral("/") : original.path(QUrl::FullyEncoded),
              QUrl::StrictMode);
    if (original.hasQuery())
        u.setQuery(original.query(QUrl::FullyEncoded), QUrl::StrictMode);
    u.setFragment(original.fragment(QUrl::FullyEncoded), QUrl::StrictMode);
    return u;
}

QUrl originalUrlOf(const QUrl &archiveUrl)
{
    QUrl u;
    if (archiveUrl.host() == QLatin1String(kNoHost)) {
        u.setScheme(QStringLiteral("file"));
    } else {
        u.setScheme(QStringLiteral("https"));
        u.setHost(archiveUrl.host());
    }
    u.setPath(archiveUrl.path(QUrl::FullyEncoded), QUrl::StrictMode);
    if (archiveUrl.hasQuery())
        u.setQuery(archiveUrl.query(QUrl::FullyEncoded), QUrl::StrictMode);
    return u;
}

QUrl archivePageUrl(const MhtmlArchive &archive, int token)
{
    QUrl original;
    if (archive.htmlPart >= 0)
        original = QUrl(archive.parts[size_t(archive.htmlPart)].location);
    if (!original.isValid() || original.path().isEmpty() || original.scheme() == QLatin1String("cid"))
        original = QUrl(QStringLiteral("file:///page.html"));
    return archiveUrlFor(original, token);
}

WebArchiveSchemeHandler::WebArchiveSchemeHandler(QObject *parent)
    : QWebEngineUrlSchemeHandler(parent)
{
}

WebArchiveSchemeHandler *WebArchiveSchemeHandler::installOn(QWebEngineProfile *profile)
{
    if (auto *existing = profile->findChild<WebArchiveSchemeHandler *>(QString(), Qt::FindDirectChildrenOnly))
        return existing;
    auto *handler = new WebArchiveSchemeHandler(profile);
    profile->installUrlSchemeHandler(webArchiveScheme(), handler);
    return handler;
}

int WebArchiveSchemeHandler::add(std::shared_ptr<const MhtmlArchive> archive)
{
    // Tokens are ports: 1024..65535, the oldest reused after 64,000 archives.
    do {
        m_nextToken = m_nextToken >= 65535 ? 1024 : m_nextToken + 1;
    } while (m_archives.contains(m_nextToken));
    m_archives.insert(m_nextToken, std::move(archive));
    return m_nextToken;
}

void WebArchiveSchemeHandler::remove(int token)
{
    m_archives.remove(token);
}

void WebArchiveSchemeHandler::requestStarted(QWebEngineUrlRequestJob *job)
{
    const QUrl url = job->requestUrl();
    const std::shared_ptr<const MhtmlArchive> archive = m_archives.value(url.port());
    const int part = archive ? archive->findPart(originalUrlOf(url)) : -1;
    if (part < 0) {
        ++m_missing;
        job->fail(QWebEngineUrlRequestJob::UrlNotFound);
        return;
    }
    ++m_served;
    const MhtmlPart &p = archive->parts[size_t(part)];
    QByteArray type = p.contentType;
    if (!p.charset.isEmpty())
        type += "; charset=" + p.charset;
    auto *buffer = new QBuffer(job);
    buffer->setData(p.body); // implicitly shared with the archive, no copy
    buffer->open(QIODevice::ReadOnly);
    job->reply(type, buffer);
}

} // namespace folio
