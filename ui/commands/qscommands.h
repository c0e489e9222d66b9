#pragma once
// Question-summary hierarchy edits as undoable steps of the annotation session (issue 14). The
// edits themselves are document/qstree.h's pure qsedit:: functions; pushQsEdit runs one on a copy
// of the session's annotations and, when it changed something, pushes the result as one
// AnnotationEditCommand (saved to the project at once, like every entity edit).
//
//   pushQsEdit(session, tr("Demote"), [&](Annotations &a) { return qsedit::demote(a, id); });
#include "document/annotations.h"

#include <QString>

#include <functional>

namespace folio {

class AnnotationSession;

// False when no document is open or `edit` returned false (nothing is pushed then).
bool pushQsEdit(AnnotationSession *session, const QString &undoText, const std::function<bool(Annotations &)> &edit);

} // namespace folio
