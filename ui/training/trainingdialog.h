#pragma once
// TrainingDialog: train the layout tagger on the project's labelled documents, with progress,
// ETA and cancel. The GUI stays live: training runs in a TrainWorker.
//
//   folio::TrainingDialog dialog(project, this);
//   if (dialog.exec() == QDialog::Accepted) useModel(dialog.checkpointDir());
#include <QDialog>
#include <QStringList>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QSpinBox;

namespace folio {

class Project;
class TrainWorker;
struct TrainOutcome;

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

public Q_SLOTS:
    void startTraining();

private:
    void onFinished(const TrainOutcome &outcome);

    Project *m_project;
    TrainWorker *m_worker;
    QLineEdit *m_output;
    QSpinBox *m_epochs;
    QComboBox *m_arch = nullptr;
    QComboBox *m_order = nullptr;
    QLineEdit *m_init = nullptr; // a pretrained encoder to start from
    QListWidget *m_extra = nullptr; // "Also train on"
    QLabel *m_summary;
    QProgressBar *m_bar;
    QPlainTextEdit *m_log;
    QDialogButtonBox *m_buttons;
    QString m_checkpointDir;
    int m_pageCount = 0;
};

} // namespace folio
