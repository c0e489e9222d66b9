// folio-cli extract (one JSON line per page: values, spans with XPath + character offsets,
// confidences, source) with the shipped product model, structured data alone, and bad pages.
#include "tests/app/clirunner.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using folio::test::runCli;

namespace {

QList<QJsonObject> lines(const QByteArray &out)
{
    QList<QJsonObject> result;
    for (const QByteArray &l : out.split('\n'))
        if (!l.trimmed().isEmpty())
            result << QJsonDocument::fromJson(l).object();
    return result;
}

QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    QFile f(dir.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
    return f.fileName();
}

} // namespace

class TstCliExtract : public QObject
{
    Q_OBJECT

    const QString m_product = QStringLiteral(FOLIO_SOURCE_DIR "/resources/samples/product-page.html");

private Q_SLOTS:
    void shippedModelOnTheSamplePage()
    {
        QVERIFY(QFile::exists(QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/product-fields/config.json")));
        const auto r = runCli({"extract", "--threads", "1", m_product});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto out = lines(r.out);
        QCOMPARE(out.size(), 1);
        const QJsonObject page = out[0];
        QCOMPARE(page["page"].toString(), m_product);
        QVERIFY(page["model"].toString().endsWith("product-fields"));
        const QJsonObject fields = page["fields"].toObject();
        QCOMPARE(fields["availability"].toObject()["value"].toString(), QString("InStock"));
        // every value names its source; model spans carry an XPath and offsets that cut the text out
        int spans = 0;
        for (const QString &name : fields.keys()) {
            const QJsonObject f = fields[name].toObject();
            const QString source = f["source"].toString();
            QVERIFY2(QStringList({"model", "model:structured-data", "structured-data", "price-ranker", "sku-ranker", "default"})
                         .contains(source),
                     qPrintable(source));
            if (f["span"].isObject()) {
                const QJsonObject s = f["span"].toObject();
                QVERIFY(s["xpath"].toString().startsWith("/html/"));
                QVERIFY(s["start"].toInt() >= 0 && s["end"].toInt() > s["start"].toInt() - (s["xpath"] != s["end_xpath"] ? 100000 : 0));
                QVERIFY(f["confidence"].toDouble() > 0);
                ++spans;
            }
        }
        // every model field is either answered or listed as missing (its quality is measured by the
        // cross-validation in BENCHMARKS.md, not here)
        const QJsonArray missing = page["missing"].toArray();
        for (const char *name : {"price", "sku", "gtin", "mpn", "brand"}) {
            const QString f = QLatin1String(name);
            QVERIFY2(fields.contains(f) != missing.contains(QJsonValue(f)), name);
        }
        qInfo("model spans on the sample page: %d", spans);
    }

    // -q leaves stderr empty: LibTorch's "scatter_reduce() is in beta" warning is not printed (issue 36).
    void quietMeansQuiet()
    {
        const auto r = runCli({"-q", "extract", "--threads", "1", m_product});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QCOMPARE(lines(r.out).size(), 1);
    }

    void spansPointIntoThePage()
    {
        // a page the model has never seen, values only in the text: offsets must cut out the value text
        QTemporaryDir dir;
        const QString page = write(dir, "p.html", "<html><body><h1>Desk lamp</h1><p>Price: <span>EUR 49,90</span></p>"
                                                  "<p>Item number: <b>DL-2231</b></p></body></html>");
        const auto r = runCli({"extract", "--threads", "1", page});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject fields = lines(r.out).value(0)["fields"].toObject();
        const QMap<QString, QString> nodeText{{"/html/body/h1/text()", "Desk lamp"}, {"/html/body/p[1]/text()", "Price:"},
                                              {"/html/body/p[1]/span/text()", "EUR 49,90"}, {"/html/body/p[2]/text()", "Item number:"},
                                              {"/html/body/p[2]/b/text()", "DL-2231"}};
        for (const QString &name : fields.keys()) {
            const QJsonObject f = fields[name].toObject();
            if (!f["span"].isObject())
                continue;
            const QJsonObject s = f["span"].toObject();
            if (s["xpath"] != s["end_xpath"])
                continue;
            const QString text = nodeText.value(s["xpath"].toString());
            QVERIFY2(!text.isEmpty(), qPrintable(s["xpath"].toString()));
            QCOMPARE(text.mid(s["start"].toInt(), s["end"].toInt() - s["start"].toInt()), f["text"].toString());
        }
    }

    void structuredOnlyAndBadPages()
    {
        QTemporaryDir dir;
        const QString empty = write(dir, "empty.html", "<html><body></body></html>");
        const QString malformed = write(dir, "malformed.html",
                                        "<html><head><script type=\"application/ld+json\">{\"@type\": \"Product\", \"offers\": {\"price\": "
                                        + QByteArray(100000, '[') + "</script><script type=\"application/ld+json\">"
                                        "{\"@type\": \"Product\", \"sku\": \"S-1\", \"offers\": {\"price\": \"12,50 €\"}}</script>"
                                        "</head><body><p>x</p></body></html>");
        QByteArray big = "<html><body>";
        for (int i = 0; i < 20000; ++i)
            big += "<p>word" + QByteArray::number(i) + " more text</p>";
        big += "</body></html>";
        const QString giant = write(dir, "giant.html", big);
        const QString missing = dir.filePath("missing.html");
        const auto r = runCli({"extract", "--structured-only", empty, malformed, missing, giant});
        QCOMPARE(r.code, 1); // one page failed
        const auto batch = lines(r.out);
        QCOMPARE(batch.size(), 4); // a batch: one line per page, in order, the failing one included
        QList<QJsonObject> out;
        for (const auto &l : batch)
            out << (l["ok"].toBool() ? l["result"].toObject() : l);
        QVERIFY(out[0]["notes"].toArray().contains(QJsonValue(empty + ": the page has no text")));
        QCOMPARE(out[0]["fields"].toObject()["availability"].toObject()["source"].toString(), QString("default"));
        const QJsonObject mf = out[1]["fields"].toObject();
        QCOMPARE(mf["sku"].toObject()["value"].toString(), QString("S-1"));
        QCOMPARE(mf["price"].toObject()["value"].toString(), QString("12.50"));
        QCOMPARE(mf["currency"].toObject()["value"].toString(), QString("EUR"));
        QCOMPARE(mf["price"].toObject()["structured"].toObject()["source"].toString(), QString("json-ld"));
        bool skippedNote = false;
        for (const auto &n : out[1]["notes"].toArray())
            skippedNote = skippedNote || n.toString().contains("JSON-LD block 1 skipped");
        QVERIFY(skippedNote);
        QCOMPARE(out[2]["input"].toString(), missing);
        QCOMPARE(out[2]["ok"].toBool(), false);
        QVERIFY(out[2]["error"].toString().contains("missing.html"));
        QCOMPARE(out[3]["page"].toString(), giant);
        // the model reads a capped prefix of a giant page and says so
        const auto m = runCli({"extract", "--threads", "1", giant, empty});
        QVERIFY2(m.code == 0, m.err.constData());
        QList<QJsonObject> mo;
        for (const auto &l : lines(m.out))
            mo << l["result"].toObject();
        QCOMPARE(mo.size(), 2);
        bool capped = false;
        for (const auto &n : mo[0]["notes"].toArray())
            capped = capped || n.toString().contains("the model reads the first 1024 word pieces only");
        QVERIFY(capped);
        QVERIFY(mo[1]["missing"].toArray().contains(QJsonValue("price")));
    }

    // A model folder with a text-node ranker for a field of its own (as Train Field Extractor writes
    // one): `extract --fields title` answers with it. The ranker: rank-swde's, trained on one SWDE site.
    void aTextRankerInTheModelFolderAnswers()
    {
        const QString swde = folio::test::sharedPath(QStringLiteral("data/swde-book-subset"));
        FOLIO_REQUIRE_DATA(swde + QStringLiteral("/resources/datasets/swde-17477/groundtruth"));
        QTemporaryDir dir;
        const auto trained = runCli({"rank-swde", "--data", swde, "--train-pages-per-site", "2", "--out", dir.filePath("rankers")});
        QVERIFY2(trained.code == 0, trained.err.constData());
        const QString model = dir.filePath(QStringLiteral("model")), shipped = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/product-fields");
        QVERIFY(QDir().mkpath(model));
        for (const QString &f : QDir(shipped).entryList(QDir::Files))
            QVERIFY(QFile::copy(shipped + QLatin1Char('/') + f, model + QLatin1Char('/') + f));
        QVERIFY(QFile::copy(dir.filePath(QStringLiteral("rankers/title-ranker.json")), model + QStringLiteral("/title-ranker.json")));
        const QString page = swde + QStringLiteral("/resources/datasets/swde-17477/testset/book/book-christianbook-2000/0040.htm");
        const auto r = runCli({"extract", "--threads", "1", "--checkpoint", model, "--fields", "title", page});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject title = lines(r.out).value(0)["fields"].toObject()["title"].toObject();
        QCOMPARE(title["source"].toString(), QStringLiteral("title-ranker"));
        QVERIFY2(!title["text"].toString().isEmpty() && !title["span"].isNull(), r.out.constData());
        const auto without = runCli({"extract", "--threads", "1", "--checkpoint", model, "--fields", "title", "--no-rankers", page});
        QVERIFY(lines(without.out).value(0)["fields"].toObject()["title"].toObject()["source"].toString() != QStringLiteral("title-ranker"));
    }

    void usage()
    {
        QCOMPARE(runCli({"extract"}).code, 2);
        const auto r = runCli({"extract", "--checkpoint", "/nonexistent/model", m_product});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("/nonexistent/model"), r.err.constData());
    }
};

FOLIO_TEST_GUILESS_MAIN(TstCliExtract)
#include "tst_cliextract.moc"
