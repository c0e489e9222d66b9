#pragma once
// Section trees for documents that have no markup: scans and PDFs (from the OCR layout or the PDF
// text layer), and PDFs with an outline (bookmarks).
//
//   folio::buildLayoutSections(&doc);            // headings found from the lines' geometry
//   folio::buildOutlineSections(&doc, outline);  // a PDF's bookmarks, each at its page / position
//
// Heading lines (buildLayoutSections), one pass over the OCR Line nodes in reading order:
//  - a line's size is its extent from ascenders to descenders: the largest word height of lines
//    of 1-2 words, the second largest from 3 words, the n/4-th largest from 8 (outlier boxes left
//    out); the body size is the median over all lines, weighted by their word count;
//  - a heading is a short line (at most maxHeadingWords words, at least one letter) that either
//    stands out by size (>= sizeRatio x body) or starts with section numbering ("2", "2.3", "A.1",
//    "IV.") and starts its paragraph (spacing above) and does not read as a sentence (no final '.',
//    ',' or ';' after the numbering, the first word after it capitalised);
//  - the level comes from the numbering depth when there is one ("2.3.1" is level 3); unnumbered
//    headings get a level from their size tier (the largest heading size is 1; a size more than
//    12 % below a tier's first size opens the next tier).
//    Boldness is not used: Tesseract's LSTM engine does not report font attributes, nor does the
//    Poppler text layer.
// Section::level is always the depth in the tree (1 = top), as for HTML; a "2.3" under no "2"
// becomes a top-level section. [firstWord, endWord) runs from the heading line to the next section.
// Both functions replace doc->sections, never touch words or nodes, and are linear in the document.

#include "document/document.h"

#include <vector>

namespace folio {

struct LayoutSectionOptions
{
    double sizeRatio = 1.25;  // a line this much taller than the body is a heading
    int maxHeadingWords = 12; // longer lines are never headings
};

// Replaces doc->sections; returns the number of sections found.
int buildLayoutSections(Document *doc, const LayoutSectionOptions &options = {});

// Depth of the section numbering that starts `text` ("3" / "3." -> 1, "2.3" -> 2, "A.1.2" -> 3,
// "IV." -> 1, "B." -> 1), 0 when none. *rest receives the text after the numbering (trimmed).
// Single letters need a '.' or a following ".digit" ("A.1"); Roman numerals need a '.'.
int sectionNumberingDepth(const QString &text, QString *rest = nullptr);

// One bookmark of a PDF outline, in outline order (pre-order).
struct OutlineEntry
{
    QString title;
    int level = 1;    // 1 = top level
    int page = -1;    // 0-based page, -1 when the bookmark points nowhere in this file
    double top = -1;  // 0..1 from the top of the page, -1 when unknown
};

// Sections from an outline: each entry starts at the first word of its page at or below `top`
// (the page's first word when top is unknown); entries pointing nowhere start where the previous
// one did. Levels deeper than one below their parent are clamped (a tree never skips a level).
// Replaces doc->sections; returns the number of sections.
int buildOutlineSections(Document *doc, const std::vector<OutlineEntry> &outline);

// Keep section ranges valid after words were replaced (re-OCR of a region): `oldWordIds` are the
// word ids before the change; each section starts at its old first word if that still exists,
// else just after the last earlier old word that survived (where replacement words go), the same
// for its end; Section::node becomes the line
// of its first word (OCR documents only: the node tree was rebuilt).
void rebaseSections(Document *doc, const QStringList &oldWordIds);

} // namespace folio
