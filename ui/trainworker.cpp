#include "ui/trainworker.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

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
    m_watcher.setFuture(QtConcurrent::run([self, config, pages = std::move(pages), cancelFlag]() -> TrainOutcome {
        auto report = [self](const inference::TrainProgress &p) {
            QMetaObject::invokeMethod(qApp, [self, p] {
                if (self)
                    Q_EMIT self->progress(p.epoch, p.epochs, p.step, p.totalSteps, p.loss, p.devF1, p.etaSeconds);
            }, Qt::QueuedConnection);
        };
        TrainOutcome outcome;
        static_cast<pipeline::TaggerTrainOutcome &>(outcome) = pipeline::trainTaggerOnPages(config, pages, report, cancelFlag.get());
        return outcome;
    }));
}

} // namespace folio
