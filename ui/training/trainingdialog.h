#pragma once
// TrainingDialog: train the layout tagger on the project's labelled documents, with progress,
// ETA and cancel. The GUI stays live: training runs in a TrainWorker.
//
//   folio::TrainingDialog dialog(project, this);
//   if (dialog.exec() == QDialog::Accepted) useModel(dialog.checkpointDir());
#include <QDialog>
#include <QJsonObject>
#include <QStringList>

#include <functional>

class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace folio {

class Project;
class ProjectService;
class TrainWorker;
class HfFineTuneWorker;
struct TrainOutcome;
struct HfGuardedRun;

class TrainingDialog : public QDialog
{
    Q_OBJECT
public:
    TrainingDialog(Project *project, QWidget *parent = nullptr);
    QString checkpointDir() const { return m_checkpointDir; }
    // Further labelled sources that train with the project ("Also train on"): other projects,
    // FUNSD / XFUND / SROIE data. The best epoch is still chosen on this project's pages.
    void addExtraSource(const QString &source);
    QStringList extraSources() const;
    int pageCount() const { return m_pageCount; }
    // A non-modal dialog beside `window` (deleted when closed), so that the user keeps labelling while
    // it trains; `accepted(checkpointDir)` runs when a model is accepted. When `projects` closes the
    // project, the dialog lets go of it (a run in progress finishes on the pages it was given).
    static TrainingDialog *openBeside(Project *project, const QString &currentModel, ProjectService *projects, QWidget *window,
                                      const std::function<void(const QString &)> &accepted);
    // The project is gone (closed): nothing more starts from this dialog.
    void forgetProject();
    // "Start from" (issue 46): Folio's own tagger (from scratch or a pretrain encoder), a Hugging
    // Face LayoutLMv3 / LiLT token-classification folder, or such a checkpoint in the Hub cache.
    enum StartFrom { FolioTagger = 0, HfFolder = 1, HfCache = 2 };
    void setStartFrom(StartFrom kind, const QString &folderOrRepo = QString());
    // The model in use now: when it is a Hugging Face token classifier, the regression guard scores
    // it as "before" (otherwise the folder training starts from).
    void setCurrentModel(const QString &checkpointDir) { m_currentModel = checkpointDir; }
    // The Hugging Face folder training starts from ("" for Folio's tagger).
    QString hfStartFolder() const;
    // The regression guard's table after a Hugging Face run (label, F1 before, after, support).
    QTableWidget *guardTable() const { return m_guard; }
    // At most this many optimizer steps for a Hugging Face run (0: every epoch); tests keep runs short.
    void setHfMaxSteps(long steps) { m_hfMaxSteps = steps; }
    // Crash survival (issue 50, trainingdialog_resume.cpp): the Folio tagger run the dialog is set
    // up for (out, epochs, architecture, order, init, extra), recorded in the session state while it
    // trains; startFolioRun sets the dialog up from such a description and starts it, continuing
    // from <out>/last/ when `resume` (false when nothing could start).
    QJsonObject folioRunDescription() const;
    bool startFolioRun(const QJsonObject &run, bool resume);
    // The same for a Hugging Face fine-tune ("Start from" a folder or the Hub cache): kind
    // "hf-finetune", out, epochs, init (the folder it starts from), maxSteps; startHfRun continues
    // from <out>/last/trainer_state.json when `resume` and that state exists (else starts again).
    QJsonObject hfRunDescription() const;
    bool startHfRun(const QJsonObject &run, bool resume);
    // Either kind, as recorded in the session state (Resume Training after a crash).
    bool startRecordedRun(const QJsonObject &run, bool resume);

public Q_SLOTS:
    void startTraining();

private:
    void onFinished(const TrainOutcome &outcome);
    // trainingdialog_hf.cpp: the Hugging Face path and its regression guard.
    void buildStartFrom(QFormLayout *form, QHBoxLayout *folderRow);
    void startHfTraining();
    void onHfFinished(const HfGuardedRun &run);

    Project *m_project;
    TrainWorker *m_worker;
    QLineEdit *m_output;
    QSpinBox *m_epochs;
    QComboBox *m_arch = nullptr;
    QComboBox *m_order = nullptr;
    QLineEdit *m_init = nullptr; // a pretrained encoder or a Hugging Face folder to start from
    QComboBox *m_startKind = nullptr;
    QComboBox *m_hubCheckpoint = nullptr; // runnable token classifiers in the Hub cache
    HfFineTuneWorker *m_hfWorker = nullptr;
    QTableWidget *m_guard = nullptr;
    long m_hfMaxSteps = 0;
    bool m_resume = false; // the next run (Folio tagger or Hugging Face) continues from <out>/last/
    QString m_currentModel;
    QPushButton *m_start = nullptr;
    QPushButton *m_useNew = nullptr, *m_keepOld = nullptr;
    QListWidget *m_extra = nullptr; // "Also train on"
    QLabel *m_summary;
    QProgressBar *m_bar;
    QPlainTextEdit *m_log;
    QDialogButtonBox *m_buttons;
    QString m_checkpointDir;
    int m_pageCount = 0;
};

} // namespace folio
