#pragma once
// HeatmapView: a query x key heatmap of an AttentionMatrixView with title, colour legend and the
// value under the mouse. Paints from a cached one-pixel-per-cell QImage that is rebuilt only when
// the matrix changes (hover and resizes only repaint).
//
// Keyboard (when focused): Left/Right = previous/next head, Up/Down = previous/next layer,
// H = average over heads, L = average over layers. The view does not own the layer/head state:
// it emits layerHeadRequested() and the owner (AttentionPanel) feeds back setLayerHead().

#include "attention/attentionviewmodel.h"
#include "attention/heatmaprender.h"

#include <QWidget>

namespace folio {

class HeatmapView : public QWidget
{
    Q_OBJECT
public:
    explicit HeatmapView(QWidget *parent = nullptr);

    void setMatrix(const AttentionMatrixView &matrix);
    const AttentionMatrixView &matrix() const { return m_matrix; }
    // Current position and counts, for keyboard scrubbing (-1 = average).
    void setLayerHead(int layer, int head, int layerCount, int headCount);
    // Rows outlined as "selected" (the query units picked on the page); repaint only.
    void setMarkedRows(const std::vector<int> &rows);
    const std::vector<int> &markedRows() const { return m_marked; }
    int layer() const { return m_layer; }
    int head() const { return m_head; }
    // The text shown under the grid for the hovered cell ("" when none).
    QString hoverText() const { return m_hoverText; }
    // The cached cell image (one pixel per cell), for tests and benchmarks.
    const QImage &cellImage() const { return m_cells; }
    int cellImageBuilds() const { return m_builds; }

    bool exportPng(const QString &path, QString *error) const;
    bool exportSvg(const QString &path, QString *error) const;

    QSize sizeHint() const override { return QSize(480, 420); }
    QSize minimumSizeHint() const override { return QSize(200, 160); }

Q_SIGNALS:
    void layerHeadRequested(int layer, int head);
    void cellHovered(int row, int col, float value);
    void cellClicked(int row, int col);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void updateHover(const QPointF &pos);

    AttentionMatrixView m_matrix;
    HeatmapScale m_scale;
    QImage m_cells;
    int m_builds = 0;
    QString m_hoverText;
    std::vector<int> m_marked;
    int m_layer = 0, m_head = 0, m_layerCount = 0, m_headCount = 0;
};

} // namespace folio
