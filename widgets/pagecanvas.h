#pragma once
// PageCanvas: one page image with its word boxes; zoom, pan, selection, in-place text edit and
// per-box overlays (entity colours/labels, attention heatmaps). Paints what it is given, never
// calls an engine; edits leave as signals and the caller applies them.
//
// Usage:
//     auto *canvas = new folio::PageCanvas(this);
//     canvas->setPage(doc, /*page=*/0, QImage(doc.pages[0].imagePath));
//     connect(canvas, &PageCanvas::boxClicked, ...);            // (word index, modifiers)
//     connect(canvas, &PageCanvas::wordEditRequested, ...);     // apply, then setPage() again
//     connect(canvas, &PageCanvas::regionDrawn, ...);           // after setTool(Tool::DrawRegion)
//     canvas->setBoxColors({{wordIndex, QColor(255, 0, 0, 90)}}); canvas->setBoxLabels(...);
//
// All word indices are Document::words indices. Input: Ctrl+wheel or +/- zoom, 0 or F fits the
// page, wheel / Shift+wheel scroll, middle-button or Alt+left drag pans; click selects a word,
// Shift/Ctrl+click toggles it, a left drag on empty page selects by rubber band, double-click or
// F2 edits the word's text (Enter commits, Esc cancels). Words with confidence below
// lowConfidenceThreshold() (0..100) are tinted; words without confidence (-1) never are.
// Labels (setBoxLabels) are chips placed beside their word so that they cover neither each other
// nor another word (widgets/labelchips.h); one with no room, or any below labelMinZoom(), is a
// colour bar; hovering a word or its chip shows the full label. setLabelsVisible(false) hides them.
// Screen readers see each word as a child of the canvas: its text as the name, its label as the
// description (widgets/pagecanvasaccessible.h).
// Tool::EditBoxes (what-if, issue 48; widgets/pagecanvasboxedit.cpp): a left drag on a word moves its
// box, a drag from its bottom-right corner resizes it, Delete asks to delete the selected word;
// each leaves as boxEditRequested / boxDeleteRequested. setEditedBoxes shows boxes elsewhere than
// the document has them (the original place dashed, deleted words crossed out) until cleared.

#include "document/document.h"
#include "widgets/labelchips.h"

#include <QColor>
#include <QHash>
#include <QImage>
#include <QPixmap>
#include <QList>
#include <QPair>
#include <QSet>
#include <QWidget>

#include <vector>

class QLineEdit;
class QPainter;

namespace folio {

class PageCanvas : public QWidget
{
    Q_OBJECT
public:
    enum class Tool { Select, DrawRegion, DrawLink, EditBoxes };

    explicit PageCanvas(QWidget *parent = nullptr);
    ~PageCanvas() override;

    // Shows page `page` of `doc` (its words are copied) over `image`; a null image paints white
    // paper of the page size. The image may have another resolution than the page: boxes scale.
    void setPage(const Document &doc, int page, const QImage &image = QImage());
    void clear();
    int page() const { return m_page; }

    // Overlays, keyed by word index; replace the previous set. Colours are drawn filled (use alpha).
    void setBoxColors(const QHash<int, QColor> &colors);
    void setBoxLabels(const QHash<int, QString> &labels);
    void setLabelsVisible(bool visible);
    bool labelsVisible() const { return m_showLabels; }
    // Below this zoom (widget pixels per image pixel) every label is a colour bar: the page is then
    // too crowded for text beside the words. Default 0.25: a 300 dpi form fitted into a 620 px wide
    // view (zoom about 0.36) still gets its chips between the lines.
    void setLabelMinZoom(double zoom);
    double labelMinZoom() const { return m_labelMinZoom; }
    // The chips as last painted (widget pixels), for tests.
    const std::vector<LabelChip> &labelChips() const { return m_chips; }
    // Key -> value links drawn as arrows between word boxes (word indices; both ends on this page);
    // a model's suggested links dashed.
    void setLinks(const QList<QPair<int, int>> &links, const QList<QPair<int, int>> &suggested = {});
    QList<QPair<int, int>> links() const { return m_links; }
    QList<QPair<int, int>> suggestedLinks() const { return m_suggestedLinks; }
    void clearOverlays();
    // Evidence highlight (question-summary items, issue 14): a green band under each word, drawn
    // over the other overlays; replaces the previous set, not cleared by clearOverlays().
    void setHighlightedWords(const QList<int> &words);
    QList<int> highlightedWords() const { return m_highlight.values(); }

    void setLowConfidenceThreshold(double threshold);
    double lowConfidenceThreshold() const { return m_lowConfidence; }

    // Selection (word indices, in reading order).
    QList<int> selection() const { return m_selection; }
    void setSelection(const QList<int> &words); // no signal
    void setCurrentWord(int wordIndex);         // selects it and scrolls it into view (no signal)

    void setTool(Tool tool);
    Tool tool() const { return m_tool; }

    // Zoom = widget pixels per image pixel.
    double zoom() const { return m_zoom; }
    void setZoom(double zoom);
    void zoomIn();
    void zoomOut();
    void fitToWindow();
    bool isFitToWindow() const { return m_fit; }

    // Geometry helpers (also used by tests): page pixel ↔ widget coordinates; word under a point.
    QPointF mapToPage(const QPointF &widgetPos) const;
    QPointF mapFromPage(const QPointF &pagePos) const;
    QRectF wordRectInWidget(int wordIndex) const;
    int wordAt(const QPointF &widgetPos) const; // -1 when none
    QString toolTipFor(int wordIndex) const;    // text and confidence
    // What a screen reader gets (widgets/pagecanvasaccessible.h): the words shown, in page order
    // (Document::words indices), a word's text, its label (empty when none).
    QList<int> shownWords() const;
    QString wordText(int wordIndex) const;
    QString wordLabel(int wordIndex) const { return m_labels.value(wordIndex); }

    // Starts the in-place editor on a word of this page; false when it is not shown here.
    bool editWord(int wordIndex);
    bool isEditing() const;

    // What-if geometry (page units), kept across setPage until replaced: word -> its edited box,
    // and the deleted words. Empty = the document's own boxes.
    void setEditedBoxes(const QHash<int, QRectF> &boxes, const QSet<int> &deleted = {});
    QHash<int, QRectF> editedBoxes() const { return m_editedBoxes; }
    QSet<int> deletedWords() const { return m_deletedWords; }
    QSizeF pageSize() const { return m_pageSize; }
    QImage pageImage() const { return m_image; }

Q_SIGNALS:
    void boxClicked(int wordIndex, Qt::KeyboardModifiers modifiers);
    void selectionChanged(const QList<int> &words);
    void rubberBandSelected(const QList<int> &words);
    void wordHovered(int wordIndex); // -1 when leaving words
    void wordEditRequested(int wordIndex, const QString &newText);
    void regionDrawn(int page, const QRect &pageRect); // page pixels
    // With Tool::DrawLink: the user dragged from one word box to another (word indices).
    void linkDrawn(int fromWord, int toWord);
    // With Tool::EditBoxes: a box dropped at `pageRect` (page units, not clamped: it may lie partly
    // or wholly off the page), or Delete pressed on the selected word.
    void boxEditRequested(int wordIndex, const QRectF &pageRect);
    void boxDeleteRequested(int wordIndex);
    void zoomChanged(double zoom);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override; // Esc in the word editor
    QSize sizeHint() const override;

private:
    struct Box
    {
        int word = -1;
        QRectF rect; // page pixels
        QString text;
        double confidence = -1;
    };
    QSizeF contentSize() const;
    QPointF origin() const;
    void clampScroll();
    void scrollBy(const QPointF &delta);
    void zoomAround(double zoom, const QPointF &widgetAnchor);
    void commitEdit();
    void cancelEdit();
    void emitSelection();
    QList<int> wordsIn(const QRectF &widgetRect) const;
    const Box *boxFor(int wordIndex) const;
    std::vector<LabelChip> placeChips(const QFont &font) const;
    int chipAt(const QPointF &widgetPos) const; // the word whose chip is there, -1 if none
    // Tool::EditBoxes (pagecanvasboxedit.cpp)
    void applyEditedBoxes();
    bool beginBoxDrag(int word, const QPointF &widgetPos);
    QRectF boxDragRect() const; // page units
    void finishBoxDrag();
    void paintBoxEdits(QPainter &painter);

    QImage m_image;
    // m_image at the size last painted, in the screen's pixel format (a smooth rescale, or a scan's
    // grey or indexed pixels converted, cost 30+ ms a paint).
    QPixmap m_scaledPage;
    QSizeF m_pageSize;
    double m_imageScale = 1; // image pixels per page pixel
    int m_page = -1;
    std::vector<Box> m_boxes;
    QHash<int, int> m_boxOfWord;
    QHash<int, QColor> m_colors;
    QHash<int, QString> m_labels;
    bool m_showLabels = true;
    double m_labelMinZoom = 0.25;
    std::vector<LabelChip> m_chips;
    QSet<int> m_highlight;
    QList<int> m_selection;
    int m_hover = -1;
    double m_lowConfidence = 60;
    double m_zoom = 1;
    bool m_fit = true;
    QPointF m_scroll; // widget pixels the content is scrolled by
    Tool m_tool = Tool::Select;

    QHash<int, QRectF> m_editedBoxes;
    QSet<int> m_deletedWords;
    QHash<int, QRectF> m_originalBoxes; // page units, of the edited words shown on this page
    int m_boxDragWord = -1;
    bool m_boxDragResize = false;

    enum class Drag { None, Pan, Rubber, Region, Link, Box };
    int m_linkFrom = -1;
    QList<QPair<int, int>> m_links, m_suggestedLinks;
    Drag m_drag = Drag::None;
    QPointF m_dragStart, m_dragNow;
    QLineEdit *m_editor = nullptr;
    int m_editWord = -1;
};

} // namespace folio
