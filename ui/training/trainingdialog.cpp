#include "ui/training/trainingdialog.h"

#include "document/project/project.h"
#include "pipeline/projecttraining.h"
#include "ui/sessionrecovery.h"
#include "ui/fields/fieldtrainingdialog.h"
#include "ui/workers/hffinetuneworker.h"
#include "ui/workers/trainworker.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QFileDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace folio {

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
    // Structure-bias architecture on the shared encoder (issue 12); recorded in config.json.
    m_arch = new QComboBox(this);
    m_arch->addItem(tr("Folio tagger (default)"), QString());
    m_arch->addItem(tr("LayoutLMv3-style: 1-D + 2-D biases, scaled"), QStringLiteral("layoutlmv3"));
    m_arch->addItem(tr("LayoutLMv2-style: spatial-aware, unscaled"), QStringLiteral("layoutlmv2"));
    m_arch->addItem(tr("ERNIE-Layout: disentangled 1-D / x / y"), QStringLiteral("ernie"));
    m_arch->addItem(tr("Text only"), QStringLiteral("text"));
    form->addRow(tr("Architecture"), m_arch);
    // How words are ordered before the model; a layout-order model is used the same way when it
    // suggests labels (config.json "word_order").
    m_order = new QComboBox(this);
    m_order->addItem(tr("As stored (OCR reading order)"), QString());
    m_order->addItem(tr("Layout order (XY-cut: columns, cells, lines)"), QStringLiteral("layout"));
    m_order->setObjectName(QStringLiteral("wordOrder"));
    form->addRow(tr("Word order"), m_order);
    // A pretrained encoder (folio-cli pretrain) to start from; empty: from scratch.
    m_init = new QLineEdit(this);
    m_init->setObjectName(QStringLiteral("startFrom"));
    m_init->setAccessibleName(tr("Start from model"));
    m_init->setPlaceholderText(tr("From scratch (or a pretrained encoder folder from folio-cli pretrain)"));
    auto *initRow = new QHBoxLayout;
    initRow->addWidget(m_init, 1);
    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Start from: a pretrained encoder or a Hugging Face folder"));
        if (!dir.isEmpty())
            m_init->setText(dir);
    });
    initRow->addWidget(browse);
    buildStartFrom(form, initRow); // Folio tagger, a Hugging Face folder or a Hub cache checkpoint
    // More labelled data (issue 37): other projects or public datasets train alongside this
    // project; the best epoch is still chosen on this project's held-out pages.
    m_extra = new QListWidget(this);
    m_extra->setObjectName(QStringLiteral("extraSources"));
    m_extra->setAccessibleName(tr("Further training sources"));
    m_extra->setMaximumHeight(72);
    m_extra->setToolTip(tr("Other projects or datasets whose labelled pages also train the model; "
                           "this project's held-out pages still choose the best epoch"));
    auto *extraButtons = new QVBoxLayout;
    auto *addProject = new QPushButton(tr("Add Project…"), this);
    auto *addDataset = new QPushButton(tr("Add Dataset…"), this);
    auto *remove = new QPushButton(tr("Remove"), this);
    addDataset->setToolTip(tr("A FUNSD dataset folder, an XFUND .json file or a SROIE receipts folder"));
    connect(addProject, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Another project"), QString(), tr("Folio projects (*.folio)"));
        if (!path.isEmpty())
            addExtraSource(path);
    });
    connect(addDataset, &QPushButton::clicked, this, [this] {
        QFileDialog dialog(this, tr("A labelled dataset: FUNSD or SROIE folder, XFUND file"));
        dialog.setFileMode(QFileDialog::AnyFile);
        dialog.setNameFilter(tr("XFUND files (*.json);;Any folder or file (*)"));
        if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
            addExtraSource(dialog.selectedFiles().constFirst());
    });
    connect(remove, &QPushButton::clicked, this, [this] { delete m_extra->currentItem(); });
    extraButtons->addWidget(addProject);
    extraButtons->addWidget(addDataset);
    extraButtons->addWidget(remove);
    extraButtons->addStretch(1);
    auto *extraRow = new QHBoxLayout;
    extraRow->addWidget(m_extra, 1);
    extraRow->addLayout(extraButtons);
    form->addRow(tr("Also train on"), extraRow);
    m_log->setReadOnly(true);
    m_log->setAccessibleName(tr("Training log"));
    m_bar->setRange(0, 100);
    m_bar->setValue(0);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(m_bar);
    layout->addWidget(m_log, 1);
    layout->addWidget(m_buttons);
    QPushButton *start = m_buttons->addButton(tr("Train"), QDialogButtonBox::AcceptRole);
    m_start = start;
    QPushButton *cancel = m_buttons->addButton(QDialogButtonBox::Cancel);
    disconnect(m_buttons, nullptr, this, nullptr);
    connect(start, &QPushButton::clicked, this, &TrainingDialog::startTraining);
    connect(cancel, &QPushButton::clicked, this, [this] {
        if (m_worker->isRunning()) m_worker->cancel();
        else if (m_hfWorker->isRunning()) m_hfWorker->cancel();
        else reject();
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
    connect(m_worker, &TrainWorker::sourceRead, this, [this](const QString &description) { m_log->appendPlainText(description); });
    int documents = 0;
    m_pageCount = project ? int(pipeline::labelledProjectPages(project, &documents).size()) : 0;
    m_summary->setText(tr("%1 labelled pages from %2 documents; 15% are held out to choose the best epoch.")
                           .arg(m_pageCount).arg(documents));
    start->setEnabled(m_pageCount >= 2);
    // Web projects: the field extractor (issue 15) is trained from the Fields answers instead.
    const std::vector<ProjectDocument> documentRows = project ? project->documents() : std::vector<ProjectDocument>();
    if (std::any_of(documentRows.begin(), documentRows.end(), [](const ProjectDocument &d) { return d.kind == SourceKind::Html; })) {
        QPushButton *fields = m_buttons->addButton(tr("Web fields: train the field extractor…"), QDialogButtonBox::ActionRole);
        fields->setObjectName(QStringLiteral("trainFieldExtractor"));
        connect(fields, &QPushButton::clicked, this, [this] {
            if (!m_project)
                return; // closed meanwhile
            std::vector<pipeline::FieldSpec> fieldSet;
            QString error;
            pipeline::projectFieldSet(*m_project, &fieldSet, &error);
            FieldTrainingDialog dialog(m_project, fieldSet, this);
            if (dialog.exec() == QDialog::Accepted)
                m_log->appendPlainText(tr("Field extractor saved to %1; it is the project's field extractor now.").arg(dialog.checkpointDir()));
        });
    }
}

void TrainingDialog::startTraining()
{
    if (!m_project || m_worker->isRunning() || m_hfWorker->isRunning())
        return;
    if (m_startKind->currentIndex() != FolioTagger) {
        startHfTraining();
        return;
    }
    int documents = 0;
    const QString order = m_order->currentData().toString();
    std::vector<inference::TaggerPage> pages =
        pipeline::labelledProjectPages(m_project, &documents, order == QLatin1String("layout"));
    inference::TrainConfig config;
    config.wordOrder = order.toStdString();
    config.outputDir = m_output->text().toStdString();
    config.epochs = m_epochs->value();
    config.architecture = m_arch->currentData().toString().toStdString();
    config.initDir = m_init->text().trimmed().toStdString(); // its sizes and vocabulary are used
    QString labelError;
    if (!pipeline::labelSetOfPages(pages, &config.labels, &labelError)) {
        m_log->appendPlainText(tr("Failed: %1").arg(labelError));
        return;
    }
    config.command = "folio (GUI): Model > Train on Project";
    config.dataDescription = QStringLiteral("%1 documents of project %2").arg(documents).arg(m_project->path()).toStdString();
    config.resume = m_resume; // Resume Training after a crash (issue 50)
    m_resume = false;
    QDir().mkpath(m_output->text());
    sessionstate::noteTrainingStarted(folioRunDescription()); // a killed run is offered for resuming
    m_log->appendPlainText(extraSources().isEmpty()
                               ? tr("Training on %1 pages…").arg(pages.size())
                               : tr("Training on %1 pages of this project and %2 further sources…").arg(pages.size()).arg(extraSources().size()));
    m_worker->start(config, std::move(pages), extraSources());
}

void TrainingDialog::addExtraSource(const QString &source)
{
    if (source.isEmpty() || extraSources().contains(source))
        return;
    if (m_project && QFileInfo(source) == QFileInfo(m_project->path()))
        return; // this project is the target already
    m_extra->addItem(source);
}

QStringList TrainingDialog::extraSources() const
{
    QStringList sources;
    for (int i = 0; i < m_extra->count(); ++i)
        sources.push_back(m_extra->item(i)->text());
    return sources;
}

void TrainingDialog::onFinished(const TrainOutcome &outcome)
{
    sessionstate::noteTrainingEnded();
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
