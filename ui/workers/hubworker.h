#pragma once
// HubWorker: Model > Get Model from Hugging Face off the GUI thread (issue 46).
//
//   auto *worker = new folio::HubWorker(this);
//   connect(worker, &folio::HubWorker::finished, this, [](const QString &snapshot) { ... });
//   worker->start(QStringLiteral("microsoft/layoutlmv3-base"), QStringLiteral("main"));
//
// Thread plumbing around pipeline/hub's HubDownloader (the cache Python shares, HF_TOKEN / the
// huggingface-cli login token, HF_HUB_OFFLINE) in a thread of its own; config.json is checked
// before the weights (pipeline::hubConfigProblem) and the snapshot described once there
// (describeCheckpoint): finished(snapshot) only for a folder Folio can run, failed(message)
// otherwise. cancel() stops the transfer within 50 ms; the partial blob stays for a later resume.
// Nothing throws into the GUI.
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class QThread;

namespace folio {

class HubWorker : public QObject
{
    Q_OBJECT
public:
    explicit HubWorker(QObject *parent = nullptr);
    ~HubWorker() override; // cancels and waits for a running download

    void start(const QString &repoId, const QString &revision);
    void cancel();
    bool isBusy() const;

Q_SIGNALS:
    void progress(const QString &file, int fileIndex, int fileCount, qint64 fileDone, qint64 fileTotal);
    void message(const QString &text); // retries, resumes, fallbacks
    void finished(const QString &snapshotDir);
    void failed(const QString &message, bool needsToken);

private:
    std::atomic<bool> m_cancel{false};
    QThread *m_thread = nullptr;
};

} // namespace folio
