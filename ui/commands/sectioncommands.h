#pragma once
// Undo command for section-tree edits (split, merge, level, rename): the sections before and
// after the edit; redo/undo hand the current document with those sections to the session, which
// saves it and emits documentReplaced(). Only the section lists are kept, never a copy of the
// document's words or nodes.
#include "document/document.h"

#include <QUndoCommand>

#include <vector>

namespace folio {

class AnnotationSession;

class SectionEditCommand : public QUndoCommand
{
public:
    SectionEditCommand(AnnotationSession *session, const QString &text, std::vector<Section> before,
                       std::vector<Section> after);
    void undo() override;
    void redo() override;

private:
    void apply(const std::vector<Section> &sections);

    AnnotationSession *m_session;
    std::vector<Section> m_before;
    std::vector<Section> m_after;
};

} // namespace folio
