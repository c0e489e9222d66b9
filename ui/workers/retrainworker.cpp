#include "ui/workers/retrainworker.h"

#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace folio {

RetrainWorker::RetrainWorker(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<labelling::ProjectRetrainOutcome>::finished, this,
            [this] { Q_EMIT finished(m_watcher.result()); });
}

RetrainWorker::~RetrainWorker()
{
    cancel();
    m_watcher.waitForFinished();
}

bool RetrainWorker::isRunning() const { return m_watcher.isRunning(); }

void RetrainWorker::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

bool RetrainWorker::start(labelling::RetrainPages pages, labelling::ProjectRetrainConfig config)
{
    if (m_watcher.isRunning())
        return false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = m_cancel;
    m_watcher.setFuture(QtConcurrent::run([pages = std::move(pages), config, cancelFlag]() {
        labelling::ProjectRetrainConfig c = config;
        c.cancel = cancelFlag.get();
        try {
            return labelling::retrainOnPages(pages, c);
        } catch (const std::exception &e) { // retrainOnPages promises none; a thread must not end in one
            labelling::ProjectRetrainOutcome o;
            o.model = config.currentModel;
            o.error = QString::fromLocal8Bit(e.what());
            o.message = QStringLiteral("retraining failed (%1); the previous model stays").arg(o.error);
            return o;
        }
    }));
    return true;
}

} // namespace folio
