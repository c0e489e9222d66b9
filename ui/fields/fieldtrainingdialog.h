#pragma once
// FieldTrainingDialog: Train on Project for web fields (issue 15) — a small WebFormer trained on the
// project's accepted field answers (pipeline/webfieldtraining.h), with progress, a time budget and
// cancel; it says which fields have no example value (left out) before anything starts. Accepted
// when a checkpoint was written: checkpointDir() is the new extractor, stored as the project's
// field model (pipeline::setProjectFieldModel).
//
//   folio::FieldTrainingDialog dialog(project, fieldSet, this);
//   if (dialog.exec() == QDialog::Accepted) useFieldModel(dialog.checkpointDir());
#include "pipeline/webfieldset.h"
#include "pipeline/webfieldtraining.h"

#include <QDialog>

class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace folio {

class FieldsWorker;
class Project;

class FieldTrainingDialog : public QDialog
{
    Q_OBJECT
public:
    FieldTrainingDialog(Project *project, const std::vector<pipeline::FieldSpec> &fieldSet, QWidget *parent = nullptr);

    QString checkpointDir() const { return m_checkpointDir; }
    // Per field: which ranker the new model folder holds, and why (pipeline::FieldTrainingOutcome).
    QStringList rankerNotes() const { return m_rankerNotes; }
    QString summary() const;
    QString log() const;
    bool canTrain() const;
    // Test hooks: the output folder, epochs, a step cap (0 = none) and the training budget in seconds.
    void setOptions(const QString &outputDir, int epochs, int maxSteps, double maxSeconds);
    FieldsWorker *worker() const { return m_worker; }

public Q_SLOTS:
    void startTraining();

private:
    void onTrained(const pipeline::FieldTrainingOutcome &outcome);

    Project *m_project;
    pipeline::FieldTrainingData m_data;
    FieldsWorker *m_worker;
    QLineEdit *m_output;
    QSpinBox *m_epochs;
    QDoubleSpinBox *m_minutes;
    QLabel *m_summary;
    QProgressBar *m_bar;
    QPlainTextEdit *m_log;
    QPushButton *m_start = nullptr;
    QString m_checkpointDir;
    QStringList m_rankerNotes;
    int m_maxSteps = 0;
};

} // namespace folio
