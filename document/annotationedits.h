#pragma once

// The annotation edits a person makes, as pure functions on Annotations: the one statement of their
// rules. AnnotationSession (ui/) applies each to a copy and pushes the result on its undo stack; the
// simulated annotator (pipeline/labelling) applies them in place and counts them. Each returns false,
// leaving the annotations unchanged, when the edit does not apply (unknown ids, nothing would change).

#include "document/annotations.h"
#include "document/document.h"

#include <QString>
#include <QStringList>

namespace folio::edits {

// Word ids in the document's reading order; unknown ids and repeats dropped.
QStringList inReadingOrder(const Document &document, QStringList wordIds);

// Labels the words: an entity with exactly these words keeps its id (and links) and takes the label;
// otherwise the words leave every entity (entities left empty go, with their links) and form a new
// one. *entityId (optional) receives the labelled entity's id.
bool labelWords(const Document &document, Annotations &a, const QStringList &wordIds, const QString &label,
                QString *entityId = nullptr);
// A new label on one entity (a no-op when it is already accepted with that label).
bool relabel(Annotations &a, const QString &entityId, const QString &label);
// The first entity keeps its id and label and takes the others' words; their links move to it.
bool mergeEntities(const Document &document, Annotations &a, const QStringList &entityIds);
// One entity per word, the first keeping the id.
bool splitEntity(Annotations &a, const QString &entityId);
bool deleteEntity(Annotations &a, const QString &entityId);
bool addLink(Annotations &a, const QString &fromEntity, const QString &toEntity);
bool deleteLink(Annotations &a, const QString &linkId);
// A suggested entity accepted (its links too where the other end is accepted), or rejected (kept as
// Rejected, with its links, so a re-run of the model can tell it was seen).
bool acceptSuggestion(Annotations &a, const QString &entityId);
bool rejectSuggestion(Annotations &a, const QString &entityId);
// A suggested link accepted (its suggested ends too) or rejected.
bool acceptLink(Annotations &a, const QString &linkId);
bool rejectLink(Annotations &a, const QString &linkId);
// Every suggested entity and link accepted; returns how many entities were (0: nothing changed).
int acceptAllSuggestions(Annotations &a);

} // namespace folio::edits
