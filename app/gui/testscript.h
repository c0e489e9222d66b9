#pragma once
// Test-only automation of the real folio binary (issue 50's kill -9 test, tests/app/tst_crashsurvival):
// with FOLIO_TEST_SCRIPT=<file.json> set, main() runs its actions one after another on the event
// loop, through the same session / controller calls the panels make, and prints one line per
// step on stdout (flushed), so that a test can SIGKILL the process at a known point:
//
//   folio-script ready                    the window is up (after any recovery)
//   folio-script recovered <message>      what the start recovered (SessionRecovery)
//   folio-script ack <n> <do>             action n done and saved (an edit: its transaction returned)
//   folio-script state <json>             {"project", "document", "page", "docks": {name: visible}}
//   folio-script error <n> <why>          action n could not be done
//   folio-script done                     every action ran
//
// {"interval": 15, "actions": [
//    {"do": "label", "words": ["w1", "w2"], "label": "QUESTION"},   // select + assign (Edit > Label)
//    {"do": "qs", "question": "Q?", "summary": "S."},               // Questions dock: a new top-level item
//    {"do": "field", "field": "date", "words": ["w7"]},             // Fields: a corrected value
//    {"do": "word", "word": "w3", "text": "Total"},                 // a word's text corrected
//    {"do": "qsdraft", "text": "Who signs"},                        // typed into the first question, not committed
//    {"do": "open", "row": 1}, {"do": "page", "page": 0},           // a document, a page (0-based)
//    {"do": "dock", "name": "attentionDock", "visible": true},
//    {"do": "train", "out": "/tmp/m", "epochs": 2},                 // Train on Project (Folio tagger)
//    {"do": "trainhf", "init": "/hf/ckpt", "out": "/tmp/h", "epochs": 3, "maxSteps": 0}, // Start from a Hugging Face folder
//    {"do": "resume"}, {"do": "waittrain", "out": "/tmp/m"},        // Resume Training; until accepted
//    {"do": "waittrainend"},                                        // until no run goes on (the session state says none)
//    {"do": "grab", "widget": "pageCanvas", "out": "/tmp/c.png"},   // a widget's picture (none: the window)
//    {"do": "palette", "to": "dark"},                               // QApplication::setPalette at run time (or "light")
//    {"do": "waitfile", "path": "/tmp/go"},                         // until the test creates it (keys sent meanwhile)
//    {"do": "clearstatus"},                                         // the status bar's message cleared
//    {"do": "report"}, {"do": "sleep", "ms": 100}, {"do": "quit"}]} // quit: a clean exit
// "report" also gives "dark" (ui/palettefollower.h), "window" (the palette's window colour), "status"
// (the status bar's message), "active" and "shown" (the objectNames of the active / visible top-level windows).
// Nothing of this runs without the variable.
#include <QJsonArray>
#include <QObject>
#include <QString>

namespace folio {

class MainWindow;
class SessionRecovery;

class TestScript : public QObject // no signals or slots of its own: no Q_OBJECT
{
public:
    TestScript(MainWindow *window, SessionRecovery *recovery, QObject *parent = nullptr);
    // False + *error when the file cannot be read or is not a script.
    bool load(const QString &path, QString *error);
    void start();

private:
    void step();
    bool run(const QJsonObject &action, QString *why); // false: error; *why empty: not done yet (poll again)
    void say(const QString &line);

    MainWindow *m_window;
    SessionRecovery *m_recovery;
    QJsonArray m_actions;
    int m_interval = 15;
    int m_next = 0;
    bool m_failed = false;
};

} // namespace folio
