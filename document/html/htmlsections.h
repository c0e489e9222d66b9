#pragma once
// The section tree of an HTML Document, from h1–h6 and <section> nesting.
//
// Rules (one pass over the nodes in document order, an explicit stack, no recursion):
//  - a <section> element opens a section one level below the enclosing one; it closes where the
//    element's subtree ends. Its first heading (if it comes before any sub-section) gives it a
//    title instead of opening a section of its own.
//  - a heading hN closes the open heading-sections of rank >= N inside the current <section>
//    (never the <section> itself) and opens a section under what remains.
//  - Section::level is the depth in the tree (1 = top level); Section::node the heading or
//    <section> node; title = the heading's normalised text.
//  - [firstWord, endWord) is the run of words from where the section opens to where its first
//    sub-section opens (or it closes): the words it owns directly.
// Needs Document::nodes in pre-order (as the HTML loader builds them) and words in text-node order.

#include "document/document.h"

namespace folio {

// Replaces doc->sections.
void buildHtmlSections(Document *doc);

// Heading rank 1..6 for "h1".."h6", 0 otherwise.
int headingRank(const QString &tag);

} // namespace folio
