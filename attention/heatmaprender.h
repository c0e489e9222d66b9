#pragma once
// Painting a query x key matrix (AttentionMatrixView) with its title, axis labels and colour
// legend. One painter routine serves the widget (widgets/heatmapview.h), PNG and SVG export
// (QSvgGenerator) and the headless `folio-cli attention`. Needs a QGuiApplication for text.
//
// Colours: probabilities use a sequential white -> dark blue scale from 0 to the maximum;
// signed matrices (bias terms, ablation deltas) a diverging blue - white - red scale symmetric
// around 0. Cells not computed (NaN: across stitched windows) are grey with a hatch-free flat tone.

#include "attention/attentionviewmodel.h"

#include <QColor>
#include <QImage>
#include <QRectF>
#include <QString>

class QPainter;

namespace folio {

struct HeatmapScale
{
    float lo = 0, hi = 1;
    bool diverging = false;
    // For a dark palette (issue 50): low values dark, high ones bright (a sequential dark -> light
    // blue; diverging blue - dark - red), so that a mostly-low matrix does not glare in a dark window.
    // Files (PNG, SVG, the CLI) keep the light scale.
    bool dark = false;
    static HeatmapScale forMatrix(const AttentionMatrixView &m);
    QColor color(float v) const; // NaN -> notComputedColor() (a darker grey when dark)
    static QColor notComputedColor();
};

// One pixel per cell, ARGB32 (cols x rows). Uses a 256-entry lookup table.
QImage heatmapCells(const AttentionMatrixView &m, const HeatmapScale &scale);

// Where the parts go inside `bounds` (shared by painting and hit-testing). The grid fills the
// room left by the title, labels and legend; cells are not square (at most 4:1 either way).
struct HeatmapLayout
{
    QRectF title, grid, legend, info;
    static HeatmapLayout compute(const QRectF &bounds, const AttentionMatrixView &m);
    // Cell under a point of the grid (false outside).
    bool cellAt(const QPointF &p, const AttentionMatrixView &m, int *row, int *col) const;
};

// The colours around the cells: black on white for files; the widget passes its palette's (a
// dark palette gets light text on a dark base, issue 50). The cells keep their scale.
struct HeatmapFrameColors
{
    QColor background = Qt::white;
    QColor text = Qt::black;
    QColor frame = QColor(80, 80, 80);
};

// Paints everything. `cells` is heatmapCells(m, scale) (cached by the caller); `info` is the
// line under the grid (hover value), may be empty.
void paintHeatmap(QPainter *painter, const QRectF &bounds, const AttentionMatrixView &m, const HeatmapScale &scale,
                  const QImage &cells, const QString &info = QString(), const HeatmapFrameColors &colors = HeatmapFrameColors());

// Headless export at the given size; the file name decides nothing, the function does.
bool saveHeatmapPng(const AttentionMatrixView &m, const QString &path, const QSize &size, QString *error);
bool saveHeatmapSvg(const AttentionMatrixView &m, const QString &path, const QSize &size, QString *error);

} // namespace folio
