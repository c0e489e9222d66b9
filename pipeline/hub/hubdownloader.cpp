#include "pipeline/hub/hubdownloader.h"

#include "pipeline/hub/hubanswers.h"
#include "pipeline/hub/hubcache.h"
#include "pipeline/hub/huberror.h"
#include "pipeline/hub/hubhttp.h"
#include "pipeline/hub/hublisting.h"
#include "pipeline/hub/hubsha256.h"
#include "pipeline/hub/hubnames.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QThread>
#include <QUrl>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace folio::hub {

namespace {

using Headers = QList<QPair<QByteArray, QByteArray>>;

constexpr int kMaxRedirects = 10;
constexpr qint64 kMaxFileBytes = 1ll << 50;


// ETag: W/"abc" or "abc" -> abc; it names a file in blobs/, so only [A-Za-z0-9_.-] (no leading '.').
QString normalizedEtag(const QByteArray &raw)
{
    QString e = QString::fromLatin1(raw).trimmed();
    if (e.startsWith(QLatin1String("W/")))
        e = e.mid(2);
    if (e.size() >= 2 && e.startsWith(QLatin1Char('"')) && e.endsWith(QLatin1Char('"')))
        e = e.mid(1, e.size() - 2);
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_\\-][A-Za-z0-9_.\\-]{0,127}$"));
    return re.match(e).hasMatch() ? e : QString();
}

bool isSha256(const QString &s)
{
    static const QRegularExpression re(QStringLiteral("^[0-9a-f]{64}$"));
    return re.match(s).hasMatch();
}

QString percentPath(const QString &file)
{
    QStringList parts;
    for (const QString &segment : file.split(QLatin1Char('/')))
        parts << QString::fromLatin1(QUrl::toPercentEncoding(segment));
    return parts.join(QLatin1Char('/'));
}

QString sizeText(qint64 bytes)
{
    return QString::number(bytes) + QStringLiteral(" bytes");
}

bool sameOrigin(const QUrl &a, const QUrl &b)
{
    return a.scheme() == b.scheme() && a.host() == b.host() && a.port(a.scheme() == QLatin1String("https") ? 443 : 80)
                                                                  == b.port(b.scheme() == QLatin1String("https") ? 443 : 80);
}

struct FileMeta
{
    QString etag;
    qint64 size = 0;
    QUrl downloadUrl;
    bool auth = true; // the download address is the Hub's own (not an absolute redirect)
};

} // namespace

struct HubDownloader::Impl
{
    HubSettings settings;
    QUrl endpoint;
    std::atomic<bool> noCancel{false};
    const std::atomic<bool> *cancel = &noCancel;
    std::unique_ptr<HubHttp> http;
    std::function<void(const DownloadProgress &)> progress;
    std::function<void(const QString &)> message;
    std::function<QString(const QString &)> configCheck;
    DownloadProgress current;
    QString repoId, revision;

    bool cancelled() const { return cancel->load(); }
    void checkCancelled() const
    {
        if (cancelled())
            throw HubError(HubError::Cancelled, repoId + QStringLiteral(": download cancelled"));
    }
    void say(const QString &text) const
    {
        if (message)
            message(text);
    }

    Headers authHeaders() const
    {
        Headers h;
        if (!settings.token.isEmpty())
            h.append({"Authorization", "Bearer " + settings.token.toUtf8()});
        return h;
    }

    // Waits before a retry (cancellable); false when no attempt is left.
    bool backoff(int attempt, const QString &what)
    {
        if (attempt >= settings.maxAttempts)
            return false;
        const int wait = std::min(8000, settings.retryBaseMs * (1 << std::min(attempt - 1, 10)));
        say(QStringLiteral("%1; retrying in %2 s (attempt %3 of %4)").arg(what).arg(wait / 1000.0).arg(attempt + 1).arg(settings.maxAttempts));
        for (int waited = 0; waited < wait; waited += 50) {
            checkCancelled();
            QThread::msleep(static_cast<unsigned long>(std::min(50, wait - waited)));
        }
        return true;
    }

    static bool retryable(const HttpReply &r)
    {
        return r.status == 0 || r.status == 429 || r.status >= 500 || !r.networkError.isEmpty();
    }

    [[noreturn]] void failHttp(const HttpReply &r, const QUrl &url, const QString &file, int attempts)
    {
        checkCancelled();
        throw errorForAnswer(r, AnswerContext{settings, repoId, revision, file, url, attempts});
    }

    // A request without a streamed body, retried on 5xx / 429 / no answer.
    HttpReply send(const QByteArray &verb, const QUrl &url, const Headers &headers, qint64 maxBody, const QString &file, int *attempts)
    {
        for (int attempt = 1;; ++attempt) {
            checkCancelled();
            HttpReply r = http->request(verb, url, headers, maxBody);
            *attempts = attempt;
            checkCancelled();
            if (!retryable(r) || (r.aborted && r.status >= 200 && r.status < 300))
                return r;
            const QString what = r.status && r.networkError.isEmpty() ? QStringLiteral("HTTP %1").arg(r.status) : r.networkError;
            if (!backoff(attempt, QStringLiteral("%1%2: %3").arg(repoId, file.isEmpty() ? QString() : QStringLiteral(": ") + file, what)))
                return r;
        }
    }

    RepoListing fetchListing()
    {
        QUrl url = QUrl::fromEncoded((settings.endpoint + QStringLiteral("/api/models/") + repoId + QStringLiteral("/revision/")
                                            + QString::fromLatin1(QUrl::toPercentEncoding(revision)))
                                               .toUtf8());
        int attempts = 0;
        HttpReply r = send("GET", url, authHeaders(), kMaxListingBytes, QString(), &attempts);
        for (int redirects = 0; r.status >= 300 && r.status < 400; ++redirects) { // a renamed repo: relative redirects only
            const QUrl relative = QUrl::fromEncoded(r.header("Location"));
            if (r.header("Location").isEmpty() || !relative.isRelative() || redirects >= kMaxRedirects)
                throw HubError(HubError::Invalid, QStringLiteral("%1: HTTP %2 to '%3': only %4 relative redirects are followed for the file list")
                                                      .arg(url.toString()).arg(r.status).arg(printableHeader(r.header("Location"))).arg(kMaxRedirects));
            url = url.resolved(relative);
            r = send("GET", url, authHeaders(), kMaxListingBytes, QString(), &attempts);
        }
        if (r.status != 200 || !r.networkError.isEmpty()) {
            if (r.status == 200)
                throw HubError(HubError::Invalid, url.toString() + QStringLiteral(": ") + r.networkError);
            failHttp(r, url, QString(), attempts);
        }
        return parseRepoListing(r.body, url.toString());
    }

    FileMeta fetchMeta(const RepoCache &cache, const QString &commit, const QString &file)
    {
        QUrl url = QUrl::fromEncoded((settings.endpoint + QLatin1Char('/') + repoId + QStringLiteral("/resolve/") + commit
                                      + QLatin1Char('/') + percentPath(file))
                                         .toUtf8());
        for (int redirects = 0;; ++redirects) {
            int attempts = 0;
            const HttpReply r = send("HEAD", url, authHeaders(), 64 * 1024, file, &attempts);
            if (r.status >= 300 && r.status < 400) {
                const QByteArray location = r.header("Location");
                if (location.isEmpty())
                    throw HubError(HubError::Invalid, QStringLiteral("%1: %2: HTTP %3 without a Location").arg(repoId, file).arg(r.status));
                const QUrl relative = QUrl::fromEncoded(location);
                const QUrl target = url.resolved(relative);
                if (!target.isValid() || (target.scheme() != QLatin1String("http") && target.scheme() != QLatin1String("https")))
                    throw HubError(HubError::Invalid, QStringLiteral("%1: %2: redirected to '%3', not an http(s) address")
                                                          .arg(repoId, file, printableHeader(location)));
                if (relative.isRelative() || relative.host().isEmpty()) {
                    if (redirects >= kMaxRedirects)
                        throw HubError(HubError::Invalid, QStringLiteral("%1: %2: more than %3 redirects").arg(repoId, file).arg(kMaxRedirects));
                    url = target; // a renamed repo: follow, the answer there has the metadata
                    continue;
                }
                return metaFrom(r, cache, commit, file, target, false);
            }
            if (r.status >= 200 && r.status < 300)
                return metaFrom(r, cache, commit, file, url, true);
            if (r.status == 404 && isCommitHash(QString::fromLatin1(r.header("X-Repo-Commit"))))
                cache.markMissing(QString::fromLatin1(r.header("X-Repo-Commit")), file);
            failHttp(r, url, file, attempts);
        }
    }

    FileMeta metaFrom(const HttpReply &r, const RepoCache &, const QString &commit, const QString &file, const QUrl &download, bool auth)
    {
        const QString headerCommit = QString::fromLatin1(r.header("X-Repo-Commit")).trimmed();
        if (headerCommit.isEmpty())
            throw HubError(HubError::Invalid, QStringLiteral("%1: %2: no X-Repo-Commit header: %3 does not answer as the Hub does")
                                                  .arg(repoId, file, settings.endpoint));
        if (headerCommit != commit)
            throw HubError(HubError::Invalid, QStringLiteral("%1: %2: X-Repo-Commit '%3' differs from the listed commit %4")
                                                  .arg(repoId, file, printableHeader(headerCommit.toUtf8()), commit));
        FileMeta m;
        const QByteArray rawEtag = r.hasHeader("X-Linked-Etag") ? r.header("X-Linked-Etag") : r.header("ETag");
        m.etag = normalizedEtag(rawEtag);
        if (m.etag.isEmpty())
            throw HubError(HubError::Invalid, QStringLiteral("%1: %2: %3 (a file is cached by its ETag)")
                                                  .arg(repoId, file, rawEtag.isEmpty() ? QStringLiteral("no ETag header")
                                                                                       : QStringLiteral("ETag '%1' is not usable").arg(printableHeader(rawEtag))));
        const QByteArray rawSize = r.hasHeader("X-Linked-Size") ? r.header("X-Linked-Size") : r.header("Content-Length");
        bool ok = false;
        m.size = rawSize.trimmed().toLongLong(&ok);
        if (!ok || m.size < 0 || m.size > kMaxFileBytes)
            throw HubError(HubError::Invalid, QStringLiteral("%1: %2: size header '%3' is not a byte count").arg(repoId, file, printableHeader(rawSize)));
        m.downloadUrl = download;
        m.auth = auth;
        return m;
    }

    // The blob's bytes into blobs/<etag>.incomplete, resumed, checked, then moved to blobs/<etag>.
    void fetchBlob(const QString &file, const FileMeta &meta, const QString &blob, DownloadResult *result)
    {
        const QString partPath = blob + QStringLiteral(".incomplete");
        QFile part(partPath);
        const bool lfs = isSha256(meta.etag);
        Sha256Pipe hash; // computed in a thread of its own, beside the transfer
        qint64 have = part.exists() ? part.size() : 0;
        if (have > meta.size) {
            part.remove();
            have = 0;
        }
        if (!part.open(QIODevice::ReadWrite | QIODevice::Append))
            throw HubError(HubError::Disk, partPath + QStringLiteral(": cannot write (%1)").arg(part.errorString()));
        if (have > 0) {
            say(QStringLiteral("%1: resuming %2 at %3 of %4").arg(repoId, file, sizeText(have), sizeText(meta.size)));
            if (lfs) { // the bytes already there count towards the hash
                QFile prefix(partPath);
                if (!prefix.open(QIODevice::ReadOnly))
                    throw HubError(HubError::Disk, partPath + QStringLiteral(": cannot read"));
                QByteArray block;
                qint64 left = have;
                while (left > 0 && !(block = prefix.read(std::min<qint64>(left, 1 << 20))).isEmpty()) {
                    hash.add(block.constData(), block.size());
                    left -= block.size();
                }
            }
        }
        current.fileDone = have;
        current.fileTotal = meta.size;
        if (progress)
            progress(current);

        QUrl url = meta.downloadUrl;
        bool auth = meta.auth;
        int attempt = 0, redirects = 0;
        while (have < meta.size) {
            checkCancelled();
            Headers headers = auth && sameOrigin(url, endpoint) ? authHeaders() : Headers();
            if (have > 0)
                headers.append({"Range", "bytes=" + QByteArray::number(have) + "-"});
            bool tooLarge = false, diskFull = false, rangeMismatch = false;
            QString diskWhy;
            const auto start = [&](const HttpReply &r) {
                if (r.status == 200 && have > 0) { // the server sent the whole file: start over
                    if (!part.resize(0)) {
                        diskFull = true;
                        diskWhy = part.errorString();
                        return false;
                    }
                    have = 0;
                    hash.reset();
                    current.fileDone = 0;
                } else if (r.status == 206) {
                    const QByteArray range = r.header("Content-Range");
                    if (!range.startsWith("bytes " + QByteArray::number(have) + "-")) {
                        rangeMismatch = true;
                        return false;
                    }
                }
                return true;
            };
            const auto sink = [&](const char *data, qint64 n) {
                if (have + n > meta.size) {
                    tooLarge = true;
                    return false;
                }
                if (part.write(data, n) != n) {
                    diskFull = true;
                    diskWhy = part.errorString();
                    return false;
                }
                if (lfs)
                    hash.addBlock(n); // `data` is the hash's own block (below): hashed where it was read, no copy
                have += n;
                result->bytesDownloaded += n;
                current.fileDone = have;
                current.bytesDownloaded = result->bytesDownloaded;
                if (progress)
                    progress(current);
                return true;
            };
            HubHttp::Buffer readInto; // an LFS file's bytes go straight into the hashing thread's blocks
            if (lfs)
                readInto = [&hash](qint64 *capacity) { return hash.block(capacity); };
            HttpReply r = http->request("GET", url, headers, 64 * 1024, sink, start, readInto);
            checkCancelled();
            if (!part.flush() && !diskFull) {
                diskFull = true;
                diskWhy = part.errorString();
            }
            if (tooLarge) {
                part.close();
                part.remove();
                throw HubError(HubError::Integrity, QStringLiteral("%1: %2: the server sent more than the %3 its headers announced; "
                                                                   "refused, nothing kept").arg(repoId, file, sizeText(meta.size)));
            }
            if (diskFull)
                throw HubError(HubError::Disk, QStringLiteral("%1: cannot write (%2); %3 of %4 kept there for a later resume")
                                                   .arg(partPath, diskWhy, sizeText(have), sizeText(meta.size)));
            if (r.status >= 300 && r.status < 400) {
                const QUrl target = url.resolved(QUrl::fromEncoded(r.header("Location")));
                if (r.header("Location").isEmpty() || !target.isValid() || ++redirects > kMaxRedirects
                    || (target.scheme() != QLatin1String("http") && target.scheme() != QLatin1String("https")))
                    throw HubError(HubError::Invalid, QStringLiteral("%1: %2: bad or too many redirects from %3").arg(repoId, file, url.toString()));
                if (!QUrl::fromEncoded(r.header("Location")).isRelative())
                    auth = false;
                url = target;
                continue;
            }
            if (r.status == 416) { // "bytes */N": the server holds fewer bytes than we have, or than the headers said
                const QByteArray range = r.header("Content-Range");
                bool ok = false;
                const qint64 serverSize = range.startsWith("bytes */") ? range.mid(8).trimmed().toLongLong(&ok) : -1;
                if (ok && serverSize < meta.size) {
                    part.close();
                    part.remove();
                    throw HubError(HubError::Integrity, QStringLiteral("%1: %2: the server holds %3 where the headers said %4; refused, nothing kept")
                                                            .arg(repoId, file, sizeText(serverSize), sizeText(meta.size)));
                }
            }
            if (r.status == 416 || rangeMismatch) { // the partial file does not fit what the server has: start over
                part.resize(0);
                have = 0;
                hash.reset();
            } else if ((r.status == 200 || r.status == 206) && r.networkError.isEmpty() && have == meta.size) {
                break;
            } else if ((r.status == 200 || r.status == 206) && r.networkError.isEmpty() && have < meta.size) {
                r.networkError = QStringLiteral("the connection ended after %1 of %2").arg(sizeText(have), sizeText(meta.size));
            } else if (!retryable(r)) {
                failHttp(r, url, file, attempt + 1);
            }
            ++attempt;
            const QString what = !r.networkError.isEmpty() ? r.networkError
                                 : r.status == 416 || rangeMismatch ? QStringLiteral("the partial file does not match the server's; starting over")
                                                                     : QStringLiteral("HTTP %1").arg(r.status);
            if (!backoff(attempt, QStringLiteral("%1: %2: %3 (%4 of %5 kept in %6)").arg(repoId, file, what, sizeText(have), sizeText(meta.size), partPath)))
                failHttp(r, url, file, attempt);
        }
        part.close();
        const qint64 onDisk = QFileInfo(partPath).size();
        if (onDisk != meta.size) {
            QFile::remove(partPath);
            throw HubError(HubError::Integrity, QStringLiteral("%1: %2: %3 on disk where the headers said %4; refused, nothing kept")
                                                    .arg(repoId, file, sizeText(onDisk), sizeText(meta.size)));
        }
        if (lfs) {
            const QString got = hash.hex();
            if (got != meta.etag) {
                QFile::remove(partPath);
                throw HubError(HubError::Integrity, QStringLiteral("%1: %2: sha256 of the %3 received is %4, the Hub's ETag says %5; "
                                                                   "refused, nothing kept").arg(repoId, file, sizeText(meta.size), got, meta.etag));
            }
        }
        if (::rename(QFile::encodeName(partPath).constData(), QFile::encodeName(blob).constData()) != 0)
            throw HubError(HubError::Disk, QStringLiteral("%1: cannot move to %2 (%3)").arg(partPath, blob, QString::fromLocal8Bit(std::strerror(errno))));
    }

    void fetchFile(const RepoCache &cache, const QString &commit, const QString &file, DownloadResult *result)
    {
        const QString pointer = cache.pointerPath(commit, file);
        if (QFileInfo::exists(pointer)) { // huggingface_hub's shortcut for a commit revision: already there
            result->bytesTotal += QFileInfo(pointer).size();
            return;
        }
        const FileMeta meta = fetchMeta(cache, commit, file);
        result->bytesTotal += meta.size;
        const QString blob = cache.blobPath(meta.etag);
        if (!QDir().mkpath(QFileInfo(blob).path()))
            throw HubError(HubError::Disk, QFileInfo(blob).path() + QStringLiteral(": cannot create the folder"));
        {
            const BlobLock lock(cache.lockPath(meta.etag));
            const QFileInfo existing(blob);
            if (existing.exists() && existing.size() != meta.size) {
                say(QStringLiteral("%1: %2 holds %3 where %4 are expected; fetched again").arg(repoId, blob, sizeText(existing.size()), sizeText(meta.size)));
                QFile::remove(blob);
            }
            if (!QFileInfo::exists(blob))
                fetchBlob(file, meta, blob, result);
        }
        cache.link(commit, file, meta.etag);
    }
};

HubDownloader::HubDownloader(const HubSettings &settings) : m_impl(new Impl)
{
    m_impl->settings = settings;
    m_impl->endpoint = QUrl(settings.endpoint);
}

HubDownloader::~HubDownloader() = default;

void HubDownloader::setProgressHandler(std::function<void(const DownloadProgress &)> handler)
{
    m_impl->progress = std::move(handler);
}

void HubDownloader::setMessageHandler(std::function<void(const QString &)> handler)
{
    m_impl->message = std::move(handler);
}

void HubDownloader::setCancelFlag(const std::atomic<bool> *cancel)
{
    m_impl->cancel = cancel ? cancel : &m_impl->noCancel;
}

void HubDownloader::setConfigCheck(std::function<QString(const QString &)> check)
{
    m_impl->configCheck = std::move(check);
}

DownloadResult HubDownloader::download(const DownloadRequest &request)
{
    Impl &d = *m_impl;
    QString why;
    if (!isValidRepoId(request.repoId, &why) || !isValidRevision(request.revision, &why))
        throw HubError(HubError::Invalid, why);
    if (!d.endpoint.isValid() || (d.endpoint.scheme() != QLatin1String("http") && d.endpoint.scheme() != QLatin1String("https"))
        || d.endpoint.host().isEmpty())
        throw HubError(HubError::Invalid, QStringLiteral("HF_ENDPOINT '%1' is not an http(s) address").arg(d.settings.endpoint));
    d.repoId = request.repoId;
    d.revision = request.revision;
    d.http.reset(new HubHttp(d.settings.timeoutMs, d.cancel)); // in the calling thread: its network manager lives here
    const RepoCache cache(d.settings.cacheDir, request.repoId);
    DownloadResult result;

    auto fromCache = [&](const QString &reason) {
        result.snapshotDir = cache.cachedSnapshot(request.revision);
        if (result.snapshotDir.isEmpty())
            return false;
        result.commit = cache.commitFor(request.revision);
        result.fromCacheOnly = true;
        const QDir snap(result.snapshotDir);
        QDirIterator it(result.snapshotDir, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            result.files << snap.relativeFilePath(it.next());
        result.files.sort();
        if (!reason.isEmpty())
            d.say(reason);
        return true;
    };
    if (d.settings.offline) {
        if (fromCache(QString()))
            return result;
        throw HubError(HubError::Offline, QStringLiteral("%1@%2 is not in the cache (%3: no refs/%2 or snapshot) and HF_HUB_OFFLINE is "
                                                         "set: unset HF_HUB_OFFLINE to download it")
                                              .arg(request.repoId, request.revision, cache.storage()));
    }

    RepoListing listing;
    try {
        listing = d.fetchListing();
    } catch (const HubError &e) {
        if ((e.kind() == HubError::Network || e.kind() == HubError::Server)
            && fromCache(e.message() + QStringLiteral("; using the cached snapshot instead")))
            return result;
        throw;
    }
    const QString missing = missingModelFiles(listing.files);
    if (!missing.isEmpty())
        throw HubError(HubError::NoModel, QStringLiteral("%1@%2 holds no model Folio can run: no %3 among its %4 file(s); nothing downloaded")
                                              .arg(request.repoId, request.revision, missing).arg(listing.files.size()));
    QStringList first, middle, last;
    for (const QString &f : std::as_const(listing.files)) {
        bool wanted = request.include.isEmpty();
        for (const QString &p : request.include)
            wanted = wanted || fnmatch(p, f);
        if (!wanted)
            continue;
        (f == QLatin1String("config.json") ? first : isWeightsFile(f) ? last : middle) << f;
    }
    const QStringList files = first + middle + last;
    if (files.isEmpty())
        throw HubError(HubError::Invalid, QStringLiteral("%1@%2: no file matches --include %3 (the repo lists %4 file(s)); nothing downloaded")
                                              .arg(request.repoId, request.revision, request.include.join(QStringLiteral(" --include ")))
                                              .arg(listing.files.size()));
    cache.writeRef(request.revision, listing.commit);
    result.commit = listing.commit;
    result.snapshotDir = cache.snapshotDir(listing.commit);
    d.current = DownloadProgress();
    d.current.fileCount = int(files.size());
    for (int i = 0; i < files.size(); ++i) {
        d.current.file = files[i];
        d.current.fileIndex = i + 1;
        d.current.fileDone = d.current.fileTotal = 0;
        d.fetchFile(cache, listing.commit, files[i], &result);
        result.files << files[i];
        if (files[i] == QLatin1String("config.json") && d.configCheck) {
            const QString problem = d.configCheck(cache.pointerPath(listing.commit, files[i]));
            if (!problem.isEmpty())
                throw HubError(HubError::NoModel, QStringLiteral("%1@%2 holds no model Folio can run: %3; stopped before the weights (config.json "
                                                                 "stays in the cache, as huggingface_hub keeps what it fetched)")
                                                      .arg(request.repoId, request.revision, problem));
        }
    }
    return result;
}

} // namespace folio::hub
