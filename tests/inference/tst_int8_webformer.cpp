// Dynamic int8 for WebFormer (issue 35, WebFormerModel::quantizeDynamicInt8,
// WebFormerExtractor::quantizeDynamicInt8): the shipped product-fields model on the first Zyte
// benchmark pages (structured-data candidates prepended, as `folio-cli extract` does): int8's
// answers (found or not, and the value) the same as float32's on >= 90 % of the page-fields and
// every confidence within a stated tolerance; off by default, on after the call (idempotent), a
// reload is float32 again; refusals: nothing loaded, no quantized engine.
#include "inference/webformer/webformer.h"
#include "pipeline/modelinputs/productpages.h"
#include "tests/common/int8engine.h"
#include "tests/common/testdata.h"

#include <QtTest>

#include <cmath>

using namespace folio;
namespace inf = folio::inference;

namespace {

const std::string kCheckpoint = FOLIO_SOURCE_DIR "/resources/models/product-fields";

} // namespace

class TestInt8WebFormer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void agreesWithFloatOnZytePages();
    void refusesWhenNothingLoaded();
    void refusesWithoutEngine();
};

// 12 pages x 5 fields: the same answer on >= 90 % (measured on oneDNN: 59 of 60, the other a near
// tie), confidences within 0.1 (max) and 0.02 (mean) of float32's (measured: 0.0065 and 0.00075).
void TestInt8WebFormer::agreesWithFloatOnZytePages()
{
    FOLIO_REQUIRE_INT8_ENGINE();
    const QString dataset = test::sharedPath(QStringLiteral("data/product-extraction-benchmark/dataset"));
    FOLIO_REQUIRE_DATA(dataset + QStringLiteral("/ground-truth.json"));
    const std::vector<pipeline::ProductBenchmarkPage> pages = pipeline::loadProductBenchmark(dataset.toStdString(), true, 12);
    QCOMPARE(pages.size(), std::size_t(12));
    inf::WebFormerExtractor fp32, int8;
    std::string why;
    QVERIFY2(fp32.load(kCheckpoint, &why), why.c_str());
    QVERIFY2(int8.load(kCheckpoint, &why), why.c_str());
    QVERIFY(!int8.isInt8());
    QVERIFY2(int8.quantizeDynamicInt8(&why), why.c_str());
    QVERIFY2(int8.quantizeDynamicInt8(&why), why.c_str());
    QVERIFY(int8.isInt8());
    QVERIFY(!fp32.isInt8());
    int total = 0, same = 0, found = 0;
    double maxDiff = 0, sumDiff = 0;
    for (const pipeline::ProductBenchmarkPage &p : pages) {
        std::vector<inf::FieldSpan> a, b;
        QVERIFY2(fp32.extract(p.page, {}, &a, &why), why.c_str());
        QVERIFY2(int8.extract(p.page, {}, &b, &why), why.c_str());
        QCOMPARE(b.size(), a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            ++total;
            found += a[i].found;
            same += a[i].found == b[i].found && a[i].value == b[i].value;
            const double d = std::fabs(a[i].confidence - b[i].confidence);
            maxDiff = std::max(maxDiff, d);
            sumDiff += d;
        }
    }
    const double meanDiff = sumDiff / total;
    qInfo("int8 vs fp32 on %d page-fields (%d found by fp32): %d the same, confidence max |d| %.4f, mean %.5f", total,
          found, same, maxDiff, meanDiff);
    QVERIFY2(maxDiff > 0, "int8 gave float32's confidences exactly: it did not run in int8");
    QVERIFY2(same >= 0.9 * total, qPrintable(QStringLiteral("%1 of %2").arg(same).arg(total)));
    QVERIFY2(maxDiff <= 0.1, qPrintable(QString::number(maxDiff)));
    QVERIFY2(meanDiff <= 0.02, qPrintable(QString::number(meanDiff)));
    QVERIFY2(int8.load(kCheckpoint, &why), why.c_str());
    QVERIFY(!int8.isInt8());
}

void TestInt8WebFormer::refusesWhenNothingLoaded()
{
    inf::WebFormerExtractor none;
    std::string why;
    QVERIFY(!none.quantizeDynamicInt8(&why));
    QVERIFY2(why.find("no WebFormer checkpoint loaded") != std::string::npos, why.c_str());
    QVERIFY(!none.isInt8());
}

void TestInt8WebFormer::refusesWithoutEngine()
{
    std::string engineWhy;
    FOLIO_REQUIRE_NO_INT8_ENGINE(engineWhy);
    inf::WebFormerExtractor loaded;
    std::string why;
    QVERIFY2(loaded.load(kCheckpoint, &why), why.c_str());
    QVERIFY(!loaded.quantizeDynamicInt8(&why));
    QVERIFY2(why.find("quantized engine") != std::string::npos, why.c_str());
}

FOLIO_TEST_GUILESS_MAIN(TestInt8WebFormer)
#include "tst_int8_webformer.moc"
