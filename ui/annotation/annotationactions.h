#pragma once
// AnnotationActions: the keyboard flow of the annotation workspace as QActions, so MainWindow
// can put them in menus and toolbars and they work from anywhere in the window.
//
//   PageDown / PageUp   next / previous document        U         next uncertain suggestion
//   A / R               accept / reject the current suggestion     Ctrl+D    mark document done
//   Ctrl+Z / Ctrl+Shift+Z  undo / redo                   Ctrl+Shift+A  accept all suggestions
//
// Usage:
//   auto *actions = new folio::AnnotationActions(session, window); // adds itself to `window`
//   menu->addActions(actions->all());
#include <QList>
#include <QObject>

class QAction;
class QWidget;

namespace folio {

class AnnotationSession;

class AnnotationActions : public QObject
{
    Q_OBJECT

public:
    AnnotationActions(AnnotationSession *session, QWidget *window);

    QAction *nextDocument() const { return m_next; }
    QAction *previousDocument() const { return m_previous; }
    QAction *nextUncertain() const { return m_uncertain; }
    QAction *accept() const { return m_accept; }
    QAction *reject() const { return m_reject; }
    QAction *acceptAll() const { return m_acceptAll; }
    QAction *markDone() const { return m_done; }
    QAction *undo() const { return m_undo; }
    QAction *redo() const { return m_redo; }
    QList<QAction *> all() const;

private:
    QAction *m_next, *m_previous, *m_uncertain, *m_accept, *m_reject, *m_acceptAll, *m_done, *m_undo, *m_redo;
};

} // namespace folio
