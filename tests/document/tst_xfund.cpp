// XFUND import (issue 37): FUNSD-style Documents from one multilingual file; damage inside a
// document counted, reported and repaired while the rest is imported; the German split as shipped.
#include "document/formats/xfund.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

namespace {

QJsonObject entity(int id, const QString &label, const QJsonArray &box, const QString &text, const QJsonArray &linking = {})
{
    QJsonArray words;
    words.append(QJsonObject{{QStringLiteral("box"), box}, {QStringLiteral("text"), text}});
    return QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("label"), label}, {QStringLiteral("box"), box},
                       {QStringLiteral("text"), text}, {QStringLiteral("words"), words}, {QStringLiteral("linking"), linking}};
}

QJsonObject document(const QString &id, const QJsonArray &entities, int width = 1000, int height = 1400)
{
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("img"), QJsonObject{{QStringLiteral("fname"), id + QStringLiteral(".jpg")},
                                                           {QStringLiteral("width"), width}, {QStringLiteral("height"), height}}},
                       {QStringLiteral("document"), entities}};
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return {};
    return path;
}

} // namespace

class TestXfund : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void importsAndReportsDamage()
    {
        QTemporaryDir dir;
        QJsonArray docs;
        // A clean form: question -> answer link.
        docs.append(document(QStringLiteral("de_x_0"),
                             QJsonArray{entity(0, QStringLiteral("question"), QJsonArray{10, 10, 100, 30}, QStringLiteral("Name:"),
                                               QJsonArray{QJsonArray{0, 1}}),
                                        entity(1, QStringLiteral("answer"), QJsonArray{110, 10, 300, 30}, QStringLiteral("Müller"),
                                               QJsonArray{QJsonArray{0, 1}})}));
        // An unknown label (dropped), a link to a missing entity (dropped), a box past the page (clipped).
        docs.append(document(QStringLiteral("de_x_1"),
                             QJsonArray{entity(0, QStringLiteral("signature"), QJsonArray{10, 10, 100, 30}, QStringLiteral("Unterschrift")),
                                        entity(1, QStringLiteral("header"), QJsonArray{10, 40, 1200, 80}, QStringLiteral("Antrag"),
                                               QJsonArray{QJsonArray{1, 99}}),
                                        entity(2, QStringLiteral("OTHER"), QJsonArray{10, 90, 50, 110}, QStringLiteral("Seite"))}));
        // No page size: skipped and named.
        docs.append(document(QStringLiteral("de_x_2"), QJsonArray{entity(0, QStringLiteral("other"), QJsonArray{1, 1, 2, 2}, QStringLiteral("x"))}, 0, 0));
        const QString path = writeFile(dir, QStringLiteral("de.test.json"),
                                       QJsonDocument(QJsonObject{{QStringLiteral("lang"), QStringLiteral("de")},
                                                                 {QStringLiteral("split"), QStringLiteral("test")},
                                                                 {QStringLiteral("documents"), docs}}).toJson());
        QVERIFY(isXfundFile(path));
        std::vector<XfundPage> pages;
        XfundReport report;
        QString error;
        QVERIFY2(importXfundFile(path, FunsdWordOrder::Annotation, &pages, &report, &error), qPrintable(error));
        QCOMPARE(report.documents, 3);
        QCOMPARE(report.imported, 2);
        QCOMPARE(report.skippedDocuments, 1);
        QCOMPARE(report.droppedEntities, 1);
        QCOMPARE(report.droppedLinks, 1);
        QCOMPARE(report.clippedBoxes, 1);
        QCOMPARE(report.language, QStringLiteral("de"));
        QVERIFY(report.problems.join(QLatin1Char('\n')).contains(QStringLiteral("de_x_2: no usable page size")));
        QVERIFY(report.summary().contains(QStringLiteral("2 of 3 documents imported")));

        QCOMPARE(int(pages.size()), 2);
        const XfundPage &a = pages[0];
        QCOMPARE(a.document.title, QStringLiteral("de_x_0"));
        QCOMPARE(int(a.document.words.size()), 2);
        QCOMPARE(a.document.words[1].text, QStringLiteral("Müller"));
        QCOMPARE(int(a.annotations.entities.size()), 2);
        QCOMPARE(a.annotations.entities[0].label, QStringLiteral("QUESTION"));
        QCOMPARE(int(a.annotations.links.size()), 1);
        QCOMPARE(a.document.words[0].norm.x0, 10); // 0-1000 boxes from the page size in "img"
        const XfundPage &b = pages[1];
        QCOMPARE(int(b.annotations.entities.size()), 2); // the "signature" entity is gone with its word
        QCOMPARE(int(b.document.words.size()), 2);
        QCOMPARE(b.annotations.entities[1].label, QStringLiteral("OTHER"));
        QVERIFY(b.annotations.links.empty());
        QCOMPARE(b.document.words[0].box.right(), 1000.0); // clipped to the 1000 px wide page
    }

    void refusesWhatIsNotXfund()
    {
        QTemporaryDir dir;
        std::vector<XfundPage> pages;
        XfundReport report;
        QString error;
        const QString notJson = writeFile(dir, QStringLiteral("a.json"), "{\"documents\": [ {\"id\": ");
        QVERIFY(!importXfundFile(notJson, FunsdWordOrder::Annotation, &pages, &report, &error));
        QVERIFY2(error.startsWith(notJson) && error.contains(QStringLiteral("invalid JSON")), qPrintable(error));
        const QString funsd = writeFile(dir, QStringLiteral("f.json"), "{\"form\": []}");
        QVERIFY(!isXfundFile(funsd));
        QVERIFY(!importXfundFile(funsd, FunsdWordOrder::Annotation, &pages, &report, &error));
        QVERIFY2(error.contains(QStringLiteral("no \"documents\" array")), qPrintable(error));
        // Every document broken: nothing to import is an error, naming the first problem.
        const QString broken = writeFile(dir, QStringLiteral("b.json"),
                                         "{\"documents\": [{\"id\": \"d0\", \"img\": {\"width\": 100, \"height\": 100}, "
                                         "\"document\": [{\"label\": \"other\", \"box\": [1, 2, 3]}]}]}");
        QVERIFY(!importXfundFile(broken, FunsdWordOrder::Annotation, &pages, &report, &error));
        QVERIFY2(error.contains(QStringLiteral("no document could be read")) && error.contains(QStringLiteral("d0")), qPrintable(error));
        QVERIFY(!importXfundFile(dir.filePath(QStringLiteral("missing.json")), FunsdWordOrder::Annotation, &pages, &report, &error));
        QVERIFY(error.contains(QStringLiteral("cannot open")));
    }

    // Issue 51: sizes are counted from the bytes before any document is built. A document over
    // 1 M words is skipped and named (its JSON never parsed), the others imported; a file of more
    // than 2 M words is refused whole; nesting, stray bytes and "lang"/"split" read by the scan.
    void limitsCountedBeforeParsing()
    {
        QTemporaryDir dir;
        auto doc = [](const QByteArray &id, int entities, int words) {
            const QByteArray word = "{\"box\":[1,1,2,2],\"text\":\"w\"}";
            const QByteArray wordList = word + ("," + word).repeated(words - 1);
            QByteArray list;
            for (int e = 0; e < entities; ++e)
                list += (e > 0 ? "," : "") + ("{\"id\":" + QByteArray::number(e) + ",\"label\":\"other\",\"box\":[1,1,2,2],\"text\":\"w\",\"words\":[")
                        + wordList + "]}";
            return "{\"id\":\"" + id + "\",\"img\":{\"width\":100,\"height\":100},\"document\":[" + list + "]}";
        };
        const QString mixed = writeFile(dir, QStringLiteral("m.json"),
                                        "{\"lang\": \"fr\", \"documents\": [" + doc("small", 2, 3) + ", " + doc("huge", 1001, 1000)
                                            + "], \"split\": \"val\"}");
        std::vector<XfundPage> pages;
        XfundReport report;
        QString error;
        QVERIFY2(importXfundFile(mixed, FunsdWordOrder::Annotation, &pages, &report, &error), qPrintable(error));
        QCOMPARE(report.language, QStringLiteral("fr"));
        QCOMPARE(report.split, QStringLiteral("val"));
        QCOMPARE(report.documents, 2);
        QCOMPARE(report.imported, 1);
        QCOMPARE(int(pages.front().document.words.size()), 6);
        QVERIFY2(report.problems.join(QLatin1Char('\n')).contains(QStringLiteral("documents[1]: 1001000 words and 1001 entities: more than the 1000000 words")),
                 qPrintable(report.problems.join(QLatin1Char('\n'))));
        const QString many = writeFile(dir, QStringLiteral("many.json"),
                                       "{\"documents\": [" + (doc("d", 100, 1000) + ",").repeated(20) + doc("d", 100, 1000) + "]}");
        QVERIFY(!importXfundFile(many, FunsdWordOrder::Annotation, &pages, &report, &error));
        QCOMPARE(error, many + QStringLiteral(": 2100000 words in 21 documents: more than the 2000000 an XFUND file may hold (split it)"));
        const QString deep = writeFile(dir, QStringLiteral("deep.json"), "{\"documents\": [" + QByteArray(100, '[') + QByteArray(100, ']') + "]}");
        QVERIFY(!importXfundFile(deep, FunsdWordOrder::Annotation, &pages, &report, &error));
        QVERIFY2(error.contains(QStringLiteral("nested deeper than 64 levels")), qPrintable(error));
        const QString trailing = writeFile(dir, QStringLiteral("t.json"), "{\"documents\": []} {}");
        QVERIFY(!importXfundFile(trailing, FunsdWordOrder::Annotation, &pages, &report, &error));
        QVERIFY2(error.contains(QStringLiteral("invalid JSON: data after the top-level value")), qPrintable(error));
        // Brackets inside strings are text, escaped quotes do not end them.
        const QString tricky = writeFile(dir, QStringLiteral("s.json"),
                                         "{\"lang\": \"x\\\"]}\", \"documents\": [" + doc("a\\\"[{", 1, 2) + "]}");
        QVERIFY2(importXfundFile(tricky, FunsdWordOrder::Annotation, &pages, &report, &error), qPrintable(error));
        QCOMPARE(report.language, QStringLiteral("x\"]}"));
        QCOMPARE(pages.front().document.title, QStringLiteral("a\"[{"));
        // A document of 136 MB that is not words (one box of 68 M numbers): never parsed.
        const QString wide = writeFile(dir, QStringLiteral("wide.json"),
                                       "{\"documents\": [{\"id\": \"wide\", \"document\": [{\"box\": [" + QByteArray("1,").repeated(68'000'000)
                                           + "1]}]}]}");
        QVERIFY(!importXfundFile(wide, FunsdWordOrder::Annotation, &pages, &report, &error));
        QVERIFY2(error.contains(QStringLiteral("no document could be read (documents[0]: 136000042 bytes of JSON: more than the 128 MiB a document may have)")),
                 qPrintable(error));
        // A UTF-8 byte order mark before the object, as Qt's parser read it.
        const QString bom = writeFile(dir, QStringLiteral("bom.json"), "\xEF\xBB\xBF{\"documents\": [" + doc("b", 1, 2) + "]}");
        QVERIFY2(importXfundFile(bom, FunsdWordOrder::Annotation, &pages, &report, &error), qPrintable(error));
        QCOMPARE(report.imported, 1);
    }

    void germanValidationSplit()
    {
        const QString path = folio::test::sharedPath(QStringLiteral("data/xfund-de/de.val.json"));
        FOLIO_REQUIRE_DATA(path);
        std::vector<XfundPage> pages;
        XfundReport report;
        QString error;
        QVERIFY2(importXfundFile(path, FunsdWordOrder::Reading, &pages, &report, &error), qPrintable(error));
        QCOMPARE(report.documents, 50);
        QCOMPARE(report.imported, 50);
        int entities = 0, links = 0;
        for (const XfundPage &p : pages) {
            entities += int(p.annotations.entities.size());
            links += int(p.annotations.links.size());
            for (const Word &w : p.document.words)
                QVERIFY(w.norm.x0 >= 0 && w.norm.x1 <= 1000);
        }
        qInfo("de.val.json: %s; %d entities, %d links", qPrintable(report.summary()), entities, links);
        QCOMPARE(entities + report.droppedEntities, 2889); // SOURCE.md's count
        QVERIFY(links > 0);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestXfund)
#include "tst_xfund.moc"
