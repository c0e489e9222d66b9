#include "ui/training/datasetdialog.h"
#include "ui/legibility.h"

#include "document/formats/datasetformat.h"
#include "ui/workers/datasetjob.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace folio {

DatasetDialog::DatasetDialog(Direction direction, const QString &projectPath, QWidget *parent)
    : QDialog(parent), m_direction(direction), m_projectPath(projectPath), m_job(new DatasetJob(this)),
      m_format(new QComboBox(this)), m_target(new QLineEdit(this)), m_progress(new QProgressBar(this)),
      m_stage(new QLabel(this)), m_error(new QLabel(this)), m_run(new QPushButton(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_browse(new QPushButton(tr("Browse…"), this))
{
    const bool importing = direction == Direction::Import;
    setWindowTitle(importing ? tr("Import Dataset") : tr("Export Dataset"));
    m_format->setObjectName(QStringLiteral("formatCombo"));
    for (const QString &name : datasetFormatNames()) {
        const std::unique_ptr<DatasetFormat> f = createDatasetFormat(name);
        if (f && (!importing || f->canImport()))
            m_format->addItem(QStringLiteral("%1 — %2").arg(name, f->description()), name);
    }
    m_target->setObjectName(importing ? QStringLiteral("filesEdit") : QStringLiteral("outputEdit"));
    m_target->setAccessibleName(importing ? tr("Files to import") : tr("Output folder"));
    m_target->setPlaceholderText(importing ? tr("Files to import (separated by ;)") : tr("Output folder"));
    auto *targetRow = new QHBoxLayout;
    targetRow->addWidget(m_target, 1);
    targetRow->addWidget(m_browse);

    auto *form = new QFormLayout;
    form->addRow(tr("Format"), m_format);
    form->addRow(importing ? tr("Files") : tr("Folder"), targetRow);
    if (!importing) {
        m_status = new QComboBox(this);
        m_status->setObjectName(QStringLiteral("statusCombo"));
        m_status->addItem(tr("All documents"), QString());
        m_status->addItem(tr("Done"), QStringLiteral("done"));
        m_status->addItem(tr("In progress"), QStringLiteral("in-progress"));
        m_status->addItem(tr("To do"), QStringLiteral("todo"));
        form->addRow(tr("Documents"), m_status);
        m_suggestions = new QCheckBox(tr("Also export model suggestions not yet reviewed"), this);
        m_suggestions->setObjectName(QStringLiteral("suggestionsCheck"));
        form->addRow(QString(), m_suggestions);
    } else {
        auto *note = new QLabel(tr("Documents already in the project (same source) get the imported annotations; "
                                   "nothing is written unless every file reads cleanly."), this);
        note->setWordWrap(true);
        form->addRow(QString(), note);
    }
    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_stage->setObjectName(QStringLiteral("stageLabel"));
    m_stage->setWordWrap(true);
    m_error->setObjectName(QStringLiteral("errorLabel"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(errorTextColor(palette()).name())); // light or dark palette
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_run->setText(importing ? tr("Import") : tr("Export"));
    m_run->setObjectName(QStringLiteral("runButton"));
    m_run->setDefault(true);
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_run, QDialogButtonBox::AcceptRole);
    buttons->addButton(m_cancel, QDialogButtonBox::RejectRole);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_stage);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    resize(560, sizeHint().height());

    connect(m_browse, &QPushButton::clicked, this, &DatasetDialog::browse);
    connect(m_run, &QPushButton::clicked, this, &DatasetDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &DatasetDialog::reject);
    connect(m_job, &DatasetJob::progress, this, [this](const QString &stage, int done, int total) {
        m_progress->setRange(0, std::max(1, total));
        m_progress->setValue(done);
        m_stage->setText(stage);
    });
    connect(m_job, &DatasetJob::finished, this, [this](const QString &summary) {
        setRunning(false);
        Q_EMIT completed(summary);
        accept();
    });
    connect(m_job, &DatasetJob::failed, this, [this](const QString &message) {
        setRunning(false);
        m_error->setText(message);
    });
    connect(m_job, &DatasetJob::cancelled, this, [this] {
        setRunning(false);
        m_stage->setText(m_direction == Direction::Import ? tr("Cancelled: nothing was imported") : tr("Cancelled"));
    });
}

void DatasetDialog::setFormat(const QString &format)
{
    const int i = m_format->findData(format);
    if (i >= 0)
        m_format->setCurrentIndex(i);
}

void DatasetDialog::setFiles(const QStringList &files)
{
    m_target->setText(files.join(QLatin1Char(';')));
}

void DatasetDialog::setOutputFolder(const QString &dir)
{
    m_target->setText(dir);
}

bool DatasetDialog::isRunning() const
{
    return m_job->isRunning();
}

QString DatasetDialog::errorText() const
{
    return m_error->text();
}

void DatasetDialog::browse()
{
    if (m_direction == Direction::Import) {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Files to import"), QString(),
                                                                tr("Dataset files (*.json *.jsonl *.txt *.conll *.bio);;All files (*)"));
        if (!files.isEmpty())
            setFiles(files);
    } else {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export into"));
        if (!dir.isEmpty())
            setOutputFolder(dir);
    }
}

void DatasetDialog::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_format->setEnabled(!running);
    m_target->setEnabled(!running);
    m_browse->setEnabled(!running);
    m_cancel->setText(running ? tr("Cancel") : tr("Close"));
}

void DatasetDialog::start()
{
    m_error->clear();
    const QString format = m_format->currentData().toString();
    const QString target = m_target->text().trimmed();
    if (target.isEmpty()) {
        m_error->setText(m_direction == Direction::Import ? tr("Choose the files to import") : tr("Choose an output folder"));
        return;
    }
    bool started = false;
    if (m_direction == Direction::Import) {
        QStringList files;
        for (const QString &f : target.split(QLatin1Char(';'), Qt::SkipEmptyParts))
            files << f.trimmed();
        started = m_job->startImport(m_projectPath, format, files);
    } else {
        DatasetExportRequest request;
        request.format = format;
        request.outDir = target;
        request.includeSuggestions = m_suggestions && m_suggestions->isChecked();
        const QString status = m_status ? m_status->currentData().toString() : QString();
        if (!status.isEmpty())
            request.status = documentStatusFromName(status);
        started = m_job->startExport(m_projectPath, request);
    }
    if (started) {
        setRunning(true);
        m_stage->setText(tr("Starting…"));
    }
}

void DatasetDialog::reject()
{
    if (m_job->isRunning()) {
        m_job->cancel(); // the dialog stays until the job has stopped (cancelled() re-enables it)
        m_stage->setText(tr("Cancelling…"));
        return;
    }
    QDialog::reject();
}

} // namespace folio
