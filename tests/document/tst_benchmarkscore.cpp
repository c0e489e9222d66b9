// The product benchmark's scorer: the three published extractors' metrics.json reproduced from
// dataset/output/*.json (every figure, bootstrap std included), and the matching rules on small cases.
#include "document/structured/benchmarkscore.h"
#include "document/structured/pythonrandom.h"

#include "tests/common/testdata.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

using namespace folio::structured;

class TstBenchmarkScore : public QObject
{
    Q_OBJECT

    static void writeFile(const QString &path, const std::string &text)
    {
        std::ofstream(path.toStdString()) << text;
    }

private Q_SLOTS:
    void pythonRandomSequence()
    {
        // CPython 3: random.seed(42); [random.randint(0, 139) for _ in range(10)]
        PythonRandom r(42);
        const std::vector<std::int64_t> expected{28, 6, 70, 62, 57, 35, 26, 139, 22, 108};
        for (auto e : expected)
            QCOMPARE(r.randint(0, 139), e);
        PythonRandom r2(42);
        QCOMPARE(r2.getrandbits(32), 2746317213u); // random.seed(42); random.getrandbits(32)
    }

    void decimals()
    {
        QCOMPARE(canonicalDecimal("87.1"), canonicalDecimal("87.10"));
        QCOMPARE(canonicalDecimal(" 87.10 "), canonicalDecimal("8.71E1"));
        QCOMPARE(canonicalDecimal("0.00"), std::optional<std::string>("0"));
        QCOMPARE(canonicalDecimal("-0"), std::optional<std::string>("0"));
        QVERIFY(canonicalDecimal("1_000") == canonicalDecimal("1000"));
        QVERIFY(canonicalDecimal("87.11") != canonicalDecimal("87.1"));
        QVERIFY(!canonicalDecimal("1,234.50"));
        QVERIFY(!canonicalDecimal("$12"));
        QVERIFY(!canonicalDecimal(""));
        QVERIFY(!canonicalDecimal("."));
        QVERIFY(!canonicalDecimal("1e"));
        QVERIFY(!canonicalDecimal("1__0"));
    }

    void matching()
    {
        const std::vector<std::string> gold{"19.90", "21"};
        auto c = matchValue(gold, std::string("19.9"), BenchmarkMatching::Decimal);
        QCOMPARE(c.tp, 1L);
        c = matchValue(gold, std::string("19.9"), BenchmarkMatching::Exact);
        QCOMPARE(c.fp, 1L);
        QCOMPARE(c.fn, 1L);
        c = matchValue(gold, std::nullopt, BenchmarkMatching::Exact);
        QCOMPARE(c.fn, 1L);
        QCOMPARE(c.fp, 0L);
        c = matchValue({}, std::string("x"), BenchmarkMatching::Exact); // value where none is expected
        QCOMPARE(c.fp, 1L);
        QCOMPARE(c.fn, 0L);
        c = matchValue({}, std::nullopt, BenchmarkMatching::Exact);
        QCOMPARE(c.tp + c.fp + c.fn, 0L);
        c = matchValue(gold, std::string("not a number"), BenchmarkMatching::Decimal);
        QCOMPARE(c.fp, 1L);
    }

    void smallFiles()
    {
        QTemporaryDir dir;
        const QString gt = dir.filePath("gt.json"), pred = dir.filePath("pred.json");
        writeFile(gt, R"({"b": {"price": ["10.00"], "url": "u"}, "a": {"price": []}, "c": {"price": "3"}})");
        writeFile(pred, R"({"a": {}, "b": {"price": ["10"]}, "c": {"price": "4"}})");
        QString error;
        BenchmarkTruth truth;
        QVERIFY2(readBenchmarkTruth(gt.toStdString(), &truth, &error), qPrintable(error));
        QCOMPARE(truth.size(), std::size_t(3));
        QCOMPARE(truth[0].key, std::string("b")); // file order kept (the bootstrap depends on it)
        BenchmarkPrediction prediction;
        QVERIFY2(readBenchmarkPrediction(pred.toStdString(), &prediction, &error), qPrintable(error));
        AttributeMetrics m;
        QVERIFY2(scoreAttribute(truth, prediction, "price", BenchmarkMatching::Decimal, &m, &error, 0), qPrintable(error));
        QCOMPARE(m.counts.tp, 1L);
        QCOMPARE(m.counts.fp, 1L);
        QCOMPARE(m.counts.fn, 1L);
        QCOMPARE(m.support, 2);
        QCOMPARE(m.precision, 0.5);
    }

    void badInput()
    {
        QTemporaryDir dir;
        const QString gt = dir.filePath("gt.json"), pred = dir.filePath("pred.json");
        writeFile(gt, R"({"a": {"price": ["1"]}, "b": {"price": ["2"]}})");
        writeFile(pred, R"({"a": {"price": "1"}})");
        QString error;
        BenchmarkTruth truth;
        BenchmarkPrediction prediction;
        AttributeMetrics m;
        QVERIFY2(readBenchmarkTruth(gt.toStdString(), &truth, &error), qPrintable(error));
        QVERIFY2(readBenchmarkPrediction(pred.toStdString(), &prediction, &error), qPrintable(error));
        QVERIFY2(!scoreAttribute(truth, prediction, "price", BenchmarkMatching::Decimal, &m, &error, 10, pred.toStdString()),
                 "a prediction file without page b was accepted");
        QVERIFY2(error.contains("pred.json") && error.contains(" b "), qPrintable(error));
        writeFile(pred, "{\"a\": [1, 2");
        error.clear();
        QVERIFY2(!readBenchmarkPrediction(pred.toStdString(), &prediction, &error), "truncated JSON accepted");
        QVERIFY2(error.contains("pred.json") && error.contains("not valid JSON"), qPrintable(error));
        writeFile(pred, "[1, 2]");
        error.clear();
        QVERIFY(!readBenchmarkPrediction(pred.toStdString(), &prediction, &error));
        QVERIFY2(error.contains("pred.json"), qPrintable(error));
        writeFile(pred, R"({"a": 3})");
        error.clear();
        QVERIFY(!readBenchmarkPrediction(pred.toStdString(), &prediction, &error));
        QVERIFY2(error.contains("pred.json"), qPrintable(error));
        error.clear();
        QVERIFY(!readBenchmarkTruth(dir.filePath("missing.json").toStdString(), &truth, &error));
        QVERIFY2(error.contains("missing.json"), qPrintable(error));
    }

    // Every figure of dataset/metrics.json, from dataset/output/{Diffbot,Zyte,extruct}.json.
    void publishedMetrics()
    {
        const QString root = folio::test::sharedPath("data/product-extraction-benchmark/dataset");
        FOLIO_REQUIRE_DATA(root + "/metrics.json");
        QString error;
        BenchmarkTruth truth;
        QVERIFY2(readBenchmarkTruth((root + "/ground-truth.json").toStdString(), &truth, &error), qPrintable(error));
        QCOMPARE(truth.size(), std::size_t(140));
        std::ifstream in((root + "/metrics.json").toStdString());
        const auto published = nlohmann::json::parse(in);
        int compared = 0;
        for (const auto &[system, attrs] : published.items()) {
            BenchmarkPrediction pred;
            QVERIFY2(readBenchmarkPrediction((root + "/output/" + QString::fromStdString(system) + ".json").toStdString(), &pred, &error),
                     qPrintable(error));
            for (const auto &[attr, matching] : benchmarkAttributes()) {
                const auto &p = attrs.at(attr);
                AttributeMetrics m;
                QVERIFY2(scoreAttribute(truth, pred, attr, matching, &m, &error, 1000), qPrintable(error));
                const QByteArray where = QByteArray::fromStdString(system + " " + attr);
                QCOMPARE(m.support, p.at("support").get<int>());
                const std::pair<double, const char *> figures[] = {
                    {m.f1, "f1"}, {m.precision, "precision"}, {m.recall, "recall"},
                    {m.f1Std, "f1_std"}, {m.precisionStd, "precision_std"}, {m.recallStd, "recall_std"}};
                for (const auto &[mine, key] : figures) {
                    const double theirs = p.at(key).get<double>();
                    QVERIFY2(std::abs(mine - theirs) < 1e-12,
                             qPrintable(QString("%1 %2: %3 vs published %4").arg(where, key).arg(mine, 0, 'g', 17).arg(theirs, 0, 'g', 17)));
                    ++compared;
                }
            }
        }
        QCOMPARE(compared, 3 * 5 * 6);
    }
};

FOLIO_TEST_GUILESS_MAIN(TstBenchmarkScore)
#include "tst_benchmarkscore.moc"
