// PageCanvas and StructureTreeModel driven offscreen with QTest mouse/key events.
#include "widgets/pagecanvas.h"
#include "widgets/structuretreemodel.h"
#include "tests/common/testdata.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace folio;

// One page 1000x500: block → paragraph → line → three words; word 1 has low confidence.
static Document sampleDocument()
{
    Document d;
    Page p;
    p.size = QSizeF(1000, 500);
    d.pages.push_back(p);
    Node root;
    root.id = QStringLiteral("root");
    d.nodes.push_back(root);
    auto add = [&](const QString &id, NodeKind k, int parent, const QRectF &box, const QString &text, double conf) {
        Node n;
        n.id = id; n.kind = k; n.page = 0; n.box = box; n.text = text; n.confidence = conf;
        const int i = d.addNode(n, parent);
        if (k == NodeKind::Word) {
            Word w;
            w.id = id; w.text = text; w.page = 0; w.box = box; w.node = i; w.confidence = conf;
            d.words.push_back(w);
        }
        return i;
    };
    const int page = add("p0", NodeKind::Page, 0, QRectF(0, 0, 1000, 500), QString(), -1);
    const int block = add("p0/b0", NodeKind::Block, page, QRectF(100, 100, 700, 50), QString(), 90);
    const int par = add("p0/b0/par0", NodeKind::Paragraph, block, QRectF(100, 100, 700, 50), QString(), 90);
    const int line = add("p0/b0/par0/l0", NodeKind::Line, par, QRectF(100, 100, 700, 50), "Total due 42", 90);
    add("p0/b0/par0/l0/w0", NodeKind::Word, line, QRectF(100, 100, 200, 50), "Total", 95);
    add("p0/b0/par0/l0/w1", NodeKind::Word, line, QRectF(350, 100, 150, 50), "dve", 31);
    add("p0/b0/par0/l0/w2", NodeKind::Word, line, QRectF(600, 100, 200, 50), "42", 88);
    return d;
}

class TestPageCanvas : public QObject
{
    Q_OBJECT
    Document m_doc = sampleDocument();

    static QPoint centreOf(const PageCanvas &c, int word) { return c.wordRectInWidget(word).center().toPoint(); }

private Q_SLOTS:
    // The page image is drawn at every zoom: scaled once into a kept pixmap, or straight from the
    // image when zoomed in past what is kept; a grey scan too.
    void pageImageAtEveryZoom()
    {
        QImage page(1000, 500, QImage::Format_Grayscale8);
        page.fill(90);
        PageCanvas c;
        c.resize(508, 408);
        c.setPage(m_doc, 0, page);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        // Every sampled point of the widget that shows the page away from the words (they are
        // tinted and outlined) shows the image's grey.
        const auto checkPage = [&]() {
            const QImage shot = c.grab().toImage();
            const QRectF w0 = c.wordRectInWidget(0); // page (100, 100) - (300, 150)
            int checked = 0;
            for (int y = 4; y < shot.height() - 4; y += 23)
                for (int x = 4; x < shot.width() - 4; x += 23) {
                    const QPointF pagePoint = QPointF(100, 100) + (QPointF(x, y) - w0.topLeft()) / c.zoom();
                    if (pagePoint.x() < 2 || pagePoint.y() < 2 || pagePoint.x() > 998 || pagePoint.y() > 498
                        || (pagePoint.y() > 90 && pagePoint.y() < 160))
                        continue;
                    ++checked;
                    if (qGray(shot.pixel(x, y)) != 90)
                        return QStringLiteral("(%1, %2) is grey %3 at zoom %4").arg(x).arg(y).arg(qGray(shot.pixel(x, y))).arg(c.zoom());
                }
            return checked > 10 ? QString() : QStringLiteral("only %1 points on the page").arg(checked);
        };
        QString why = checkPage();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        c.setZoom(1.3);
        why = checkPage();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        c.setZoom(9.0); // 9000 x 4500 page pixels: past the kept pixmap's size
        why = checkPage();
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void fitAndZoom()
    {
        PageCanvas c;
        c.resize(508, 408);
        c.setPage(m_doc, 0);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        QVERIFY(c.isFitToWindow());
        QCOMPARE(c.zoom(), 0.5); // (508 - 8) / 1000
        QSignalSpy zoomed(&c, &PageCanvas::zoomChanged);
        QTest::keyClick(&c, Qt::Key_Plus);
        QCOMPARE(zoomed.count(), 1);
        QVERIFY(qFuzzyCompare(c.zoom(), 0.625));
        QVERIFY(!c.isFitToWindow());
        QTest::keyClick(&c, Qt::Key_Minus);
        QVERIFY(qFuzzyCompare(c.zoom(), 0.5));
        // Ctrl+wheel zooms around the cursor: the page point under it stays put.
        const QPointF anchor(200, 150);
        const QPointF before = c.mapToPage(anchor);
        QWheelEvent wheel(anchor, c.mapToGlobal(anchor), QPoint(), QPoint(0, 600), Qt::NoButton, Qt::ControlModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(&c, &wheel);
        QVERIFY(c.zoom() > 1.5); // the page now overflows both ways, so the anchor can hold
        const QPointF after = c.mapToPage(anchor);
        QVERIFY2(std::abs(after.x() - before.x()) < 1 && std::abs(after.y() - before.y()) < 1,
                 qPrintable(QStringLiteral("%1,%2 vs %3,%4").arg(after.x()).arg(after.y()).arg(before.x()).arg(before.y())));
        QTest::keyClick(&c, Qt::Key_F);
        QVERIFY(c.isFitToWindow());
        QCOMPARE(c.zoom(), 0.5);
    }

    void panWithMiddleDrag()
    {
        PageCanvas c;
        c.resize(400, 300);
        c.setPage(m_doc, 0);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        c.setZoom(2.0);
        const QPointF before = c.mapToPage(QPointF(200, 150));
        QTest::mousePress(&c, Qt::MiddleButton, Qt::NoModifier, QPoint(200, 150));
        QMouseEvent move(QEvent::MouseMove, QPointF(150, 100), c.mapToGlobal(QPointF(150, 100)), Qt::NoButton,
                         Qt::MiddleButton, Qt::NoModifier);
        QApplication::sendEvent(&c, &move);
        QTest::mouseRelease(&c, Qt::MiddleButton, Qt::NoModifier, QPoint(150, 100));
        const QPointF after = c.mapToPage(QPointF(200, 150));
        QVERIFY(after.x() > before.x() + 20 && after.y() > before.y() + 20);
    }

    void hoverTooltipAndLowConfidence()
    {
        PageCanvas c;
        c.resize(508, 408);
        c.setPage(m_doc, 0);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        QSignalSpy hovered(&c, &PageCanvas::wordHovered);
        QTest::mouseMove(&c, centreOf(c, 1));
        QTRY_VERIFY(!hovered.isEmpty());
        QCOMPARE(hovered.last().at(0).toInt(), 1);
        QCOMPARE(c.toolTipFor(1), QStringLiteral("dve\nconfidence 31.0"));
        QCOMPARE(c.wordAt(QPointF(2, 2)), -1);
        // The low-confidence word is tinted: its pixels differ from a confident word's.
        const QImage shot = c.grab().toImage();
        const QColor low = shot.pixelColor(centreOf(c, 1));
        const QColor ok = shot.pixelColor(centreOf(c, 0));
        QVERIFY2(low != ok, qPrintable(low.name() + " " + ok.name()));
        c.setLowConfidenceThreshold(10);
        const QImage shot2 = c.grab().toImage();
        QCOMPARE(shot2.pixelColor(centreOf(c, 1)), ok);
    }

    void clickAndShiftClickSelect()
    {
        PageCanvas c;
        c.resize(508, 408);
        c.setPage(m_doc, 0);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        QSignalSpy clicked(&c, &PageCanvas::boxClicked);
        QSignalSpy selected(&c, &PageCanvas::selectionChanged);
        QTest::mouseClick(&c, Qt::LeftButton, Qt::NoModifier, centreOf(c, 0));
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.last().at(0).toInt(), 0);
        QCOMPARE(c.selection(), QList<int>({0}));
        QTest::mouseClick(&c, Qt::LeftButton, Qt::ShiftModifier, centreOf(c, 2));
        QCOMPARE(clicked.last().at(1).value<Qt::KeyboardModifiers>(), Qt::KeyboardModifiers(Qt::ShiftModifier));
        QCOMPARE(c.selection(), QList<int>({0, 2}));
        QCOMPARE(selected.last().at(0).value<QList<int>>(), QList<int>({0, 2}));
        QTest::mouseClick(&c, Qt::LeftButton, Qt::ShiftModifier, centreOf(c, 0));
        QCOMPARE(c.selection(), QList<int>({2}));
        QTest::mouseClick(&c, Qt::LeftButton, Qt::NoModifier, QPoint(5, 5)); // empty: clears
        QCOMPARE(c.selection(), QList<int>());
    }

    void rubberBand()
    {
        PageCanvas c;
        c.resize(508, 408);
        c.setPage(m_doc, 0);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        QSignalSpy band(&c, &PageCanvas::rubberBandSelected);
        const QPoint from = c.mapFromPage(QPointF(320, 60)).toPoint();   // empty page, left of word 1
        const QPoint to = c.mapFromPage(QPointF(900, 180)).toPoint();    // covers words 1 and 2
        QTest::mousePress(&c, Qt::LeftButton, Qt::NoModifier, from);
        QMouseEvent move(QEvent::MouseMove, to, c.mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&c, &move);
        QTest::mouseRelease(&c, Qt::LeftButton, Qt::NoModifier, to);
        QCOMPARE(band.count(), 1);
        QCOMPARE(band.last().at(0).value<QList<int>>(), QList<int>({1, 2}));
        QCOMPARE(c.selection(), QList<int>({1, 2}));
    }

    void drawRegion()
    {
        PageCanvas c;
        c.resize(508, 408);
        c.setPage(m_doc, 0);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        c.setTool(PageCanvas::Tool::DrawRegion);
        QSignalSpy region(&c, &PageCanvas::regionDrawn);
        const QPoint from = c.mapFromPage(QPointF(100, 100)).toPoint();
        const QPoint to = c.mapFromPage(QPointF(500, 300)).toPoint();
        QTest::mousePress(&c, Qt::LeftButton, Qt::NoModifier, from);
        QMouseEvent move(QEvent::MouseMove, to, c.mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&c, &move);
        QTest::mouseRelease(&c, Qt::LeftButton, Qt::NoModifier, to);
        QCOMPARE(region.count(), 1);
        QCOMPARE(region.last().at(0).toInt(), 0);
        const QRect r = region.last().at(1).toRect();
        QVERIFY2(std::abs(r.left() - 100) <= 2 && std::abs(r.bottom() - 300) <= 3, qPrintable(QStringLiteral("%1 %2 %3 %4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height())));
        QCOMPARE(c.tool(), PageCanvas::Tool::Select);
    }

    void editInPlace()
    {
        PageCanvas c;
        c.resize(508, 408);
        c.setPage(m_doc, 0);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        QSignalSpy edit(&c, &PageCanvas::wordEditRequested);
        QTest::mouseDClick(&c, Qt::LeftButton, Qt::NoModifier, centreOf(c, 1));
        QVERIFY(c.isEditing());
        auto *editor = c.findChild<QLineEdit *>();
        QVERIFY(editor);
        QCOMPARE(editor->text(), QStringLiteral("dve"));
        editor->selectAll();
        QTest::keyClicks(editor, QStringLiteral("due"));
        QTest::keyClick(editor, Qt::Key_Return);
        QCOMPARE(edit.count(), 1);
        QCOMPARE(edit.last().at(0).toInt(), 1);
        QCOMPARE(edit.last().at(1).toString(), QStringLiteral("due"));
        QVERIFY(!c.isEditing());
        // Esc cancels without a signal.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete); // the old editor
        QVERIFY(c.editWord(0));
        editor = c.findChild<QLineEdit *>();
        QTest::keyClicks(editor, QStringLiteral("x"));
        QTest::keyClick(editor, Qt::Key_Escape);
        QVERIFY(!c.isEditing());
        QCOMPARE(edit.count(), 1);
    }

    void overlays()
    {
        PageCanvas c;
        c.resize(508, 408);
        c.setPage(m_doc, 0);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        c.setBoxColors({{2, QColor(0, 200, 0)}});
        c.setBoxLabels({{2, QStringLiteral("ANSWER")}});
        const QImage shot = c.grab().toImage();
        QCOMPARE(shot.pixelColor(centreOf(c, 2)), QColor(0, 200, 0));
        QVERIFY(c.toolTipFor(2).contains(QLatin1String("ANSWER")));
        c.clearOverlays();
        QVERIFY(c.grab().toImage().pixelColor(centreOf(c, 2)) != QColor(0, 200, 0));
    }

    void structureModelSyncsWithCanvas()
    {
        StructureTreeModel model;
        model.setDocument(m_doc);
        QCOMPARE(model.rowCount(), 1); // the page
        const QModelIndex page = model.index(0, 0);
        QCOMPARE(page.data().toString(), QStringLiteral("page 1"));
        const QModelIndex word = model.indexForWord(2);
        QVERIFY(word.isValid());
        QCOMPARE(model.wordForIndex(word), 2);
        QCOMPARE(word.data().toString(), QStringLiteral("word"));
        QCOMPARE(model.index(word.row(), 1, word.parent()).data().toString(), QStringLiteral("42"));
        QCOMPARE(model.parent(word).data(StructureTreeModel::NodeIdRole).toString(), QStringLiteral("p0/b0/par0/l0"));
        QCOMPARE(model.parent(model.parent(model.parent(model.parent(word)))), page);
        QVERIFY(word.data(Qt::ToolTipRole).toString().contains(QLatin1String("p0/b0/par0/l0/w2")));

        // Both ways: a canvas click selects the tree row; a tree row selects the canvas word.
        QTreeView tree;
        tree.setModel(&model);
        PageCanvas c;
        c.resize(508, 408);
        c.setPage(m_doc, 0);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        connect(&c, &PageCanvas::boxClicked, &tree, [&](int w) { tree.setCurrentIndex(model.indexForWord(w)); });
        connect(tree.selectionModel(), &QItemSelectionModel::currentChanged, &c,
                [&](const QModelIndex &i) { c.setCurrentWord(model.wordForIndex(i)); });
        QTest::mouseClick(&c, Qt::LeftButton, Qt::NoModifier, centreOf(c, 1));
        QCOMPARE(model.wordForIndex(tree.currentIndex()), 1);
        tree.setCurrentIndex(model.indexForWord(2));
        QCOMPARE(c.selection(), QList<int>({2}));
        // DOM-like trees work the same.
        Document dom;
        Node root;
        root.id = QStringLiteral("root");
        dom.nodes.push_back(root);
        Node el;
        el.id = QStringLiteral("/html/body");
        el.kind = NodeKind::Element;
        el.tag = QStringLiteral("body");
        dom.addNode(el, 0);
        model.setDocument(dom);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("<body>"));
        QCOMPARE(model.wordForIndex(model.index(0, 0)), -1);
    }
};

FOLIO_TEST_MAIN(TestPageCanvas)
#include "tst_pagecanvas.moc"
