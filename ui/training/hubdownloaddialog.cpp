#include "ui/training/hubdownloaddialog.h"

#include "pipeline/hub/hubnames.h"
#include "pipeline/hub/hubsettings.h"
#include "ui/workers/hubworker.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace folio {

HubDownloadDialog::HubDownloadDialog(QWidget *parent) : QDialog(parent), m_worker(new HubWorker(this))
{
    setWindowTitle(tr("Get Model from Hugging Face"));
    setObjectName(QStringLiteral("hubDownloadDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_repo = new QLineEdit(this);
    m_repo->setObjectName(QStringLiteral("hubRepo"));
    m_repo->setPlaceholderText(QStringLiteral("microsoft/layoutlmv3-base"));
    m_revision = new QLineEdit(this);
    m_revision->setObjectName(QStringLiteral("hubRevision"));
    m_revision->setPlaceholderText(QStringLiteral("main"));
    form->addRow(tr("Repo id:"), m_repo);
    form->addRow(tr("Revision (branch, tag or commit):"), m_revision);
    layout->addLayout(form);

    const hub::HubSettings settings = hub::HubSettings::fromEnvironment();
    auto *where = new QLabel(this);
    where->setObjectName(QStringLiteral("hubWhere"));
    where->setWordWrap(true);
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    where->setText(tr("From %1 into the cache Python's huggingface_hub shares: %2.<br>Token: %3")
                       .arg(settings.endpoint.toHtmlEscaped(), QDir::toNativeSeparators(settings.cacheDir).toHtmlEscaped(),
                            settings.token.isEmpty()
                                ? tr("none (private and gated models need one: set HF_TOKEN, or run <tt>huggingface-cli login</tt>, "
                                     "which writes %1)").arg(settings.tokenFile.toHtmlEscaped())
                                : tr("from %1").arg(settings.tokenSource.toHtmlEscaped()))
                   + (settings.offline ? tr("<br>HF_HUB_OFFLINE is set: only what is in the cache.") : QString()));
    layout->addWidget(where);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("hubProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    layout->addWidget(m_progress);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("hubStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_download = buttons->addButton(tr("Download"), QDialogButtonBox::AcceptRole);
    m_download->setObjectName(QStringLiteral("hubDownloadButton"));
    m_download->setDefault(true);
    connect(m_download, &QPushButton::clicked, this, &HubDownloadDialog::startDownload);
    connect(buttons, &QDialogButtonBox::rejected, this, &HubDownloadDialog::reject);
    layout->addWidget(buttons);

    connect(m_worker, &HubWorker::progress, this, &HubDownloadDialog::showProgress);
    connect(m_worker, &HubWorker::message, m_status, &QLabel::setText);
    connect(m_worker, &HubWorker::finished, this, &HubDownloadDialog::downloaded);
    connect(m_worker, &HubWorker::failed, this, &HubDownloadDialog::refused);
    resize(640, 260);
}

HubDownloadDialog::~HubDownloadDialog() = default;

void HubDownloadDialog::setRepo(const QString &repoId, const QString &revision)
{
    m_repo->setText(repoId);
    m_revision->setText(revision);
}

bool HubDownloadDialog::isDownloading() const
{
    return m_worker->isBusy();
}

QString HubDownloadDialog::statusText() const
{
    return m_status->text();
}

void HubDownloadDialog::startDownload()
{
    if (m_worker->isBusy())
        return;
    QString spec = m_repo->text().trimmed();
    const QString revision = m_revision->text().trimmed();
    if (!revision.isEmpty() && !spec.contains(QLatin1Char('@')))
        spec += QLatin1Char('@') + revision;
    QString repoId, rev, why;
    if (!hub::parseRepoSpec(spec, &repoId, &rev, &why)) {
        m_status->setText(why);
        return;
    }
    m_download->setEnabled(false);
    m_repo->setEnabled(false);
    m_revision->setEnabled(false);
    m_progress->setValue(0);
    m_status->setText(tr("Asking %1 for its files…").arg(repoId));
    m_worker->start(repoId, rev);
}

void HubDownloadDialog::showProgress(const QString &file, int fileIndex, int fileCount, qint64 fileDone, qint64 fileTotal)
{
    const double inFile = fileTotal > 0 ? double(fileDone) / double(fileTotal) : 1.0;
    m_progress->setValue(int(1000.0 * (double(fileIndex - 1) + inFile) / double(std::max(1, fileCount))));
    m_status->setText(tr("%1 (%2 of %3): %4 of %5 MB").arg(file).arg(fileIndex).arg(fileCount)
                          .arg(double(fileDone) / 1e6, 0, 'f', 1).arg(double(fileTotal) / 1e6, 0, 'f', 1));
}

void HubDownloadDialog::downloaded(const QString &snapshotDir)
{
    m_snapshot = snapshotDir;
    m_progress->setValue(1000);
    m_status->setText(tr("Downloaded: %1").arg(QDir::toNativeSeparators(snapshotDir)));
    accept();
}

void HubDownloadDialog::refused(const QString &message, bool needsToken)
{
    m_download->setEnabled(true);
    m_repo->setEnabled(true);
    m_revision->setEnabled(true);
    m_status->setText(message + (needsToken ? tr("\n(Set HF_TOKEN before starting Folio, or run huggingface-cli login.)") : QString()));
    Q_EMIT downloadFailed(message);
}

void HubDownloadDialog::reject()
{
    if (m_worker->isBusy()) {
        m_status->setText(tr("Cancelling… (the part already fetched stays in the cache for the next try)"));
        m_worker->cancel();
        return; // failed(cancelled) re-enables the dialog; a second Cancel closes it
    }
    QDialog::reject();
}

} // namespace folio
