#include "ui/documents/webpage.h"

#include "document/html/htmlinput.h"
#include "ui/documents/webarchive.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutexLocker>
#include <QHash>
#include <QSet>
#include <QTemporaryDir>
#include <QWebEngineLoadingInfo>
#include <QWebEngineProfile>
#include <QWebEngineSettings>
#include <QWebEngineUrlRequestInfo>

#include <algorithm>

#include <cerrno>
#include <cstdlib>
#include <sys/stat.h>

namespace folio {

// ---- interceptor -----------------------------------------------------------

OfflineUrlInterceptor::OfflineUrlInterceptor(QObject *parent)
    : QWebEngineUrlRequestInterceptor(parent)
{
}

void OfflineUrlInterceptor::setAllowedRoot(const QString &folder)
{
    QMutexLocker lock(&m_mutex);
    m_root = folder.isEmpty() ? QString() : QDir(folder).canonicalPath();
}

void OfflineUrlInterceptor::setArchive(std::shared_ptr<const MhtmlArchive> archive, int token)
{
    QMutexLocker lock(&m_mutex);
    m_archive = std::move(archive);
    m_archiveToken = token;
}

QUrl OfflineUrlInterceptor::archiveTarget(const QUrl &url) const
{
    std::shared_ptr<const MhtmlArchive> archive;
    int token = 0;
    {
        QMutexLocker lock(&m_mutex);
        archive = m_archive;
        token = m_archiveToken;
    }
    const QString scheme = url.scheme().toLower();
    if (!archive || (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
        return {};
    return archive->findPart(url) >= 0 ? archiveUrlFor(url, token) : QUrl();
}

bool OfflineUrlInterceptor::isAllowed(const QUrl &url) const
{
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String(webArchiveScheme())) {
        // Only this page's archive, and only the parts it holds.
        QMutexLocker lock(&m_mutex);
        return m_archive && url.port() == m_archiveToken && m_archive->findPart(originalUrlOf(url)) >= 0;
    }
    if (scheme == QLatin1String("data") || scheme == QLatin1String("qrc") || scheme == QLatin1String("blob")
        || scheme == QLatin1String("about") || scheme == QLatin1String("cid"))
        return true;
    if (scheme != QLatin1String("file"))
        return false;
    if (!url.host().isEmpty())
        return false; // file://server/share is a network request
    QString root;
    {
        QMutexLocker lock(&m_mutex);
        root = m_root;
    }
    if (root.isEmpty())
        return false;
    // Where the file really is (issue 51): a link in page_files/ to /etc/passwd or to /etc is
    // judged by its target, not by the name it has inside the page's folder.
    const QString path = resolvedLocalPath(url.toLocalFile());
    if (path.isEmpty() || !(path == root || path.startsWith(root.endsWith(QLatin1Char('/')) ? root : root + QLatin1Char('/'))))
        return false;
    // A FIFO or a device inside the folder would block or never end Chromium's read.
    struct stat st{};
    return ::stat(QFile::encodeName(path).constData(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode);
}

QString OfflineUrlInterceptor::resolvedLocalPath(const QString &localFile)
{
    // The canonical path of the deepest part that exists, the rest (a file the page names but that
    // is missing) appended: a missing resource stays a missing resource inside the folder, while
    // every link on the way is resolved (realpath(3)). Something that is there but does not resolve
    // (a link to nothing, a loop) resolves to nothing: refused.
    QByteArray existing = QFile::encodeName(QDir::cleanPath(localFile));
    QByteArray rest;
    while (!existing.isEmpty()) {
        if (char *real = ::realpath(existing.constData(), nullptr)) {
            const QByteArray canonical(real);
            std::free(real);
            return QDir::cleanPath(QFile::decodeName(rest.isEmpty() ? canonical : canonical + '/' + rest));
        }
        struct stat st{};
        if (errno != ENOENT || ::lstat(existing.constData(), &st) == 0)
            return {};
        const qsizetype slash = existing.lastIndexOf('/');
        if (slash < 0)
            return {};
        rest = rest.isEmpty() ? existing.mid(slash + 1) : existing.mid(slash + 1) + '/' + rest;
        existing = slash == 0 ? QByteArray("/") : existing.left(slash);
    }
    return {};
}

void OfflineUrlInterceptor::interceptRequest(QWebEngineUrlRequestInfo &info)
{
    const bool allowed = isAllowed(info.requestUrl());
    if (!allowed) {
        // An absolute reference to a part the MHTML file saved: answered from the archive.
        const QUrl target = archiveTarget(info.requestUrl());
        if (target.isValid()) {
            info.redirect(target);
            QMutexLocker lock(&m_mutex);
            if (m_log.size() < 100000)
                m_log.append({info.requestUrl(), true, int(info.resourceType()), true});
            return;
        }
        info.block(true);
    }
    record(info.requestUrl(), allowed, int(info.resourceType()));
}

void OfflineUrlInterceptor::record(const QUrl &url, bool allowed, int resourceType)
{
    QMutexLocker lock(&m_mutex);
    if (m_log.size() < 100000)
        m_log.append({url, allowed, resourceType});
}

int OfflineUrlInterceptor::blockedCount() const
{
    QMutexLocker lock(&m_mutex);
    int n = 0;
    for (const WebRequestRecord &r : m_log)
        n += r.allowed ? 0 : 1;
    return n;
}

QList<WebRequestRecord> OfflineUrlInterceptor::log() const
{
    QMutexLocker lock(&m_mutex);
    return m_log;
}

void OfflineUrlInterceptor::clearLog()
{
    QMutexLocker lock(&m_mutex);
    m_log.clear();
}

// ---- blocked requests in words -------------------------------------------

QString webResourceTypeName(int type, int n)
{
    const bool one = n == 1;
    switch (QWebEngineUrlRequestInfo::ResourceType(type)) {
    case QWebEngineUrlRequestInfo::ResourceTypeMainFrame:
        return one ? QCoreApplication::translate("folio::WebPage", "page") : QCoreApplication::translate("folio::WebPage", "pages");
    case QWebEngineUrlRequestInfo::ResourceTypeSubFrame:
        return one ? QCoreApplication::translate("folio::WebPage", "frame") : QCoreApplication::translate("folio::WebPage", "frames");
    case QWebEngineUrlRequestInfo::ResourceTypeStylesheet:
        return one ? QCoreApplication::translate("folio::WebPage", "style sheet") : QCoreApplication::translate("folio::WebPage", "style sheets");
    case QWebEngineUrlRequestInfo::ResourceTypeScript:
        return one ? QCoreApplication::translate("folio::WebPage", "script") : QCoreApplication::translate("folio::WebPage", "scripts");
    case QWebEngineUrlRequestInfo::ResourceTypeImage:
    case QWebEngineUrlRequestInfo::ResourceTypeFavicon:
        return one ? QCoreApplication::translate("folio::WebPage", "image") : QCoreApplication::translate("folio::WebPage", "images");
    case QWebEngineUrlRequestInfo::ResourceTypeFontResource:
        return one ? QCoreApplication::translate("folio::WebPage", "font") : QCoreApplication::translate("folio::WebPage", "fonts");
    case QWebEngineUrlRequestInfo::ResourceTypeMedia:
        return one ? QCoreApplication::translate("folio::WebPage", "media file") : QCoreApplication::translate("folio::WebPage", "media files");
    case QWebEngineUrlRequestInfo::ResourceTypeXhr:
        return one ? QCoreApplication::translate("folio::WebPage", "script fetch") : QCoreApplication::translate("folio::WebPage", "script fetches");
    case QWebEngineUrlRequestInfo::ResourceTypePing:
    case QWebEngineUrlRequestInfo::ResourceTypeCspReport:
        return one ? QCoreApplication::translate("folio::WebPage", "tracking ping") : QCoreApplication::translate("folio::WebPage", "tracking pings");
    case QWebEngineUrlRequestInfo::ResourceTypePrefetch:
        return one ? QCoreApplication::translate("folio::WebPage", "prefetch") : QCoreApplication::translate("folio::WebPage", "prefetches");
    case QWebEngineUrlRequestInfo::ResourceTypeWorker:
    case QWebEngineUrlRequestInfo::ResourceTypeSharedWorker:
    case QWebEngineUrlRequestInfo::ResourceTypeServiceWorker:
        return one ? QCoreApplication::translate("folio::WebPage", "worker") : QCoreApplication::translate("folio::WebPage", "workers");
    default:
        return one ? QCoreApplication::translate("folio::WebPage", "other request") : QCoreApplication::translate("folio::WebPage", "other requests");
    }
}

// Blocked entries, each URL once (a page asks for the same blocked image many times).
static QList<WebRequestRecord> distinctBlocked(const QList<WebRequestRecord> &log)
{
    QList<WebRequestRecord> out;
    QSet<QString> seen;
    for (const WebRequestRecord &r : log) {
        if (r.allowed)
            continue;
        const QString key = r.url.toString();
        if (seen.contains(key))
            continue;
        seen.insert(key);
        out.append(r);
    }
    return out;
}

QStringList blockedRequestLines(const QList<WebRequestRecord> &log, int maxLines)
{
    const QList<WebRequestRecord> blocked = distinctBlocked(log);
    QStringList lines;
    for (const WebRequestRecord &r : blocked) {
        if (maxLines > 0 && lines.size() == maxLines) {
            lines << QStringLiteral("... and %1 more").arg(blocked.size() - maxLines);
            break;
        }
        QString url = r.url.toString();
        if (url.size() > 160)
            url = url.left(157) + QStringLiteral("...");
        lines << QStringLiteral("%1  %2").arg(webResourceTypeName(r.resourceType), url);
    }
    return lines;
}

int servedResourceCount(const QList<WebRequestRecord> &log)
{
    QSet<QString> seen;
    for (const WebRequestRecord &r : log) {
        if (!r.allowed || r.resourceType == int(QWebEngineUrlRequestInfo::ResourceTypeMainFrame))
            continue;
        const QString scheme = r.url.scheme().toLower();
        if (scheme == QLatin1String("data") || scheme == QLatin1String("about") || scheme == QLatin1String("blob"))
            continue; // inline content, not a saved resource
        // A redirected reference and the archive request it became are one resource.
        const QUrl key = scheme == QLatin1String(webArchiveScheme()) ? originalUrlOf(r.url) : r.url;
        seen.insert(key.adjusted(QUrl::RemoveFragment | QUrl::RemoveScheme).toString());
    }
    return int(seen.size());
}

QString blockedRequestKinds(const QList<WebRequestRecord> &log)
{
    // Counted by plural name (images and favicons together), each with one of its types.
    QHash<QString, QPair<int, int>> counts; // name -> (count, a resource type of it)
    QStringList order;
    for (const WebRequestRecord &r : distinctBlocked(log)) {
        const QString name = webResourceTypeName(r.resourceType, 2);
        if (!counts.contains(name)) {
            order << name;
            counts.insert(name, {0, r.resourceType});
        }
        ++counts[name].first;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](const QString &a, const QString &b) { return counts[a].first > counts[b].first; });
    QStringList parts;
    for (const QString &name : order) {
        const auto [n, type] = counts[name];
        parts << QStringLiteral("%1 %2").arg(n).arg(webResourceTypeName(type, n));
    }
    return parts.join(QStringLiteral(", "));
}

// ---- page ------------------------------------------------------------------

// One off-the-record profile for every untrusted page: nothing is written to disk.
static QWebEngineProfile *offlineProfile()
{
    static QWebEngineProfile *profile = [] {
        auto *p = new QWebEngineProfile(QCoreApplication::instance()); // no storage name: off the record
        p->setHttpCacheType(QWebEngineProfile::MemoryHttpCache);
        p->setPersistentCookiesPolicy(QWebEngineProfile::NoPersistentCookies);
        p->setSpellCheckEnabled(false);
        QWebEngineSettings *s = p->settings();
        s->setAttribute(QWebEngineSettings::JavascriptEnabled, false);
        s->setAttribute(QWebEngineSettings::DnsPrefetchEnabled, false);
        s->setAttribute(QWebEngineSettings::LocalContentCanAccessRemoteUrls, false);
        s->setAttribute(QWebEngineSettings::PluginsEnabled, false);
        s->setAttribute(QWebEngineSettings::AutoLoadIconsForPage, false);
        s->setAttribute(QWebEngineSettings::JavascriptCanOpenWindows, false);
        s->setAttribute(QWebEngineSettings::PdfViewerEnabled, false);
        WebArchiveSchemeHandler::installOn(p); // MHTML pages from their own parts
        return p;
    }();
    return profile;
}

WebPage::WebPage(QObject *parent)
    : QWebEnginePage(offlineProfile(), parent)
    , m_interceptor(new OfflineUrlInterceptor(this))
{
    setUrlRequestInterceptor(m_interceptor);
    settings()->setAttribute(QWebEngineSettings::JavascriptEnabled, false);
    // Remote requests are let through Chromium's own local-to-remote rule on purpose: it refused
    // them silently, so a page's dozen blocked loads showed as 0. Every request then reaches the
    // interceptor, which refuses all but local ones and logs each (tst_websnapshot proves no
    // connection is made, scripts on or off).
    settings()->setAttribute(QWebEngineSettings::LocalContentCanAccessRemoteUrls, true);
    settings()->setAttribute(QWebEngineSettings::LocalContentCanAccessFileUrls, true);
    // Chromium's own account of the page's document load (loadFinished(false) alone does not say
    // why, and comes for refused navigations too).
    connect(this, &QWebEnginePage::loadingChanged, this, [this](const QWebEngineLoadingInfo &info) {
        if (info.url().adjusted(QUrl::RemoveFragment) != m_url)
            return;
        switch (info.status()) {
        case QWebEngineLoadingInfo::LoadStartedStatus:
            m_outcome = WebLoadOutcome{WebLoadOutcome::State::Loading, {}, 0, false};
            break;
        case QWebEngineLoadingInfo::LoadSucceededStatus:
            m_outcome = WebLoadOutcome{WebLoadOutcome::State::Succeeded, {}, 0, info.isErrorPage()};
            break;
        case QWebEngineLoadingInfo::LoadFailedStatus:
            m_outcome = WebLoadOutcome{WebLoadOutcome::State::Failed, info.errorString(), info.errorCode(), info.isErrorPage()};
            break;
        case QWebEngineLoadingInfo::LoadStoppedStatus:
            m_outcome = WebLoadOutcome{WebLoadOutcome::State::Stopped, info.errorString(), info.errorCode(), info.isErrorPage()};
            break;
        }
    });
}

WebPage::~WebPage()
{
    dropArchive();
}

void WebPage::dropArchive()
{
    if (m_archiveToken != 0)
        WebArchiveSchemeHandler::installOn(profile())->remove(m_archiveToken);
    m_archiveToken = 0;
    m_archive.reset();
    m_interceptor->setArchive(nullptr, 0);
}

void WebPage::setJavaScriptEnabled(bool enabled)
{
    settings()->setAttribute(QWebEngineSettings::JavascriptEnabled, enabled);
}

bool WebPage::javaScriptEnabled() const
{
    return settings()->testAttribute(QWebEngineSettings::JavascriptEnabled);
}

bool WebPage::loadLocalFile(const QString &path, QString *error)
{
    const QFileInfo info(path);
    if (!info.isFile()) {
        if (error)
            *error = QStringLiteral("%1: no such file").arg(path);
        return false;
    }
    // A page given through a link is shown where it lies, with the folder beside it (the filter
    // judges every file: request by its resolved path).
    QString local = info.isSymLink() ? info.canonicalFilePath() : info.absoluteFilePath();
    m_inflated.reset();
    dropArchive();
    m_interceptor->clearLog(); // the header counts this load's requests only
    QByteArray head;
    if (QFile f(path); f.open(QIODevice::ReadOnly))
        head = f.read(8192);
    if (hasMhtmlSuffix(path) || looksLikeMhtml(head)) {
        // The page and its resources from the archive's parts (bounded parse; the file is read whole).
        auto archive = std::make_shared<MhtmlArchive>(readMhtmlFile(path));
        if (!archive->ok) {
            if (error)
                *error = archive->error;
            return false;
        }
        m_archive = archive;
        m_archiveToken = WebArchiveSchemeHandler::installOn(profile())->add(archive);
        m_interceptor->setArchive(archive, m_archiveToken);
        m_interceptor->setAllowedRoot(QString()); // no file: at all
        m_path = path;
        m_url = archivePageUrl(*archive, m_archiveToken).adjusted(QUrl::RemoveFragment);
        m_outcome = WebLoadOutcome{WebLoadOutcome::State::Loading, {}, 0, false};
        load(m_url);
        return true;
    }
    if (path.endsWith(QLatin1String(".gz"), Qt::CaseInsensitive)) {
        // Chromium does not read gzip files: show an inflated copy (relative links then miss).
        QByteArray bytes;
        QString why;
        if (!readHtmlSource(path, qint64(256) << 20, &bytes, &why)) {
            if (error)
                *error = why;
            return false;
        }
        m_inflated = std::make_unique<QTemporaryDir>();
        QString name = info.fileName();
        name.chop(3);
        if (!name.contains(QLatin1Char('.')))
            name += QLatin1String(".html");
        local = m_inflated->filePath(name);
        QFile out(local);
        if (!m_inflated->isValid() || !out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size()) {
            if (error)
                *error = QStringLiteral("%1: cannot write an inflated copy to %2").arg(path, local);
            return false;
        }
    }
    m_path = path;
    m_url = QUrl::fromLocalFile(local);
    m_outcome = WebLoadOutcome{WebLoadOutcome::State::Loading, {}, 0, false};
    m_interceptor->setAllowedRoot(QFileInfo(local).absolutePath());
    load(m_url);
    return true;
}

bool WebPage::acceptNavigationRequest(const QUrl &url, NavigationType type, bool isMainFrame)
{
    // Only our own load (and reloads of it) may navigate the main frame; subframes may load
    // local/data content (the interceptor still has the last word).
    // Refusals are logged like blocked requests (a frame navigation never reaches the interceptor).
    const bool allowed = isMainFrame ? url.adjusted(QUrl::RemoveFragment) == m_url && type != NavigationTypeFormSubmitted
                                     : m_interceptor->isAllowed(url);
    if (!allowed)
        m_interceptor->record(url, false, isMainFrame ? int(QWebEngineUrlRequestInfo::ResourceTypeMainFrame)
                                                      : int(QWebEngineUrlRequestInfo::ResourceTypeSubFrame));
    return allowed;
}

QWebEnginePage *WebPage::createWindow(WebWindowType)
{
    return nullptr; // no pop-ups
}

void WebPage::javaScriptConsoleMessage(JavaScriptConsoleMessageLevel, const QString &, int, const QString &)
{
    // Untrusted pages' console output is dropped (it would flood stderr).
}

} // namespace folio
