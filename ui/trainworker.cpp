#include "ui/trainworker.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <exception>

namespace folio {

TrainWorker::TrainWorker(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<TrainOutcome>::finished, this, [this] { Q_EMIT finished(m_watcher.result()); });
}

TrainWorker::~TrainWorker()
{
    cancel();
    m_watcher.waitForFinished();
}

bool TrainWorker::isRunning() const
{
    return m_watcher.isRunning();
}

void TrainWorker::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void TrainWorker::start(const inference::TrainConfig &config, std::vector<inference::TrainPage> pages)
{
    if (m_watcher.isRunning())
        return;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = m_cancel;
    QPointer<TrainWorker> self(this);
    m_watcher.setFuture(QtConcurrent::run([self, config, pages = std::move(pages), cancelFlag]() mutable -> TrainOutcome {
        TrainOutcome outcome;
        try {
            if (pages.size() < 2) {
                outcome.error = QStringLiteral("training needs at least 2 labelled documents (found %1)").arg(pages.size());
                return outcome;
            }
            std::vector<inference::TrainPage> train, dev;
            // About 15% of the pages (at least one) are held out to pick the best epoch.
            const int devCount = std::max(1, int(pages.size() * 15 / 100));
            inference::splitTrainDev(pages, &train, &dev, /*seed=*/13, devCount);
            auto report = [self](const inference::TrainProgress &p) {
                QMetaObject::invokeMethod(qApp, [self, p] {
                    if (self)
                        Q_EMIT self->progress(p.epoch, p.epochs, p.step, p.totalSteps, p.loss, p.devF1, p.etaSeconds);
                }, Qt::QueuedConnection);
            };
            const inference::TrainResult r = inference::train(config, train, dev, report, cancelFlag.get());
            outcome.ok = r.ok;
            outcome.cancelled = r.cancelled;
            outcome.error = QString::fromStdString(r.error);
            outcome.checkpointDir = QString::fromStdString(config.outputDir);
            outcome.bestDevF1 = r.bestDevF1;
            outcome.bestEpoch = r.bestEpoch;
            outcome.seconds = r.seconds;
        } catch (const std::exception &e) {
            outcome.error = QString::fromUtf8(e.what());
        }
        return outcome;
    }));
}

} // namespace folio
