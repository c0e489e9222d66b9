// Dataset formats: round trips for every format and strict validation of bad input.
#include "document/formats/conll.h"
#include "document/formats/datasetformat.h"
#include "document/formats/hfjsonl.h"
#include "document/formats/qshierarchy.h"
#include "document/formats/funsd.h"
#include "projecttestdata.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

static std::vector<DatasetItem> sampleItems()
{
    std::vector<DatasetItem> items(3);
    for (int i = 0; i < 3; ++i) {
        items[i].name = QStringLiteral("doc%1").arg(i);
        items[i].document = test::makeDocument(QStringLiteral("/scans/doc%1.png").arg(i), 20 + i);
        items[i].annotations = test::makeAnnotations(items[i].document, 4 + i);
    }
    return items;
}

// Entities as "LABEL:i,j" over word positions, accepted only (what the token formats keep).
static QStringList entitySignature(const DatasetItem &item, bool includeSuggestions = false)
{
    QStringList out;
    for (const Entity &e : item.annotations.entities) {
        if (e.state == ReviewState::Rejected || (e.state == ReviewState::Suggested && !includeSuggestions))
            continue;
        QStringList pos;
        for (const QString &w : e.wordIds)
            pos << QString::number(item.document.wordIndex(w));
        out << e.label + QLatin1Char(':') + pos.join(QLatin1Char(','));
    }
    return out;
}

static void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// Exports `items` with the format `name` into `dir`, then imports the first written file back.
static void exportAndImport(const QString &name, const std::vector<DatasetItem> &items, const QString &dir,
                            QStringList *written, std::vector<DatasetItem> *back)
{
    auto f = createDatasetFormat(name);
    QString error;
    QVERIFY2(f->exportItems(items, dir, {}, written, &error), qPrintable(error));
    QVERIFY2(f->importFile(written->at(0), back, &error), qPrintable(error));
}

// Writes `bytes` into `dir`/`fileName` and imports it with the format `name`, which must refuse
// it; `error` receives the message (it must name the file).
static void importMustFail(const QString &name, const QTemporaryDir &dir, const QString &fileName,
                           const QByteArray &bytes, QString *error)
{
    const QString path = dir.filePath(fileName);
    writeFile(path, bytes);
    std::vector<DatasetItem> items;
    QVERIFY(!createDatasetFormat(name)->importFile(path, &items, error));
    QVERIFY2(error->startsWith(path), qPrintable(*error));
    QVERIFY(items.empty());
}

class TestDatasetFormats : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void factory()
    {
        for (const QString &n : datasetFormatNames()) {
            auto f = createDatasetFormat(n);
            QVERIFY(f);
            QCOMPARE(f->name(), n);
        }
        QVERIFY(!createDatasetFormat(QStringLiteral("nope")));
    }

    void hfJsonlRoundTrip()
    {
        QTemporaryDir dir;
        auto items = sampleItems();
        QStringList written;
        std::vector<DatasetItem> back;
        exportAndImport(QStringLiteral("hfjsonl"), items, dir.path(), &written, &back);
        QCOMPARE(written.size(), 2);
        QCOMPARE(back.size(), items.size());
        for (size_t i = 0; i < items.size(); ++i) {
            QCOMPARE(back[i].name, items[i].name);
            QCOMPARE(back[i].document.words.size(), items[i].document.words.size());
            for (size_t k = 0; k < items[i].document.words.size(); ++k) {
                QCOMPARE(back[i].document.words[k].text, items[i].document.words[k].text);
                QVERIFY(back[i].document.words[k].norm == items[i].document.words[k].norm);
            }
            QCOMPARE(back[i].document.pages[0].imagePath, items[i].document.pages[0].imagePath);
            QCOMPARE(entitySignature(back[i]), entitySignature(items[i]));
        }
        QFile labels(written[1]);
        QVERIFY(labels.open(QIODevice::ReadOnly));
        QVERIFY(labels.readAll().contains("\"B-ANSWER\""));
    }

    void hfJsonlBadInput_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{oops") << QStringLiteral(":1: invalid JSON");
        QTest::newRow("no tokens") << QByteArray(R"({"bboxes":[],"ner_tags":[]})") << QStringLiteral(":1: $.tokens: missing");
        QTest::newRow("token type") << QByteArray(R"({"tokens":[1],"bboxes":[[0,0,1,1]],"ner_tags":["O"]})")
                                    << QStringLiteral("$.tokens[0]: expected a string, found a number");
        QTest::newRow("short box") << QByteArray(R"({"tokens":["a"],"bboxes":[[0,0,1]],"ner_tags":["O"]})")
                                   << QStringLiteral("$.bboxes[0]: expected an array of 4 integers");
        QTest::newRow("box range") << QByteArray(R"({"tokens":["a"],"bboxes":[[0,0,1,1001]],"ner_tags":["O"]})")
                                   << QStringLiteral("$.bboxes[0][3]: 1001 is outside 0..1000");
        QTest::newRow("lengths") << QByteArray(R"({"tokens":["a","b"],"bboxes":[[0,0,1,1]],"ner_tags":["O"]})")
                                 << QStringLiteral("differ in length");
        QTest::newRow("int tags without names") << QByteArray(R"({"tokens":["a"],"bboxes":[[0,0,1,1]],"ner_tags":[0]})")
                                                << QStringLiteral("$.ner_tags[0]: integer tags need the label names");
    }
    void hfJsonlBadInput()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QString error;
        importMustFail(QStringLiteral("hfjsonl"), dir, QStringLiteral("bad.jsonl"), "\n" + line + "\n", &error);
        QVERIFY2(error.contains(expected.replace(QStringLiteral(":1:"), QStringLiteral(":2:"))), qPrintable(error));
    }

    void conllWordRoundTrip()
    {
        QTemporaryDir dir;
        auto items = sampleItems();
        QStringList written;
        std::vector<DatasetItem> back;
        exportAndImport(QStringLiteral("conll"), items, dir.path(), &written, &back);
        QCOMPARE(back.size(), items.size());
        for (size_t i = 0; i < items.size(); ++i) {
            QCOMPARE(back[i].name, items[i].name);
            QCOMPARE(back[i].document.words.size(), items[i].document.words.size());
            QCOMPARE(entitySignature(back[i]), entitySignature(items[i]));
        }
    }

    void conllSubTokens()
    {
        DatasetItem item;
        item.name = QStringLiteral("x");
        item.document = test::makeDocument(QStringLiteral("x"), 4); // word0..word3
        Entity e;
        e.id = QStringLiteral("e0");
        e.label = QStringLiteral("QUESTION");
        e.wordIds = {QStringLiteral("w1"), QStringLiteral("w2")};
        item.annotations.entities.push_back(e);
        DatasetExportOptions options;
        options.tokenizer = [](const QString &w) { return QStringList{w.left(4), QStringLiteral("##") + w.mid(4)}; };
        const QByteArray text = ConllFormat::documentText(item, options);
        QCOMPARE(text, QByteArray("-DOCSTART-\tx\n"
                                  "word\tO\t0\n##0\tO\t0\n"
                                  "word\tB-QUESTION\t1\n##1\tI-QUESTION\t1\n"
                                  "word\tI-QUESTION\t2\n##2\tI-QUESTION\t2\n"
                                  "word\tO\t3\n##3\tO\t3\n\n"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub.conll"));
        writeFile(path, text);
        std::vector<DatasetItem> back;
        QString error;
        QVERIFY2(createDatasetFormat(QStringLiteral("conll"))->importFile(path, &back, &error), qPrintable(error));
        QCOMPARE(back.size(), size_t(1));
        QCOMPARE(back[0].document.words.size(), size_t(4));
        QCOMPARE(back[0].document.words[2].text, QStringLiteral("word2"));
        QCOMPARE(entitySignature(back[0]), QStringList{QStringLiteral("QUESTION:1,2")});
    }

    void conllBadInput()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.conll"));
        writeFile(path, "a\tO\nb\tX-FOO\n");
        std::vector<DatasetItem> items;
        QString error;
        QVERIFY(!createDatasetFormat(QStringLiteral("conll"))->importFile(path, &items, &error));
        QVERIFY2(error.startsWith(path + QStringLiteral(":2: tag \"X-FOO\"")), qPrintable(error));
        writeFile(path, "a\tO\tx\n");
        QVERIFY(!createDatasetFormat(QStringLiteral("conll"))->importFile(path, &items, &error));
        QVERIFY2(error.contains(QStringLiteral(":1: word index \"x\"")), qPrintable(error));
    }

    void labelStudioRoundTrip()
    {
        QTemporaryDir dir;
        auto items = sampleItems();
        QStringList written;
        std::vector<DatasetItem> back;
        exportAndImport(QStringLiteral("labelstudio"), items, dir.path(), &written, &back);
        QCOMPARE(back.size(), items.size());
        for (size_t i = 0; i < items.size(); ++i) {
            QCOMPARE(back[i].name, items[i].name);
            QCOMPARE(back[i].document.words.size(), items[i].document.words.size());
            QCOMPARE(back[i].document.words[3].id, items[i].document.words[3].id);
            QCOMPARE(back[i].document.words[3].box, items[i].document.words[3].box);
            // Accepted and suggested entities both come back, with state and source.
            QCOMPARE(entitySignature(back[i], true), entitySignature(items[i], true));
            // A relation lives inside one Label Studio result: links between a user entity and a
            // model suggestion are not exported.
            size_t sameGroup = 0;
            for (const Link &l : items[i].annotations.links)
                sameGroup += items[i].annotations.entity(l.from)->state == items[i].annotations.entity(l.to)->state;
            QVERIFY(sameGroup > 0);
            QCOMPARE(back[i].annotations.links.size(), sameGroup);
            const Entity &lastBack = back[i].annotations.entities.back();
            QCOMPARE(lastBack.state, ReviewState::Suggested);
            QCOMPARE(lastBack.source.checkpoint, QStringLiteral("ckpt-1"));
            QCOMPARE(lastBack.confidence, 0.5);
            for (const Link &l : back[i].annotations.links) {
                QVERIFY(back[i].annotations.entity(l.from));
                QVERIFY(back[i].annotations.entity(l.to));
            }
        }
    }

    void labelStudioRectangleWithoutWordIds()
    {
        // A region drawn in Label Studio (no folio meta) picks the words whose centre is inside.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ls.json"));
        writeFile(path, R"([{"id": 1, "data": {"image": "a.png", "folio_page": [1000, 1000],
            "folio_words": [{"id": "a", "text": "Name", "box": [10, 10, 90, 40]},
                            {"id": "b", "text": "Bob", "box": [510, 10, 590, 40]}]},
            "annotations": [{"result": [{"id": "r1", "type": "rectanglelabels",
                "value": {"x": 50, "y": 0, "width": 10, "height": 5, "rectanglelabels": ["ANSWER"]}}]}]}])");
        std::vector<DatasetItem> items;
        QString error;
        QVERIFY2(createDatasetFormat(QStringLiteral("labelstudio"))->importFile(path, &items, &error), qPrintable(error));
        QCOMPARE(items[0].annotations.entities.size(), size_t(1));
        QCOMPARE(items[0].annotations.entities[0].wordIds, QStringList{QStringLiteral("b")});
        QCOMPARE(items[0].annotations.entities[0].label, QStringLiteral("ANSWER"));
    }

    void labelStudioBadInput_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no data") << QByteArray(R"([{"id": 1}])") << QStringLiteral("$[0].data: missing");
        QTest::newRow("no words") << QByteArray(R"([{"data": {"image": "x"}}])")
                                  << QStringLiteral("$[0].data.folio_words: missing");
        QTest::newRow("bad box") << QByteArray(R"([{"data": {"folio_words": [{"id": "a", "text": "t", "box": [1, 2]}]}}])")
                                 << QStringLiteral("$[0].data.folio_words[0].box: expected an array of 4 numbers");
        QTest::newRow("label type") << QByteArray(R"([{"data": {"folio_words": []}, "annotations": [{"result":
            [{"id": "r", "type": "rectanglelabels", "value": {"rectanglelabels": [3]}}]}]}])")
                                    << QStringLiteral("$[0].annotations[0].result[0].value.rectanglelabels: expected one label string");
        QTest::newRow("unknown word") << QByteArray(R"([{"data": {"folio_words": []}, "annotations": [{"result":
            [{"id": "r", "type": "rectanglelabels", "value": {"rectanglelabels": ["A"]}, "meta": {"folio_words": ["zz"]}}]}]}])")
                                      << QStringLiteral("unknown word id \"zz\"");
    }
    void labelStudioBadInput()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QString error;
        importMustFail(QStringLiteral("labelstudio"), dir, QStringLiteral("ls.json"), json, &error);
        QVERIFY2(error.startsWith(dir.filePath(QStringLiteral("ls.json: "))), qPrintable(error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void qsLinearisation()
    {
        std::vector<QsNode> roots(2);
        roots[0].question = QStringLiteral("What is it?");
        roots[0].summary = QStringLiteral("A study.");
        roots[0].children.resize(2);
        roots[0].children[0].question = QStringLiteral("Who?");
        roots[0].children[0].summary = QStringLiteral("Us.");
        roots[0].children[0].children.resize(1);
        roots[0].children[0].children[0].question = QStringLiteral("Why?");
        roots[0].children[0].children[0].summary = QStringLiteral("Because.");
        roots[0].children[1].question = QStringLiteral("When?");
        roots[0].children[1].summary = QStringLiteral("Now.");
        roots[1].question = QStringLiteral("Where?");
        roots[1].summary = QStringLiteral("Here.");
        const QString text = linearizeQsHierarchy(QStringLiteral("Root summary."), roots);
        QCOMPARE(text, QStringLiteral("Root summary. [L-] What is it? A study. [L\u2193] Who? Us. [L\u2193] Why? Because. "
                                      "[L\u2191] When? Now. [L\u2191] Where? Here."));
        QString summary, error;
        std::vector<QsNode> back;
        QVERIFY2(parseLinearizedQsHierarchy(text, &summary, &back, &error), qPrintable(error));
        QCOMPARE(summary, QStringLiteral("Root summary."));
        QCOMPARE(linearizeQsHierarchy(summary, back), text);
        // The released format (depth d items get d DOWN tokens, UP never emitted) parses as
        // "child of the previous item": a run of DOWN is one push.
        QVERIFY(parseLinearizedQsHierarchy(QStringLiteral("R [L-] A? a [L\u2193] B? b [L\u2193] [L\u2193] C? c"),
                                           &summary, &back, &error));
        QCOMPARE(back.size(), size_t(1));
        QCOMPARE(back[0].children[0].children[0].question, QStringLiteral("C?"));
    }

    void qsRoundTripAndBadInput()
    {
        QTemporaryDir dir;
        std::vector<DatasetItem> items(1);
        items[0].name = QStringLiteral("report");
        items[0].annotations.qsSummary = QStringLiteral("Root.");
        items[0].annotations.qsRoots.resize(1);
        items[0].annotations.qsRoots[0].question = QStringLiteral("Q?");
        items[0].annotations.qsRoots[0].summary = QStringLiteral("S.");
        items[0].annotations.qsRoots[0].evidenceSections = {QStringLiteral("Intro")};
        items[0].annotations.qsRoots[0].children.resize(1);
        items[0].annotations.qsRoots[0].children[0].question = QStringLiteral("Q2?");
        auto f = createDatasetFormat(QStringLiteral("qs"));
        QString error;
        QStringList written;
        QVERIFY2(f->exportItems(items, dir.path(), {}, &written, &error), qPrintable(error));
        std::vector<DatasetItem> back;
        QVERIFY2(f->importFile(written[0], &back, &error), qPrintable(error));
        QCOMPARE(back[0].annotations.qsSummary, QStringLiteral("Root."));
        QCOMPARE(back[0].annotations.qsRoots[0].evidenceSections, QStringList{QStringLiteral("Intro")});
        QCOMPARE(back[0].annotations.qsRoots[0].children[0].question, QStringLiteral("Q2?"));
        const QString bad = dir.filePath(QStringLiteral("bad.qs.jsonl"));
        writeFile(bad, R"({"id": "x", "summary": "s", "hierarchy": [{"question": "q?", "summary": 5}]})");
        QVERIFY(!f->importFile(bad, &back, &error));
        QVERIFY2(error == bad + QStringLiteral(":1: $.hierarchy[0].summary: expected a string, found a number"),
                 qPrintable(error));
        writeFile(bad, R"({"id": "x", "linearised": "R [L-] A? a"})");
        QVERIFY2(f->importFile(bad, &back, &error), qPrintable(error));
        QCOMPARE(back[0].annotations.qsRoots[0].summary, QStringLiteral("a"));
    }

    void swdeRoundTrip()
    {
        QTemporaryDir dir;
        std::vector<DatasetItem> items(3);
        for (int i = 0; i < 3; ++i) {
            items[i].name = QStringLiteral("p%1").arg(i);
            FieldValue f;
            f.field = QStringLiteral("title");
            f.text = QStringLiteral("Book %1").arg(i);
            if (i != 1)
                items[i].annotations.fields.push_back(f);
        }
        FieldValue a;
        a.field = QStringLiteral("author");
        a.text = QStringLiteral("Ann");
        items[2].annotations.fields.push_back(a);
        a.text = QStringLiteral("Bo");
        items[2].annotations.fields.push_back(a);
        auto f = createDatasetFormat(QStringLiteral("swde"));
        QString error;
        QStringList written;
        QVERIFY2(f->exportItems(items, dir.path(), {}, &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 2);
        std::vector<DatasetItem> back;
        QVERIFY2(f->importFile(dir.filePath(QStringLiteral("folio-project-author.txt")), &back, &error), qPrintable(error));
        QCOMPARE(back.size(), size_t(3));
        QCOMPARE(back[2].name, QStringLiteral("0002"));
        QCOMPARE(back[2].annotations.fields.size(), size_t(2));
        QCOMPARE(back[2].annotations.fields[1].text, QStringLiteral("Bo"));
        QVERIFY(back[0].annotations.fields.empty());
        const QString bad = dir.filePath(QStringLiteral("bad.txt"));
        writeFile(bad, "book\tsite\ttitle\n1\t1\t1\t1\n0000\t2\tonly one\n");
        QVERIFY(!f->importFile(bad, &back, &error));
        QVERIFY2(error == bad + QStringLiteral(":3: value count 2 but 1 value(s)"), qPrintable(error));
    }

    // Found by fuzz_format_swde: a field name with a NUL (or a '/') imported, then its export
    // failed ("Broken filename"). Such characters become '_' in the file name; the header keeps it.
    void swdeFieldNameIsAFileName()
    {
        QTemporaryDir dir;
        const QString in = dir.filePath(QStringLiteral("in.txt"));
        writeFile(in, QByteArray("book\tsite\tau/th\0or\n1\t1\t1\t1\n0000\t1\tAnn\n", 38));
        auto f = createDatasetFormat(QStringLiteral("swde"));
        std::vector<DatasetItem> items;
        QString error;
        QVERIFY2(f->importFile(in, &items, &error), qPrintable(error));
        QStringList written;
        QVERIFY2(f->exportItems(items, dir.filePath(QStringLiteral("out")), {}, &written, &error), qPrintable(error));
        QCOMPARE(written, QStringList{dir.filePath(QStringLiteral("out/folio-project-au_th_or.txt"))});
        std::vector<DatasetItem> back;
        QVERIFY2(f->importFile(written.front(), &back, &error), qPrintable(error));
        QCOMPARE(back.front().annotations.fields.front().field, QString::fromUtf8("au/th\0or", 8));
        // A field longer than a file name may be (255 bytes, with the temporary file's suffix)
        // keeps its start and a hash (78 x U+FFFD: a 252-byte name, as the fuzzer found).
        const QString longField = QString(78, QChar(0xfffd));
        writeFile(in, "book\tsite\t" + longField.toUtf8() + "\n1\t1\t1\t1\n0000\t1\tAnn\n");
        QVERIFY2(f->importFile(in, &items, &error), qPrintable(error));
        written.clear();
        QVERIFY2(f->exportItems(items, dir.filePath(QStringLiteral("long")), {}, &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 1);
        QVERIFY(QFileInfo(written.front()).fileName().toUtf8().size() <= 200);
        QVERIFY2(f->importFile(written.front(), &back, &error), qPrintable(error));
        QCOMPARE(back.front().annotations.fields.front().field, longField);
    }

    void swdeRealGroundTruth()
    {
        const QString path = folio::test::sharedPath(
            QStringLiteral("data/swde-book-subset/resources/datasets/swde-17477/groundtruth/book/book-christianbook-author.txt"));
        FOLIO_REQUIRE_DATA(path);
        std::vector<DatasetItem> items;
        QString error;
        QVERIFY2(createDatasetFormat(QStringLiteral("swde"))->importFile(path, &items, &error), qPrintable(error));
        QCOMPARE(items.size(), size_t(2000));
        QCOMPARE(items[5].annotations.fields.size(), size_t(2));
        QCOMPARE(items[5].annotations.fields[1].text, QStringLiteral("Rachel Hauck"));
    }

    // FUNSD is a DatasetFormat like the others: a real form imports through the factory, exports
    // to annotations/<name>.json with the same bytes funsdToJson gives, and reads back equal.
    void funsdThroughTheFactory()
    {
        const QString path = folio::test::sharedPath(QStringLiteral("data/funsd/dataset/testing_data/annotations/82092117.json"));
        FOLIO_REQUIRE_DATA(path);
        auto f = createDatasetFormat(QStringLiteral("funsd"));
        std::vector<DatasetItem> items;
        QString error;
        QVERIFY2(f->importFile(path, &items, &error), qPrintable(error));
        QCOMPARE(items.size(), size_t(1));
        QCOMPARE(items[0].name, QStringLiteral("82092117"));
        QVERIFY(!items[0].annotations.entities.empty());
        QTemporaryDir dir;
        QStringList written;
        QVERIFY2(f->exportItems(items, dir.path(), {}, &written, &error), qPrintable(error));
        QCOMPARE(written, QStringList{dir.filePath(QStringLiteral("annotations/82092117.json"))});
        QFile out(written[0]);
        QVERIFY(out.open(QIODevice::ReadOnly));
        QCOMPARE(out.readAll(), funsdToJson(items[0].document, items[0].annotations));
        // Read back (the page size comes from the original PNG) and export again: same bytes.
        std::vector<DatasetItem> back;
        const QString png = folio::test::sharedPath(QStringLiteral("data/funsd/dataset/testing_data/images/82092117.png"));
        Document doc;
        Annotations ann;
        QVERIFY2(importFunsdFile(written[0], FunsdWordOrder::Annotation, &doc, &ann, &error, png), qPrintable(error));
        QCOMPARE(funsdToJson(doc, ann), funsdToJson(items[0].document, items[0].annotations));
        // A bad box is refused by the importer, naming the file.
        writeFile(dir.filePath(QStringLiteral("bad.json")), "{\"form\": [{\"id\": 0, \"text\": \"x\", \"box\": [5, 5, 1, 1], "
                                                            "\"label\": \"other\", \"words\": [], \"linking\": []}]}");
        QVERIFY(!f->importFile(dir.filePath(QStringLiteral("bad.json")), &back, &error));
        QVERIFY2(error.contains(dir.filePath(QStringLiteral("bad.json"))), qPrintable(error));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestDatasetFormats)
#include "tst_datasetformats.moc"
