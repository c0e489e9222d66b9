#pragma once
// LayoutAudit: what a user would find cramped or cut in a window, checked on the live widgets
// (issue 34; folio --screenshot reports it, tests/app/tst_guixvfb asserts on it):
//   - a docked, visible dock widget smaller than its content's minimum size;
//   - text drawn cut (a label, an item of a list / tree / table, the status bar's message) that
//     offers no tooltip with the whole text and cannot be read by wrapping.
//
//   const QJsonObject audit = auditLayout(window);   // {"narrowDocks": [...], "cutTexts": [...], "checkedTexts": N}
//
// and, after an action (issue 50), that its result came to the front: the dock that shows it is the
// one the user sees (not a tab behind another), and its message is the status bar's:
//   auditResultShown(window, "qsDock", message)  // {"dock", "inFront", "message", "statusBar", "repeated"}

#include <QJsonObject>

class QMainWindow;
class QWidget;

namespace folio {

QJsonObject auditLayout(QWidget *window);
QJsonObject auditResultShown(QMainWindow *window, const QString &dockObjectName, const QString &message);

} // namespace folio
