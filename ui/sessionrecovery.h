#pragma once
// Crash survival (issue 50): a small "session state" file, written atomically (write + rename) on every
// change of where the user is, tells the next start what a killed Folio was doing.
//
//   <AppLocalDataLocation>/session.json   (~/.local/share/Folio/Folio/session.json)
//   { "version": 1, "cleanExit": false, "pid": 1234, "project": "/p/a.folio", "document": 3,
//     "documentName": "form.png", "page": 1, "edits": 12, "lastEdit": "Label QUESTION",
//     "geometry": "<base64>", "windowState": "<base64>", "splitters": {key: "<base64>"},
//     "training": { "out": "/p/models/a", "epochs": 30, ... }, "draft": { "item": "q3", "text": "Wh" } }
//
// The annotations themselves are not in it: every edit is one SQLite transaction in the project
// (AnnotationSession), so what was acknowledged on screen is on disk. The file only says which
// project, document and page were open, the window layout, how many edits that session saved and
// which training run was going on. A clean exit removes it.
//
//   folio::SessionRecovery recovery(&window);   // right after the window: reads the last state
//   if (nothingGivenOnTheCommandLine) recovery.recoverIfCrashed();
//
// recoverIfCrashed(): when the previous run did not exit cleanly, reopens its project, document
// and page, restores its layout and shows what it recovered in a banner at the top of the window
// (not modal) and the status bar; an interrupted training run (a "training" entry) is offered for
// resuming there (Resume Training: the same run continued from its checkpoint's last/ state). A
// question or summary being typed in the Questions dock (not committed, so not an edit yet) is kept
// in the file 300 ms after the last key and shown in the banner to copy back.
// Two Folio processes at once share the file: the last one to write wins.
#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QString>

class QLineEdit;
class QTimer;
class QToolBar;

namespace folio {

class MainWindow;

struct SessionState
{
    bool cleanExit = false;
    qint64 pid = 0;
    QString project;          // empty: none open
    qint64 document = -1;     // project document id; -1: none
    QString documentName;
    int page = 0;             // zero-based page of a scan / PDF
    int edits = 0;            // edits saved by that session
    QString lastEdit;         // its last edit's undo text
    QByteArray geometry, windowState;
    QHash<QString, QByteArray> splitters; // windowlayout::splitterKey -> QSplitter::saveState
    QJsonObject training;     // the training run going on (TrainingDialog::folioRunDescription); empty: none
    // Text being typed in the Questions dock and not committed yet: {"item": id, "text": ...}; empty: none.
    QJsonObject draft;

    QJsonObject toJson() const;
    // Bounded: at most kMaxBytes, an object of the known shape. False + *error naming `path`.
    static bool fromJson(const QByteArray &bytes, const QString &path, SessionState *state, QString *error);
    static constexpr qint64 kMaxBytes = 4 * 1024 * 1024;
};

namespace sessionstate {
QString markerPath();
// Atomic (a temporary file renamed over the old one). False + *error.
bool write(const QString &path, const SessionState &state, QString *error);
// False when there is no file (*error empty) or it cannot be used (*error says why).
bool read(const QString &path, SessionState *state, QString *error);
// A training run reports to the running session (nothing happens without one).
void noteTrainingStarted(const QJsonObject &run);
void noteTrainingEnded();
} // namespace sessionstate

class SessionRecovery : public QObject
{
    Q_OBJECT
public:
    explicit SessionRecovery(MainWindow *window);
    ~SessionRecovery() override; // a clean exit: the file is removed

    // The state the previous run left (read by the constructor); `previousWasCrash()` when it did
    // not exit cleanly.
    const SessionState &previous() const { return m_previous; }
    bool previousWasCrash() const { return m_previousCrashed; }
    // See above. False when the previous run exited cleanly or left nothing to reopen.
    bool recoverIfCrashed();
    QString recoveredMessage() const { return m_message; }
    // The interrupted training run offered for resuming (empty when none).
    QJsonObject interruptedTraining() const { return m_interrupted; }
    QToolBar *banner() const { return m_banner; }
    const SessionState &current() const { return m_state; }
    // Writes a pending change now (layout changes are coalesced within one event-loop turn).
    void flush();
    void markCleanExit();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

public Q_SLOTS:
    // Resume Training in the banner: the interrupted run continues in a Train on Project dialog.
    bool resumeTraining();

Q_SIGNALS:
    void recovered(const QString &message);
    void trainingResumed(const QString &outputDir);

private:
    void capture();        // where the user is, from the window
    void changed(bool now); // now: written at once; else at the end of this event-loop turn
    void writeNow();
    bool pageMoved() const; // the page shown is not the one written
    void showBanner(const QString &text, bool offerTraining);
    void watchDocks();
    void watchDraft(QLineEdit *edit); // a question / summary editor in the Questions dock
    friend void sessionstate::noteTrainingStarted(const QJsonObject &);
    friend void sessionstate::noteTrainingEnded();

    QPointer<MainWindow> m_window;
    QString m_path;
    SessionState m_previous;
    bool m_previousCrashed = false;
    SessionState m_state;
    QString m_message;
    QJsonObject m_interrupted;
    QTimer *m_pending = nullptr;
    QTimer *m_draftWrite = nullptr; // typing: written 300 ms after the last key
    QToolBar *m_banner = nullptr;
    bool m_clean = false;
};

} // namespace folio
