// folio-cli train-rankers on the product benchmark (site-grouped folds, files, scores the
// benchmark's way) and folio-cli extract with the shipped rankers on a page without structured
// price (the value, its source and a span that cuts it out of the page).
#include "tests/app/clirunner.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using folio::test::runCli;

class TstCliRankers : public QObject
{
    Q_OBJECT

    const QString m_data = folio::test::sharedPath("data/product-extraction-benchmark/dataset");

private Q_SLOTS:
    void trainWithFolds()
    {
        FOLIO_REQUIRE_DATA(m_data + "/ground-truth.json");
        QTemporaryDir out;
        const auto r = runCli({"train-rankers", "--data", m_data, "--out", out.path(), "--folds", "2", "--max-pages", "40"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(summary["pages"].toInt(), 40);
        for (const char *name : {"price", "sku"}) {
            const QString field = QString::fromLatin1(name);
            QVERIFY(QFile::exists(out.filePath(field + "-ranker.json")));
            const QJsonObject f = summary[field].toObject();
            QVERIFY(f["pages_with_gold_candidate"].toInt() > 20);
            const QJsonObject cv = f["cv"].toObject();
            for (const char *systemName : {"structured-data", "rankers-alone", "rankers+structured-data"}) {
                const QString system = QString::fromLatin1(systemName);
                const QJsonObject m = cv[system].toObject();
                QVERIFY2(m.contains("f1") && m["f1"].toDouble() >= 0 && m["f1"].toDouble() <= 1, qPrintable(system));
                QCOMPARE(m["tp"].toInt() + m["fn"].toInt() >= m["support"].toInt(), true);
            }
            QCOMPARE(f["fold_rules"].toArray().size(), 2);
        }
        QVERIFY(QFile::exists(out.filePath("ranker-cv.json")));
        QVERIFY(QFile::exists(out.filePath("ranker-predictions/rankers+structured-data.json")));
    }

    void badArguments()
    {
        QTemporaryDir out;
        auto r = runCli({"train-rankers", "--data", m_data, "--out", out.path(), "--fields", "brand"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("brand") && r.err.contains("price, sku"), r.err.constData());
        r = runCli({"train-rankers", "--data", out.path(), "--out", out.path()});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("ground-truth.json"), r.err.constData());
    }

    void extractUsesTheShippedRankers()
    {
        const QString model = QStringLiteral(FOLIO_SOURCE_DIR "/resources/models/product-fields");
        QVERIFY(QFile::exists(model + "/price-ranker.json"));
        QVERIFY(QFile::exists(model + "/sku-ranker.json"));
        QTemporaryDir dir;
        QFile f(dir.filePath("lamp.html"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("<html><body><nav>Cart: 0 items, 0.00 EUR</nav><h1>Desk lamp</h1>"
                "<div class=\"price\"><span>49,90 &euro;</span></div><del class=\"old-price\">59,90 &euro;</del>"
                "<p>Art.-Nr. DL-2231</p><footer>Shipping from 4.95 EUR</footer></body></html>");
        f.close();
        const auto r = runCli({"extract", "--threads", "1", dir.filePath("lamp.html")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject fields = QJsonDocument::fromJson(r.out).object()["fields"].toObject();
        const QJsonObject price = fields["price"].toObject();
        QCOMPARE(price["source"].toString(), QString("price-ranker"));
        QCOMPARE(price["value"].toString(), QString("49.90"));
        QVERIFY(price["confidence"].toDouble() > 0 && price["confidence"].toDouble() <= 1);
        QCOMPARE(price["span"].toObject()["xpath"].toString(), QString("/html/body/div/span/text()"));
        QCOMPARE(fields["currency"].toObject()["value"].toString(), QString("EUR"));
        const QJsonObject sku = fields["sku"].toObject();
        QCOMPARE(sku["source"].toString(), QString("sku-ranker"));
        QCOMPARE(sku["value"].toString(), QString("DL-2231"));
        // --no-rankers: the price comes from the model or nowhere, never from a ranker
        const auto m = runCli({"extract", "--threads", "1", "--no-rankers", dir.filePath("lamp.html")});
        QVERIFY2(m.code == 0, m.err.constData());
        const QJsonObject plain = QJsonDocument::fromJson(m.out).object()["fields"].toObject();
        QVERIFY(!plain["price"].toObject()["source"].toString().endsWith("-ranker"));
    }
};

FOLIO_TEST_GUILESS_MAIN(TstCliRankers)
#include "tst_clirankers.moc"
