#include "widgets/pagecanvasaccessible.h"

#include "widgets/pagecanvas.h"

#include <QPointer>
#include <QWindow>

namespace folio {

namespace {

// One word box: not a QObject, so registered with QAccessible and owned by the canvas's interface.
class WordAccessible : public QAccessibleInterface
{
public:
    WordAccessible(PageCanvas *canvas, int word) : m_canvas(canvas), m_word(word) {}

    bool isValid() const override { return m_canvas && m_canvas->shownWords().contains(m_word); }
    QObject *object() const override { return nullptr; }
    QWindow *window() const override
    {
        return m_canvas && m_canvas->window() ? m_canvas->window()->windowHandle() : nullptr;
    }
    QList<QPair<QAccessibleInterface *, QAccessible::Relation>> relations(QAccessible::Relation) const override { return {}; }
    QAccessibleInterface *focusChild() const override { return nullptr; }
    QAccessibleInterface *childAt(int, int) const override { return nullptr; }
    QAccessibleInterface *parent() const override
    {
        return m_canvas ? QAccessible::queryAccessibleInterface(m_canvas.data()) : nullptr;
    }
    QAccessibleInterface *child(int) const override { return nullptr; }
    int childCount() const override { return 0; }
    int indexOfChild(const QAccessibleInterface *) const override { return -1; }

    QString text(QAccessible::Text t) const override
    {
        if (!m_canvas)
            return QString();
        switch (t) {
        case QAccessible::Name:
            return m_canvas->wordText(m_word);
        case QAccessible::Description: {
            const QString label = m_canvas->wordLabel(m_word);
            return label.isEmpty() ? PageCanvas::tr("No label") : PageCanvas::tr("Label: %1").arg(label);
        }
        default:
            return QString();
        }
    }
    void setText(QAccessible::Text, const QString &) override {}
    QRect rect() const override
    {
        if (!m_canvas)
            return QRect();
        const QRect inWidget = m_canvas->wordRectInWidget(m_word).toAlignedRect();
        return QRect(m_canvas->mapToGlobal(inWidget.topLeft()), inWidget.size());
    }
    QAccessible::Role role() const override { return QAccessible::StaticText; }
    QAccessible::State state() const override
    {
        QAccessible::State s;
        s.selectable = true;
        if (!m_canvas)
            return s;
        s.selected = m_canvas->selection().contains(m_word);
        const QRect inWidget = m_canvas->wordRectInWidget(m_word).toAlignedRect();
        s.offscreen = !m_canvas->rect().intersects(inWidget);
        s.invisible = !m_canvas->isVisible();
        return s;
    }

private:
    QPointer<PageCanvas> m_canvas;
    int m_word;
};

QAccessibleInterface *pageCanvasFactory(const QString &className, QObject *object)
{
    if (className == QLatin1String("folio::PageCanvas") && object && object->isWidgetType())
        return new PageCanvasAccessible(static_cast<PageCanvas *>(object));
    return nullptr;
}

} // namespace

PageCanvasAccessible::PageCanvasAccessible(PageCanvas *canvas)
    : QAccessibleWidget(canvas, QAccessible::Graphic)
{
}

PageCanvasAccessible::~PageCanvasAccessible()
{
    for (QAccessible::Id id : std::as_const(m_words))
        QAccessible::deleteAccessibleInterface(id);
}

PageCanvas *PageCanvasAccessible::canvas() const
{
    return static_cast<PageCanvas *>(widget());
}

QAccessibleInterface *PageCanvasAccessible::wordInterface(int wordIndex) const
{
    auto it = m_words.constFind(wordIndex);
    if (it != m_words.constEnd())
        if (QAccessibleInterface *iface = QAccessible::accessibleInterface(*it))
            return iface;
    auto *iface = new WordAccessible(canvas(), wordIndex);
    m_words.insert(wordIndex, QAccessible::registerAccessibleInterface(iface));
    return iface;
}

int PageCanvasAccessible::childCount() const
{
    return int(canvas()->shownWords().size());
}

QAccessibleInterface *PageCanvasAccessible::child(int index) const
{
    const QList<int> words = canvas()->shownWords();
    if (index < 0 || index >= words.size())
        return nullptr;
    return wordInterface(words.at(index));
}

int PageCanvasAccessible::indexOfChild(const QAccessibleInterface *child) const
{
    if (!child)
        return -1;
    for (auto it = m_words.constBegin(); it != m_words.constEnd(); ++it)
        if (QAccessible::accessibleInterface(it.value()) == child)
            return int(canvas()->shownWords().indexOf(it.key()));
    return -1;
}

QAccessibleInterface *PageCanvasAccessible::childAt(int x, int y) const
{
    const int word = canvas()->wordAt(QPointF(canvas()->mapFromGlobal(QPoint(x, y))));
    return word >= 0 ? wordInterface(word) : nullptr;
}

void installPageCanvasAccessibility()
{
    static const bool installed = [] {
        QAccessible::installFactory(pageCanvasFactory);
        return true;
    }();
    Q_UNUSED(installed);
}

} // namespace folio
