#pragma once
// Model > Get Model from Hugging Face… (issue 46): a repo id and revision, the download into the
// Hub cache Python shares (HubWorker, off the GUI thread) with its progress, Cancel; accepted with
// the snapshot folder once it is a checkpoint Folio can run. Where the cache is and which token is
// used (HF_TOKEN or the `huggingface-cli login` file) are shown before anything is fetched.
#include <QDialog>
#include <QString>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace folio {

class HubWorker;

class HubDownloadDialog : public QDialog
{
    Q_OBJECT
public:
    explicit HubDownloadDialog(QWidget *parent = nullptr);
    ~HubDownloadDialog() override;

    // The downloaded snapshot folder (set when accepted).
    QString snapshotDir() const { return m_snapshot; }
    // For tests and keyboard users: fill the fields, press Download.
    void setRepo(const QString &repoId, const QString &revision = QString());
    void startDownload();
    bool isDownloading() const;
    QString statusText() const;

    void reject() override; // Cancel: stops a running download first (a second Cancel closes)

Q_SIGNALS:
    void downloadFailed(const QString &message);

private:
    void showProgress(const QString &file, int fileIndex, int fileCount, qint64 fileDone, qint64 fileTotal);
    void downloaded(const QString &snapshotDir);
    void refused(const QString &message, bool needsToken);

    QLineEdit *m_repo = nullptr;
    QLineEdit *m_revision = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_download = nullptr;
    HubWorker *m_worker = nullptr;
    QString m_snapshot;
};

} // namespace folio
