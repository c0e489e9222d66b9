#include "ui/trainingdialog.h"

#include "document/project/project.h"
#include "inference/formtagger/trainpages.h"
#include "ui/trainworker.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace folio {

// Documents whose annotations hold at least one accepted, labelled entity are training data.
static std::vector<inference::TrainPage> labelledPages(Project *project, int *documents)
{
    std::vector<inference::TrainPage> pages;
    *documents = 0;
    for (const ProjectDocument &info : project->documents()) {
        if (info.entityCount == 0)
            continue;
        Document doc;
        Annotations annotations;
        QString error;
        if (!project->loadDocument(info.id, &doc, &annotations, &error))
            continue;
        // Suggestions the user has not accepted are not ground truth.
        Annotations accepted = annotations;
        accepted.entities.erase(std::remove_if(accepted.entities.begin(), accepted.entities.end(),
                                               [](const Entity &e) { return e.state != ReviewState::Accepted; }),
                                accepted.entities.end());
        for (inference::DocumentTrainPage &p : inference::trainPagesOfDocument(doc, &accepted))
            pages.push_back(std::move(p.trainPage));
        ++*documents;
    }
    return pages;
}

TrainingDialog::TrainingDialog(Project *project, QWidget *parent)
    : QDialog(parent), m_project(project), m_worker(new TrainWorker(this)), m_output(new QLineEdit(this)),
      m_epochs(new QSpinBox(this)), m_summary(new QLabel(this)), m_bar(new QProgressBar(this)),
      m_log(new QPlainTextEdit(this)), m_buttons(new QDialogButtonBox(this))
{
    setWindowTitle(tr("Train a model on this project"));
    const QString base = project ? QFileInfo(project->path()).absolutePath() + QStringLiteral("/models/")
                                       + QFileInfo(project->path()).completeBaseName()
                                 : QDir::homePath() + QStringLiteral("/folio-model");
    m_output->setText(base);
    m_epochs->setRange(1, 200);
    m_epochs->setValue(30);
    auto *form = new QFormLayout;
    form->addRow(tr("Checkpoint folder"), m_output);
    form->addRow(tr("Epochs"), m_epochs);
    m_log->setReadOnly(true);
    m_bar->setRange(0, 100);
    m_bar->setValue(0);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(m_bar);
    layout->addWidget(m_log, 1);
    layout->addWidget(m_buttons);
    QPushButton *start = m_buttons->addButton(tr("Train"), QDialogButtonBox::AcceptRole);
    QPushButton *cancel = m_buttons->addButton(QDialogButtonBox::Cancel);
    disconnect(m_buttons, nullptr, this, nullptr);
    connect(start, &QPushButton::clicked, this, &TrainingDialog::startTraining);
    connect(cancel, &QPushButton::clicked, this, [this] {
        if (m_worker->isRunning()) m_worker->cancel(); else reject();
    });
    connect(m_worker, &TrainWorker::progress, this,
            [this](int epoch, int epochs, qint64 step, qint64 total, double loss, double devF1, double eta) {
                if (total > 0) m_bar->setValue(int(100 * step / total));
                m_summary->setText(tr("Epoch %1/%2, loss %3, dev F1 %4, about %5 s left")
                                       .arg(epoch).arg(epochs).arg(loss, 0, 'f', 4)
                                       .arg(devF1 < 0 ? QStringLiteral("–") : QString::number(devF1, 'f', 3))
                                       .arg(qRound(eta)));
            });
    connect(m_worker, &TrainWorker::finished, this, &TrainingDialog::onFinished);
    int documents = 0;
    m_pageCount = project ? int(labelledPages(project, &documents).size()) : 0;
    m_summary->setText(tr("%1 labelled pages from %2 documents; 15% are held out to choose the best epoch.")
                           .arg(m_pageCount).arg(documents));
    start->setEnabled(m_pageCount >= 2);
}

void TrainingDialog::startTraining()
{
    if (!m_project || m_worker->isRunning())
        return;
    int documents = 0;
    std::vector<inference::TrainPage> pages = labelledPages(m_project, &documents);
    inference::TrainConfig config;
    config.outputDir = m_output->text().toStdString();
    config.epochs = m_epochs->value();
    config.command = "folio (GUI): Model > Train on Project";
    config.dataDescription = QStringLiteral("%1 documents of project %2").arg(documents).arg(m_project->path()).toStdString();
    QDir().mkpath(m_output->text());
    m_log->appendPlainText(tr("Training on %1 pages…").arg(pages.size()));
    m_worker->start(config, std::move(pages));
}

void TrainingDialog::onFinished(const TrainOutcome &outcome)
{
    if (outcome.cancelled) {
        m_log->appendPlainText(tr("Cancelled."));
        return;
    }
    if (!outcome.ok) {
        m_log->appendPlainText(tr("Failed: %1").arg(outcome.error));
        return;
    }
    m_checkpointDir = outcome.checkpointDir;
    m_log->appendPlainText(tr("Done in %1 s: best dev F1 %2 at epoch %3. Saved to %4")
                               .arg(qRound(outcome.seconds)).arg(outcome.bestDevF1, 0, 'f', 3)
                               .arg(outcome.bestEpoch).arg(outcome.checkpointDir));
    accept();
}

} // namespace folio
