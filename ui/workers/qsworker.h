#pragma once
// QsWorker: generates a question-summary hierarchy off the GUI thread (issue 14, Model >
// Generate Question-Summary Hierarchy).
//
//   auto *worker = new folio::QsWorker(this);
//   connect(worker, &QsWorker::generated, this, [](const folio::QsGeneration &g) { ... });
//   worker->generate(QsWorker::shippedCheckpoint(), qsWorkerInput(doc, annotations, belowId), belowId);
//   worker->cancel();   // stops after the current decoding step; cancelled() follows
//
// The generation itself is pipeline::QsSummarizer's (pipeline/qs/qssummarizer.h, the one copy
// folio-cli uses too): a drafter folder (drafter.json, the shipped default: pipeline/qs/draft) reads
// the whole document section by section and attaches each item's evidence (its section and sentence
// word spans); progress counts sections; its questions come from templates, or from the neural
// question writer (setQuestionModel); a seq2seq checkpoint reads the sections as one source. The
// summarizer lives in the worker's single pool thread (QtConcurrent::run on a private one-thread
// pool), loaded once per checkpoint folder. Results come back in the GUI thread (the run's QFutureWatcher) as plain
// QsNode trees (no ids, no state: qsedit::mergeGenerated makes them suggestions). Failures (no
// checkpoint, nothing to summarise, a broken model) come as failed(message); nothing throws.
#include "document/annotations.h"
#include "document/document.h"
#include "pipeline/qs/qsinputs.h"

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <vector>

namespace folio {

struct QsGeneration
{
    QString checkpoint;     // the folder's name (recorded as the items' source)
    QString belowId;        // the item the run was for, empty: the whole document
    QString rootSummary;
    std::vector<QsNode> roots;
    QStringList warnings;   // truncated source, parser repairs
    int questionsWritten = 0; // drafter items whose question the neural question writer wrote (the rest: templates)
    bool int8 = false;        // a seq2seq checkpoint ran with dynamic int8 Linear layers
};

// The model input for a run: the whole document, or (belowId set) the evidence of that item
// (its sections' and spans' words) when it has any.
pipeline::QsInput qsWorkerInput(const Document &doc, const Annotations &annotations, const QString &belowId);

// What a run's thread hands back: the generation, or the error, or that it was cancelled.
struct QsRunOutcome
{
    QsGeneration generation;
    QString error;
    bool cancelled = false;
};

class QsWorker : public QObject
{
    Q_OBJECT
public:
    explicit QsWorker(QObject *parent = nullptr);
    ~QsWorker() override;

    // The shipped drafter (resources/models/qs-drafter); empty when it is not there.
    static QString shippedCheckpoint();
    // False (and failed() is not emitted) when a run is already going. A drafter folder drafts
    // from `doc` (below an item: from that item's evidence words); a seq2seq folder reads `input`.
    bool generate(const QString &checkpointDir, const pipeline::QsInput &input, const QString &belowId, int maxLength = 0,
                  const Document &doc = {}, const std::vector<int> &evidenceWords = {});
    void cancel();
    bool isBusy() const { return m_busy; }
    // The drafter's question writer for the next runs: a question generator folder (config
    // folio_questions, pipeline/qs/draft/questiongen.h; the shipped resources/models/qs-questions)
    // writes each item's question from its summary and evidence, templates where it gives nothing
    // new; empty: templates only. Seq2seq checkpoints ignore it. A folder that does not load fails
    // the run with its name.
    void setQuestionModel(const QString &dir) { m_questionModel = dir; }
    QString questionModel() const { return m_questionModel; }
    // Model > Int8 Inference: seq2seq checkpoints load with dynamic int8 Linear layers
    // (Seq2seqGenerator::quantizeDynamicInt8, issue 35); the drafter has none and ignores it.
    void setInt8(bool on) { m_int8 = on; }
    bool int8() const { return m_int8; }

Q_SIGNALS:
    void progress(int step, int maxSteps);
    // A drafter run: each item as it is drafted (1-based count, its depth and question), before
    // generated() brings them all with their evidence.
    void drafted(int count, int depth, const QString &question);
    void generated(const folio::QsGeneration &result);
    void failed(const QString &message);
    void cancelled();

private:
    struct Cache;
    std::shared_ptr<Cache> m_cache;
    std::shared_ptr<std::atomic_bool> m_cancel;
    QThreadPool m_pool;
    QFutureWatcher<QsRunOutcome> m_watcher;
    bool m_busy = false; // until the outcome is delivered
    QString m_questionModel;
    bool m_int8 = false;
};

} // namespace folio
