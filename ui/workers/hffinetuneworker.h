#pragma once
// HfFineTuneWorker: Train on Project started from a Hugging Face LayoutLMv3 / LiLT token
// classifier (issue 46), off the GUI thread: fine-tunes the folder on the project's training pages
// (pipeline::fineTuneHfTokenClassifier) and then runs the regression guard: the model it started
// from and the new one both label the project's held-out pages (projectHeldOutSplit), scored per
// label with seqeval semantics (inference::EntityScorer). The held-out pages never train.
//
//   auto *worker = new folio::HfFineTuneWorker(this);
//   connect(worker, &folio::HfFineTuneWorker::progress, ...);  // step, total, epoch, loss, ETA
//   connect(worker, &folio::HfFineTuneWorker::finished, ...);  // HfGuardedRun: the table's rows
//   worker->start(config, train, heldOut);
//   worker->cancel();  // between optimizer steps; finished(cancelled) follows
#include "inference/formtagger/taggerpage.h"
#include "pipeline/hffinetuning.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

namespace folio {

// A project's held-out pages: the last fifth of its labelled pages in project order, at least
// kHeldOutMinimum of them. The same pages every run while no document is added before them.
inline constexpr int kHeldOutMinimum = 2;
int heldOutCount(int labelledPages);
// False + *error when there are too few pages to hold out kHeldOutMinimum and still train on one.
bool projectHeldOutSplit(const std::vector<inference::TaggerPage> &pages, std::vector<inference::TaggerPage> *train,
                         std::vector<inference::TaggerPage> *heldOut, QString *error);

struct HfGuardRow
{
    QString label;      // entity type ("QUESTION"), or "all (micro)" for the last row
    double before = -1; // F1 of the model it started from; -1: that model has no such label
    double after = -1;  // F1 of the new model
    long support = 0;   // entities of this label on the held-out pages
};

// Entity F1 per label of a Hugging Face token-classification folder on tagged pages (words and
// boxes; no page image). `rows` gets one row per gold or predicted type plus the micro row, with
// the score in `after` (or `before` when `asBefore`). False + *error naming the folder.
bool scoreHfFolderOnPages(const QString &dir, const std::vector<inference::TaggerPage> &pages, bool asBefore,
                          std::vector<HfGuardRow> *rows, QString *error);

struct HfGuardedRun
{
    bool ok = false, cancelled = false;
    QString error;
    QString outDir;
    QString beforeDir; // the model scored as "before"
    pipeline::HfFineTuneOutcome training;
    int trainPages = 0, heldOutPages = 0;
    std::vector<HfGuardRow> rows; // per label, the micro row last
    // True when the new model is at least as good on every label the old one scored and overall.
    bool noRegression() const;
};

class HfFineTuneWorker : public QObject
{
    Q_OBJECT
public:
    explicit HfFineTuneWorker(QObject *parent = nullptr);
    ~HfFineTuneWorker() override;

    // `beforeDir`: the model the new one would replace, scored as "before" (empty: config.initDir).
    void start(const pipeline::HfFineTuneConfig &config, std::vector<inference::TaggerPage> train,
               std::vector<inference::TaggerPage> heldOut, const QString &beforeDir = QString());
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    void progress(qint64 step, qint64 totalSteps, int epoch, int epochs, double loss, double etaSeconds, const QString &message);
    void finished(const folio::HfGuardedRun &run);

private:
    QFutureWatcher<HfGuardedRun> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace folio
