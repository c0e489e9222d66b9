#include "ui/attention/imagepatchcanvas.h"

#include "widgets/palettecolors.h"

#include "attention/heatmaprender.h"

#include <QImageReader>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace folio {

namespace {

HeatmapScale scaleOf(const std::vector<float> &v)
{
    HeatmapScale s;
    s.lo = 0;
    s.hi = 1e-6f;
    for (float x : v)
        if (std::isfinite(x))
            s.hi = std::max(s.hi, x);
    return s;
}

// Translucent orange over the page image, opaque in proportion to the value (the page stays
// readable under weak cells; the heatmaps' blue would hide dark scans).
QColor heat(float v, float hi, int maxAlpha)
{
    const double f = std::isfinite(v) && hi > 0 ? std::clamp(double(v) / hi, 0.0, 1.0) : 0.0;
    return QColor(235, 90, 0, int(std::lround(maxAlpha * f)));
}

} // namespace

ImagePatchCanvas::ImagePatchCanvas(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("imagePatchCanvas"));
    setMinimumSize(160, 200);
}

void ImagePatchCanvas::setPage(const Document &document, int page)
{
    m_image = QImage();
    m_pageSize = QSizeF(1000, 1000);
    if (page >= 0 && page < int(document.pages.size())) {
        const Page &p = document.pages[std::size_t(page)];
        if (!p.size.isEmpty())
            m_pageSize = p.size;
        if (!p.imagePath.isEmpty()) {
            QImageReader reader(p.imagePath);
            reader.setAutoTransform(true);
            // Bounded: a huge scan is read scaled down (the grid needs no more than the screen).
            const QSize size = reader.size();
            if (size.isValid() && (size.width() > 2400 || size.height() > 2400))
                reader.setScaledSize(size.scaled(2400, 2400, Qt::KeepAspectRatio));
            m_image = reader.read();
            if (!m_image.isNull() && p.size.isEmpty())
                m_pageSize = m_image.size();
        }
    }
    m_words.assign(document.words.size(), QRectF());
    for (std::size_t w = 0; w < document.words.size(); ++w)
        if (document.words[w].page == page) {
            const NormBox &b = document.words[w].norm;
            m_words[w] = QRectF(QPointF(b.x0, b.y0), QPointF(std::max(b.x1, b.x0 + 1), std::max(b.y1, b.y0 + 1)));
        }
    update();
}

void ImagePatchCanvas::setGridSide(int side)
{
    m_side = std::max(0, side);
    update();
}

void ImagePatchCanvas::setCellValues(const std::vector<float> &values)
{
    m_cells = values;
    update();
}

void ImagePatchCanvas::setWordValues(const std::vector<float> &values)
{
    m_wordValues = values;
    update();
}

void ImagePatchCanvas::setSelectedWord(int word)
{
    m_word = word;
    update();
}

void ImagePatchCanvas::setSelectedCell(int cell)
{
    m_cell = cell;
    update();
}

QRectF ImagePatchCanvas::pageRect() const
{
    const QRectF area = QRectF(rect()).adjusted(4, 4, -4, -4);
    QSizeF s = m_pageSize.isEmpty() ? QSizeF(1000, 1000) : m_pageSize;
    s.scale(area.size(), Qt::KeepAspectRatio);
    return QRectF(area.left() + (area.width() - s.width()) / 2, area.top() + (area.height() - s.height()) / 2, s.width(), s.height());
}

QRect ImagePatchCanvas::cellRect(int cell) const
{
    if (m_side <= 0 || cell < 0 || cell >= m_side * m_side)
        return QRect();
    const QRectF page = pageRect();
    const double w = page.width() / m_side, h = page.height() / m_side;
    return QRectF(page.left() + (cell % m_side) * w, page.top() + (cell / m_side) * h, w, h).toAlignedRect();
}

void ImagePatchCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRectF page = pageRect();
    if (m_image.isNull()) {
        // Light or dark, as the palette is now (widgets/palettecolors.h).
        p.fillRect(page, blankPageColor(palette()));
        p.setPen(isDarkPalette(palette()) ? QColor(170, 170, 170) : QColor(110, 110, 110));
        p.drawText(page, Qt::AlignCenter, tr("no page image"));
    } else {
        p.drawImage(page, m_image);
    }
    const double sx = page.width() / 1000.0, sy = page.height() / 1000.0;
    const auto toPage = [&](const QRectF &b) { return QRectF(page.left() + b.left() * sx, page.top() + b.top() * sy, b.width() * sx, b.height() * sy); };
    // Patch cells.
    if (m_side > 0 && int(m_cells.size()) == m_side * m_side) {
        const HeatmapScale scale = scaleOf(m_cells);
        for (int c = 0; c < m_side * m_side; ++c)
            p.fillRect(cellRect(c), heat(m_cells[std::size_t(c)], scale.hi, 210));
    }
    // Words: tinted by value (patch -> words), outlined.
    const HeatmapScale wordScale = scaleOf(m_wordValues);
    for (std::size_t w = 0; w < m_words.size(); ++w) {
        if (m_words[w].isNull())
            continue;
        const QRectF r = toPage(m_words[w]);
        if (w < m_wordValues.size() && m_wordValues[w] > 0) {
            p.fillRect(r, heat(m_wordValues[w], wordScale.hi, 230));
        }
        p.setPen(QPen(QColor(90, 90, 90, 140), 0));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
    }
    if (m_word >= 0 && m_word < int(m_words.size()) && !m_words[std::size_t(m_word)].isNull()) {
        p.setPen(QPen(QColor(210, 0, 0), 2));
        p.drawRect(toPage(m_words[std::size_t(m_word)]));
    }
    // Grid lines and the selected cell.
    if (m_side > 0) {
        p.setPen(QPen(QColor(40, 40, 40, 110), 0));
        for (int i = 0; i <= m_side; ++i) {
            const double x = page.left() + i * page.width() / m_side, y = page.top() + i * page.height() / m_side;
            p.drawLine(QPointF(x, page.top()), QPointF(x, page.bottom()));
            p.drawLine(QPointF(page.left(), y), QPointF(page.right(), y));
        }
        if (m_cell >= 0) {
            p.setPen(QPen(QColor(230, 120, 0), 3));
            p.drawRect(cellRect(m_cell));
        }
    }
}

void ImagePatchCanvas::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && m_side > 0)
        for (int c = 0; c < m_side * m_side; ++c)
            if (cellRect(c).contains(event->position().toPoint())) {
                Q_EMIT cellClicked(c);
                break;
            }
    QWidget::mousePressEvent(event);
}

} // namespace folio
