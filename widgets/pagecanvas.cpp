#include "widgets/pagecanvas.h"
#include "widgets/palettecolors.h"
#include "widgets/pagecanvasaccessible.h"
#include <QAccessible>

#include <QKeyEvent>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace folio {

static constexpr double kMinZoom = 0.05;
static constexpr double kMaxZoom = 16.0;
static constexpr double kZoomStep = 1.25;

PageCanvas::PageCanvas(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    installPageCanvasAccessibility();
}

PageCanvas::~PageCanvas()
{
    // The editor is a child: detach it before QWidget's destructor hides it (focus-out signals).
    for (QLineEdit *editor : findChildren<QLineEdit *>(Qt::FindDirectChildrenOnly)) {
        editor->disconnect(this);
        editor->removeEventFilter(this);
    }
    delete m_editor;
}

void PageCanvas::setPage(const Document &doc, int page, const QImage &image)
{
    cancelEdit();
    m_page = page;
    m_pageSize = page >= 0 && page < int(doc.pages.size()) ? doc.pages[size_t(page)].size : QSizeF();
    if (m_pageSize.isEmpty() && !image.isNull())
        m_pageSize = image.size();
    if (image.cacheKey() != m_image.cacheKey())
        m_scaledPage = QPixmap(); // the same page redrawn keeps its scaled copy
    m_image = image;
    m_imageScale = (!image.isNull() && m_pageSize.width() > 0) ? image.width() / m_pageSize.width() : 1.0;
    m_boxes.clear();
    m_boxOfWord.clear();
    for (size_t i = 0; i < doc.words.size(); ++i) {
        const Word &w = doc.words[i];
        if (w.page != page || w.box.isNull())
            continue;
        m_boxOfWord.insert(int(i), int(m_boxes.size()));
        m_boxes.push_back(Box{int(i), w.box, w.text, w.confidence});
    }
    applyEditedBoxes();
    QList<int> kept;
    for (int w : m_selection)
        if (m_boxOfWord.contains(w))
            kept << w;
    m_selection = kept;
    m_hover = -1;
    if (m_fit)
        fitToWindow();
    else
        clampScroll();
    update();
    if (QAccessible::isActive()) { // the accessible children are now this page's words (untested offscreen)
        QAccessibleEvent reordered(this, QAccessible::ObjectReorder);
        QAccessible::updateAccessibility(&reordered);
    }
}

void PageCanvas::clear()
{
    setPage(Document(), -1, QImage());
    clearOverlays();
}

void PageCanvas::setBoxColors(const QHash<int, QColor> &colors)
{
    m_colors = colors;
    update();
}

void PageCanvas::setBoxLabels(const QHash<int, QString> &labels)
{
    m_labels = labels;
    update();
    if (QAccessible::isActive()) { // a screen reader reads the labels again (not observable offscreen: untested)
        QAccessibleEvent changed(this, QAccessible::DescriptionChanged);
        QAccessible::updateAccessibility(&changed);
    }
}

void PageCanvas::setHighlightedWords(const QList<int> &words)
{
    m_highlight = QSet<int>(words.begin(), words.end());
    update();
}

void PageCanvas::clearOverlays()
{
    m_colors.clear();
    m_labels.clear();
    update();
}

void PageCanvas::setLowConfidenceThreshold(double threshold)
{
    m_lowConfidence = threshold;
    update();
}

void PageCanvas::setSelection(const QList<int> &words)
{
    m_selection = words;
    std::sort(m_selection.begin(), m_selection.end());
    update();
}

void PageCanvas::setCurrentWord(int wordIndex)
{
    const Box *b = boxFor(wordIndex);
    if (!b)
        return;
    m_selection = {wordIndex};
    const QRectF r = wordRectInWidget(wordIndex);
    const QRectF view = QRectF(rect()).adjusted(20, 20, -20, -20);
    if (!view.contains(r)) {
        scrollBy(r.center() - QRectF(rect()).center());
        m_fit = false;
    }
    update();
}

void PageCanvas::setTool(Tool tool)
{
    m_tool = tool;
    setCursor(tool == Tool::Select ? Qt::ArrowCursor : tool == Tool::EditBoxes ? Qt::SizeAllCursor : Qt::CrossCursor);
}

void PageCanvas::setLinks(const QList<QPair<int, int>> &links, const QList<QPair<int, int>> &suggested)
{
    m_links = links;
    m_suggestedLinks = suggested;
    update();
}

// ---- geometry ---------------------------------------------------------------------------------
QSizeF PageCanvas::contentSize() const { return m_pageSize * m_zoom; }

QPointF PageCanvas::origin() const
{
    const QSizeF c = contentSize();
    return QPointF(std::max(0.0, (width() - c.width()) / 2), std::max(0.0, (height() - c.height()) / 2)) - m_scroll;
}

QPointF PageCanvas::mapToPage(const QPointF &widgetPos) const { return (widgetPos - origin()) / m_zoom; }
QPointF PageCanvas::mapFromPage(const QPointF &pagePos) const { return pagePos * m_zoom + origin(); }

const PageCanvas::Box *PageCanvas::boxFor(int wordIndex) const
{
    const auto it = m_boxOfWord.constFind(wordIndex);
    return it == m_boxOfWord.constEnd() ? nullptr : &m_boxes[size_t(*it)];
}

QRectF PageCanvas::wordRectInWidget(int wordIndex) const
{
    const Box *b = boxFor(wordIndex);
    if (!b)
        return QRectF();
    return QRectF(mapFromPage(b->rect.topLeft()), mapFromPage(b->rect.bottomRight()));
}

int PageCanvas::wordAt(const QPointF &widgetPos) const
{
    const QPointF p = mapToPage(widgetPos);
    int best = -1;
    double bestArea = 0;
    for (const Box &b : m_boxes) { // the smallest box wins where boxes overlap
        if (!b.rect.adjusted(-1, -1, 1, 1).contains(p))
            continue;
        const double area = b.rect.width() * b.rect.height();
        if (best < 0 || area < bestArea) {
            best = b.word;
            bestArea = area;
        }
    }
    return best;
}

std::vector<LabelChip> PageCanvas::placeChips(const QFont &font) const
{
    std::vector<LabelChipRequest> requests;
    std::vector<QRectF> obstacles;
    const QRectF view(rect());
    for (const Box &b : m_boxes) {
        const QRectF r = wordRectInWidget(b.word);
        if (!r.intersects(view.adjusted(-200, -60, 200, 60)))
            continue;
        obstacles.push_back(r);
        const auto label = m_labels.constFind(b.word);
        if (label != m_labels.constEnd() && !label->isEmpty() && r.intersects(view))
            requests.push_back({b.word, r, *label, m_colors.value(b.word)});
    }
    return placeLabelChips(requests, QFontMetricsF(font), obstacles, view, m_zoom >= m_labelMinZoom);
}

int PageCanvas::chipAt(const QPointF &pos) const
{
    for (const LabelChip &chip : m_chips)
        if (chip.rect.adjusted(0, chip.collapsed ? -2 : 0, 0, chip.collapsed ? 2 : 0).contains(pos))
            return chip.word;
    return -1;
}

void PageCanvas::setLabelsVisible(bool visible)
{
    if (m_showLabels == visible)
        return;
    m_showLabels = visible;
    update();
}

void PageCanvas::setLabelMinZoom(double zoom)
{
    m_labelMinZoom = zoom;
    update();
}

QList<int> PageCanvas::shownWords() const
{
    QList<int> words;
    words.reserve(int(m_boxes.size()));
    for (const Box &b : m_boxes)
        words << b.word;
    return words;
}

QString PageCanvas::wordText(int wordIndex) const
{
    const Box *b = boxFor(wordIndex);
    return b ? b->text : QString();
}

QString PageCanvas::toolTipFor(int wordIndex) const
{
    const Box *b = boxFor(wordIndex);
    if (!b)
        return QString();
    QString tip = b->text;
    if (b->confidence >= 0)
        tip += tr("\nconfidence %1").arg(b->confidence, 0, 'f', 1);
    if (m_labels.contains(wordIndex))
        tip += QStringLiteral("\n") + m_labels.value(wordIndex);
    return tip;
}

QList<int> PageCanvas::wordsIn(const QRectF &widgetRect) const
{
    const QRectF r(mapToPage(widgetRect.topLeft()), mapToPage(widgetRect.bottomRight()));
    QList<int> out;
    for (const Box &b : m_boxes)
        if (r.intersects(b.rect))
            out << b.word;
    std::sort(out.begin(), out.end());
    return out;
}

void PageCanvas::clampScroll()
{
    const QSizeF c = contentSize();
    m_scroll.setX(std::clamp(m_scroll.x(), 0.0, std::max(0.0, c.width() - width())));
    m_scroll.setY(std::clamp(m_scroll.y(), 0.0, std::max(0.0, c.height() - height())));
}

void PageCanvas::scrollBy(const QPointF &delta)
{
    m_scroll += delta;
    clampScroll();
    update();
}

// ---- zoom -------------------------------------------------------------------------------------
void PageCanvas::zoomAround(double zoom, const QPointF &anchor)
{
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    if (std::abs(zoom - m_zoom) < 1e-9)
        return;
    const QPointF pagePoint = mapToPage(anchor);
    m_zoom = zoom;
    m_fit = false;
    // Keep the page point under the anchor where it was.
    m_scroll = QPointF(0, 0);
    const QPointF now = mapFromPage(pagePoint);
    m_scroll = now - anchor;
    clampScroll();
    if (m_editor)
        cancelEdit();
    update();
    Q_EMIT zoomChanged(m_zoom);
}

void PageCanvas::setZoom(double zoom) { zoomAround(zoom, QRectF(rect()).center()); }
void PageCanvas::zoomIn() { setZoom(m_zoom * kZoomStep); }
void PageCanvas::zoomOut() { setZoom(m_zoom / kZoomStep); }

void PageCanvas::fitToWindow()
{
    m_fit = true;
    m_scroll = QPointF(0, 0);
    if (m_pageSize.isEmpty() || width() <= 0 || height() <= 0)
        return;
    const double z = std::min((width() - 8) / m_pageSize.width(), (height() - 8) / m_pageSize.height());
    const double old = m_zoom;
    m_zoom = std::clamp(z, kMinZoom, kMaxZoom);
    update();
    if (std::abs(old - m_zoom) > 1e-9)
        Q_EMIT zoomChanged(m_zoom);
}

// ---- painting ---------------------------------------------------------------------------------
void PageCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    // Light or dark, as the palette is now (widgets/palettecolors.h): the backdrop, and a page that
    // has no image of its own; a scan is drawn as it is.
    p.fillRect(rect(), canvasBackdrop(palette()));
    if (m_pageSize.isEmpty())
        return;
    const QRectF pageRect(origin(), contentSize());
    p.fillRect(pageRect, m_image.isNull() ? blankPageColor(palette()) : QColor(Qt::white));
    if (!m_image.isNull()) {
        // Scaled once per zoom and kept as a pixmap, not on every repaint (a hover or a new label
        // repaints the page); a zoomed-in page larger than this is drawn straight from the image
        // (only its visible part).
        constexpr qint64 kMaxCachedPixels = 16'000'000; // 64 MB
        const QSize target = pageRect.size().toSize();
        if (qint64(target.width()) * target.height() > kMaxCachedPixels) {
            m_scaledPage = QPixmap();
            p.setRenderHint(QPainter::SmoothPixmapTransform, m_zoom < 1);
            p.drawImage(pageRect, m_image);
        } else {
            if (m_scaledPage.size() != target)
                m_scaledPage = QPixmap::fromImage(target == m_image.size()
                                                      ? m_image
                                                      : m_image.scaled(target, Qt::IgnoreAspectRatio,
                                                                       m_zoom < 1 ? Qt::SmoothTransformation : Qt::FastTransformation));
            p.drawPixmap(pageRect.topLeft(), m_scaledPage);
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    QFont labelFont = font();
    labelFont.setPointSizeF(std::max(6.0, labelFont.pointSizeF() * 0.8));
    for (const Box &b : m_boxes) {
        const QRectF r = wordRectInWidget(b.word);
        if (!r.intersects(QRectF(rect())))
            continue;
        const bool low = b.confidence >= 0 && b.confidence < m_lowConfidence;
        const auto color = m_colors.constFind(b.word);
        if (color != m_colors.constEnd())
            p.fillRect(r, *color);
        else if (low)
            p.fillRect(r, QColor(255, 80, 0, 60));
        QPen pen(low ? QColor(220, 60, 0) : QColor(0, 110, 220, 170));
        pen.setWidthF(1);
        if (m_selection.contains(b.word)) {
            pen = QPen(QColor(255, 170, 0), 2);
        } else if (b.word == m_hover) {
            pen.setWidthF(2);
        }
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
        if (m_highlight.contains(b.word)) // evidence of the current question: a band over the word
            p.fillRect(r.adjusted(-1, -1, 1, 1), QColor(40, 170, 60, 80));
    }
    paintBoxEdits(p); // what-if: where the edited boxes were, deleted words, the box being dragged
    // Label chips after every box, placed so that they cover neither each other nor a word.
    m_chips = m_showLabels ? placeChips(labelFont) : std::vector<LabelChip>();
    p.setFont(labelFont);
    for (const LabelChip &chip : m_chips) {
        const QColor c = chip.color.isValid() ? QColor(chip.color.red(), chip.color.green(), chip.color.blue(), 230) : QColor(60, 60, 60, 220);
        p.fillRect(chip.rect, chip.collapsed ? QColor(c.red(), c.green(), c.blue()) : c);
        if (chip.collapsed)
            continue;
        p.setPen(textColorOn(c)); // >= 4.5:1 on every label colour (tst_legibility, tst_darkpalette)
        p.drawText(chip.rect.adjusted(3, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, chip.text);
    }
    // Links: an arrow from the centre of the key's first box to the value's.
    p.setRenderHint(QPainter::Antialiasing, true);
    const auto arrow = [&p](const QPointF &a, const QPointF &b, const QColor &color, Qt::PenStyle style = Qt::SolidLine) {
        p.setPen(QPen(color, 2, style));
        p.drawLine(a, b);
        const QLineF line(b, a);
        if (line.length() < 1)
            return;
        QLineF head = line;
        head.setLength(10);
        for (double angle : {25.0, -25.0}) {
            QLineF wing = head;
            wing.setAngle(line.angle() + angle);
            p.drawLine(wing);
        }
    };
    for (const auto &link : m_links) {
        const QRectF from = wordRectInWidget(link.first), to = wordRectInWidget(link.second);
        if (!from.isNull() && !to.isNull())
            arrow(from.center(), to.center(), QColor(150, 40, 200, 200));
    }
    for (const auto &link : m_suggestedLinks) { // a model's suggestions: dashed, lighter
        const QRectF from = wordRectInWidget(link.first), to = wordRectInWidget(link.second);
        if (!from.isNull() && !to.isNull())
            arrow(from.center(), to.center(), QColor(150, 40, 200, 130), Qt::DashLine);
    }
    if (m_drag == Drag::Link && m_linkFrom >= 0) {
        const QRectF from = wordRectInWidget(m_linkFrom);
        if (!from.isNull())
            arrow(from.center(), m_dragNow, QColor(150, 40, 200, 120));
    }
    if (m_drag == Drag::Rubber || m_drag == Drag::Region) {
        const QRectF r = QRectF(m_dragStart, m_dragNow).normalized();
        p.setPen(QPen(m_drag == Drag::Region ? QColor(200, 0, 120) : QColor(0, 120, 215), 1, Qt::DashLine));
        p.setBrush(m_drag == Drag::Region ? QColor(200, 0, 120, 30) : QColor(0, 120, 215, 30));
        p.drawRect(r);
    }
}

void PageCanvas::resizeEvent(QResizeEvent *)
{
    if (m_fit)
        fitToWindow();
    else
        clampScroll();
}

QSize PageCanvas::sizeHint() const { return QSize(640, 800); }

// ---- input ------------------------------------------------------------------------------------
void PageCanvas::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = delta.y() / 120.0;
        zoomAround(m_zoom * std::pow(kZoomStep, steps), event->position());
    } else if (event->modifiers() & Qt::ShiftModifier) {
        scrollBy(QPointF(-delta.y(), 0));
    } else {
        scrollBy(QPointF(-delta.x(), -delta.y()));
    }
    event->accept();
}

void PageCanvas::mousePressEvent(QMouseEvent *event)
{
    setFocus();
    m_dragStart = m_dragNow = event->position();
    if (event->button() == Qt::MiddleButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::AltModifier))) {
        m_drag = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    if (m_editor)
        commitEdit();
    if (m_tool == Tool::DrawRegion) {
        m_drag = Drag::Region;
        return;
    }
    const int w = wordAt(event->position());
    if (m_tool == Tool::EditBoxes) {
        if (w < 0) {
            m_drag = Drag::None;
            return;
        }
        m_selection = {w};
        m_drag = beginBoxDrag(w, event->position()) ? Drag::Box : Drag::None;
        update();
        Q_EMIT boxClicked(w, event->modifiers());
        emitSelection();
        return;
    }
    if (m_tool == Tool::DrawLink) {
        m_linkFrom = w;
        m_drag = w >= 0 ? Drag::Link : Drag::None;
        return;
    }
    if (w < 0) {
        m_drag = Drag::Rubber;
        return;
    }
    m_drag = Drag::None;
    const Qt::KeyboardModifiers mods = event->modifiers();
    if (mods & (Qt::ShiftModifier | Qt::ControlModifier)) {
        if (m_selection.contains(w))
            m_selection.removeAll(w);
        else
            m_selection << w;
        std::sort(m_selection.begin(), m_selection.end());
    } else {
        m_selection = {w};
    }
    update();
    Q_EMIT boxClicked(w, mods);
    emitSelection();
}

void PageCanvas::mouseMoveEvent(QMouseEvent *event)
{
    const QPointF pos = event->position();
    if (m_drag == Drag::Pan) {
        scrollBy(m_dragNow - pos);
        m_dragNow = pos;
        m_fit = false;
        return;
    }
    if (m_drag == Drag::Rubber || m_drag == Drag::Region || m_drag == Drag::Link || m_drag == Drag::Box) {
        m_dragNow = pos;
        update();
        return;
    }
    int w = wordAt(pos);
    if (w < 0)
        w = chipAt(pos); // a chip (or its bar) stands for its word: the tooltip gives the full label
    if (w != m_hover) {
        m_hover = w;
        update();
        Q_EMIT wordHovered(w);
        if (w >= 0)
            QToolTip::showText(event->globalPosition().toPoint(), toolTipFor(w), this, wordRectInWidget(w).toAlignedRect());
        else
            QToolTip::hideText();
    }
}

void PageCanvas::mouseReleaseEvent(QMouseEvent *event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    m_dragNow = event->position();
    if (drag == Drag::Pan) {
        setTool(m_tool); // its cursor back
        return;
    }
    if (drag == Drag::Box) {
        finishBoxDrag();
        return;
    }
    const QRectF r = QRectF(m_dragStart, m_dragNow).normalized();
    if (drag == Drag::Link) {
        update();
        const int to = wordAt(m_dragNow);
        if (m_linkFrom >= 0 && to >= 0 && to != m_linkFrom)
            Q_EMIT linkDrawn(m_linkFrom, to);
        m_linkFrom = -1;
        return;
    }
    if (drag == Drag::Region) {
        update();
        if (r.width() < 3 || r.height() < 3)
            return;
        const QRectF pageRect = QRectF(mapToPage(r.topLeft()), mapToPage(r.bottomRight()))
                                    .intersected(QRectF(QPointF(0, 0), m_pageSize));
        setTool(Tool::Select);
        if (!pageRect.isEmpty())
            Q_EMIT regionDrawn(m_page, pageRect.toAlignedRect());
        return;
    }
    if (drag == Drag::Rubber) {
        update();
        if (r.width() < 3 && r.height() < 3) { // a plain click on empty page clears the selection
            if (!m_selection.isEmpty() && !(event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier))) {
                m_selection.clear();
                emitSelection();
            }
            return;
        }
        QList<int> words = wordsIn(r);
        if (event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier)) {
            for (int w : std::as_const(m_selection))
                if (!words.contains(w))
                    words << w;
            std::sort(words.begin(), words.end());
        }
        m_selection = words;
        Q_EMIT rubberBandSelected(words);
        emitSelection();
    }
}

void PageCanvas::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || m_tool != Tool::Select)
        return;
    const int w = wordAt(event->position());
    if (w >= 0)
        editWord(w);
}

void PageCanvas::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        return;
    case Qt::Key_Minus:
        zoomOut();
        return;
    case Qt::Key_0:
    case Qt::Key_F:
        fitToWindow();
        return;
    case Qt::Key_Delete:
    case Qt::Key_Backspace:
        if (m_tool == Tool::EditBoxes && m_selection.size() == 1) {
            Q_EMIT boxDeleteRequested(m_selection.front());
            return;
        }
        break;
    case Qt::Key_F2:
        if (m_selection.size() == 1)
            editWord(m_selection.front());
        return;
    case Qt::Key_Escape:
        if (m_tool == Tool::DrawRegion) {
            setTool(Tool::Select);
            m_drag = Drag::None;
            update();
            return;
        }
        break;
    default:
        break;
    }
    QWidget::keyPressEvent(event);
}

void PageCanvas::leaveEvent(QEvent *)
{
    if (m_hover >= 0) {
        m_hover = -1;
        update();
        Q_EMIT wordHovered(-1);
    }
}

void PageCanvas::emitSelection() { Q_EMIT selectionChanged(m_selection); }

// ---- in-place edit ----------------------------------------------------------------------------
bool PageCanvas::editWord(int wordIndex)
{
    const Box *b = boxFor(wordIndex);
    if (!b)
        return false;
    cancelEdit();
    m_editWord = wordIndex;
    m_editor = new QLineEdit(this);
    m_editor->setText(b->text);
    m_editor->selectAll();
    const QRect r = wordRectInWidget(wordIndex).toAlignedRect();
    m_editor->setGeometry(r.x(), r.y(), std::max(r.width() + 40, 80), std::max(r.height(), m_editor->sizeHint().height()));
    connect(m_editor, &QLineEdit::returnPressed, this, &PageCanvas::commitEdit);
    m_editor->installEventFilter(this);
    m_editor->show();
    m_editor->setFocus();
    connect(m_editor, &QLineEdit::editingFinished, this, [this] {
        if (m_editor && !m_editor->hasFocus())
            commitEdit();
    });
    return true;
}

bool PageCanvas::eventFilter(QObject *watched, QEvent *event)
{
    if (m_editor && watched == m_editor &&
        (event->type() == QEvent::KeyPress || event->type() == QEvent::ShortcutOverride) &&
        static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape) {
        cancelEdit();
        setFocus();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

bool PageCanvas::isEditing() const { return m_editor != nullptr; }

void PageCanvas::commitEdit()
{
    if (!m_editor)
        return;
    const QString text = m_editor->text().trimmed();
    const int word = m_editWord;
    const Box *b = boxFor(word);
    const bool changed = b && !text.isEmpty() && text != b->text;
    cancelEdit();
    setFocus();
    if (changed)
        Q_EMIT wordEditRequested(word, text);
}

void PageCanvas::cancelEdit()
{
    if (!m_editor)
        return;
    QLineEdit *editor = m_editor;
    m_editor = nullptr;
    m_editWord = -1;
    editor->disconnect(this);
    editor->removeEventFilter(this);
    editor->hide();
    editor->deleteLater();
}

} // namespace folio
