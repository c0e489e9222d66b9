#include "ui/attention/headgridview.h"

#include "widgets/palettecolors.h"

#include <QDateTime>
#include <QMouseEvent>
#include <QPainter>

namespace folio {

namespace {
constexpr int kLeft = 96;   // row names
constexpr int kTop = 4;
constexpr int kLabel = 14;  // column label above each thumbnail
constexpr int kGap = 6;
} // namespace

HeadGridView::HeadGridView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("headGridView"));
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

void HeadGridView::setGrid(const QStringList &rowNames, int columns, int side)
{
    m_rows.clear();
    for (const QString &n : rowNames) {
        Row r;
        r.name = n;
        r.thumbs.resize(std::size_t(std::max(0, columns)));
        m_rows.push_back(r);
    }
    m_columns = std::max(0, columns);
    m_side = std::max(8, side);
    m_gridStartMs = QDateTime::currentMSecsSinceEpoch();
    m_firstPaintMs = -1;
    setFixedSize(sizeHint());
    update();
}

void HeadGridView::setColumnLabels(int row, const QStringList &labels)
{
    if (row < 0 || row >= rowCount())
        return;
    m_rows[std::size_t(row)].labels = labels;
    update();
}

void HeadGridView::setThumbnail(int row, int column, const QImage &image)
{
    if (row < 0 || row >= rowCount() || column < 0 || column >= m_columns)
        return;
    m_rows[std::size_t(row)].thumbs[std::size_t(column)] = image;
    update(cellRect(row, column).adjusted(-1, -kLabel, 1, 1));
}

void HeadGridView::clearThumbnails()
{
    for (Row &r : m_rows)
        for (QImage &i : r.thumbs)
            i = QImage();
    update();
}

int HeadGridView::thumbnailCount() const
{
    int n = 0;
    for (const Row &r : m_rows)
        for (const QImage &i : r.thumbs)
            n += i.isNull() ? 0 : 1;
    return n;
}

QImage HeadGridView::thumbnail(int row, int column) const
{
    if (row < 0 || row >= rowCount() || column < 0 || column >= m_columns)
        return QImage();
    return m_rows[std::size_t(row)].thumbs[std::size_t(column)];
}

QRect HeadGridView::cellRect(int row, int column) const
{
    const int pitchX = m_side + kGap, pitchY = m_side + kLabel + kGap;
    return QRect(kLeft + column * pitchX, kTop + row * pitchY + kLabel, m_side, m_side);
}

bool HeadGridView::cellAt(const QPoint &pos, int *row, int *column) const
{
    for (int r = 0; r < rowCount(); ++r)
        for (int c = 0; c < m_columns; ++c)
            if (cellRect(r, c).contains(pos)) {
                *row = r;
                *column = c;
                return true;
            }
    return false;
}

QSize HeadGridView::sizeHint() const
{
    return QSize(kLeft + m_columns * (m_side + kGap) + 4, kTop + rowCount() * (m_side + kLabel + kGap) + 4);
}

void HeadGridView::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    p.fillRect(event->rect(), palette().base());
    QFont f = font();
    f.setPixelSize(11);
    p.setFont(f);
    bool painted = false;
    for (int r = 0; r < rowCount(); ++r) {
        const Row &row = m_rows[std::size_t(r)];
        const QRect first = cellRect(r, 0);
        p.setPen(palette().text().color());
        p.drawText(QRect(2, first.top(), kLeft - 8, m_side), Qt::AlignRight | Qt::AlignVCenter, row.name);
        for (int c = 0; c < m_columns; ++c) {
            const QRect cell = cellRect(r, c);
            if (!cell.adjusted(0, -kLabel, 0, 0).intersects(event->rect()))
                continue;
            p.setPen(palette().text().color());
            if (c < row.labels.size())
                p.drawText(QRect(cell.left(), cell.top() - kLabel, m_side, kLabel), Qt::AlignLeft | Qt::AlignVCenter,
                           row.labels.at(c));
            const QImage &img = row.thumbs[std::size_t(c)];
            if (img.isNull()) {
                p.fillRect(cell, placeholderFill(palette())); // light or dark (widgets/palettecolors.h)
            } else {
                p.drawImage(cell, img);
                painted = true;
            }
        }
    }
    if (painted && m_firstPaintMs < 0)
        m_firstPaintMs = QDateTime::currentMSecsSinceEpoch() - m_gridStartMs;
}

void HeadGridView::mousePressEvent(QMouseEvent *event)
{
    int r = -1, c = -1;
    if (event->button() == Qt::LeftButton && cellAt(event->position().toPoint(), &r, &c))
        Q_EMIT thumbnailClicked(r, c);
    QWidget::mousePressEvent(event);
}

} // namespace folio
