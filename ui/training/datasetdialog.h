#pragma once
// DatasetDialog: File > Import Dataset… / Export Dataset… — the format, the files (import) or the
// output folder, status filter and suggestions (export); runs a DatasetJob with a progress bar and
// a Cancel button that stops it (an import is all or nothing). A failure is shown in the dialog
// (the message names the file and the problem) and the dialog stays open; completed(summary) is
// emitted, and the dialog closes, when the job has finished.
//
//   folio::DatasetDialog dialog(folio::DatasetDialog::Direction::Import, projects->path(), this);
//   connect(&dialog, &folio::DatasetDialog::completed, this, [&](const QString &s) { reload(); status(s); });
//   dialog.exec();
#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace folio {

class DatasetJob;

class DatasetDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Direction { Import, Export };
    DatasetDialog(Direction direction, const QString &projectPath, QWidget *parent = nullptr);

    // For scripted use and tests: fill the fields, then start().
    void setFormat(const QString &format);
    void setFiles(const QStringList &files);   // import
    void setOutputFolder(const QString &dir);  // export
    void start();
    bool isRunning() const;
    QString errorText() const;

Q_SIGNALS:
    void completed(const QString &summary);

protected:
    void reject() override; // Escape / close: cancels a running job first

private:
    void browse();
    void setRunning(bool running);

    Direction m_direction;
    QString m_projectPath;
    DatasetJob *m_job;
    QComboBox *m_format;
    QLineEdit *m_target;      // files (import, separated by ';') or the output folder (export)
    QComboBox *m_status = nullptr;
    QCheckBox *m_suggestions = nullptr;
    QProgressBar *m_progress;
    QLabel *m_stage, *m_error;
    QPushButton *m_run, *m_cancel, *m_browse;
};

} // namespace folio
