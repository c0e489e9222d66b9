#include "widgets/heatmapview.h"
#include "widgets/palettecolors.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <cmath>

namespace folio {

HeatmapView::HeatmapView(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void HeatmapView::setMatrix(const AttentionMatrixView &matrix)
{
    m_matrix = matrix;
    m_scale = HeatmapScale::forMatrix(m_matrix);
    m_scale.dark = isDarkPalette(palette());
    m_cells = heatmapCells(m_matrix, m_scale);
    ++m_builds;
    m_hoverText.clear();
    update();
}

void HeatmapView::setLayerHead(int layer, int head, int layerCount, int headCount)
{
    m_layer = layer;
    m_head = head;
    m_layerCount = layerCount;
    m_headCount = headCount;
}

void HeatmapView::setMarkedRows(const std::vector<int> &rows)
{
    if (rows == m_marked)
        return;
    m_marked = rows;
    update();
}

bool HeatmapView::exportPng(const QString &path, QString *error) const
{
    return saveHeatmapPng(m_matrix, path, size().expandedTo(QSize(400, 300)), error);
}

bool HeatmapView::exportSvg(const QString &path, QString *error) const
{
    return saveHeatmapSvg(m_matrix, path, size().expandedTo(QSize(400, 300)), error);
}

void HeatmapView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    // The palette's colours around the cells, and the cells' scale (light or dark, widgets/palettecolors.h):
    // a palette changed at run time repaints the view, which then recolours its cells once.
    if (const bool dark = isDarkPalette(palette()); dark != m_scale.dark) {
        m_scale.dark = dark;
        m_cells = heatmapCells(m_matrix, m_scale);
    }
    const HeatmapFrameColors colors{viewBackground(palette()), viewText(palette()), viewFrame(palette())};
    paintHeatmap(&p, QRectF(rect()), m_matrix, m_scale, m_cells, m_hoverText, colors);
    if (!m_marked.empty() && m_matrix.rows > 0) {
        const HeatmapLayout l = HeatmapLayout::compute(QRectF(rect()), m_matrix);
        const double cellH = l.grid.height() / m_matrix.rows;
        p.setPen(QPen(QColor(255, 140, 0), 2));
        p.setBrush(Qt::NoBrush);
        for (int r : m_marked)
            if (r >= 0 && r < m_matrix.rows)
                p.drawRect(QRectF(l.grid.left() - 1, l.grid.top() + r * cellH, l.grid.width() + 2, cellH));
    }
    if (hasFocus()) {
        p.setPen(QPen(palette().highlight().color(), 1, Qt::DotLine));
        p.drawRect(rect().adjusted(0, 0, -1, -1));
    }
}

void HeatmapView::updateHover(const QPointF &pos)
{
    const HeatmapLayout l = HeatmapLayout::compute(QRectF(rect()), m_matrix);
    int r = -1, c = -1;
    QString text;
    if (l.cellAt(pos, m_matrix, &r, &c)) {
        const float v = m_matrix.values[std::size_t(r) * m_matrix.cols + c];
        const QString rl = r < m_matrix.rowLabels.size() ? m_matrix.rowLabels.at(r) : QString::number(r);
        const QString cl = c < m_matrix.colLabels.size() ? m_matrix.colLabels.at(c) : QString::number(c);
        text = std::isnan(v) ? tr("%1 → %2: not computed (different windows)").arg(rl, cl)
                             : tr("%1 → %2: %3").arg(rl, cl, QString::number(double(v), 'g', 5));
        Q_EMIT cellHovered(r, c, v);
    }
    if (text != m_hoverText) {
        m_hoverText = text;
        update(l.info.toAlignedRect());
    }
}

void HeatmapView::mouseMoveEvent(QMouseEvent *event)
{
    updateHover(event->position());
}

void HeatmapView::mousePressEvent(QMouseEvent *event)
{
    setFocus(Qt::MouseFocusReason);
    const HeatmapLayout l = HeatmapLayout::compute(QRectF(rect()), m_matrix);
    int r = -1, c = -1;
    if (l.cellAt(event->position(), m_matrix, &r, &c))
        Q_EMIT cellClicked(r, c);
}

void HeatmapView::leaveEvent(QEvent *)
{
    if (!m_hoverText.isEmpty()) {
        m_hoverText.clear();
        update();
    }
}

void HeatmapView::keyPressEvent(QKeyEvent *event)
{
    int layer = m_layer, head = m_head;
    auto step = [](int v, int delta, int count) {
        if (count <= 0)
            return v;
        if (v < 0) // from the average, step onto the first / last
            return delta > 0 ? 0 : count - 1;
        return (v + delta + count) % count;
    };
    switch (event->key()) {
    case Qt::Key_Right: head = step(head, 1, m_headCount); break;
    case Qt::Key_Left: head = step(head, -1, m_headCount); break;
    case Qt::Key_Down: layer = step(layer, 1, m_layerCount); break;
    case Qt::Key_Up: layer = step(layer, -1, m_layerCount); break;
    case Qt::Key_H: head = head < 0 ? 0 : -1; break;
    case Qt::Key_L: layer = layer < 0 ? 0 : -1; break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
    if (layer != m_layer || head != m_head)
        Q_EMIT layerHeadRequested(layer, head);
}

} // namespace folio
