#pragma once
// AutoRun: folio's unattended mode for screenshots and responsiveness checks (tests/app/tst_guixvfb).
//
//   folio --screenshot out.png [--run suggest,generate,extract,attention] [--model dir] FILE
//
// Waits until the window is idle with its document shown (a web page: rendered or failed), runs the
// steps one after the other (Suggest Labels, Generate questions, Extract Fields, Show Attention with a
// word in the middle selected; a step that cannot
// start is recorded with its reason and skipped), saves a screenshot (the X server's pixels when on
// a real screen, the widget's grab offscreen), then quits. Every phase is named in the stall
// watchdog; the status bar's messages and the web header's text are kept for the report.
// After each step that started, the report's "front" says whether its result came to the front
// (ui/resultpresenter.h, checked by layoutaudit.h's auditResultShown on the next tick): the step's
// dock (suggest: Annotations, generate: Questions, extract: Fields, attention: Attention) is the
// one in view and its message is the status bar's.

#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QStringList>
#include <QTimer>

namespace folio {

class MainWindow;
class StallWatchdog;

class AutoRun : public QObject
{
    Q_OBJECT
public:
    AutoRun(MainWindow *window, StallWatchdog *watchdog, const QStringList &steps, const QString &screenshot,
            bool expectDocument, QObject *parent = nullptr);
    void start();
    // What happened: steps and their outcome, status messages, the web header, the screenshot.
    QJsonObject report() const;

private:
    void poll();
    bool idle() const;
    void startStep(const QString &step);
    void finishStep(const QString &outcome);
    void takeScreenshot();
    void auditDocks();
    void auditFront();

    MainWindow *m_window;
    StallWatchdog *m_watchdog;
    QStringList m_steps;
    QString m_screenshot;
    bool m_expectDocument;
    QTimer m_poll;
    int m_next = 0;
    QString m_running;     // the step in progress ("" when none)
    bool m_stepDone = false;
    QString m_stepOutcome;
    QString m_presentedDock;    // what the step's completion presented (ResultPresenter::presented)
    QString m_presentedMessage;
    int m_frontCheck = -1;      // the step report whose "front" the next tick fills in
    bool m_selectMiddleWord = false; // after Show Attention, once its front is checked
    qint64 m_quietSince = -1;
    qint64 m_stepStarted = 0;
    QJsonArray m_stepReports;
    QStringList m_messages;
    QString m_screenshotSaved;
    QJsonObject m_layoutAudit;
    bool m_done = false;
};

} // namespace folio
