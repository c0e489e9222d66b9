// PageCanvas, Tool::EditBoxes and the what-if geometry (issue 48): dragging a word's box to move or
// resize it, and drawing boxes that an edit moved or deleted. The canvas only shows and asks; the
// caller makes the edited copy (pipeline/whatif.h) and hands the boxes back with setEditedBoxes.
#include "widgets/pagecanvas.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace folio {

namespace {
constexpr double kResizeHandle = 8; // widget pixels around a box's bottom-right corner
constexpr double kMinDrag = 2;      // widget pixels: less is a click, not a move
} // namespace

void PageCanvas::setEditedBoxes(const QHash<int, QRectF> &boxes, const QSet<int> &deleted)
{
    // Back to the document's own boxes first, then the new set on top.
    for (auto it = m_originalBoxes.constBegin(); it != m_originalBoxes.constEnd(); ++it)
        if (const auto box = m_boxOfWord.constFind(it.key()); box != m_boxOfWord.constEnd())
            m_boxes[std::size_t(*box)].rect = it.value();
    m_originalBoxes.clear();
    m_editedBoxes = boxes;
    m_deletedWords = deleted;
    applyEditedBoxes();
    update();
}

void PageCanvas::applyEditedBoxes()
{
    m_originalBoxes.clear();
    for (auto it = m_editedBoxes.constBegin(); it != m_editedBoxes.constEnd(); ++it) {
        const auto box = m_boxOfWord.constFind(it.key());
        if (box == m_boxOfWord.constEnd())
            continue;
        Box &b = m_boxes[std::size_t(*box)];
        m_originalBoxes.insert(it.key(), b.rect);
        b.rect = it.value();
    }
}

bool PageCanvas::beginBoxDrag(int word, const QPointF &widgetPos)
{
    const QRectF r = wordRectInWidget(word);
    if (r.isNull())
        return false;
    m_boxDragWord = word;
    // A small box keeps its middle for moving: the handle shrinks with it.
    const double handle = std::min(kResizeHandle, 0.3 * std::min(r.width(), r.height()));
    m_boxDragResize = QLineF(widgetPos, r.bottomRight()).length() <= handle;
    return true;
}

QRectF PageCanvas::boxDragRect() const
{
    const Box *b = boxFor(m_boxDragWord);
    if (!b || m_zoom <= 0)
        return QRectF();
    const QPointF delta = mapToPage(m_dragNow) - mapToPage(m_dragStart);
    QRectF r = b->rect;
    if (m_boxDragResize) {
        r.setWidth(r.width() + delta.x());
        r.setHeight(r.height() + delta.y());
    } else {
        r.translate(delta);
    }
    return r;
}

void PageCanvas::finishBoxDrag()
{
    const int word = m_boxDragWord;
    const QRectF r = boxDragRect();
    const bool moved = QLineF(m_dragStart, m_dragNow).length() >= kMinDrag;
    m_boxDragWord = -1;
    update();
    if (word >= 0 && moved && !r.isNull())
        Q_EMIT boxEditRequested(word, r);
}

void PageCanvas::paintBoxEdits(QPainter &p)
{
    p.save();
    p.setBrush(Qt::NoBrush);
    // Where an edited box was: dashed grey, joined to where it is now.
    for (auto it = m_originalBoxes.constBegin(); it != m_originalBoxes.constEnd(); ++it) {
        const QRectF was(mapFromPage(it.value().topLeft()), mapFromPage(it.value().bottomRight()));
        const QRectF now = wordRectInWidget(it.key());
        p.setPen(QPen(QColor(90, 90, 90, 200), 1, Qt::DashLine));
        p.drawRect(was);
        if (!now.isNull() && QLineF(was.center(), now.center()).length() > 2)
            p.drawLine(was.center(), now.center());
        p.setPen(QPen(QColor(200, 0, 120), 2));
        p.drawRect(now);
    }
    // Deleted words: crossed out.
    for (int w : m_deletedWords) {
        const QRectF r = wordRectInWidget(w);
        if (r.isNull())
            continue;
        p.fillRect(r, QColor(120, 120, 120, 110));
        p.setPen(QPen(QColor(200, 0, 60), 2));
        p.drawLine(r.topLeft(), r.bottomRight());
        p.drawLine(r.bottomLeft(), r.topRight());
    }
    // The box being dragged, and the page's edge when it leaves the page.
    if (m_drag == Drag::Box && m_boxDragWord >= 0) {
        const QRectF pageBox = boxDragRect();
        const QRectF r(mapFromPage(pageBox.topLeft()), mapFromPage(pageBox.bottomRight()));
        const bool inside = QRectF(QPointF(0, 0), m_pageSize).contains(pageBox);
        p.setPen(QPen(inside ? QColor(200, 0, 120) : QColor(220, 0, 0), 2, Qt::DashLine));
        p.drawRect(r.normalized());
    } else {
        // The resize handle of the selected word.
        if (m_tool == Tool::EditBoxes && m_selection.size() == 1) {
            const QRectF r = wordRectInWidget(m_selection.front());
            if (!r.isNull())
                p.fillRect(QRectF(r.bottomRight() - QPointF(3, 3), QSizeF(6, 6)), QColor(200, 0, 120));
        }
    }
    p.restore();
}

} // namespace folio
