#pragma once
// RetrainWorker: one background retraining of the labelling loop (issue 47) off the GUI thread.
// The worker reads the project itself, through a connection of its own (labelling::readLoopSnapshot:
// a SQLite file or a PostgreSQL database), so that the window never waits for the accepted pages to
// load; the held-out choice is stored through that connection. Then labelling::retrainOnPages (Folio's
// tagger) or, when the current model is a Hugging Face token classifier (LayoutLMv3, LiLT,
// LayoutLMv2), its fine-tuning on the same pages scored the same way (pipeline::fineTuneHfTokenClassifier,
// scoreHfFolderOnPages). The run works on that snapshot in memory, so the user's edits, and documents
// deleted meanwhile, never meet it.
//
//   auto *worker = new folio::RetrainWorker(this);
//   connect(worker, &folio::RetrainWorker::snapshotRead, this, ...); // pages read: training starts (or too few)
//   connect(worker, &folio::RetrainWorker::finished, this, ...);     // took over, kept, failed, cancelled, not started
//   worker->start(request);
//   worker->cancel();   // between optimizer steps; finished(cancelled) follows, the previous model stays
#include "pipeline/labelling/projectretrain.h"

#include <QFutureWatcher>
#include <QHash>
#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace folio {

struct RetrainRequest
{
    QString project;        // the location the worker opens (ProjectService::path())
    bool readOnly = false;  // the window's project is read-only: nothing is stored
    int maxUnlabelled = 200; // pages not yet accepted ranked by uncertainty
    labelling::ProjectRetrainConfig config; // config.cancel is the worker's own flag
    std::function<void()> afterListing; // tests: on the worker thread, once the document list is read
};

// What the worker read (emitted before the run trains, and again with finished()).
struct RetrainSnapshotInfo
{
    bool read = false;       // false: the project could not be opened or listed (error says why)
    int accepted = 0, needed = 0, trainPages = 0, heldOutPages = 0;
    QString note, waitMessage, error; // as labelling::LoopSnapshot; error when !read
    QHash<qint64, int> revisions;     // pages not yet accepted: the revision their annotations had when read
    double seconds = 0;              // reading time, on the worker thread
    bool started() const { return read && needed == 0; }
};

class RetrainWorker : public QObject
{
    Q_OBJECT
public:
    explicit RetrainWorker(QObject *parent = nullptr);
    ~RetrainWorker() override; // cancels and waits

    // False when a run is in flight.
    bool start(RetrainRequest request);
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    void snapshotRead(const folio::RetrainSnapshotInfo &info);
    void finished(const folio::RetrainSnapshotInfo &info, const folio::labelling::ProjectRetrainOutcome &outcome);

private:
    struct Result
    {
        RetrainSnapshotInfo info;
        labelling::ProjectRetrainOutcome outcome;
    };
    QFutureWatcher<Result> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace folio
