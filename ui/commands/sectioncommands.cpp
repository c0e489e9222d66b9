#include "ui/commands/sectioncommands.h"

#include "ui/annotation/annotationsession.h"

namespace folio {

SectionEditCommand::SectionEditCommand(AnnotationSession *session, const QString &text, std::vector<Section> before,
                                       std::vector<Section> after)
    : QUndoCommand(text), m_session(session), m_before(std::move(before)), m_after(std::move(after))
{
}

void SectionEditCommand::undo()
{
    apply(m_before);
}

void SectionEditCommand::redo()
{
    apply(m_after);
}

void SectionEditCommand::apply(const std::vector<Section> &sections)
{
    Document doc = m_session->document();
    doc.sections = sections;
    m_session->applyDocument(doc);
}

} // namespace folio
