#pragma once
// ModelWorker: runs the layout tagger on a Document off the GUI thread.
//
//   auto *worker = new folio::ModelWorker(this);
//   connect(worker, &folio::ModelWorker::predicted, session, &folio::AnnotationSession::applyPredictions);
//   worker->predict(checkpointDir, session->document(), session->annotations());
//
// Thread plumbing around folio_pipeline's DocumentTagger (page-by-page prediction merged back as
// suggestions): one tagger lives in the worker's single pool thread (loaded once per checkpoint
// folder and reused); requests queue behind each other (QtConcurrent::run on a private one-thread
// pool, each request's result delivered by its QFutureWatcher). Failures (missing checkpoint
// files, empty documents) come back as failed(message); nothing throws into the GUI.
#include "document/annotations.h"
#include "document/document.h"

#include <QObject>
#include <QThreadPool>

#include <memory>

namespace folio {

class ModelWorker : public QObject
{
    Q_OBJECT
public:
    explicit ModelWorker(QObject *parent = nullptr);
    ~ModelWorker() override;

    // Entity and link suggestions for `document`; `current` (its annotations now) tells which
    // entities and links the user owns (pipeline::predictSuggestions).
    void predict(const QString &checkpointDir, const Document &document, const Annotations &current);
    // Loads a checkpoint folder (Model > Choose Model): loaded(dir) when it can run, else
    // refused(dir, message); a refused folder leaves the previously loaded model in place.
    void load(const QString &checkpointDir);
    bool isBusy() const;
    // Model > Int8 Inference: the next load / prediction quantizes the model's Linear layers to
    // dynamic int8 (pipeline::DocumentTagger::load; about a third of fp32's time at base size, the
    // measured accuracy effect in BENCHMARKS.md, issue 35). A LibTorch without a quantized engine
    // makes the run fail with a message saying so.
    void setInt8(bool on) { m_int8 = on; }
    bool int8() const { return m_int8; }
    // Whether the last prediction delivered (predicted) ran in int8.
    bool lastRunInt8() const { return m_lastRunInt8; }

Q_SIGNALS:
    void started();
    // `warnings`: what the model could not do as its architecture would (e.g. a LayoutLMv2 folder on
    // a page without an image runs text + layout only), once each; empty when it ran in full.
    void predicted(const folio::Annotations &suggestions, const QStringList &warnings);
    void failed(const QString &message);
    void loaded(const QString &checkpointDir);
    void refused(const QString &checkpointDir, const QString &message);

private:
    // Runs `job` in the pool's thread; `deliver` gets its result on the GUI thread.
    template<typename Result, typename Job, typename Deliver>
    void enqueue(Job job, Deliver deliver);

    struct Cache;
    std::shared_ptr<Cache> m_cache;
    QThreadPool m_pool;
    bool m_int8 = false;
    bool m_lastRunInt8 = false;
};

} // namespace folio
