// The layout-aware reading order (document/layoutorder.h) on hand-built pages: two columns of
// running text, a header over columns, a form, a table, one line, hostile boxes, and 100k words.
#include "document/layoutorder.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "tests/common/testdata.h"

#include <QElapsedTimer>
#include <QStringList>
#include <QTest>

#include <cmath>
#include <limits>

namespace {

struct Page
{
    std::vector<QRectF> boxes;
    QStringList names;
    // A word of height 10 at (x, y) with width w.
    void word(const QString &name, double x, double y, double w = 20)
    {
        boxes.emplace_back(x, y, w, 10);
        names << name;
    }
    // A line of `n` words from x, 4 units apart (word spacing well under a line height).
    void line(const QString &prefix, double x, double y, int n, double w = 20)
    {
        for (int k = 0; k < n; ++k)
            word(prefix + QString::number(k), x + k * (w + 4), y, w);
    }
    QStringList read() const
    {
        QStringList out;
        for (int i : folio::layoutReadingOrder(boxes))
            out << names[i];
        return out;
    }
};

} // namespace

class TestLayoutOrder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Running text in two columns (lines fill their column, at the same heights): the left column
    // first, then the right — where a line-by-line order would interleave them.
    void twoColumnsOfText()
    {
        Page p;
        for (int l = 0; l < 3; ++l) {
            p.line(QStringLiteral("L%1.").arg(l), 0, l * 14, 4);
            p.line(QStringLiteral("R%1.").arg(l), 120, l * 14, 4);
        }
        QCOMPARE(p.read().join(' '), QStringLiteral("L0.0 L0.1 L0.2 L0.3 L1.0 L1.1 L1.2 L1.3 L2.0 L2.1 L2.2 L2.3 "
                                                    "R0.0 R0.1 R0.2 R0.3 R1.0 R1.1 R1.2 R1.3 R2.0 R2.1 R2.2 R2.3"));
    }

    // A title across the page comes before the columns under it.
    void headerOverColumns()
    {
        Page p;
        p.line(QStringLiteral("T"), 40, 0, 5);
        for (int l = 0; l < 2; ++l) {
            p.line(QStringLiteral("L%1.").arg(l), 0, 30 + l * 14, 4);
            p.line(QStringLiteral("R%1.").arg(l), 120, 30 + l * 14, 4);
        }
        const QStringList got = p.read();
        QCOMPARE(got.mid(0, 5).join(' '), QStringLiteral("T0 T1 T2 T3 T4"));
        QCOMPARE(got.mid(5, 4).join(' '), QStringLiteral("L0.0 L0.1 L0.2 L0.3"));
        QCOMPARE(got.mid(9, 4).join(' '), QStringLiteral("L1.0 L1.1 L1.2 L1.3"));
        QCOMPARE(got.mid(13, 1).join(' '), QStringLiteral("R0.0"));
    }

    // A form: short labels on the left, values far to the right on the same lines, one value
    // ragged: read label, value, label, value.
    void formPairs()
    {
        Page p;
        p.word(QStringLiteral("Name:"), 0, 0, 30);
        p.line(QStringLiteral("name"), 150, 0, 2);
        p.word(QStringLiteral("Date:"), 0, 16, 30);
        p.word(QStringLiteral("date"), 150, 16);
        p.word(QStringLiteral("To:"), 0, 32, 20);
        p.line(QStringLiteral("to"), 150, 32, 3);
        QCOMPARE(p.read().join(' '), QStringLiteral("Name: name0 name1 Date: date To: to0 to1 to2"));
    }

    // A table: cells row by row, left to right.
    void tableRows()
    {
        Page p;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                p.word(QStringLiteral("r%1c%2").arg(r).arg(c), c * 80, r * 18, c == 1 ? 40 : 20);
        QCOMPARE(p.read().join(' '), QStringLiteral("r0c0 r0c1 r0c2 r1c0 r1c1 r1c2 r2c0 r2c1 r2c2"));
    }

    void oneLineAndOneWord()
    {
        Page p;
        p.word(QStringLiteral("b"), 30, 1);
        p.word(QStringLiteral("a"), 0, 0);
        p.word(QStringLiteral("c"), 60, 2);
        QCOMPARE(p.read().join(' '), QStringLiteral("a b c"));
        Page single;
        single.word(QStringLiteral("only"), 5, 5);
        QCOMPARE(single.read().join(' '), QStringLiteral("only"));
        QVERIFY(folio::layoutReadingOrder({}).empty());
    }

    // Overlapping, zero-size, inverted and non-finite boxes: every word once, bad ones last.
    void hostileBoxes()
    {
        Page p;
        p.word(QStringLiteral("a"), 0, 0);
        p.boxes.emplace_back(QPointF(50, 50), QPointF(10, 10)); // inverted
        p.names << QStringLiteral("inverted");
        p.word(QStringLiteral("b"), 5, 2); // overlaps a
        p.boxes.emplace_back(std::numeric_limits<double>::quiet_NaN(), 0, 10, 10);
        p.names << QStringLiteral("nan");
        p.boxes.emplace_back(30, 0, 0, 0); // a point
        p.names << QStringLiteral("point");
        p.boxes.emplace_back(std::numeric_limits<double>::infinity(), 0, 10, 10);
        p.names << QStringLiteral("inf");
        const QStringList got = p.read();
        QCOMPARE(got.size(), 6);
        QCOMPARE(got.mid(3).join(' '), QStringLiteral("inverted nan inf"));
        QVERIFY(got.indexOf(QStringLiteral("a")) < got.indexOf(QStringLiteral("b")));
        // Every box identical: input order, once each.
        std::vector<QRectF> same(1000, QRectF(1, 1, 5, 5));
        const std::vector<int> order = folio::layoutReadingOrder(same);
        QCOMPARE(int(order.size()), 1000);
        for (int i = 0; i < 1000; ++i)
            QCOMPARE(order[std::size_t(i)], i);
    }

    // The model's view of a page (pipeline::taggerPagesOfDocument): with layoutOrder, two columns
    // that OCR read line by line become column after column, and every word still maps back to
    // its Document word.
    void modelPagesInLayoutOrder()
    {
        folio::Document doc;
        // OCR order: line 0 of the left column, line 0 of the right, line 1 left, line 1 right;
        // four words per column line, filling it (running text).
        for (int line = 0; line < 2; ++line)
            for (const char side : {'L', 'R'})
                for (int k = 0; k < 4; ++k) {
                    folio::Word w;
                    w.id = QStringLiteral("w%1").arg(doc.words.size());
                    w.text = QStringLiteral("%1%2.%3").arg(side).arg(line).arg(k);
                    const int x = (side == 'R' ? 600 : 0) + k * 100;
                    w.norm = folio::NormBox{x, line * 30, x + 90, line * 30 + 20};
                    doc.words.push_back(w);
                }
        const auto pages = folio::pipeline::taggerPagesOfDocument(doc, nullptr, true);
        QCOMPARE(int(pages.size()), 1);
        QStringList words;
        for (const std::string &w : pages[0].taggerPage.words)
            words << QString::fromStdString(w);
        QCOMPARE(words.join(' '), QStringLiteral("L0.0 L0.1 L0.2 L0.3 L1.0 L1.1 L1.2 L1.3 R0.0 R0.1 R0.2 R0.3 R1.0 R1.1 R1.2 R1.3"));
        for (std::size_t k = 0; k < pages[0].wordIndex.size(); ++k)
            QCOMPARE(doc.words[std::size_t(pages[0].wordIndex[k])].text, words[int(k)]);
        const auto plain = folio::pipeline::taggerPagesOfDocument(doc, nullptr);
        QCOMPARE(QString::fromStdString(plain[0].taggerPage.words[4]), QStringLiteral("R0.0"));
    }

    // 100k words (200 columns of 500 lines... as a 1000-line page of 100-word lines): fast, and a
    // permutation.
    void largePageIsFast()
    {
        std::vector<QRectF> boxes;
        for (int l = 0; l < 1000; ++l)
            for (int k = 0; k < 100; ++k)
                boxes.emplace_back(k * 24.0 + (l % 7), l * 14.0, 20, 10);
        QElapsedTimer t;
        t.start();
        const std::vector<int> order = folio::layoutReadingOrder(boxes);
        const qint64 ms = t.elapsed();
        qInfo("100k words ordered in %lld ms", ms);
        QCOMPARE(order.size(), boxes.size());
        std::vector<char> seen(boxes.size(), 0);
        for (int i : order) {
            QVERIFY(!seen[std::size_t(i)]);
            seen[std::size_t(i)] = 1;
        }
        QCOMPARE(order.front(), 0);
        QCOMPARE(order[100], 100); // line 2 after line 1
        QVERIFY2(ms < 5000, "ordering 100k words took more than 5 s");
    }
};

FOLIO_TEST_GUILESS_MAIN(TestLayoutOrder)
#include "tst_layoutorder.moc"
