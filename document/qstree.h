#pragma once
// Question-summary hierarchies (Annotations::qsRoots) as a data model: the flat view, lookup by
// stable id, section keys, evidence checks and the edits the editor makes. Pure functions over
// Annotations (no widgets, no undo): ui/commands/qscommands.h pushes their results onto the
// annotation session's undo stack, which saves each edit to the project at once.
//
//   Annotations a;
//   const QString q1 = qsedit::addChild(a, {}, "What is it?", "A report.");   // "q1", numbered 1
//   const QString q2 = qsedit::addChild(a, q1, "Why?", "Because.");           // 1.1
//   qsedit::attachWords(a, doc, q2, {"w3", "w4", "w9"});  // spans w3..w4 and w9..w9
//   for (const QsItem &it : qsItems(a.qsRoots)) ...       // pre-order: id, parent, order, depth, number
//
// Every edit returns false (an empty id for adds) and leaves `a` unchanged when it cannot be done
// (unknown id, a move into its own subtree, or a result past the shared limits of
// document/formats/datasetlimits.h: what cannot be exported is never stored). Walks are iterative.
#include "document/annotations.h"
#include "document/document.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <vector>

namespace folio {

// One item of the flat, pre-order view of a hierarchy.
struct QsItem
{
    const QsNode *node = nullptr;
    QString parentId;        // empty for top-level items
    int order = 0;           // index among its siblings
    int depth = 1;           // 1 = top level
    QString number;          // "1", "1.2", "1.2.3"
};

std::vector<QsItem> qsItems(const std::vector<QsNode> &roots);
// Child indices from the roots down to the item; false when no item has the id.
bool qsPathOf(const std::vector<QsNode> &roots, const QString &id, std::vector<int> *path);
const QsNode *qsFind(const std::vector<QsNode> &roots, const QString &id);
// "q<n>", n one more than the largest numeric suffix in use.
QString qsFreshId(const std::vector<QsNode> &roots);
// Gives every item without an id, or with one already used, a fresh id (older files have none).
// Returns the number of items changed.
int qsAssignIds(std::vector<QsNode> &roots);
// True when the hierarchy can be stored and exported (depth, count, text sizes of
// DatasetLimits); otherwise false and *error names the path ("qs.nodes[0].children[2].question: ...").
bool qsWithinLimits(const Annotations &a, QString *error);

// ---- sections and evidence ----
// A stable key for Document::sections[index]: "node:<heading node id>", else "word:<first word
// id>", else "title:<title>".
QString qsSectionKey(const Document &doc, int index);
// The section a key names, -1 when none. Plain titles (files written before keys) match the first
// section with that title.
int qsResolveSection(const Document &doc, const QString &key);
// Word indices [first, last] of a span, false when either end is gone or they are out of order.
bool qsResolveSpan(const QHash<QString, int> &wordIndex, const QsEvidenceSpan &span, int *first, int *last);
QHash<QString, int> qsWordIndex(const Document &doc);
// True when some evidence of the item (a span's words, a section) is not in `doc`.
bool qsEvidenceMissing(const Document &doc, const QHash<QString, int> &wordIndex, const QsNode &node);
// Sets evidenceMissing on every item from `doc` (after a re-OCR or a section edit); returns the
// number of items whose flag changed. Nothing is dropped.
int qsUpdateEvidenceFlags(Annotations &a, const Document &doc);
// The word indices (sorted, unique) and sections an item's evidence covers; for highlighting.
std::vector<int> qsEvidenceWords(const Document &doc, const QHash<QString, int> &wordIndex, const QsNode &node);
std::vector<int> qsEvidenceSectionIndices(const Document &doc, const QsNode &node);

namespace qsedit {

// New user items (accepted). `parentId` empty: top level. Return the new id, empty on failure.
QString addChild(Annotations &a, const QString &parentId, const QString &question = {}, const QString &summary = {});
QString addSibling(Annotations &a, const QString &afterId, const QString &question = {}, const QString &summary = {});
// Changes question and summary; a model suggestion becomes Edited. False when unchanged.
bool setText(Annotations &a, const QString &id, const QString &question, const QString &summary);
bool remove(Annotations &a, const QString &id); // with its subtree
// Moves the item (with its subtree) under `newParentId` (empty: top level) at `row` (clamped;
// -1 = last). False when nothing changes or the target is inside the item.
bool move(Annotations &a, const QString &id, const QString &newParentId, int row);
bool demote(Annotations &a, const QString &id);   // last child of the previous sibling
bool promote(Annotations &a, const QString &id);  // sibling right after its parent
bool moveUp(Annotations &a, const QString &id);   // swap with the previous sibling
bool moveDown(Annotations &a, const QString &id);
bool accept(Annotations &a, const QString &id);   // Suggested -> Accepted
bool reject(Annotations &a, const QString &id);   // Suggested -> Rejected (kept, so not offered again)
// Evidence: runs of consecutive selected words become spans (unknown ids ignored; already
// attached words are not added twice); a section by index. False when nothing new.
bool attachWords(Annotations &a, const Document &doc, const QString &id, const QStringList &wordIds);
bool attachSection(Annotations &a, const Document &doc, const QString &id, int sectionIndex);
bool clearEvidence(Annotations &a, const QString &id);

// A generated hierarchy merged as suggestions. Under `belowId` (empty: the whole hierarchy):
// earlier suggestions that carry nothing the user decided are removed, accepted / edited / user
// items and rejected ones (hidden, remembered) stay, and the generated items are added as
// Suggested children (of `belowId`, or top level) unless a kept sibling already asks the same
// question. The root summary is replaced only when the user did not write one (whole-hierarchy
// runs). Returns the number of items added.
int mergeGenerated(Annotations &a, const QString &rootSummary, std::vector<QsNode> generated,
                   const AnnotationSource &source, const QString &belowId = {});

} // namespace qsedit
} // namespace folio
