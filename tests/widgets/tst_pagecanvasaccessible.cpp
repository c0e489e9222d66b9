// The page canvas for screen readers (issue 50): through QAccessible, as an assistive tool asks,
// the canvas lists its word boxes; each child names the word's text, describes its entity label,
// reports its selection and its rectangle on screen; childAt finds the word under a point, and a
// new page or a new label is what the children report next.
#include "tests/common/testdata.h"
#include "widgets/pagecanvas.h"
#include "widgets/pagecanvasaccessible.h"

#include <QAccessible>
#include <QTest>

using namespace folio;

namespace {

Document twoPageDocument()
{
    Document d;
    for (int p = 0; p < 2; ++p) {
        Page page;
        page.size = QSizeF(1000, 500);
        d.pages.push_back(page);
    }
    auto add = [&](const QString &text, int page, const QRectF &box) {
        Word w;
        w.id = QStringLiteral("w%1").arg(d.words.size());
        w.text = text;
        w.page = page;
        w.box = box;
        w.confidence = 90;
        d.words.push_back(w);
    };
    add(QStringLiteral("Invoice"), 0, QRectF(100, 100, 200, 50));
    add(QStringLiteral("No."), 0, QRectF(350, 100, 100, 50));
    add(QStringLiteral("4711"), 0, QRectF(500, 100, 150, 50));
    add(QStringLiteral("Total"), 1, QRectF(100, 300, 200, 50));
    return d;
}

} // namespace

class TestPageCanvasAccessible : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wordsAreChildren()
    {
        const Document doc = twoPageDocument();
        PageCanvas canvas;
        canvas.resize(800, 400);
        canvas.show();
        QVERIFY(QTest::qWaitForWindowExposed(&canvas));
        canvas.setPage(doc, 0);
        canvas.setBoxLabels({{2, QStringLiteral("ANSWER")}});
        canvas.setSelection({1});

        QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(&canvas);
        QVERIFY(iface);
        QVERIFY(dynamic_cast<PageCanvasAccessible *>(iface));
        QCOMPARE(iface->role(), QAccessible::Graphic);
        QCOMPARE(iface->childCount(), 3);
        const QStringList expected{QStringLiteral("Invoice"), QStringLiteral("No."), QStringLiteral("4711")};
        const QRect canvasOnScreen(canvas.mapToGlobal(QPoint(0, 0)), canvas.size());
        for (int i = 0; i < 3; ++i) {
            QAccessibleInterface *word = iface->child(i);
            QVERIFY(word && word->isValid());
            QCOMPARE(word->text(QAccessible::Name), expected.at(i));
            QCOMPARE(word->role(), QAccessible::StaticText);
            QCOMPARE(word->parent(), iface);
            QCOMPARE(iface->indexOfChild(word), i);
            QCOMPARE(iface->child(i), word); // the same interface each time (registered once)
            QVERIFY(canvasOnScreen.contains(word->rect()));
            QCOMPARE(word->state().selected, i == 1);
            // A screen reader's point lookup lands on the same word.
            QCOMPARE(iface->childAt(word->rect().center().x(), word->rect().center().y()), word);
        }
        QCOMPARE(iface->child(2)->text(QAccessible::Description), QStringLiteral("Label: ANSWER"));
        QCOMPARE(iface->child(0)->text(QAccessible::Description), QStringLiteral("No label"));
        QVERIFY(!iface->childAt(canvasOnScreen.right() - 2, canvasOnScreen.bottom() - 2)); // no word there
        QVERIFY(!iface->child(3));

        // Relabelled: read live. The next page: its words.
        QAccessibleInterface *first = iface->child(0);
        canvas.setBoxLabels({{0, QStringLiteral("HEADER")}});
        QCOMPARE(first->text(QAccessible::Description), QStringLiteral("Label: HEADER"));
        canvas.setPage(doc, 1);
        QCOMPARE(iface->childCount(), 1);
        QCOMPARE(iface->child(0)->text(QAccessible::Name), QStringLiteral("Total"));
        QVERIFY(!first->isValid()); // word 0 is not on this page
    }
};

FOLIO_TEST_MAIN(TestPageCanvasAccessible)
#include "tst_pagecanvasaccessible.moc"
