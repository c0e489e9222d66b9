#pragma once
// Downloads a model repo from the Hub into the cache Python shares, as huggingface_hub's
// snapshot_download does (see hubcache.h for the layout):
//  1. GET {endpoint}/api/models/ID/revision/REV: the commit and the file list (hublisting.h);
//  2. refs/REV <- the commit; each file (config.json first, weights last) at that commit:
//     HEAD {endpoint}/ID/resolve/COMMIT/FILE for X-Repo-Commit, the ETag (X-Linked-Etag for LFS
//     files: their sha256) and the size (X-Linked-Size, else Content-Length), following relative
//     redirects (a renamed repo); an absolute redirect is where the bytes are (the CDN), fetched
//     without the Authorization header;
//  3. the bytes into blobs/ETAG.incomplete (resumed with Range after a dropped connection or a
//     restart), checked for size and, for LFS files, sha256, then moved to blobs/ETAG and linked
//     from snapshots/COMMIT/FILE.
// 5xx / 429 answers and broken connections are retried with doubling waits (HubSettings); 401 /
// 403 / 404 are not, and their messages say which case it is and how to give a token.
// HF_HUB_OFFLINE answers from the cache only; a Hub that cannot be reached falls back to a cached
// snapshot of the revision when there is one (a warning says so), as huggingface_hub does.
// Torch-free; throws HubError. Runs in the calling thread (the GUI calls it from a worker).

#include "pipeline/hub/hubsettings.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

namespace folio::hub {

struct DownloadRequest
{
    QString repoId;
    QString revision = QStringLiteral("main");
    QStringList include; // fnmatch patterns; empty: every file
};

struct DownloadProgress
{
    QString file;
    int fileIndex = 0; // 1-based
    int fileCount = 0;
    qint64 fileDone = 0, fileTotal = 0;
    qint64 bytesDownloaded = 0; // this run, all files
};

struct DownloadResult
{
    QString snapshotDir;
    QString commit;
    QStringList files;          // downloaded or already cached, as listed
    qint64 bytesDownloaded = 0; // fetched by this run
    qint64 bytesTotal = 0;      // the files' sizes
    bool fromCacheOnly = false; // offline, or the Hub unreachable and a cached snapshot used
};

class HubDownloader
{
public:
    explicit HubDownloader(const HubSettings &settings);
    ~HubDownloader();

    void setProgressHandler(std::function<void(const DownloadProgress &)> handler);
    void setMessageHandler(std::function<void(const QString &)> handler); // retries, fallbacks
    void setCancelFlag(const std::atomic<bool> *cancel);
    // Called with config.json's path as soon as it is in the cache, before any weights are fetched;
    // a non-empty answer stops the download with HubError(NoModel) naming the repo and the answer.
    void setConfigCheck(std::function<QString(const QString &configPath)> check);

    DownloadResult download(const DownloadRequest &request);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace folio::hub
