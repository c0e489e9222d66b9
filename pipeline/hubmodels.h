#pragma once
// Hub checkpoints as Folio sees them (issue 46), one copy for folio-cli hub and the GUI:
//  - whether a downloaded config.json names a model type some Folio task runs, asked before any
//    weights are fetched (HubDownloader::setConfigCheck);
//  - the snapshots in the Hub cache (HF_HUB_CACHE / HF_HOME / ~/.cache/huggingface/hub) that Folio
//    can run, by repo id, each described as `folio-cli info --checkpoint` describes a folder.
// Torch-free (but cachedCheckpoints' two-argument form, in checkpointchecks.cpp).

#include <QList>
#include <QString>
#include <QStringList>

#include <nlohmann/json_fwd.hpp>

#include <functional>

namespace folio::pipeline {

// Empty when config.json's model_type is one Folio runs; otherwise what is wrong, for a message.
QString hubConfigProblem(const QString &configPath);

struct CachedCheckpoint
{
    QString repoId;
    QStringList revisions; // refs naming this snapshot ("main", tags)
    QString commit;
    QString snapshotDir;
    QString modelType;
    QString task;
    QString head;          // "token-classification", ... (describeCheckpoint's)
    bool runnable = false;
    QStringList problems;  // when not runnable
    // "ORG/NAME" or "ORG/NAME@main": what a list shows.
    QString label() const { return revisions.isEmpty() ? repoId + QLatin1Char('@') + commit.left(10) : repoId + QLatin1Char('@') + revisions.join(QLatin1Char(',')); }
};

// The cache's snapshots, newest first; only the runnable ones unless `all` (each described by
// describeCheckpoint: checkpointchecks.cpp, LibTorch linked).
QList<CachedCheckpoint> cachedCheckpoints(const QString &cacheDir, bool all = false);

// The same with each snapshot described by `describe` (folio-cli-front: describeCheckpointWithoutLibTorch).
// When `describe` answers false for one (it cannot describe that folder), the list stops there,
// empty, and *complete is false.
using CheckpointDescriber = std::function<bool(const QString &dir, nlohmann::json *info)>;
QList<CachedCheckpoint> cachedCheckpoints(const QString &cacheDir, bool all, const CheckpointDescriber &describe, bool *complete = nullptr);

} // namespace folio::pipeline
