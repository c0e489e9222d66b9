#include "ui/workers/hubworker.h"

#include "pipeline/checkpointinfo.h"
#include "pipeline/hub/hubdownloader.h"
#include "pipeline/hub/huberror.h"
#include "pipeline/hubmodels.h"

#include <QElapsedTimer>
#include <QThread>

#include <nlohmann/json.hpp>

namespace folio {

HubWorker::HubWorker(QObject *parent) : QObject(parent) {}

HubWorker::~HubWorker()
{
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
        delete m_thread;
    }
}

bool HubWorker::isBusy() const
{
    return m_thread && m_thread->isRunning();
}

void HubWorker::cancel()
{
    m_cancel = true;
}

void HubWorker::start(const QString &repoId, const QString &revision)
{
    if (isBusy())
        return;
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
    m_cancel = false;
    m_thread = QThread::create([this, repoId, revision] {
        // Signals emitted here reach the GUI thread's receivers queued.
        try {
            hub::HubDownloader downloader(hub::HubSettings::fromEnvironment());
            downloader.setCancelFlag(&m_cancel);
            downloader.setConfigCheck(pipeline::hubConfigProblem);
            downloader.setMessageHandler([this](const QString &m) { Q_EMIT message(m); });
            QElapsedTimer throttle;
            throttle.start();
            downloader.setProgressHandler([&](const hub::DownloadProgress &p) {
                if (p.fileDone != p.fileTotal && throttle.elapsed() < 100)
                    return;
                throttle.restart();
                Q_EMIT progress(p.file, p.fileIndex, p.fileCount, p.fileDone, p.fileTotal);
            });
            const hub::DownloadResult result = downloader.download({repoId, revision, {}});
            const nlohmann::json info = pipeline::describeCheckpoint(result.snapshotDir);
            if (!info.value("runnable", false)) {
                const auto &problems = info["problems"];
                Q_EMIT failed(tr("%1 was downloaded to %2, but Folio cannot run it: %3")
                                  .arg(repoId, result.snapshotDir,
                                       problems.empty() ? tr("no task") : QString::fromStdString(problems[0].get<std::string>())),
                              false);
                return;
            }
            Q_EMIT finished(result.snapshotDir);
        } catch (const hub::HubError &e) {
            Q_EMIT failed(e.message(), e.kind() == hub::HubError::Unauthorized || e.kind() == hub::HubError::Gated
                                           || e.kind() == hub::HubError::Forbidden);
        } catch (const std::exception &e) {
            Q_EMIT failed(QString::fromUtf8(e.what()), false);
        }
    });
    m_thread->start();
}

} // namespace folio
