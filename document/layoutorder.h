#pragma once
// Layout-aware serialisation: a reading order computed from where the words are, before any
// model sees them (ERNIE-Layout serialises its input this way instead of trusting the OCR engine's
// order). Recursive XY-cut:
//  1. In a region, look for whitespace bands: horizontal gaps between the words' vertical extents
//     (rows) and vertical gaps between their horizontal extents (columns), both measured in units
//     of the region's median word height. A column gap counts only from 1.0 line heights (narrower
//     gaps are word spacing); a row gap from 0.1.
//  2. Cut in the direction of the widest band, at every band of that direction wider than the
//     widest band of the other direction and at least 80% as wide as the widest (so the lines of
//     a column split in one pass, a title's wider gap before them, and a gutter wider than any
//     line gap splits columns first); read the parts top to bottom or left to right, and recurse.
//     Except for forms and tables: when the columns' lines sit side by side at the same heights
//     (60% of them) and are not running text (lines under 70% of the column's width on average,
//     or fewer than 3 words per line: labels, values, cells), the region is cut at all its row
//     bands instead.
//  3. A region with no band (one line of words, or words that overlap) is read as lines: words
//     grouped by vertical overlap, lines top to bottom, words left to right.
// So columns of running text are read one after the other, a table row by row and cell by cell,
// and a form's label/value pairs line by line. Deterministic; ties keep the input order. Recursion is capped
// at 64 levels (deeper regions are read as lines); each level sorts, so n words take
// O(n log n) per level.
#include <QRectF>

#include <vector>

namespace folio {

// The order (indices into `boxes`) in which to read the words. Inverted or non-finite boxes are
// allowed: they are read last, in input order.
std::vector<int> layoutReadingOrder(const std::vector<QRectF> &boxes);

} // namespace folio
