#pragma once
// Edits of a Document's section tree, as the Sections tab makes them. The tree is edited as what
// it is in document order: a flat pre-order list of sections with levels, each owning the words
// [firstWord, endWord). After an edit the parents, children and levels are rebuilt from that list
// (a section's parent is the nearest earlier section of a lower level; a level never exceeds the
// previous section's + 1), so an edit behaves like a heading change in an outline editor: a
// section promoted above its following siblings becomes their parent, a split section's later
// subsections follow the new half.
//
//   Document d = session->document();
//   if (splitSectionAtWord(&d, wordIndex, title)) session pushes d.sections as one undo step.
//
// Every function returns false and leaves the document untouched when the edit does not apply
// (index out of range, a word no section owns directly, a level that would leave 1..64).

#include "document/document.h"

namespace folio {

constexpr int kMaxSectionLevel = 64; // as QS hierarchies (document/formats/datasetlimits.h)

// Index of the section owning word `wordIndex` directly ([firstWord, endWord)), -1 when none.
int sectionOwningWord(const Document &doc, int wordIndex);

// The section owning word `wordIndex` ends before it; a new section at the same level starts
// there (title `title`, or the first words of its text when empty) and takes the rest of the
// words and the subsections that followed. `wordIndex` must not be the section's first word.
// A word before any section (or in a document without sections) starts a new top-level section.
// *newIndex receives the new section's index.
bool splitSectionAtWord(Document *doc, int wordIndex, const QString &title = QString(), int *newIndex = nullptr);

// Section `index` disappears; its words join the section before it in document order; its
// subsections stay where they are in the document (re-parented by their levels). Not for index 0.
bool mergeSectionWithPrevious(Document *doc, int index);

// Moves section `index` and its whole subtree `delta` levels (-1 promotes, +1 demotes). A
// section can be demoted only below an earlier section (never the first one, never two levels
// deeper than the section before it) and promoted only above level 1.
bool changeSectionLevel(Document *doc, int index, int delta);

// Title of section `index`; empty or blank titles are refused; at most 1,000 characters.
bool renameSection(Document *doc, int index, const QString &title);

// Parents, children and levels from the flat list (see above). Public for tests and imports.
void relinkSections(Document *doc);

} // namespace folio
