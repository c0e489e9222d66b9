// FUNSD import/export: the whole dataset round-trips; word order options; bad input.
#include "document/formats/funsd.h"
#include "tests/common/testdata.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFile>
#include <QSet>
#include <QTest>

using namespace folio;

static QString datasetDir() { return folio::test::sharedPath(QStringLiteral("data/funsd/dataset")); }

// Canonical form of a FUNSD file for comparison: entities by id, linking as a set.
static QJsonObject canonical(const QByteArray &json)
{
    QJsonObject out;
    for (const auto &v : QJsonDocument::fromJson(json).object().value(QStringLiteral("form")).toArray()) {
        QJsonObject e = v.toObject();
        QStringList links;
        for (const auto &l : e.value(QStringLiteral("linking")).toArray())
            links << QString::number(l.toArray()[0].toInteger()) + QLatin1Char('>') + QString::number(l.toArray()[1].toInteger());
        links.removeDuplicates();
        links.sort();
        e.insert(QStringLiteral("linking"), QJsonArray::fromStringList(links));
        out.insert(QString::number(e.value(QStringLiteral("id")).toInteger()), e);
    }
    return out;
}

class TestFunsd : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pngSize()
    {
        FOLIO_REQUIRE_DATA(datasetDir());
        const QStringList files = funsdSplitFiles(datasetDir(), QStringLiteral("train"));
        QCOMPARE(files.size(), 149);
        QSize size;
        QString err;
        const QString png = QString(files[0]).replace(QStringLiteral("/annotations/"), QStringLiteral("/images/")).replace(QStringLiteral(".json"), QStringLiteral(".png"));
        QVERIFY2(readPngSize(png, &size, &err), qPrintable(err));
        QVERIFY(size.width() > 500 && size.height() > 500);
        QVERIFY(!readPngSize(files[0], &size, &err)); // a JSON file is not a PNG
        QVERIFY(err.contains(files[0]));
    }

    void roundTripWholeDataset()
    {
        FOLIO_REQUIRE_DATA(datasetDir());
        int pages = 0, words = 0, entities = 0;
        QSet<QString> links;
        for (const QString &split : {QStringLiteral("train"), QStringLiteral("test")}) {
            for (const QString &path : funsdSplitFiles(datasetDir(), split)) {
                Document doc;
                Annotations ann;
                QString err;
                QVERIFY2(importFunsdFile(path, FunsdWordOrder::Annotation, &doc, &ann, &err), qPrintable(err));
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QByteArray original = f.readAll();
                const QJsonObject a = canonical(original), b = canonical(funsdToJson(doc, ann));
                if (a != b)
                    QFAIL(qPrintable(path + QStringLiteral(": export differs from the original")));
                ++pages;
                words += int(doc.words.size());
                entities += int(ann.entities.size());
                for (const Link &l : ann.links)
                    links.insert(path + l.from + QLatin1Char('>') + l.to);
                for (const Word &w : doc.words) {
                    QVERIFY(w.norm.x0 >= 0 && w.norm.x1 <= 1000 && w.norm.y0 >= 0 && w.norm.y1 <= 1000);
                }
            }
        }
        QCOMPARE(pages, 199);
        QCOMPARE(words, 31485);   // SOURCE.md
        QCOMPARE(entities, 9743); // SOURCE.md
    }

    void recipeWordCountsAndOrders()
    {
        FOLIO_REQUIRE_DATA(datasetDir());
        // Recipe §5.1: non-blank words of the test split = 8707.
        int kept = 0;
        for (const QString &path : funsdSplitFiles(datasetDir(), QStringLiteral("test"))) {
            Document a, r;
            Annotations aa, ra;
            QString err;
            QVERIFY(importFunsdFile(path, FunsdWordOrder::Annotation, &a, &aa, &err));
            QVERIFY(importFunsdFile(path, FunsdWordOrder::Reading, &r, &ra, &err));
            kept += funsdTrainingWordIds(a).size();
            QCOMPARE(a.words.size(), r.words.size());
            // Reading order: the same words, and export is unchanged by the order.
            QCOMPARE(canonical(funsdToJson(a, aa)), canonical(funsdToJson(r, ra)));
        }
        QCOMPARE(kept, 8707);
    }

    void bioFromProtocolOrder()
    {
        const QByteArray json = R"({"form":[
          {"id":0,"label":"question","text":"Date:","box":[10,10,60,20],"words":[{"text":"Date:","box":[10,10,60,20]}],"linking":[[0,1]]},
          {"id":1,"label":"answer","text":"1 May","box":[70,10,120,20],"words":[{"text":" ","box":[70,10,71,20]},{"text":"1","box":[72,10,80,20]},{"text":"May","box":[85,10,120,20]}],"linking":[[0,1]]},
          {"id":2,"label":"other","text":"x","box":[10,40,20,50],"words":[{"text":"x","box":[10,40,20,50]}],"linking":[]}]})";
        Document doc;
        Annotations ann;
        QString err;
        QVERIFY2(funsdFromJson(json, QSize(200, 100), FunsdWordOrder::Annotation, &doc, &ann, &err), qPrintable(err));
        QCOMPARE(int(ann.links.size()), 1); // the pair is listed twice in FUNSD, once here
        const QStringList ids = funsdTrainingWordIds(doc);
        QCOMPARE(ids.size(), 4);
        const std::vector<QString> tags = bioTags(ann, ids);
        QCOMPARE(tags[0], QStringLiteral("B-QUESTION"));
        QCOMPARE(tags[1], QStringLiteral("B-ANSWER")); // blank word dropped, next word starts
        QCOMPARE(tags[2], QStringLiteral("I-ANSWER"));
        QCOMPARE(tags[3], QStringLiteral("O"));
        QCOMPARE(doc.words[0].norm.x1, 300); // 1000*60/200
    }

    void badInput()
    {
        Document doc;
        Annotations ann;
        QString err;
        QVERIFY(!funsdFromJson("{", QSize(10, 10), FunsdWordOrder::Annotation, &doc, &ann, &err));
        QVERIFY(!funsdFromJson(R"({"x":1})", QSize(10, 10), FunsdWordOrder::Annotation, &doc, &ann, &err));
        QVERIFY(err.contains(QStringLiteral("form")));
        QVERIFY(!funsdFromJson(R"({"form":[{"id":0,"label":"other","box":[1,2],"words":[]}]})", QSize(10, 10), FunsdWordOrder::Annotation, &doc, &ann, &err));
        QVERIFY(err.contains(QStringLiteral("box")));
        QVERIFY(!funsdFromJson(R"({"form":[{"id":0,"label":"other","box":[1,2,3,4],"words":[],"linking":[[0,7]]}]})", QSize(10, 10), FunsdWordOrder::Annotation, &doc, &ann, &err));
        QVERIFY(err.contains(QStringLiteral("unknown entity")));
        QVERIFY(!importFunsdFile(QStringLiteral("/nonexistent/a.json"), FunsdWordOrder::Annotation, &doc, &ann, &err));
        QVERIFY(err.contains(QStringLiteral("/nonexistent/a.json")));
    }
};

FOLIO_TEST_GUILESS_MAIN(TestFunsd)
#include "tst_funsd.moc"
