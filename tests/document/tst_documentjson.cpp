// The Document JSON form: exact round trips, validation messages, merge rules and BIO tags.
#include "document/documentjson.h"
#include "tests/common/testdata.h"

#include <QTemporaryDir>
#include <QBuffer>
#include <QTest>

using namespace folio;

class TestDocumentJson : public QObject
{
    Q_OBJECT

    static Document sampleDocument()
    {
        Document d;
        d.sourcePath = QStringLiteral("/tmp/form.png");
        d.kind = SourceKind::Image;
        d.title = QStringLiteral("Form «42» — ünïcode");
        d.pages.push_back(Page{QSizeF(762, 1000), QStringLiteral("/tmp/form.png"), 300});
        Node root;
        root.id = QStringLiteral("doc");
        d.addNode(root, -1);
        Node page;
        page.id = QStringLiteral("p0");
        page.kind = NodeKind::Page;
        page.page = 0;
        page.box = QRectF(0, 0, 762, 1000);
        const int p = d.addNode(page, 0);
        Node line;
        line.id = QStringLiteral("p0/l0");
        line.kind = NodeKind::Line;
        line.text = QStringLiteral("Date: 12.5");
        line.box = QRectF(QPointF(10.5, 20), QPointF(200.25, 40));
        line.confidence = 91.5;
        line.attributes.append({QStringLiteral("class"), QStringLiteral("x")});
        const int l = d.addNode(line, p);
        const char *texts[] = {"Date:", "12.5"};
        for (int i = 0; i < 2; ++i) {
            Node wn;
            wn.id = QStringLiteral("p0/l0/w%1").arg(i);
            wn.kind = NodeKind::Word;
            wn.text = QString::fromLatin1(texts[i]);
            wn.box = QRectF(QPointF(10.5 + 100 * i, 20), QPointF(90 + 100 * i, 40));
            wn.visible = i == 0;
            const int wi = d.addNode(wn, l);
            Word w;
            w.id = wn.id;
            w.text = wn.text;
            w.page = 0;
            w.box = wn.box;
            w.node = wi;
            w.confidence = 88 + i;
            w.userEdited = i == 1;
            d.words.push_back(w);
        }
        d.normaliseWordBoxes();
        Section s;
        s.title = QStringLiteral("Header");
        s.level = 1;
        s.node = l;
        s.firstWord = 0;
        s.endWord = 2;
        d.sections.push_back(s);
        Section child = s;
        child.title = QStringLiteral("Sub");
        child.level = 2;
        child.parent = 0;
        child.firstWord = 1;
        d.sections.push_back(child);
        d.sections[0].children.push_back(1);
        return d;
    }

    static Annotations sampleAnnotations()
    {
        Annotations a;
        a.entities.push_back(Entity{QStringLiteral("e0"), QStringLiteral("QUESTION"), {QStringLiteral("p0/l0/w0")}, {}, 1.0, ReviewState::Accepted});
        Entity model{QStringLiteral("e1"), QStringLiteral("ANSWER"), {QStringLiteral("p0/l0/w1")}, {AnnotationSource::Model, QStringLiteral("funsd@1")}, 0.75, ReviewState::Suggested};
        a.entities.push_back(model);
        a.links.push_back(Link{QStringLiteral("l0"), QStringLiteral("e0"), QStringLiteral("e1"), {}, 1.0, ReviewState::Accepted});
        a.fields.push_back(FieldValue{QStringLiteral("date"), {QStringLiteral("p0/l0/w1")}, QStringLiteral("12.5"), {}, 1.0, ReviewState::Accepted});
        a.qsSummary = QStringLiteral("A form.");
        QsNode q;
        q.question = QStringLiteral("When?");
        q.summary = QStringLiteral("On 12.5.");
        q.evidenceSections << QStringLiteral("Header");
        QsNode follow;
        follow.question = QStringLiteral("Which year?");
        q.children.push_back(follow);
        a.qsRoots.push_back(q);
        return a;
    }

private Q_SLOTS:
    void normaliseTruncatesAndClamps()
    {
        const NormBox b = normaliseBox(QRectF(QPointF(-5, 99.99), QPointF(763, 500)), QSizeF(762, 1000));
        QCOMPARE(b.x0, 0);
        QCOMPARE(b.y0, 99);   // 1000*99.99/1000 = 99.99 -> 99
        QCOMPARE(b.x1, 1000); // clamped
        QCOMPARE(b.y1, 500);
        QCOMPARE(normaliseBox(QRectF(1, 1, 1, 1), QSizeF(0, 0)).x1, 0); // no division by zero
    }

    void roundTripIsExact()
    {
        const Document d = sampleDocument();
        const Annotations a = sampleAnnotations();
        const QByteArray first = documentToJson(d, &a);
        Document d2;
        Annotations a2;
        QString error;
        QVERIFY2(documentFromJson(first, &d2, &a2, &error), qPrintable(error));
        const QByteArray second = documentToJson(d2, &a2);
        QCOMPARE(second, first);
        QCOMPARE(d2.nodes.size(), d.nodes.size());
        QCOMPARE(d2.nodes[2].children, d.nodes[2].children);
        QCOMPARE(d2.sections[0].children, std::vector<int>{1});
        QCOMPARE(d2.words[1].userEdited, true);
        QCOMPARE(d2.nodes[4].visible, false);
        QCOMPARE(a2.entities[1].source.checkpoint, QStringLiteral("funsd@1"));
        QCOMPARE(a2.qsRoots[0].children[0].question, QStringLiteral("Which year?"));
        QVERIFY(d2.words[0].norm == d.words[0].norm);
    }

    // The streaming writer (large pages) writes exactly documentToJson's text: indented and
    // compact, with and without annotations, an empty document, a BOM-led value.
    void streamingWriterMatches()
    {
        const Document d = sampleDocument();
        const Annotations a = sampleAnnotations();
        Document empty;
        Document bom;
        bom.title = QString(QChar(0xfeff)) + QStringLiteral("x");
        for (const Document *doc : std::initializer_list<const Document *>{&d, &empty, &bom})
            for (const Annotations *ann : {static_cast<const Annotations *>(nullptr), &a})
                for (const bool indented : {true, false}) {
                    QBuffer buffer;
                    QVERIFY(buffer.open(QIODevice::WriteOnly));
                    QVERIFY(writeDocumentJson(&buffer, *doc, ann, indented));
                    QCOMPARE(buffer.data(), documentToJson(*doc, ann, indented));
                }
    }

    // Found by fuzz_format_swde: Qt's JSON reader drops a raw U+FEFF that starts a string.
    void valueStartingWithBomReadsBack()
    {
        Document d;
        d.sourcePath = QString(QChar(0xfeff)) + QStringLiteral("0000");
        d.title = QStringLiteral("say \"") + QChar(0xfeff) + QStringLiteral("\"");
        const QByteArray json = documentToJson(d, nullptr, false);
        Document back;
        QString error;
        QVERIFY2(documentFromJson(json, &back, nullptr, &error), qPrintable(error));
        QCOMPARE(back.sourcePath, d.sourcePath);
        QCOMPARE(back.title, d.title);
        QCOMPARE(documentToJson(back, nullptr, false), json);
    }

    void rejectsMalformed_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{\"format\":") << QStringLiteral("not valid JSON");
        QTest::newRow("array") << QByteArray("[1,2]") << QStringLiteral("must be a JSON object");
        QTest::newRow("foreign") << QByteArray("{\"format\":\"other\",\"version\":1}") << QStringLiteral("not a Folio document");
        QTest::newRow("newer") << QByteArray("{\"format\":\"folio.document\",\"version\":7,\"pages\":[],\"nodes\":[],\"words\":[]}")
                               << QStringLiteral("unsupported version 7");
        QTest::newRow("bad parent") << QByteArray("{\"format\":\"folio.document\",\"version\":1,\"pages\":[],"
                                                  "\"nodes\":[{\"id\":\"r\",\"kind\":\"root\",\"parent\":-1},{\"id\":\"a\",\"kind\":\"element\",\"parent\":5}],\"words\":[]}")
                                    << QStringLiteral("nodes[1]: parent 5");
        QTest::newRow("bad kind") << QByteArray("{\"format\":\"folio.document\",\"version\":1,\"pages\":[],"
                                                "\"nodes\":[{\"id\":\"r\",\"kind\":\"blob\",\"parent\":-1}],\"words\":[]}")
                                  << QStringLiteral("unknown node kind \"blob\"");
        QTest::newRow("word page") << QByteArray("{\"format\":\"folio.document\",\"version\":1,\"pages\":[],\"nodes\":[],"
                                                 "\"words\":[{\"id\":\"w\",\"text\":\"x\",\"page\":0,\"box\":[0,0,1,1],\"norm\":[0,0,1,1],\"node\":-1}]}")
                                   << QStringLiteral("words[0]: page 0 does not exist");
        QTest::newRow("box type") << QByteArray("{\"format\":\"folio.document\",\"version\":1,\"pages\":[{\"width\":1,\"height\":1}],\"nodes\":[],"
                                                "\"words\":[{\"id\":\"w\",\"text\":\"x\",\"page\":0,\"box\":[0,0,1],\"norm\":[0,0,1,1],\"node\":-1}]}")
                                  << QStringLiteral("\"box\" must be an array of 4 numbers");
        QTest::newRow("entity words") << QByteArray("{\"format\":\"folio.document\",\"version\":1,\"pages\":[],\"nodes\":[],\"words\":[],"
                                                    "\"annotations\":{\"entities\":[{\"id\":\"e\",\"label\":\"Q\",\"words\":[3]}]}}")
                                      << QStringLiteral("annotations.entities[0]: \"words\" must hold strings");
        // Found by fuzz_documentjson (UBSan): numbers beyond int were converted to int.
        QTest::newRow("huge parent") << QByteArray("{\"format\":\"folio.document\",\"version\":1,\"pages\":[],"
                                                   "\"nodes\":[{\"id\":\"r\",\"kind\":\"root\",\"parent\":3.7e112}],\"words\":[]}")
                                     << QStringLiteral("nodes[0]: \"parent\" must be an integer");
        QTest::newRow("huge norm") << QByteArray("{\"format\":\"folio.document\",\"version\":1,\"pages\":[{\"width\":1,\"height\":1}],\"nodes\":[],"
                                                 "\"words\":[{\"id\":\"w\",\"text\":\"x\",\"page\":0,\"box\":[0,0,1,1],\"norm\":[0,0,1e300,1],\"node\":-1}]}")
                                   << QStringLiteral("words[0]: \"norm\" must be an array of 4 integers");
    }

    void rejectsMalformed()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        Document d;
        Annotations a;
        QString error;
        QVERIFY(!documentFromJson(json, &d, &a, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void fileErrorsNameTheFile()
    {
        QTemporaryDir dir;
        Document d;
        QString error;
        QVERIFY(!readDocumentJsonFile(dir.filePath(QStringLiteral("missing.json")), &d, nullptr, &error));
        QVERIFY(error.startsWith(dir.filePath(QStringLiteral("missing.json"))));
        QFile f(dir.filePath(QStringLiteral("big.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(2048, ' '));
        f.close();
        QVERIFY(!readDocumentJsonFile(f.fileName(), &d, nullptr, &error, 1024));
        QVERIFY2(error.contains(QStringLiteral("larger than")), qPrintable(error));
    }

    void modelNeverOverwritesUser()
    {
        Annotations target;
        target.entities.push_back(Entity{QStringLiteral("u"), QStringLiteral("HEADER"), {QStringLiteral("w1"), QStringLiteral("w2")}, {}, 1.0, ReviewState::Accepted});
        target.entities.push_back(Entity{QStringLiteral("old"), QStringLiteral("ANSWER"), {QStringLiteral("w9")}, {AnnotationSource::Model, QStringLiteral("c0")}, 0.5, ReviewState::Suggested});
        Annotations predicted;
        predicted.entities.push_back(Entity{QStringLiteral("p0"), QStringLiteral("QUESTION"), {QStringLiteral("w2"), QStringLiteral("w3")}, {AnnotationSource::Model, QStringLiteral("c1")}, 0.9, ReviewState::Accepted});
        predicted.entities.push_back(Entity{QStringLiteral("p1"), QStringLiteral("ANSWER"), {QStringLiteral("w4")}, {AnnotationSource::Model, QStringLiteral("c1")}, 0.8, ReviewState::Accepted});
        mergeModelAnnotations(target, predicted);
        QCOMPARE(int(target.entities.size()), 2);
        QCOMPARE(target.entities[0].id, QStringLiteral("u"));           // user entity kept
        QCOMPARE(target.entities[1].wordIds, QStringList{QStringLiteral("w4")}); // overlapping prediction dropped, old suggestion replaced
        QCOMPARE(target.entities[1].state, ReviewState::Suggested);
    }

    // Predicted links follow their entities when those get fresh ids, may end at the user's
    // entities, and never duplicate or revive a link the user made or rejected.
    void predictedLinksFollowRenamedEntities()
    {
        const AnnotationSource model{AnnotationSource::Model, QStringLiteral("c1")};
        Annotations target;
        target.entities.push_back(Entity{QStringLiteral("m0"), QStringLiteral("QUESTION"), {QStringLiteral("w1")}, model, 0.9, ReviewState::Accepted});
        target.entities.push_back(Entity{QStringLiteral("u1"), QStringLiteral("ANSWER"), {QStringLiteral("w5")}, {}, 1.0, ReviewState::Accepted});
        target.links.push_back(Link{QStringLiteral("l0"), QStringLiteral("m0"), QStringLiteral("u1"), {}, 1.0, ReviewState::Rejected});
        Annotations predicted;
        predicted.entities.push_back(Entity{QStringLiteral("m0"), QStringLiteral("QUESTION"), {QStringLiteral("w2")}, model, 0.8, ReviewState::Suggested});
        predicted.entities.push_back(Entity{QStringLiteral("m1"), QStringLiteral("ANSWER"), {QStringLiteral("w3")}, model, 0.8, ReviewState::Suggested});
        predicted.entities.push_back(Entity{QStringLiteral("m2"), QStringLiteral("ANSWER"), {QStringLiteral("w1")}, model, 0.8, ReviewState::Suggested}); // over the user's
        predicted.links.push_back(Link{QStringLiteral("l0"), QStringLiteral("m0"), QStringLiteral("m1"), model, 0.7, ReviewState::Suggested});
        predicted.links.push_back(Link{QStringLiteral("l1"), QStringLiteral("m0"), QStringLiteral("m2"), model, 0.7, ReviewState::Suggested}); // end dropped
        predicted.links.push_back(Link{QStringLiteral("l2"), QStringLiteral("m1"), QStringLiteral("u1"), model, 0.6, ReviewState::Suggested}); // to a kept entity
        mergeModelAnnotations(target, predicted);
        QCOMPARE(int(target.entities.size()), 4); // m0 (user's), u1, the renamed question, m1
        const Entity &question = target.entities[2];
        QCOMPARE(question.wordIds, QStringList{QStringLiteral("w2")});
        QVERIFY(question.id != QStringLiteral("m0"));
        QCOMPARE(int(target.links.size()), 3);
        QCOMPARE(target.links[0].state, ReviewState::Rejected); // the user's rejection stays
        QCOMPARE(target.links[1].from, question.id);            // followed the rename
        QCOMPARE(target.links[1].to, QStringLiteral("m1"));
        QVERIFY(target.links[1].id != QStringLiteral("l0"));    // fresh id: l0 is the user's
        QCOMPARE(target.links[2].from, QStringLiteral("m1"));
        QCOMPARE(target.links[2].to, QStringLiteral("u1"));
        QCOMPARE(target.links[2].state, ReviewState::Suggested);
        // A suggestion identical to the rejected link is not revived.
        Annotations again;
        again.links.push_back(Link{QStringLiteral("x"), QStringLiteral("m0"), QStringLiteral("u1"), model, 0.9, ReviewState::Suggested});
        mergeModelAnnotations(target, again);
        QCOMPARE(int(target.links.size()), 1);
        QCOMPARE(target.links[0].state, ReviewState::Rejected);
    }

    void wordIdsUnderANode()
    {
        const Document d = sampleDocument();
        QCOMPARE(d.wordIdsUnder(1), (QStringList{QStringLiteral("p0/l0/w0"), QStringLiteral("p0/l0/w1")})); // page
        QCOMPARE(d.wordIdsUnder(4), QStringList{QStringLiteral("p0/l0/w1")});                              // one word node
        QVERIFY(d.wordIdsUnder(99).isEmpty());
    }

    void bioTagsFollowEntities()
    {
        Annotations a;
        a.entities.push_back(Entity{QStringLiteral("e"), QStringLiteral("ANSWER"), {QStringLiteral("b"), QStringLiteral("c")}, {}, 1.0, ReviewState::Accepted});
        a.entities.push_back(Entity{QStringLiteral("o"), QStringLiteral("other"), {QStringLiteral("d")}, {}, 1.0, ReviewState::Accepted});
        const auto tags = bioTags(a, {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")});
        QCOMPARE(tags, (std::vector<QString>{QStringLiteral("O"), QStringLiteral("B-ANSWER"), QStringLiteral("I-ANSWER"), QStringLiteral("O")}));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestDocumentJson)
#include "tst_documentjson.moc"
