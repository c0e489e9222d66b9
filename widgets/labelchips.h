#pragma once
// Where the entity label chips on a page go, so that they stay readable on a dense form: each
// chip is tried above its box, below it, then to its right and left (never over another chip or
// over a word); a chip with no free place, or any chip below the minimum zoom, is shortened to a
// colour bar along the top of its box. The full text is the canvas's tooltip over box or chip.
//
//   std::vector<LabelChip> chips = placeLabelChips(requests, fontMetrics, wordBoxes, viewRect, zoomOk);
//
// Pure geometry (widget pixels): no painting, no widgets. O(chips x (words + chips)).

#include <QColor>
#include <QFontMetricsF>
#include <QRectF>
#include <QString>

#include <vector>

namespace folio {

struct LabelChipRequest
{
    int word = -1;
    QRectF box; // the labelled word's box
    QString text;
    QColor color;
};

struct LabelChip
{
    int word = -1;
    QString text;
    QColor color;
    QRectF rect;            // the chip (or the bar)
    bool collapsed = false; // drawn as a colour bar, text only on hover
};

// requests: in drawing order (earlier ones get the better places); obstacles: every word box on the
// page (a chip never covers one); bounds: the visible area (chips stay inside it where they can).
// fullChips false (below the minimum zoom): every chip is a bar.
std::vector<LabelChip> placeLabelChips(const std::vector<LabelChipRequest> &requests, const QFontMetricsF &metrics,
                                       const std::vector<QRectF> &obstacles, const QRectF &bounds, bool fullChips = true);

// Height of a collapsed chip's colour bar, in widget pixels.
constexpr double kLabelBarHeight = 3.0;

} // namespace folio
