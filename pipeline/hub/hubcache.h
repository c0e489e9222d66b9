#pragma once
// The cache huggingface_hub writes and reads (its "Understand caching" guide), one repo at a time:
//   <cache>/models--ORG--NAME/blobs/<etag>                 the files, by ETag (LFS: the sha256)
//   <cache>/models--ORG--NAME/blobs/<etag>.incomplete      a download in progress (resumed with Range)
//   <cache>/models--ORG--NAME/snapshots/<commit>/<file>    relative symlinks ../../blobs/<etag>
//   <cache>/models--ORG--NAME/refs/<revision>              the commit a branch or tag named (no newline)
//   <cache>/models--ORG--NAME/.no_exist/<commit>/<file>    empty: the Hub said 404 for that file
//   <cache>/.locks/models--ORG--NAME/<etag>.lock           flock()ed while a blob is written: the
//                                                          same lock Python's filelock takes, so the
//                                                          two never write one blob at once
// A snapshot file is linked only once its blob is complete and checked: never a half file there.

#include <QString>
#include <QStringList>

namespace folio::hub {

class RepoCache
{
public:
    RepoCache(const QString &cacheDir, const QString &repoId);

    QString storage() const { return m_storage; }
    QString blobPath(const QString &etag) const;
    QString snapshotDir(const QString &commit) const;
    QString pointerPath(const QString &commit, const QString &file) const;
    QString lockPath(const QString &etag) const;

    // The commit refs/<revision> holds (a commit revision is its own); empty when unknown.
    QString commitFor(const QString &revision) const;
    // snapshots/<commit> for the revision when it exists; empty otherwise.
    QString cachedSnapshot(const QString &revision) const;
    // Writes refs/<revision> (atomically) when the revision is not the commit itself. Throws HubError(Disk).
    void writeRef(const QString &revision, const QString &commit) const;
    // snapshots/<commit>/<file> -> ../../blobs/<etag> (one more ../ per folder in <file>), replacing
    // any link already there atomically. Throws HubError(Disk).
    void link(const QString &commit, const QString &file, const QString &etag) const;
    // .no_exist/<commit>/<file>, as huggingface_hub records a 404 for a file.
    void markMissing(const QString &commit, const QString &file) const;

private:
    QString m_cacheDir, m_folder, m_storage;
};

// An exclusive flock() on a lock file, created with its folders; released when destroyed.
class BlobLock
{
public:
    explicit BlobLock(const QString &path); // waits; throws HubError(Disk) when the file cannot be opened
    ~BlobLock();
    BlobLock(const BlobLock &) = delete;
    BlobLock &operator=(const BlobLock &) = delete;

private:
    int m_fd = -1;
};

struct CachedSnapshot
{
    QString repoId;
    QString commit;
    QString path;       // <cache>/models--ORG--NAME/snapshots/<commit>
    QStringList refs;   // the revisions whose refs name this commit (e.g. "main")
    qint64 modified = 0; // the snapshot folder's mtime (ms since the epoch), newest first in the list
};

// Every models--*/snapshots/<commit> folder in the cache (datasets and spaces skipped), newest first.
QList<CachedSnapshot> listCachedSnapshots(const QString &cacheDir);

} // namespace folio::hub
