#include "ui/resultpresenter.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QStatusBar>

namespace folio {

ResultPresenter::ResultPresenter(QMainWindow *window) : QObject(window), m_window(window)
{
    setObjectName(QStringLiteral("resultPresenter"));
}

void ResultPresenter::present(const QString &action, QDockWidget *dock, const QString &message, int timeoutMs)
{
    if (dock) {
        dock->show(); // closed (View menu unticked) or never opened: open it where it was
        dock->raise(); // tabbed: its tab becomes the current one; floating: above the window
    }
    if (!message.isEmpty())
        m_window->statusBar()->showMessage(message, timeoutMs);
    m_lastAction = action;
    m_lastDock = dock ? dock->objectName() : QString();
    m_lastMessage = message;
    Q_EMIT presented(action, m_lastDock, message);
}

bool ResultPresenter::isInFront(const QDockWidget *dock)
{
    if (!dock || dock->isHidden() || !dock->isVisible() || dock->width() <= 0 || dock->height() <= 0)
        return false;
    if (dock->isFloating())
        return true;
    // A dock tabbed behind another is hidden by QMainWindow; one squeezed to nothing has no region.
    return !dock->visibleRegion().isEmpty();
}

} // namespace folio
