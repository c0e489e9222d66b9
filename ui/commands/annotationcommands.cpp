#include "ui/commands/annotationcommands.h"

#include "ui/annotation/annotationsession.h"

#include <QCoreApplication>

namespace folio {

AnnotationEditCommand::AnnotationEditCommand(AnnotationSession *session, const QString &text, Annotations before,
                                             Annotations after)
    : m_session(session), m_before(std::move(before)), m_after(std::move(after))
{
    setText(text);
}

void AnnotationEditCommand::undo() { m_session->applyState(m_before); }
void AnnotationEditCommand::redo() { m_session->applyState(m_after); }

WordTextCommand::WordTextCommand(AnnotationSession *session, const QString &wordId, const QString &before,
                                 const QString &after)
    : m_session(session), m_wordId(wordId), m_before(before), m_after(after)
{
    setText(QCoreApplication::translate("folio::AnnotationSession", "Edit word text"));
}

void WordTextCommand::undo() { m_session->applyWordText(m_wordId, m_before); }
void WordTextCommand::redo() { m_session->applyWordText(m_wordId, m_after); }

} // namespace folio
