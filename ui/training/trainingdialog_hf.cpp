// TrainingDialog's Hugging Face path (issue 46): "Start from" a LayoutLMv3 / LiLT / LayoutLMv2 token classifier
// (a folder or a Hub cache checkpoint), fine-tuned in an HfFineTuneWorker on the project's pages
// less its held-out ones, then the regression guard: F1 per label of the start model and the new
// one on the held-out pages, and the new model is taken only when the user says so.
#include "ui/training/trainingdialog.h"

#include "document/project/project.h"
#include "pipeline/hffinetuning.h"
#include "pipeline/hfpagelabeller.h"
#include "pipeline/hub/hubsettings.h"
#include "pipeline/hubmodels.h"
#include "pipeline/projecttraining.h"
#include "ui/sessionrecovery.h"
#include "ui/team/projectservice.h"
#include "ui/workers/hffinetuneworker.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace folio {

void TrainingDialog::buildStartFrom(QFormLayout *form, QHBoxLayout *folderRow)
{
    m_hfWorker = new HfFineTuneWorker(this);
    m_startKind = new QComboBox(this);
    m_startKind->setObjectName(QStringLiteral("startKind"));
    m_startKind->addItem(tr("Folio's own tagger (from scratch or a pretrained encoder)"));
    m_startKind->addItem(tr("A Hugging Face token classifier folder (LayoutLMv3, LiLT, LayoutLMv2 / LayoutXLM)"));
    m_startKind->addItem(tr("A checkpoint in the Hugging Face cache"));
    m_hubCheckpoint = new QComboBox(this);
    m_hubCheckpoint->setObjectName(QStringLiteral("hubCheckpoint"));
    for (const pipeline::CachedCheckpoint &c : pipeline::cachedCheckpoints(hub::HubSettings::fromEnvironment().cacheDir))
        if (c.head == QLatin1String("token-classification") && pipeline::isHfFineTunableFolder(c.snapshotDir))
            m_hubCheckpoint->addItem(c.label(), c.snapshotDir);
    if (m_hubCheckpoint->count() == 0)
        m_hubCheckpoint->setPlaceholderText(tr("No LayoutLMv3 / LiLT / LayoutLMv2 token classifier in the Hugging Face cache"));
    form->addRow(tr("Start from"), m_startKind);
    form->addRow(tr("Folder"), folderRow);
    form->addRow(tr("Cached checkpoint"), m_hubCheckpoint);
    const auto showKind = [this, form, folderRow] {
        const int kind = m_startKind->currentIndex();
        form->setRowVisible(m_hubCheckpoint, kind == HfCache);
        form->setRowVisible(folderRow, kind != HfCache);
        m_init->setPlaceholderText(kind == FolioTagger ? tr("From scratch (or a pretrained encoder folder from folio-cli pretrain)")
                                                       : tr("A LayoutLMv3, LiLT or LayoutLMv2 / LayoutXLM token-classification folder (config.json, weights, tokenizer)"));
        // Folio's architecture and word order describe its own tagger only.
        m_arch->setEnabled(kind == FolioTagger);
        m_order->setEnabled(kind == FolioTagger);
        m_extra->setEnabled(kind == FolioTagger); // further sources train Folio's tagger only
        if (kind != FolioTagger && m_epochs->value() == 30)
            m_epochs->setValue(3); // the reference's fine-tuning default
        else if (kind == FolioTagger && m_epochs->value() == 3)
            m_epochs->setValue(30);
        if (kind != FolioTagger && m_pageCount > 0)
            m_summary->setText(tr("%1 labelled pages: %2 are held out for the regression guard, the rest train.")
                                   .arg(m_pageCount).arg(heldOutCount(m_pageCount)));
    };
    connect(m_startKind, &QComboBox::currentIndexChanged, this, showKind);
    QMetaObject::invokeMethod(this, showKind, Qt::QueuedConnection); // after the rows below exist

    connect(m_hfWorker, &HfFineTuneWorker::progress, this,
            [this](qint64 step, qint64 total, int epoch, int epochs, double loss, double eta, const QString &message) {
                if (!message.isEmpty()) {
                    m_log->appendPlainText(message);
                    return;
                }
                if (total > 0)
                    m_bar->setValue(int(100 * step / total));
                m_summary->setText(tr("Step %1/%2, epoch %3/%4, loss %5, about %6 s left")
                                       .arg(step).arg(total).arg(epoch).arg(epochs).arg(loss, 0, 'f', 4).arg(qRound(eta)));
            });
    connect(m_hfWorker, &HfFineTuneWorker::finished, this, &TrainingDialog::onHfFinished);
}

TrainingDialog *TrainingDialog::openBeside(Project *project, const QString &currentModel, ProjectService *projects, QWidget *window,
                                           const std::function<void(const QString &)> &accepted)
{
    auto *dialog = new TrainingDialog(project, window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setModal(false);
    dialog->setCurrentModel(currentModel);
    if (projects)
        connect(projects, &ProjectService::projectClosed, dialog, &TrainingDialog::forgetProject);
    connect(dialog, &QDialog::accepted, window, [dialog, accepted] {
        if (!dialog->checkpointDir().isEmpty() && accepted)
            accepted(dialog->checkpointDir());
    });
    dialog->show();
    return dialog;
}

void TrainingDialog::forgetProject()
{
    if (!m_project)
        return;
    m_project = nullptr;
    m_start->setEnabled(false);
    m_log->appendPlainText(tr("The project was closed: nothing more can start from this dialog."));
}

void TrainingDialog::setStartFrom(StartFrom kind, const QString &folderOrRepo)
{
    m_startKind->setCurrentIndex(int(kind));
    if (kind == HfCache) {
        const int i = m_hubCheckpoint->findText(folderOrRepo, Qt::MatchStartsWith);
        if (i >= 0)
            m_hubCheckpoint->setCurrentIndex(i);
    } else {
        m_init->setText(folderOrRepo);
    }
}

QString TrainingDialog::hfStartFolder() const
{
    switch (m_startKind->currentIndex()) {
    case HfFolder: return m_init->text().trimmed();
    case HfCache: return m_hubCheckpoint->currentData().toString();
    default: return QString();
    }
}

void TrainingDialog::startHfTraining()
{
    const QString init = hfStartFolder();
    const auto fail = [this](const QString &why) { m_log->appendPlainText(tr("Failed: %1").arg(why)); };
    if (init.isEmpty()) {
        fail(m_startKind->currentIndex() == HfCache ? tr("choose a checkpoint of the Hugging Face cache")
                                                    : tr("choose a Hugging Face token-classification folder to start from"));
        return;
    }
    if (!pipeline::isHfFineTunableFolder(init)) {
        const QString type = pipeline::checkpointModelType(init);
        fail(type.isEmpty() ? tr("%1: no readable config.json with a model_type").arg(init)
                            : tr("%1: model_type \"%2\" cannot be fine-tuned here (LayoutLMv3, LiLT and LayoutLMv2 / LayoutXLM can)").arg(init, type));
        return;
    }
    const QString out = m_output->text().trimmed();
    if (QDir(out).absolutePath() == QDir(init).absolutePath()) {
        fail(tr("%1: the folder training starts from; write the new model to another folder").arg(out));
        return;
    }
    int documents = 0;
    const std::vector<inference::TaggerPage> pages = pipeline::labelledProjectPages(m_project, &documents);
    std::vector<inference::TaggerPage> train, heldOut;
    QString error;
    if (!projectHeldOutSplit(pages, &train, &heldOut, &error)) {
        fail(error);
        return;
    }
    pipeline::HfFineTuneConfig config;
    if (!pipeline::labelSetOfPages(pages, &config.labels, &error)) {
        fail(tr("labels the checkpoint cannot take: %1").arg(error));
        return;
    }
    config.initDir = init;
    config.outDir = out;
    config.epochs = m_epochs->value();
    config.batchSize = 8;
    config.maxSteps = m_hfMaxSteps;
    config.resume = m_resume; // Resume Training after a crash (issue 50, startHfRun)
    config.command = "folio (GUI): Model > Train on Project, Start from " + init.toStdString();
    config.dataDescription = QStringLiteral("%1 documents of project %2 (%3 pages train; %4 held out for the regression guard, never trained on)")
                                 .arg(documents).arg(m_project->path()).arg(train.size()).arg(heldOut.size()).toStdString();
    if (m_guard)
        m_guard->hide();
    if (m_useNew) {
        m_useNew->hide();
        m_keepOld->hide();
    }
    if (!extraSources().isEmpty())
        m_log->appendPlainText(tr("Note: \"Also train on\" applies to Folio's own tagger; a Hugging Face model trains on this project's pages."));
    QDir().mkpath(out);
    m_log->appendPlainText(tr("Fine-tuning %1 on %2 pages; %3 held-out pages will score the old and the new model…")
                               .arg(QDir(init).dirName()).arg(train.size()).arg(heldOut.size()));
    // "Before" is the model in use when it is a Hugging Face token classifier, else the start folder.
    const QString before = !m_currentModel.isEmpty() && QFileInfo(m_currentModel).isDir()
                                   && pipeline::isHfTokenClassifierType(pipeline::checkpointModelType(m_currentModel))
                               ? m_currentModel
                               : init;
    m_start->setEnabled(false);
    sessionstate::noteTrainingStarted(hfRunDescription()); // a killed fine-tune is offered for resuming (issue 50)
    m_hfWorker->start(config, std::move(train), std::move(heldOut), before);
}

void TrainingDialog::onHfFinished(const HfGuardedRun &run)
{
    sessionstate::noteTrainingEnded();
    m_start->setEnabled(true);
    if (run.cancelled) {
        m_log->appendPlainText(tr("Cancelled."));
        return;
    }
    if (!run.ok) {
        m_log->appendPlainText(tr("Failed: %1").arg(run.error));
        return;
    }
    m_bar->setValue(100);
    m_log->appendPlainText(tr("Done in %1 s (%2 steps%3). Saved to %4")
                               .arg(qRound(run.training.seconds)).arg(run.training.steps)
                               .arg(run.training.newHead ? tr(", a new head for the project's labels") : QString())
                               .arg(run.outDir));
    if (!m_guard) {
        m_guard = new QTableWidget(0, 4, this);
        m_guard->setObjectName(QStringLiteral("regressionGuard"));
        m_guard->setHorizontalHeaderLabels({tr("Label"), tr("F1 before"), tr("F1 after"), tr("Held-out entities")});
        m_guard->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
        m_guard->verticalHeader()->hide();
        m_guard->setEditTriggers(QAbstractItemView::NoEditTriggers);
        auto *box = static_cast<QVBoxLayout *>(layout());
        box->insertWidget(box->indexOf(m_log), m_guard, 1);
        m_useNew = m_buttons->addButton(tr("Use the New Model"), QDialogButtonBox::ActionRole);
        m_useNew->setObjectName(QStringLiteral("useNewModel"));
        m_keepOld = m_buttons->addButton(tr("Keep the Current Model"), QDialogButtonBox::ActionRole);
        m_keepOld->setObjectName(QStringLiteral("keepCurrentModel"));
        connect(m_useNew, &QPushButton::clicked, this, [this] {
            m_checkpointDir = m_guard->property("outDir").toString();
            accept();
        });
        connect(m_keepOld, &QPushButton::clicked, this, [this] {
            m_checkpointDir.clear();
            reject();
        });
    }
    m_guard->setProperty("outDir", run.outDir);
    m_guard->setHorizontalHeaderLabels({tr("Label"), tr("F1 before (%1)").arg(QDir(run.beforeDir).dirName()),
                                        tr("F1 after (%1)").arg(QDir(run.outDir).dirName()), tr("Held-out entities")});
    m_guard->setRowCount(0);
    const auto cell = [](double f1) { return new QTableWidgetItem(f1 < 0 ? QStringLiteral("–") : QString::number(f1, 'f', 3)); };
    for (const HfGuardRow &r : run.rows) {
        const int row = m_guard->rowCount();
        m_guard->insertRow(row);
        m_guard->setItem(row, 0, new QTableWidgetItem(r.label));
        m_guard->setItem(row, 1, cell(r.before));
        m_guard->setItem(row, 2, cell(r.after));
        m_guard->setItem(row, 3, new QTableWidgetItem(QString::number(r.support)));
        if (r.before >= 0 && r.after + 1e-9 < r.before)
            m_guard->item(row, 2)->setForeground(Qt::red);
    }
    m_guard->show();
    m_useNew->show();
    m_keepOld->show();
    m_summary->setText(run.noRegression()
                           ? tr("On the %1 held-out pages the new model is no worse on any label. Use it?").arg(run.heldOutPages)
                           : tr("On the %1 held-out pages the new model is worse on some labels (red). Use it anyway, or keep the current one?")
                                 .arg(run.heldOutPages));
}

} // namespace folio
