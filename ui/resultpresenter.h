#pragma once
// ResultPresenter: an action's result comes to the front (issue 50). When Suggest Labels, Generate
// (question-summary hierarchy), Extract Fields, Show Attention or a training run finishes, the dock
// that shows what it produced is opened if closed, raised above the docks tabbed with it, and the
// action's message repeated in the window's status bar, so the result is never hidden behind
// another tab with an empty status bar.
//
//   m_results = new ResultPresenter(this);                       // a child of the main window
//   m_results->present(QStringLiteral("generate"), qsDock, tr("19 suggestion(s) added…"));
//   ResultPresenter::isInFront(qsDock);                          // what the layout audit checks
//
// Actions are named as folio --run names its steps: suggest, generate, extract, attention, train.
#include <QObject>
#include <QString>

class QDockWidget;
class QMainWindow;

namespace folio {

class ResultPresenter : public QObject
{
    Q_OBJECT
public:
    explicit ResultPresenter(QMainWindow *window);

    // Shows and raises `dock` (may be null: the message only) and shows `message` in the status
    // bar for `timeoutMs` (0: until the next message). Then emits presented().
    void present(const QString &action, QDockWidget *dock, const QString &message, int timeoutMs = 10000);

    // A dock the user can see now: open, not tabbed behind another dock, with some area on screen.
    static bool isInFront(const QDockWidget *dock);

    // The last presentation (empty before the first).
    QString lastAction() const { return m_lastAction; }
    QString lastDock() const { return m_lastDock; } // the dock's objectName
    QString lastMessage() const { return m_lastMessage; }

Q_SIGNALS:
    void presented(const QString &action, const QString &dockObjectName, const QString &message);

private:
    QMainWindow *m_window;
    QString m_lastAction;
    QString m_lastDock;
    QString m_lastMessage;
};

} // namespace folio
