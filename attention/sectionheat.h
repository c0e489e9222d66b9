#pragma once
// Heat by section: per-word values (an attention view's outgoing / incoming weights) rolled up to
// the document's sections, and a sections x sections matrix (HIBRIDS' hierarchical bias) shown as
// an AttentionMatrixView and spread back onto the sections and their words - what colours the
// Sections tab and the page. Pure functions, no widgets.
//
//   std::vector<float> perSection = sectionMeans(doc, vm.perWord(vm.outgoing()));
//   QHash<int, QColor> rows = sectionColors(perSection, false);     // Sections tab rows
//   QHash<int, QColor> words = wordColorsBySection(doc, perSection, false); // the page

#include "attention/attentionviewmodel.h"
#include "document/document.h"

#include <QColor>
#include <QHash>

#include <vector>

namespace folio {

// Mean of `perWord` over the words each section owns directly ([firstWord, endWord)); NaN for a
// section without words. perWord shorter than the document counts the missing words as 0.
std::vector<float> sectionMeans(const Document &doc, const std::vector<float> &perWord);

// Colours on the heatmap's scale: sequential (0 .. max) or diverging (symmetric around 0). NaN
// values get no colour.
QHash<int, QColor> sectionColors(const std::vector<float> &values, bool diverging);
// Every word takes its section's colour (words of no section: none).
QHash<int, QColor> wordColorsBySection(const Document &doc, const std::vector<float> &values, bool diverging);

// A [sections x sections] row-major matrix as a view: section titles as labels, diverging scale.
AttentionMatrixView sectionMatrixView(const Document &doc, const std::vector<float> &values, const QString &title);

} // namespace folio
