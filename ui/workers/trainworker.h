#pragma once
// TrainWorker: trains the layout tagger on project documents off the GUI thread (thread plumbing
// around pipeline::trainTaggerOnPages).
//
//   auto *worker = new folio::TrainWorker(this);
//   connect(worker, &folio::TrainWorker::progress, dialog, ...);   // epoch, step, loss, dev F1, ETA
//   connect(worker, &folio::TrainWorker::finished, this, ...);     // checkpoint folder or error
//   worker->start(config, pages);   // pages: tagged pages (pipeline::taggerPagesOfDocument)
//   worker->cancel();               // stops between optimizer steps; finished(cancelled) follows
#include "pipeline/taggertraining.h"

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

namespace folio {

// The pipeline's outcome under the name the dialogs forward-declare.
struct TrainOutcome : pipeline::TaggerTrainOutcome
{
};

class TrainWorker : public QObject
{
    Q_OBJECT
public:
    explicit TrainWorker(QObject *parent = nullptr);
    ~TrainWorker() override;

    // Splits `pages` into train / dev (the dev share is carved from them, never a test split).
    // `extraSources` (pipeline::loadExtraTrainingSource: other projects, FUNSD / XFUND / SROIE data)
    // are read in the worker and only train; the label set becomes that of all pages together.
    void start(const inference::TrainConfig &config, std::vector<inference::TaggerPage> pages,
               const QStringList &extraSources = {});
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    void progress(int epoch, int epochs, qint64 step, qint64 totalSteps, double loss, double devF1, double etaSeconds);
    void finished(const folio::TrainOutcome &outcome);
    // One line per further source read ("<source>: N pages ..."), before training starts.
    void sourceRead(const QString &description);

private:
    QFutureWatcher<TrainOutcome> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace folio
