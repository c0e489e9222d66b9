#pragma once
// The page canvas for screen readers (issue 50): the canvas is a Graphic whose children are its
// word boxes, in page order; a child's name is the word's text, its description the entity label
// ("Label: QUESTION"), its rectangle the box on screen; selected words say so. A child is read live
// from the canvas, so it follows relabelling and edits; after a new page the children are the new
// page's words. PageCanvas's constructor installs the factory (once per application):
//   installPageCanvasAccessibility();
//   QAccessibleInterface *canvasIface = QAccessible::queryAccessibleInterface(canvas);
//   canvasIface->child(0)->text(QAccessible::Name);   // "Total"

#include <QAccessibleWidget>
#include <QHash>

namespace folio {

class PageCanvas;

class PageCanvasAccessible : public QAccessibleWidget
{
public:
    explicit PageCanvasAccessible(PageCanvas *canvas);
    ~PageCanvasAccessible() override;

    int childCount() const override;
    QAccessibleInterface *child(int index) const override;
    int indexOfChild(const QAccessibleInterface *child) const override;
    QAccessibleInterface *childAt(int x, int y) const override;

    PageCanvas *canvas() const;

private:
    QAccessibleInterface *wordInterface(int wordIndex) const;
    mutable QHash<int, QAccessible::Id> m_words; // word index -> registered child interface
};

// Registers the factory that gives PageCanvas the interface above (idempotent).
void installPageCanvasAccessibility();

} // namespace folio
