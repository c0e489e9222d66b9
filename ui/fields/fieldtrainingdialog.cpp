#include "ui/fields/fieldtrainingdialog.h"

#include "document/project/project.h"
#include "ui/workers/fieldsworker.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace folio {

FieldTrainingDialog::FieldTrainingDialog(Project *project, const std::vector<pipeline::FieldSpec> &fieldSet,
                                         QWidget *parent)
    : QDialog(parent), m_project(project), m_worker(new FieldsWorker(this)), m_output(new QLineEdit(this)),
      m_epochs(new QSpinBox(this)), m_minutes(new QDoubleSpinBox(this)), m_summary(new QLabel(this)),
      m_bar(new QProgressBar(this)), m_log(new QPlainTextEdit(this))
{
    setWindowTitle(tr("Train a field extractor on this project"));
    m_output->setText(project ? QFileInfo(project->path()).absolutePath() + QStringLiteral("/models/")
                                    + QFileInfo(project->path()).completeBaseName() + QStringLiteral("-fields")
                              : QDir::homePath() + QStringLiteral("/folio-fields"));
    m_epochs->setRange(1, 500);
    m_epochs->setValue(30);
    m_minutes->setRange(0.05, 600);
    m_minutes->setValue(10);
    m_minutes->setSuffix(tr(" min"));
    auto *form = new QFormLayout;
    form->addRow(tr("Checkpoint folder"), m_output);
    form->addRow(tr("Epochs"), m_epochs);
    form->addRow(tr("Time budget"), m_minutes);
    m_summary->setWordWrap(true);
    m_log->setReadOnly(true);
    m_log->setAccessibleName(tr("Training log"));
    m_bar->setRange(0, 100);
    auto *buttons = new QDialogButtonBox(this);
    m_start = buttons->addButton(tr("Train"), QDialogButtonBox::ActionRole);
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(m_bar);
    layout->addWidget(m_log, 1);
    layout->addWidget(buttons);
    connect(m_start, &QPushButton::clicked, this, &FieldTrainingDialog::startTraining);
    connect(cancel, &QPushButton::clicked, this, [this] {
        if (m_worker->isBusy()) m_worker->cancel(); else reject();
    });
    connect(m_worker, &FieldsWorker::progress, this, [this](int done, int total, const QString &message) {
        if (total > 0)
            m_bar->setValue(int(100.0 * done / total));
        m_summary->setText(message);
    });
    connect(m_worker, &FieldsWorker::trained, this, &FieldTrainingDialog::onTrained);

    QString error;
    if (!pipeline::loadFieldTrainingData(project, fieldSet, &m_data, &error)) {
        m_summary->setText(error);
        m_start->setEnabled(false);
        return;
    }
    QString text = tr("%1 answered web pages (of %2); fields: %3.")
                       .arg(m_data.pages.size()).arg(m_data.webDocuments)
                       .arg(QString::fromStdString([&] { std::string s; for (const auto &f : m_data.fields) s += (s.empty() ? "" : ", ") + f; return s; }()));
    if (!m_data.fieldsWithoutExamples.isEmpty())
        text += tr(" No example value yet for %1: left out (the model will not know them).")
                    .arg(m_data.fieldsWithoutExamples.join(QStringLiteral(", ")));
    m_summary->setText(text);
}

QString FieldTrainingDialog::summary() const { return m_summary->text(); }
QString FieldTrainingDialog::log() const { return m_log->toPlainText(); }
bool FieldTrainingDialog::canTrain() const { return m_start->isEnabled(); }

void FieldTrainingDialog::setOptions(const QString &outputDir, int epochs, int maxSteps, double maxSeconds)
{
    m_output->setText(outputDir);
    m_epochs->setValue(epochs);
    m_maxSteps = maxSteps;
    m_minutes->setValue(maxSeconds / 60.0);
}

void FieldTrainingDialog::startTraining()
{
    if (!canTrain() || m_worker->isBusy())
        return;
    inference::WebFormerTrainOptions options;
    options.outputDir = m_output->text().toStdString();
    options.epochs = m_epochs->value();
    options.maxSteps = m_maxSteps;
    options.maxSeconds = m_minutes->value() * 60.0;
    options.threads = 1;
    options.vocabSize = 2000;
    options.command = "folio (GUI): Model > Train Field Extractor";
    options.dataDescription = QStringLiteral("%1 answered web pages of project %2")
                                  .arg(m_data.pages.size()).arg(m_project ? m_project->path() : QString()).toStdString();
    m_log->appendPlainText(tr("Training on %1 pages…").arg(m_data.pages.size()));
    m_start->setEnabled(false);
    m_worker->train(options, m_data);
}

void FieldTrainingDialog::onTrained(const pipeline::FieldTrainingOutcome &outcome)
{
    m_start->setEnabled(true);
    const QString failure = outcome.cancelled ? tr("Cancelled.") : outcome.ok ? QString() : tr("Failed: %1").arg(outcome.error);
    if (!failure.isEmpty())
        return m_log->appendPlainText(failure);
    m_checkpointDir = outcome.checkpointDir;
    QString error; // the new model becomes the project's field extractor
    if (m_project && !pipeline::setProjectFieldModel(*m_project, m_checkpointDir, &error))
        m_log->appendPlainText(error);
    m_log->appendPlainText(tr("Done in %1 s (%2 steps)%3. Saved to %4")
                               .arg(qRound(outcome.seconds)).arg(outcome.steps)
                               .arg(outcome.bestDevF1 >= 0 ? tr(", best dev F1 %1").arg(outcome.bestDevF1, 0, 'f', 3) : QString())
                               .arg(outcome.checkpointDir));
    m_rankerNotes = outcome.rankerNotes;
    for (const QString &note : m_rankerNotes)
        m_log->appendPlainText(note);
    accept();
}

} // namespace folio
