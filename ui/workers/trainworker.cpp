#include "ui/workers/trainworker.h"

#include "pipeline/projecttraining.h"

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

void TrainWorker::start(const inference::TrainConfig &config, std::vector<inference::TaggerPage> pages,
                        const QStringList &extraSources)
{
    if (m_watcher.isRunning())
        return;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = m_cancel;
    QPointer<TrainWorker> self(this);
    m_watcher.setFuture(QtConcurrent::run([self, config, pages = std::move(pages), extraSources, cancelFlag]() -> TrainOutcome {
        auto report = [self](const inference::TrainProgress &p) {
            QMetaObject::invokeMethod(qApp, [self, p] {
                if (self)
                    Q_EMIT self->progress(p.epoch, p.epochs, p.step, p.totalSteps, p.loss, p.devF1, p.etaSeconds);
            }, Qt::QueuedConnection);
        };
        TrainOutcome outcome;
        inference::TrainConfig runConfig = config;
        std::vector<inference::TaggerPage> extra;
        for (const QString &source : extraSources) {
            std::vector<inference::TaggerPage> sourcePages;
            QString description, error;
            if (!pipeline::loadExtraTrainingSource(source, runConfig.wordOrder == "layout", &sourcePages, &description, &error)) {
                outcome.error = error;
                return outcome;
            }
            QMetaObject::invokeMethod(qApp, [self, description] {
                if (self)
                    Q_EMIT self->sourceRead(description);
            }, Qt::QueuedConnection);
            extra.insert(extra.end(), sourcePages.begin(), sourcePages.end());
            runConfig.dataDescription += "; + " + description.toStdString();
            if (cancelFlag->load()) {
                outcome.cancelled = true;
                return outcome;
            }
        }
        if (!extra.empty()) {
            std::vector<inference::TaggerPage> all = pages;
            all.insert(all.end(), extra.begin(), extra.end());
            QString labelError;
            if (!pipeline::labelSetOfPages(all, &runConfig.labels, &labelError)) {
                outcome.error = labelError;
                return outcome;
            }
        }
        static_cast<pipeline::TaggerTrainOutcome &>(outcome) =
            pipeline::trainTaggerOnPages(runConfig, pages, report, cancelFlag.get(), extra);
        return outcome;
    }));
}

} // namespace folio
