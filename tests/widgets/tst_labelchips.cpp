// Readable labels on dense pages (issue 34): label chips avoid each other and the words, a chip
// without room becomes a colour bar with its text on hover, a toggle hides them, and below the
// minimum zoom every chip is a bar. The placement alone, then on a PageCanvas offscreen.
#include "widgets/labelchips.h"
#include "widgets/pagecanvas.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

namespace {

// A dense form: rows x cols words of 60 x 14 page px, 4 px apart horizontally, 3 px vertically,
// every word labelled (long labels: "QUESTION 97%").
Document denseDocument(int rows, int cols)
{
    Document d;
    Page p;
    p.size = QSizeF(40 + cols * 64, 40 + rows * 17);
    d.pages.push_back(p);
    Node root;
    root.id = QStringLiteral("root");
    d.nodes.push_back(root);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            Node n;
            n.id = QStringLiteral("w%1_%2").arg(r).arg(c);
            n.kind = NodeKind::Word;
            n.page = 0;
            n.box = QRectF(20 + c * 64, 20 + r * 17, 60, 14);
            n.text = QStringLiteral("word");
            const int i = d.addNode(n, 0);
            d.words.push_back(Word{n.id, n.text, 0, n.box, {}, i, 90, false});
        }
    return d;
}

bool overlapsAny(const QRectF &r, const std::vector<QRectF> &others)
{
    const QRectF s = r.adjusted(0.5, 0.5, -0.5, -0.5);
    for (const QRectF &o : others)
        if (o.intersects(s))
            return true;
    return false;
}

} // namespace

class TestLabelChips : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void chipsAvoidEachOtherAndWords()
    {
        const QFontMetricsF fm(QFont(QStringLiteral("DejaVu Sans"), 8));
        // Two words side by side with room above: both chips full, above their boxes, apart.
        std::vector<QRectF> words = {QRectF(100, 100, 40, 14), QRectF(144, 100, 40, 14)};
        std::vector<LabelChipRequest> req = {{0, words[0], QStringLiteral("QUESTION 97%"), Qt::blue},
                                             {1, words[1], QStringLiteral("ANSWER 88%"), Qt::green}};
        QVERIFY(fm.horizontalAdvance(req[0].text) > 44); // wider than its word and the gap
        std::vector<LabelChip> chips = placeLabelChips(req, fm, words, QRectF(0, 0, 800, 600));
        QCOMPARE(int(chips.size()), 2);
        for (const LabelChip &c : chips) {
            QVERIFY(!c.collapsed);
            QVERIFY(!overlapsAny(c.rect, words));
            QVERIFY(c.rect.width() >= fm.horizontalAdvance(c.text));
        }
        QVERIFY(!chips[0].rect.intersects(chips[1].rect));
        QVERIFY(chips[0].rect.bottom() <= words[0].top()); // above its word
        // The first chip ("QUESTION") is wider than its word: the second goes elsewhere, not over it.
        QVERIFY(chips[0].rect.right() > words[1].left());
        QVERIFY(chips[1].rect.top() >= words[1].bottom() || chips[1].rect.left() >= chips[0].rect.right());
        // No room anywhere (a word above, below and on both sides, at the view's edge): a bar.
        words = {QRectF(0, 20, 60, 14), QRectF(0, 0, 60, 18), QRectF(0, 36, 60, 30), QRectF(62, 20, 400, 14)};
        chips = placeLabelChips({{0, words[0], QStringLiteral("HEADER"), Qt::red}}, fm, words, QRectF(0, 0, 800, 600));
        QVERIFY(chips[0].collapsed);
        QCOMPARE(chips[0].rect.height(), kLabelBarHeight);
        QCOMPARE(chips[0].text, QStringLiteral("HEADER")); // kept for the tooltip
        // Below the minimum zoom: bars only.
        chips = placeLabelChips(req, fm, {QRectF(100, 100, 40, 14), QRectF(144, 100, 40, 14)}, QRectF(0, 0, 800, 600), false);
        QVERIFY(chips[0].collapsed && chips[1].collapsed);
    }

    void denseFormOnTheCanvas()
    {
        QDir().mkpath(QStringLiteral(FOLIO_BINARY_DIR "/screenshots"));
        const Document doc = denseDocument(30, 8);
        PageCanvas c;
        c.resize(900, 700);
        c.setPage(doc, 0);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        c.setZoom(1.2);
        QHash<int, QString> labels;
        QHash<int, QColor> colors;
        for (int i = 0; i < int(doc.words.size()); i += 3) {
            labels.insert(i, QStringLiteral("QUESTION %1%").arg(50 + i % 50));
            colors.insert(i, QColor(30, 120, 220, 95));
        }
        c.setBoxColors(colors);
        c.setBoxLabels(labels);
        c.grab(); // paints: places the chips
        const std::vector<LabelChip> chips = c.labelChips(); // a copy: a repaint places them again
        QVERIFY(!chips.empty());
        std::vector<QRectF> wordRects, full;
        for (int i = 0; i < int(doc.words.size()); ++i)
            wordRects.push_back(c.wordRectInWidget(i));
        int collapsed = 0;
        for (const LabelChip &chip : chips) {
            if (chip.collapsed) {
                ++collapsed;
                continue;
            }
            // A full chip covers no word and no other full chip.
            QVERIFY2(!overlapsAny(chip.rect, wordRects), qPrintable(chip.text));
            QVERIFY2(!overlapsAny(chip.rect, full), qPrintable(chip.text));
            full.push_back(chip.rect);
        }
        // Rows 3 px apart leave no room between them: the top row's and the right column's chips read
        // in full (about a third), the rest are bars rather than text over the words.
        QVERIFY(c.grab().save(QStringLiteral(FOLIO_BINARY_DIR "/screenshots/label-chips-dense.png")));
        QVERIFY2(full.size() >= chips.size() / 4, qPrintable(QStringLiteral("%1 of %2 full").arg(full.size()).arg(chips.size())));
        // Hovering a bar or a chip is hovering its word: the tooltip has the full label.
        QVERIFY2(collapsed > 0, "a page this dense should shorten some labels to bars");
        QSignalSpy hovered(&c, &PageCanvas::wordHovered);
        for (const bool wantBar : {true, false}) {
            const LabelChip *probe = nullptr;
            for (const LabelChip &chip : chips)
                if (chip.collapsed == wantBar && QRectF(c.rect()).contains(chip.rect))
                    probe = &chip;
            QVERIFY(probe);
            QTest::mouseMove(&c, probe->rect.center().toPoint());
            QVERIFY(!hovered.isEmpty());
            QVERIFY2(hovered.last().first().toInt() == probe->word,
                     qPrintable(QStringLiteral("%1 chip of word %2 at %3,%4: hovered %5").arg(wantBar ? "bar" : "full").arg(probe->word)
                                    .arg(probe->rect.center().x()).arg(probe->rect.center().y()).arg(hovered.last().first().toInt())));
            QVERIFY(c.toolTipFor(probe->word).contains(probe->text));
        }

        // Zoomed out below the minimum: every chip is a bar.
        c.setZoom(c.labelMinZoom() * 0.8);
        c.grab();
        QVERIFY(!c.labelChips().empty());
        for (const LabelChip &chip : c.labelChips())
            QVERIFY(chip.collapsed);
        // The toggle hides them all.
        c.setLabelsVisible(false);
        c.grab();
        QVERIFY(c.labelChips().empty());
        c.setLabelsVisible(true);
        c.setZoom(1.2);
        c.grab();
        QVERIFY(!c.labelChips().empty());
    }
};

FOLIO_TEST_MAIN(TestLabelChips)
#include "tst_labelchips.moc"
