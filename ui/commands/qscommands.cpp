#include "ui/commands/qscommands.h"

#include "ui/annotation/annotationsession.h"
#include "ui/commands/annotationcommands.h"

#include <QUndoStack>

namespace folio {

bool pushQsEdit(AnnotationSession *session, const QString &undoText, const std::function<bool(Annotations &)> &edit)
{
    if (!session || session->currentDocumentId() < 0 || !edit)
        return false;
    Annotations after = session->annotations();
    if (!edit(after))
        return false;
    session->undoStack()->push(new AnnotationEditCommand(session, undoText, session->annotations(), std::move(after)));
    return true;
}

} // namespace folio
