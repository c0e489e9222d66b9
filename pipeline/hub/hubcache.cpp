#include "pipeline/hub/hubcache.h"

#include "pipeline/hub/huberror.h"
#include "pipeline/hub/hubnames.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace folio::hub {

namespace {

[[noreturn]] void diskError(const QString &path, const QString &what)
{
    throw HubError(HubError::Disk, path + QStringLiteral(": ") + what);
}

void makeParent(const QString &path)
{
    const QString dir = QFileInfo(path).path();
    if (!QDir().mkpath(dir))
        diskError(dir, QStringLiteral("cannot create the folder"));
}

QString readRefFile(const QString &path)
{
    QFile f(path);
    if (f.size() > 256 || !f.open(QIODevice::ReadOnly))
        return {};
    const QString commit = QString::fromLatin1(f.readAll()).trimmed();
    return isCommitHash(commit) ? commit : QString();
}

} // namespace

RepoCache::RepoCache(const QString &cacheDir, const QString &repoId)
    : m_cacheDir(cacheDir), m_folder(repoFolderName(repoId)), m_storage(cacheDir + QLatin1Char('/') + m_folder)
{
}

QString RepoCache::blobPath(const QString &etag) const
{
    return m_storage + QStringLiteral("/blobs/") + etag;
}

QString RepoCache::snapshotDir(const QString &commit) const
{
    return m_storage + QStringLiteral("/snapshots/") + commit;
}

QString RepoCache::pointerPath(const QString &commit, const QString &file) const
{
    return snapshotDir(commit) + QLatin1Char('/') + file;
}

QString RepoCache::lockPath(const QString &etag) const
{
    return m_cacheDir + QStringLiteral("/.locks/") + m_folder + QLatin1Char('/') + etag + QStringLiteral(".lock");
}

QString RepoCache::commitFor(const QString &revision) const
{
    if (isCommitHash(revision))
        return revision;
    return readRefFile(m_storage + QStringLiteral("/refs/") + revision);
}

QString RepoCache::cachedSnapshot(const QString &revision) const
{
    const QString commit = commitFor(revision);
    if (commit.isEmpty())
        return {};
    const QString dir = snapshotDir(commit);
    return QFileInfo(dir).isDir() ? dir : QString();
}

void RepoCache::writeRef(const QString &revision, const QString &commit) const
{
    if (revision == commit)
        return;
    const QString path = m_storage + QStringLiteral("/refs/") + revision;
    makeParent(path);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(commit.toLatin1()) != commit.size() || !f.commit())
        diskError(path, QStringLiteral("cannot write the ref (%1)").arg(f.errorString()));
}

void RepoCache::link(const QString &commit, const QString &file, const QString &etag) const
{
    const QString pointer = pointerPath(commit, file);
    makeParent(pointer);
    QString target = QStringLiteral("../../blobs/") + etag;
    for (int i = 0; i < file.count(QLatin1Char('/')); ++i)
        target.prepend(QStringLiteral("../"));
    static std::atomic<int> serial{0}; // one temporary name per process and call (two downloads may share a process)
    const QByteArray tmp = QFile::encodeName(pointer + QStringLiteral(".folio-link-%1-%2").arg(::getpid()).arg(++serial));
    ::unlink(tmp.constData());
    if (::symlink(QFile::encodeName(target).constData(), tmp.constData()) != 0)
        diskError(pointer, QStringLiteral("cannot create the link to %1 (%2)").arg(target, QString::fromLocal8Bit(std::strerror(errno))));
    if (::rename(tmp.constData(), QFile::encodeName(pointer).constData()) != 0) {
        const int e = errno;
        ::unlink(tmp.constData());
        diskError(pointer, QStringLiteral("cannot put the link in place (%1)").arg(QString::fromLocal8Bit(std::strerror(e))));
    }
}

void RepoCache::markMissing(const QString &commit, const QString &file) const
{
    const QString path = m_storage + QStringLiteral("/.no_exist/") + commit + QLatin1Char('/') + file;
    makeParent(path);
    QFile f(path);
    if (!f.exists())
        f.open(QIODevice::WriteOnly); // an empty marker; failing to write it only costs a later request
}

BlobLock::BlobLock(const QString &path)
{
    makeParent(path);
    m_fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (m_fd < 0)
        diskError(path, QStringLiteral("cannot open the lock file (%1)").arg(QString::fromLocal8Bit(std::strerror(errno))));
    while (::flock(m_fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            const int e = errno;
            ::close(m_fd);
            m_fd = -1;
            diskError(path, QStringLiteral("cannot lock (%1)").arg(QString::fromLocal8Bit(std::strerror(e))));
        }
    }
}

BlobLock::~BlobLock()
{
    if (m_fd >= 0) {
        ::flock(m_fd, LOCK_UN);
        ::close(m_fd);
    }
}

QList<CachedSnapshot> listCachedSnapshots(const QString &cacheDir)
{
    QList<CachedSnapshot> out;
    const QDir root(cacheDir);
    for (const QFileInfo &repo : root.entryInfoList({QStringLiteral("models--*")}, QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QString repoId = repoIdFromFolderName(repo.fileName());
        if (repoId.isEmpty())
            continue;
        // refs/<revision> (nested for refs/pr/N) -> commit
        QList<QPair<QString, QString>> refs;
        const QString refsDir = repo.filePath() + QStringLiteral("/refs");
        QDirIterator it(refsDir, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext() && refs.size() < 1000) {
            const QString path = it.next();
            const QString commit = readRefFile(path);
            if (!commit.isEmpty())
                refs.append({path.mid(refsDir.size() + 1), commit});
        }
        const QDir snapshots(repo.filePath() + QStringLiteral("/snapshots"));
        for (const QFileInfo &snap : snapshots.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            if (!isCommitHash(snap.fileName()))
                continue;
            CachedSnapshot s;
            s.repoId = repoId;
            s.commit = snap.fileName();
            s.path = snap.filePath();
            s.modified = snap.lastModified().toMSecsSinceEpoch();
            for (const auto &r : refs)
                if (r.second == s.commit)
                    s.refs << r.first;
            s.refs.sort();
            out << s;
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const CachedSnapshot &a, const CachedSnapshot &b) { return a.modified > b.modified; });
    return out;
}

} // namespace folio::hub
