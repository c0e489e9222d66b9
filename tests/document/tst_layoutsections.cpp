// Section trees from layout (OCR lines) and from PDF outlines, on hand-built OCR documents.
#include "document/layoutsections.h"

#include "tests/common/testdata.h"

#include <QElapsedTimer>
#include <QtTest>

using namespace folio;

namespace {

// Builds an OCR-shaped document: page > block > paragraph > line > words. Each line is given by
// its text, its word height and whether it starts a new paragraph; lines stack downwards.
class PageBuilder
{
public:
    explicit PageBuilder(int pages = 1)
    {
        Node root;
        root.id = QStringLiteral("root");
        doc.nodes.push_back(root);
        for (int p = 0; p < pages; ++p) {
            doc.pages.push_back(Page{QSizeF(2000, 3000), QString(), 300});
            Node pn;
            pn.id = QStringLiteral("p%1").arg(p);
            pn.kind = NodeKind::Page;
            pn.page = p;
            pageNodes.push_back(doc.addNode(pn, 0));
        }
    }
    void line(const QString &text, double height, bool newParagraph = false, int page = 0, double gapAbove = 10)
    {
        double &y = cursor[page];
        if (paragraph < 0 || newParagraph || page != currentPage) {
            Node par;
            par.id = QStringLiteral("p%1/par%2").arg(page).arg(doc.nodes.size());
            par.kind = NodeKind::Paragraph;
            par.page = page;
            paragraph = doc.addNode(par, pageNodes[size_t(page)]);
            currentPage = page;
        }
        y += gapAbove;
        Node ln;
        ln.id = QStringLiteral("l%1").arg(doc.nodes.size());
        ln.kind = NodeKind::Line;
        ln.page = page;
        const int lineNode = doc.addNode(ln, paragraph);
        double x = 100;
        for (const QString &t : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            Node wn;
            wn.id = QStringLiteral("w%1").arg(doc.words.size());
            wn.kind = NodeKind::Word;
            wn.text = t;
            wn.page = page;
            wn.box = QRectF(x, y, height * 0.6 * t.size(), height);
            Word w;
            w.id = wn.id;
            w.text = t;
            w.page = page;
            w.box = wn.box;
            w.node = doc.addNode(wn, lineNode);
            doc.words.push_back(w);
            x += wn.box.width() + height * 0.4;
        }
        y += height;
    }
    void body(int lines, int page = 0)
    {
        for (int i = 0; i < lines; ++i)
            line(QStringLiteral("the body text of this report goes on for a while here"), 30, i == 0, page);
    }
    Document doc;
    std::vector<int> pageNodes;
    std::map<int, double> cursor;
    int paragraph = -1;
    int currentPage = -1;
};

QStringList titles(const Document &doc)
{
    QStringList out;
    for (const Section &s : doc.sections)
        out << QStringLiteral("%1:%2").arg(s.level).arg(s.title);
    return out;
}

void checkInvariants(const Document &doc)
{
    int previous = 0;
    for (int i = 0; i < int(doc.sections.size()); ++i) {
        const Section &s = doc.sections[size_t(i)];
        QVERIFY(s.firstWord >= previous);
        QVERIFY(s.firstWord <= s.endWord);
        QVERIFY(s.endWord <= int(doc.words.size()));
        QVERIFY(s.level >= 1);
        if (s.parent >= 0) {
            QVERIFY(s.parent < i);
            QCOMPARE(s.level, doc.sections[size_t(s.parent)].level + 1);
            QVERIFY(std::count(doc.sections[size_t(s.parent)].children.begin(),
                               doc.sections[size_t(s.parent)].children.end(), i) == 1);
        } else {
            QCOMPARE(s.level, 1);
        }
        previous = s.firstWord;
    }
}

} // namespace

class TestLayoutSections : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void numberingDepth_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("depth");
        QTest::addColumn<QString>("rest");
        QTest::newRow("digit") << "2 Methods" << 1 << "Methods";
        QTest::newRow("digit dot") << "3. Results" << 1 << "Results";
        QTest::newRow("two levels") << "2.3 Data sets" << 2 << "Data sets";
        QTest::newRow("three levels dot") << "2.3.1. Noise" << 3 << "Noise";
        QTest::newRow("appendix") << "A.1 Proofs" << 2 << "Proofs";
        QTest::newRow("letter dot") << "B. Tables" << 1 << "Tables";
        QTest::newRow("roman") << "IV. Discussion" << 1 << "Discussion";
        QTest::newRow("roman two") << "II.3 Scope" << 2 << "Scope";
        QTest::newRow("plain word") << "Introduction" << 0 << "";
        QTest::newRow("bare letter") << "A note" << 0 << "note";
        QTest::newRow("bare roman") << "I think so" << 0 << "think so";
        QTest::newRow("year") << "2023 was good" << 0 << "was good";
        QTest::newRow("leading zero") << "01 Intro" << 0 << "Intro";
        QTest::newRow("letters after dot") << "2.a Foo" << 0 << "Foo";
        QTest::newRow("empty") << "" << 0 << "";
        QTest::newRow("lower letter") << "a. apples" << 0 << "apples";
    }
    void numberingDepth()
    {
        QFETCH(QString, text);
        QFETCH(int, depth);
        QFETCH(QString, rest);
        QString r;
        QCOMPARE(sectionNumberingDepth(text, &r), depth);
        if (depth > 0)
            QCOMPARE(r, rest);
    }

    void numberedHeadingsNest()
    {
        PageBuilder b;
        b.line(QStringLiteral("A Study of Things"), 60, true);
        b.line(QStringLiteral("1 Introduction"), 30, true, 0, 40);
        b.body(5);
        b.line(QStringLiteral("1.1 Scope of the work"), 30, true, 0, 40);
        b.body(4);
        b.line(QStringLiteral("2 Methods"), 30, true, 0, 40);
        b.body(3);
        b.line(QStringLiteral("2.1 Data"), 30, true, 0, 40);
        b.body(3);
        b.line(QStringLiteral("2.1.1 Cleaning"), 30, true, 0, 40);
        b.body(3);
        QCOMPARE(buildLayoutSections(&b.doc), 6);
        QCOMPARE(titles(b.doc), QStringList({"1:A Study of Things", "1:1 Introduction", "2:1.1 Scope of the work",
                                             "1:2 Methods", "2:2.1 Data", "3:2.1.1 Cleaning"}));
        checkInvariants(b.doc);
        const Section &scope = b.doc.sections[2];
        QCOMPARE(scope.parent, 1);
        QCOMPARE(b.doc.words[size_t(scope.firstWord)].text, QStringLiteral("1.1"));
        QCOMPARE(b.doc.words[size_t(scope.endWord)].text, QStringLiteral("2"));
        QCOMPARE(b.doc.nodes[size_t(scope.node)].kind, NodeKind::Line);
        QCOMPARE(b.doc.sections.back().endWord, int(b.doc.words.size()));
    }

    void sizeTiersGiveLevels()
    {
        PageBuilder b;
        b.line(QStringLiteral("Annual Report"), 70, true);
        b.line(QStringLiteral("Overview"), 48, true, 0, 40);
        b.body(4);
        b.line(QStringLiteral("Regional results"), 40, true, 0, 40);
        b.body(4);
        b.line(QStringLiteral("Outlook"), 46, true, 0, 40);
        b.body(4);
        buildLayoutSections(&b.doc);
        QCOMPARE(titles(b.doc), QStringList({"1:Annual Report", "2:Overview", "3:Regional results", "2:Outlook"}));
        checkInvariants(b.doc);
    }

    void sentencesAndListsAreNotHeadings()
    {
        PageBuilder b;
        b.line(QStringLiteral("1 Introduction"), 30, true, 0, 40);
        b.body(3);
        // A numbered list inside a paragraph, a numbered sentence, a long large line.
        b.line(QStringLiteral("2 apples were bought"), 30, false, 0, 10);
        b.line(QStringLiteral("3. We then measured the rest."), 30, true, 0, 40);
        b.line(QStringLiteral("4 Items, lists, and more,"), 30, true, 0, 40);
        b.line(QStringLiteral("This large line has far too many words in it to be any kind of heading at all"), 60, true);
        b.line(QStringLiteral("12"), 60, true); // a page number in a large font
        b.body(3);
        buildLayoutSections(&b.doc);
        QCOMPARE(titles(b.doc), QStringList({"1:1 Introduction"}));
    }

    void skippedLevelsAttachToNearestParent()
    {
        PageBuilder b;
        b.line(QStringLiteral("3.2.1 Deep start"), 30, true, 0, 40);
        b.body(2);
        b.line(QStringLiteral("4 Next"), 30, true, 0, 40);
        b.body(2);
        b.line(QStringLiteral("4.1.5 Skipped a level"), 30, true, 0, 40);
        b.body(2);
        buildLayoutSections(&b.doc);
        QCOMPARE(titles(b.doc), QStringList({"1:3.2.1 Deep start", "1:4 Next", "2:4.1.5 Skipped a level"}));
        checkInvariants(b.doc);
    }

    void emptyAndHeadinglessDocuments()
    {
        Document empty;
        QCOMPARE(buildLayoutSections(&empty), 0);
        PageBuilder b;
        b.body(10);
        QCOMPARE(buildLayoutSections(&b.doc), 0);
        // Words without line nodes (e.g. an imported document): no crash, no headings.
        Document loose;
        loose.pages.push_back(Page{QSizeF(100, 100), QString(), 0});
        for (int i = 0; i < 5; ++i) {
            Word w;
            w.id = QString::number(i);
            w.text = QStringLiteral("word");
            loose.words.push_back(w);
        }
        QCOMPARE(buildLayoutSections(&loose), 0);
    }

    void outlineMapsToPagesAndPositions()
    {
        PageBuilder b(3);
        b.line(QStringLiteral("Preface text"), 30, true, 0);
        b.body(3, 0);
        b.line(QStringLiteral("Chapter One"), 30, true, 1);
        b.body(20, 1);
        b.line(QStringLiteral("A subsection"), 30, true, 1, 40);
        b.body(3, 1);
        b.body(3, 2);
        const double subTop = b.doc.words[size_t(b.doc.words.size() - 6 * 11 - 2)].box.top() / 3000.0;
        std::vector<OutlineEntry> outline{{QStringLiteral("Preface"), 1, 0, -1},
                                          {QStringLiteral("Chapter One"), 1, 1, 0.0},
                                          {QStringLiteral("A subsection"), 4, 1, subTop},
                                          {QStringLiteral("Elsewhere"), 2, -1, -1},
                                          {QStringLiteral("Last page"), 1, 2, -1},
                                          {QStringLiteral("Past the end"), 1, 99, 0.5}};
        QCOMPARE(buildOutlineSections(&b.doc, outline), 6);
        checkInvariants(b.doc);
        QCOMPARE(titles(b.doc), QStringList({"1:Preface", "1:Chapter One", "2:A subsection", "2:Elsewhere",
                                             "1:Last page", "1:Past the end"}));
        QCOMPARE(b.doc.sections[0].firstWord, 0);
        QCOMPARE(b.doc.words[size_t(b.doc.sections[1].firstWord)].text, QStringLiteral("Chapter"));
        QCOMPARE(b.doc.words[size_t(b.doc.sections[2].firstWord)].text, QStringLiteral("A"));
        QCOMPARE(b.doc.words[size_t(b.doc.sections[2].firstWord)].page, 1);
        QCOMPARE(b.doc.sections[3].firstWord, b.doc.sections[2].firstWord); // points nowhere: where the previous one did
        QCOMPARE(b.doc.words[size_t(b.doc.sections[4].firstWord)].page, 2);
        QCOMPARE(b.doc.sections[5].firstWord, b.doc.sections[4].firstWord); // a page past the end
    }

    void rebaseAfterWordsChange()
    {
        PageBuilder b;
        b.line(QStringLiteral("1 Introduction"), 30, true, 0, 40);
        b.body(2);
        b.line(QStringLiteral("2 Methods"), 30, true, 0, 40);
        b.body(2);
        buildLayoutSections(&b.doc);
        QCOMPARE(b.doc.sections.size(), size_t(2));
        QStringList oldIds;
        for (const Word &w : b.doc.words)
            oldIds << w.id;
        const int methods = b.doc.sections[1].firstWord;
        // Drop the first three words and the "2" of "2 Methods", add two new words at the front.
        std::vector<Word> words(b.doc.words.begin() + 3, b.doc.words.end());
        words.erase(words.begin() + (methods - 3));
        Word fresh;
        fresh.id = QStringLiteral("new1");
        words.insert(words.begin(), fresh);
        fresh.id = QStringLiteral("new2");
        words.insert(words.begin(), fresh);
        b.doc.words = words;
        rebaseSections(&b.doc, oldIds);
        checkInvariants(b.doc);
        QCOMPARE(b.doc.sections[0].firstWord, 0); // the replacement words take the removed ones' place
        QCOMPARE(b.doc.words[size_t(b.doc.sections[1].firstWord)].text, QStringLiteral("Methods"));
        QCOMPARE(b.doc.sections[0].endWord, b.doc.sections[1].firstWord);
        QCOMPARE(b.doc.sections[1].endWord, int(b.doc.words.size()));
    }

    void largeDocumentIsLinear()
    {
        PageBuilder b(200);
        for (int p = 0; p < 200; ++p) {
            b.line(QStringLiteral("%1 Chapter").arg(p + 1), 30, true, p, 40);
            b.body(40, p);
        }
        QElapsedTimer t;
        t.start();
        QCOMPARE(buildLayoutSections(&b.doc), 200);
        QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
        checkInvariants(b.doc);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestLayoutSections)
#include "tst_layoutsections.moc"
