#pragma once
// Where a page's field answers are, for highlighting (issue 15): the DOM nodes holding each
// answer's words, its colour (one per field, labelColor) and a label "price 0.93" (confidence of
// a model answer; "✓" when accepted). drawFieldOverlay() paints them over a rendered web page as
// an isolated-world overlay layer (id "__folio_fields": one outlined box per node, the label on
// the first), separate from the attention heat layer; an empty list removes it.
#include "document/annotations.h"
#include "document/document.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <vector>

namespace folio {

class WebPage;

struct FieldMark
{
    QString field;
    QString label;          // "price 0.93", "sku ✓"
    QColor color;
    bool suggested = false;
    std::vector<int> nodes; // DOM nodes (text nodes) of the answer's words, document order
};

// One mark per answered field of `fields` that has words on this page (no-value and rejected
// answers are not drawn).
std::vector<FieldMark> fieldMarks(const Document &doc, const Annotations &annotations, const QStringList &fields);
// The overlay script for `marks` over `rendered` (node boxes from the DOM snapshot).
QString fieldOverlayScript(const Document &rendered, const std::vector<FieldMark> &marks);
void drawFieldOverlay(WebPage *page, const Document &rendered, const std::vector<FieldMark> &marks);
// A script whose result is the number of boxes in the overlay (tests).
QString fieldOverlayCountScript();

} // namespace folio
