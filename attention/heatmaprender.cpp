#include "attention/heatmaprender.h"

#include <QFileInfo>
#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>
#include <QSvgGenerator>

#include <algorithm>
#include <array>
#include <cmath>

namespace folio {

HeatmapScale HeatmapScale::forMatrix(const AttentionMatrixView &m)
{
    HeatmapScale s;
    s.diverging = m.diverging;
    if (m.diverging) {
        const float a = std::max(std::fabs(m.minValue), std::fabs(m.maxValue));
        s.lo = -a;
        s.hi = a;
    } else {
        s.lo = 0;
        s.hi = m.maxValue;
    }
    if (!(s.hi > s.lo)) // constant matrix: avoid a zero range
        s.hi = s.lo + 1;
    return s;
}

QColor HeatmapScale::notComputedColor()
{
    return QColor(190, 190, 190);
}

static QColor mix(const QColor &a, const QColor &b, double t)
{
    t = std::clamp(t, 0.0, 1.0);
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t), float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QColor HeatmapScale::color(float v) const
{
    if (std::isnan(v))
        return dark ? QColor(85, 85, 85) : notComputedColor();
    const double t = (double(v) - lo) / (double(hi) - lo);
    static const QColor white(255, 255, 255), blue(8, 48, 107), red(165, 15, 21), cool(33, 102, 172);
    if (dark) {
        static const QColor night(26, 28, 33), sky(140, 200, 255), warm(245, 105, 90), cold(90, 160, 235);
        if (!diverging)
            return mix(night, sky, t);
        return t < 0.5 ? mix(cold, night, t * 2) : mix(night, warm, (t - 0.5) * 2);
    }
    if (!diverging)
        return mix(white, blue, t);
    return t < 0.5 ? mix(cool, white, t * 2) : mix(white, red, (t - 0.5) * 2);
}

QImage heatmapCells(const AttentionMatrixView &m, const HeatmapScale &scale)
{
    if (m.rows <= 0 || m.cols <= 0)
        return QImage();
    std::array<QRgb, 256> lut;
    for (int i = 0; i < 256; ++i)
        lut[std::size_t(i)] = scale.color(scale.lo + (scale.hi - scale.lo) * float(i) / 255.0f).rgb();
    const QRgb grey = scale.color(std::nanf("")).rgb();
    QImage img(m.cols, m.rows, QImage::Format_RGB32);
    const float k = 255.0f / (scale.hi - scale.lo);
    for (int r = 0; r < m.rows; ++r) {
        QRgb *line = reinterpret_cast<QRgb *>(img.scanLine(r));
        const float *src = m.values.data() + std::size_t(r) * m.cols;
        for (int c = 0; c < m.cols; ++c) {
            const float v = src[c];
            if (std::isnan(v)) {
                line[c] = grey;
                continue;
            }
            const int i = std::clamp(int(std::lround((v - scale.lo) * k)), 0, 255);
            line[c] = lut[std::size_t(i)];
        }
    }
    return img;
}

HeatmapLayout HeatmapLayout::compute(const QRectF &b, const AttentionMatrixView &m)
{
    HeatmapLayout l;
    const double titleH = 20, infoH = 18, legendW = 70, labelW = 90;
    l.title = QRectF(b.left(), b.top(), b.width(), titleH);
    l.info = QRectF(b.left(), b.bottom() - infoH, b.width(), infoH);
    l.legend = QRectF(b.right() - legendW, b.top() + titleH, legendW, b.height() - titleH - infoH);
    QRectF avail(b.left() + labelW, b.top() + titleH, b.width() - labelW - legendW - 6, b.height() - titleH - infoH - 4);
    if (m.rows > 0 && m.cols > 0 && avail.width() > 0 && avail.height() > 0) {
        // The grid fills the room it has (a wide dock gets a wide heatmap, not a square in its
        // corner); a cell is at most kMaxAspect times wider than tall or taller than wide, so a
        // small matrix in a long strip still reads as a matrix.
        constexpr double kMaxAspect = 4.0;
        double cellW = avail.width() / m.cols, cellH = avail.height() / m.rows;
        cellW = std::min(cellW, cellH * kMaxAspect);
        cellH = std::min(cellH, cellW * kMaxAspect);
        l.grid = QRectF(avail.left(), avail.top(), cellW * m.cols, cellH * m.rows);
        l.legend.moveLeft(l.grid.right() + 8); // the scale sits next to the grid
    }
    return l;
}

bool HeatmapLayout::cellAt(const QPointF &p, const AttentionMatrixView &m, int *row, int *col) const
{
    if (!grid.contains(p) || m.rows <= 0 || m.cols <= 0)
        return false;
    const int c = std::clamp(int((p.x() - grid.left()) / grid.width() * m.cols), 0, m.cols - 1);
    const int r = std::clamp(int((p.y() - grid.top()) / grid.height() * m.rows), 0, m.rows - 1);
    *row = r;
    *col = c;
    return true;
}

static QString number(float v)
{
    return std::isnan(v) ? QStringLiteral("n/a") : QString::number(double(v), 'g', 4);
}

void paintHeatmap(QPainter *p, const QRectF &bounds, const AttentionMatrixView &m, const HeatmapScale &scale,
                  const QImage &cells, const QString &info, const HeatmapFrameColors &colors)
{
    const HeatmapLayout l = HeatmapLayout::compute(bounds, m);
    p->save();
    p->fillRect(bounds, colors.background);
    p->setPen(colors.text);
    QFont f = p->font();
    f.setPointSizeF(8);
    p->setFont(f);
    const QFontMetricsF fm(f);
    p->drawText(l.title, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(m.title, Qt::ElideRight, l.title.width()));
    if (m.rows == 0 || l.grid.isEmpty()) {
        p->drawText(bounds, Qt::AlignCenter, QObject::tr("No attention to show"));
        p->restore();
        return;
    }
    // Cells: nearest-neighbour scaling keeps each cell a crisp square.
    p->setRenderHint(QPainter::SmoothPixmapTransform, false);
    p->drawImage(l.grid, cells);
    p->setPen(colors.frame);
    p->drawRect(l.grid);
    // Row labels when there is room for them (one label every `step` rows).
    const double cellH = l.grid.height() / m.rows;
    const int step = std::max(1, int(std::ceil(fm.height() / cellH)));
    for (int r = 0; r < m.rows && r < m.rowLabels.size(); r += step) {
        const QRectF lr(bounds.left(), l.grid.top() + r * cellH + cellH / 2 - fm.height() / 2, l.grid.left() - bounds.left() - 4,
                        fm.height());
        p->drawText(lr, Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(m.rowLabels.at(r), Qt::ElideRight, lr.width()));
    }
    // Legend: gradient bar with its range.
    const QRectF bar(l.legend.left() + 8, l.legend.top() + 14, 14, std::max(20.0, l.legend.height() - 28));
    QLinearGradient g(bar.bottomLeft(), bar.topLeft());
    for (int i = 0; i <= 16; ++i)
        g.setColorAt(i / 16.0, scale.color(scale.lo + (scale.hi - scale.lo) * float(i) / 16.0f));
    p->fillRect(bar, g);
    p->drawRect(bar);
    p->setPen(colors.text);
    const QRectF textCol(bar.right() + 3, 0, l.legend.right() - bar.right() - 3, fm.height());
    p->drawText(textCol.translated(0, bar.top() - fm.height() / 2), Qt::AlignLeft | Qt::AlignVCenter, number(scale.hi));
    p->drawText(textCol.translated(0, bar.bottom() - fm.height() / 2), Qt::AlignLeft | Qt::AlignVCenter, number(scale.lo));
    if (scale.diverging)
        p->drawText(textCol.translated(0, bar.center().y() - fm.height() / 2), Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("0"));
    p->drawText(QRectF(l.legend.left(), l.legend.top(), l.legend.width(), 12), Qt::AlignLeft | Qt::AlignVCenter,
                m.diverging ? QObject::tr("score") : QObject::tr("prob."));
    if (!info.isEmpty())
        p->drawText(l.info, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(info, Qt::ElideRight, l.info.width()));
    p->restore();
}

bool saveHeatmapPng(const AttentionMatrixView &m, const QString &path, const QSize &size, QString *error)
{
    QImage img(size, QImage::Format_RGB32);
    img.fill(Qt::white);
    const HeatmapScale scale = HeatmapScale::forMatrix(m);
    {
        QPainter p(&img);
        paintHeatmap(&p, QRectF(QPointF(0, 0), QSizeF(size)), m, scale, heatmapCells(m, scale));
    }
    if (!img.save(path, "PNG")) {
        if (error)
            *error = QObject::tr("%1: cannot write the PNG file").arg(path);
        return false;
    }
    return true;
}

bool saveHeatmapSvg(const AttentionMatrixView &m, const QString &path, const QSize &size, QString *error)
{
    QSvgGenerator gen;
    gen.setFileName(path);
    gen.setSize(size);
    gen.setViewBox(QRect(QPoint(0, 0), size));
    gen.setTitle(m.title);
    gen.setDescription(QObject::tr("Folio attention heatmap"));
    const HeatmapScale scale = HeatmapScale::forMatrix(m);
    {
        QPainter p;
        if (!p.begin(&gen)) {
            if (error)
                *error = QObject::tr("%1: cannot write the SVG file").arg(path);
            return false;
        }
        paintHeatmap(&p, QRectF(QPointF(0, 0), QSizeF(size)), m, scale, heatmapCells(m, scale));
    }
    if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0) {
        if (error)
            *error = QObject::tr("%1: the SVG file was not written").arg(path);
        return false;
    }
    return true;
}

} // namespace folio
