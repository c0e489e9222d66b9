#pragma once
// Undo commands for the annotation workspace. Every edit is one QUndoCommand holding the
// annotations before and after (a few KB per page), so undo/redo is exact whatever the edit
// was; the edit logic itself lives in AnnotationSession. Word-text edits also swap the
// Document. Commands apply through AnnotationSession::applyState, which autosaves.
#include "document/annotations.h"

#include <QString>
#include <QUndoCommand>

#include <optional>

namespace folio {

class AnnotationSession;

class AnnotationEditCommand : public QUndoCommand
{
public:
    AnnotationEditCommand(AnnotationSession *session, const QString &text, Annotations before, Annotations after);
    void undo() override;
    void redo() override;

private:
    AnnotationSession *m_session; // not owned; outlives its undo stack
    Annotations m_before;
    Annotations m_after;
};

// Changes a word's text (marks it user-edited so a re-OCR keeps it).
class WordTextCommand : public QUndoCommand
{
public:
    WordTextCommand(AnnotationSession *session, const QString &wordId, const QString &before, const QString &after);
    void undo() override;
    void redo() override;

private:
    AnnotationSession *m_session;
    QString m_wordId;
    QString m_before;
    QString m_after;
};

} // namespace folio
