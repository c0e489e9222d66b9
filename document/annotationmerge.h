#pragma once
// Merging two versions of one document's annotations item by item (the merge view of a refused
// save, issue 17): "theirs" (stored by someone else) against "mine" (the editor's unsaved version).
//
//   std::vector<folio::MergeItem> items = folio::annotationDifferences(theirs, mine);
//   items[0].takeMine = true;                                   // the user's pick, row by row
//   const folio::Annotations merged = folio::mergeAnnotations(theirs, mine, items);
//
// Items are entities and links (by id), field values (by field name) and the question-summary
// hierarchy as one item. Only items that differ are listed; everything else is the same in both.
// The merge starts from theirs and, for each item taken from mine, puts mine's version in (or
// removes the item when mine has none). A link whose entity is gone from the merge is dropped.
#include "document/annotations.h"
#include "document/document.h"

#include <QString>

#include <vector>

namespace folio {

struct MergeItem
{
    enum class Kind { Entity, Link, Field, Hierarchy };
    Kind kind = Kind::Entity;
    QString key;        // entity / link id, field name; empty for the hierarchy
    QString theirs;     // one line describing their version ("" when they have none)
    QString mine;       // one line describing mine ("" when I have none)
    // The default: mine where I have a version, theirs where only they have one (what they added
    // stays unless the user removes it on purpose).
    bool takeMine = true;
};

QString mergeItemKindName(MergeItem::Kind kind); // "entity" | "link" | "field" | "hierarchy"

// `document` (optional) turns word ids into the words' text in the descriptions.
std::vector<MergeItem> annotationDifferences(const Annotations &theirs, const Annotations &mine,
                                             const Document *document = nullptr);
Annotations mergeAnnotations(const Annotations &theirs, const Annotations &mine, const std::vector<MergeItem> &items);

} // namespace folio
