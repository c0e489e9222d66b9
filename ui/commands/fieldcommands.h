#pragma once
// Field answers as undoable edits of the annotation session (issue 15). The edit logic is pure
// (Annotations in, Annotations out: testable without widgets); pushFieldEdit puts the result on
// the session's undo stack as one AnnotationEditCommand, which saves it at once like every entity
// edit. A field's answer on a page is one FieldValue:
//   value     - wordIds (reading order) and their text;
//   no value  - no words and no text, stored explicitly ("no value on this page" is an answer);
//   state     - Suggested (from a model, waiting), Accepted (ground truth), Rejected (kept so a
//               re-run knows it was seen).
#include "document/annotations.h"
#include "document/document.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace folio {

class AnnotationSession;

namespace fieldedits {

bool isNoValue(const FieldValue &v);
// The answer shown for `field`: an accepted one first, then a suggestion, then a rejected one;
// nullptr when the page has none.
const FieldValue *answerOf(const Annotations &a, const QString &field);

// Each returns false (and leaves `a` alone) when there is nothing to change.
bool accept(Annotations &a, const QString &field);  // the suggestion becomes accepted
bool reject(Annotations &a, const QString &field);  // the suggestion becomes rejected
// The user's value: `wordIds` (put in reading order; unknown ids dropped) replace every answer of
// the field. False when no known word is given.
bool setValue(Annotations &a, const Document &doc, const QString &field, const QStringList &wordIds);
bool setNoValue(Annotations &a, const QString &field); // the user's explicit "no value"
bool clear(Annotations &a, const QString &field);      // removes every answer of the field

// Model answers merged in: fields the user accepted (a value or no value) are left alone, earlier
// suggestions are replaced, a suggestion equal to a rejected answer is not offered again.
// Returns the number of suggestions added.
int mergeSuggestions(Annotations &a, const std::vector<FieldValue> &suggested);

// The words of `doc` that spell `selectedText` (whitespace-insensitive, consecutive words in
// document order); among several matches the first one under `preferNode` (a DOM node, -1: any)
// wins. Empty when the text is not on the page.
QStringList wordsSpelling(const Document &doc, const QString &selectedText, int preferNode = -1);

// Pushes one undoable, autosaved edit (`after` replaces the current annotations); false when no
// document is open.
bool pushFieldEdit(AnnotationSession *session, const QString &undoText, const Annotations &after);

} // namespace fieldedits
} // namespace folio
