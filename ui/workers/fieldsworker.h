#pragma once
// FieldsWorker: Extract Fields and Train Field Extractor off the GUI thread (thread plumbing
// around pipeline::extractFields / trainFieldExtractor). One job at a time; cancel() stops it
// between steps (extraction) or optimizer steps (training) and the finished signal says so.
//
//   auto *worker = new folio::FieldsWorker(this);
//   connect(worker, &folio::FieldsWorker::extracted, this, [](qint64 doc, const auto &result) { ... });
//   worker->extract(documentId, session->document(), fields, checkpointDir);
//
// Results are delivered on the GUI thread; nothing throws into it.
#include "document/document.h"
#include "pipeline/webfieldextraction.h"
#include "pipeline/webfieldtraining.h"

#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <memory>

namespace folio {

class FieldsWorker : public QObject
{
    Q_OBJECT
public:
    explicit FieldsWorker(QObject *parent = nullptr);
    ~FieldsWorker() override;

    // False when a job is running.
    bool extract(qint64 documentId, const Document &document, const std::vector<pipeline::FieldSpec> &fields,
                 const QString &checkpointDir);
    bool train(const inference::WebFormerTrainOptions &options, pipeline::FieldTrainingData data);
    void cancel();
    bool isBusy() const;
    // Model > Int8 Inference: the next extractions quantize the answering model (FieldExtractionOptions::int8).
    void setInt8(bool on) { m_int8 = on; }
    // Blocks until the running job (if any) has finished and its signal was emitted (tests, close).
    void wait();

Q_SIGNALS:
    void progress(int done, int total, const QString &message);
    void extracted(qint64 documentId, const folio::pipeline::FieldExtraction &result);
    void trained(const folio::pipeline::FieldTrainingOutcome &outcome);

private:
    void begin();
    void reportProgress(int done, int total, const QString &message);

    QFutureWatcher<void> m_watcher;
    std::shared_ptr<std::atomic_bool> m_cancel;
    std::function<void()> m_deliver; // set by the job, run on the GUI thread when it finishes
    bool m_int8 = false;
};

} // namespace folio
