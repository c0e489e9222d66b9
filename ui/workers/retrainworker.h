#pragma once
// RetrainWorker: one background retraining of the labelling loop (issue 47) off the GUI thread,
// thread plumbing around labelling::retrainOnPages (Folio's tagger), or, when the current model is a
// Hugging Face token classifier (LayoutLMv3, LiLT, LayoutLMv2), its fine-tuning on the same pages
// scored the same way (pipeline::fineTuneHfTokenClassifier, scoreHfFolderOnPages). It works on a snapshot in memory
// (labelling::takeLoopSnapshot), so the user's edits, and documents deleted meanwhile, never meet it.
//
//   auto *worker = new folio::RetrainWorker(this);
//   connect(worker, &folio::RetrainWorker::finished, this, ...); // the outcome: took over, kept, failed, cancelled
//   worker->start(snapshot.pages, config);
//   worker->cancel();   // between optimizer steps; finished(cancelled) follows, the previous model stays
#include "pipeline/labelling/projectretrain.h"

#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <memory>

namespace folio {

class RetrainWorker : public QObject
{
    Q_OBJECT
public:
    explicit RetrainWorker(QObject *parent = nullptr);
    ~RetrainWorker() override; // cancels and waits

    // False when a run is in flight. config.cancel is the worker's own flag.
    bool start(labelling::RetrainPages pages, labelling::ProjectRetrainConfig config);
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    void finished(const folio::labelling::ProjectRetrainOutcome &outcome);

private:
    QFutureWatcher<labelling::ProjectRetrainOutcome> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace folio
