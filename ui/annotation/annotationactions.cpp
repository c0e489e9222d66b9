#include "ui/annotation/annotationactions.h"

#include "ui/annotation/annotationsession.h"

#include <QAction>
#include <QUndoStack>
#include <QWidget>

namespace folio {

static QAction *makeAction(QWidget *window, const QString &text, const QKeySequence &key)
{
    auto *a = new QAction(text, window);
    a->setShortcut(key);
    a->setShortcutContext(Qt::WindowShortcut);
    window->addAction(a);
    return a;
}

AnnotationActions::AnnotationActions(AnnotationSession *session, QWidget *window) : QObject(window)
{
    m_next = makeAction(window, tr("Next document"), QKeySequence(Qt::Key_PageDown));
    m_previous = makeAction(window, tr("Previous document"), QKeySequence(Qt::Key_PageUp));
    m_uncertain = makeAction(window, tr("Next uncertain prediction"), QKeySequence(Qt::Key_U));
    m_accept = makeAction(window, tr("Accept suggestion"), QKeySequence(Qt::Key_A));
    m_reject = makeAction(window, tr("Reject suggestion"), QKeySequence(Qt::Key_R));
    m_acceptAll = makeAction(window, tr("Accept all suggestions"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_done = makeAction(window, tr("Mark document done"), QKeySequence(Qt::CTRL | Qt::Key_D));
    m_undo = session->undoStack()->createUndoAction(window, tr("Undo"));
    m_undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    window->addAction(m_undo);
    m_redo = session->undoStack()->createRedoAction(window, tr("Redo"));
    m_redo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    window->addAction(m_redo);

    connect(m_next, &QAction::triggered, session, [session] { session->nextDocument(); });
    connect(m_previous, &QAction::triggered, session, [session] { session->previousDocument(); });
    connect(m_uncertain, &QAction::triggered, session, [session] { session->nextUncertain(); });
    connect(m_accept, &QAction::triggered, session, [session] { session->acceptSuggestion(QString()); });
    connect(m_reject, &QAction::triggered, session, [session] { session->rejectSuggestion(QString()); });
    connect(m_acceptAll, &QAction::triggered, session, [session] { session->acceptAllSuggestions(); });
    connect(m_done, &QAction::triggered, session, [session] { session->markDone(); });
}

QList<QAction *> AnnotationActions::all() const
{
    return {m_next, m_previous, m_uncertain, m_accept, m_reject, m_acceptAll, m_done, m_undo, m_redo};
}

} // namespace folio
