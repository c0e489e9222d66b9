// Dynamic int8 for the Hugging Face folders (issue 35): Model::quantizeDynamicInt8 through
// ModelRunner::quantizeDynamicInt8, HfTokenClassifier::quantizeDynamicInt8 and DocumentTagger::load(...,
// int8) (what `folio-cli predict --int8` runs). On the parity fixtures' tiny random checkpoints
// (LayoutLMv3, LayoutLMv2 encoder and with its visual backbone, LiLT, MarkupLM; read in place) the int8
// outputs lie close to float32's (relative to the largest float32 value; tolerance stated per case) and
// the logits' argmax mostly agrees; off by default, on after the call (idempotent), float32 again after
// a reload; refusals: an architecture without an int8 path (DeBERTa-v2: the message names it, and the
// model still runs in float32), nothing loaded, no quantized engine.
#include "inference/checkpoint/safetensors.h"
#include "inference/models/hfmarkuplm.h"
#include "inference/models/hftokenclassifier.h"
#include "inference/models/modelrunner.h"
#include "pipeline/documentprediction.h"
#include "tests/common/funsdtestpage.h"
#include "tests/common/liltfolder.h"
#include "tests/common/int8engine.h"
#include "tests/common/testdata.h"
#include "tests/common/tinymarkuplm.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace folio;
namespace inf = folio::inference;

namespace {

struct Agreement
{
    double maxAbs = 0, maxRef = 0;  // max |int8 - fp32|, max |fp32|
    std::int64_t rows = 0, sameArgmax = 0;
};

Agreement compare(const inf::Tensor &fp32, const inf::Tensor &int8)
{
    Agreement a;
    const float *x = fp32.data<float>(), *y = int8.data<float>();
    const std::int64_t n = fp32.numel(), width = fp32.shape.back();
    for (std::int64_t i = 0; i < n; ++i) {
        a.maxAbs = std::max(a.maxAbs, double(std::fabs(x[i] - y[i])));
        a.maxRef = std::max(a.maxRef, double(std::fabs(x[i])));
    }
    for (std::int64_t r = 0; r < n / width; ++r) {
        ++a.rows;
        a.sameArgmax += std::max_element(x + r * width, x + (r + 1) * width) - (x + r * width)
                        == std::max_element(y + r * width, y + (r + 1) * width) - (y + r * width);
    }
    return a;
}

} // namespace

class TestInt8Hf : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void agreesWithFloatOnParityFixtures_data();
    void agreesWithFloatOnParityFixtures();
    void classifierOnOff();
    void documentTaggerInt8();
    void markupLMOnOff();
    void refusesArchitectureWithout();
    void refusesWhenNothingLoaded();
    void refusesWithoutEngine();
};

void TestInt8Hf::agreesWithFloatOnParityFixtures_data()
{
    QTest::addColumn<QString>("dir");
    QTest::addColumn<QString>("output");
    QTest::addColumn<double>("tolerance"); // max |int8 - fp32| / max |fp32|
    // Measured on oneDNN: relative max error 0.014-0.018 (layoutlmv3 0.0147, layoutlmv2 encoder 0.0164 and
    // visual 0.0157, lilt 0.0136, markuplm 0.0178); argmax the same on 47/48, 51/52, 48/48 logits rows.
    // The tolerances leave ~3x room.
    QTest::newRow("layoutlmv3_tokcls") << QStringLiteral("fixtures/parity/layoutlmv3_tokcls") << QStringLiteral("logits") << 0.05;
    QTest::newRow("layoutlmv2_encoder") << QStringLiteral("fixtures/parity/layoutlmv2_encoder") << QStringLiteral("last_hidden_state") << 0.05;
    QTest::newRow("layoutlmv2_visual") << QStringLiteral("fixtures/parity-new/layoutlmv2_visual") << QStringLiteral("last_hidden_state") << 0.05;
    QTest::newRow("lilt_tokcls") << QStringLiteral("fixtures/parity-new/lilt_tokcls") << QStringLiteral("logits") << 0.05;
    QTest::newRow("markuplm_tokcls") << QStringLiteral("fixtures/parity-new/markuplm_tokcls") << QStringLiteral("logits") << 0.05;
}

void TestInt8Hf::agreesWithFloatOnParityFixtures()
{
    QFETCH(QString, dir);
    QFETCH(QString, output);
    QFETCH(double, tolerance);
    FOLIO_REQUIRE_INT8_ENGINE();
    const std::string path = test::sharedPath(dir).toStdString();
    FOLIO_REQUIRE_DATA(QString::fromStdString(path + "/model.safetensors"));
    const inf::TensorMap inputs = inf::readSafetensors(path + "/inputs.safetensors");
    inf::ModelRunner fp32, int8;
    std::string why;
    QVERIFY2(fp32.load(path, &why), why.c_str());
    QVERIFY2(int8.load(path, &why), why.c_str());
    QVERIFY(!int8.isInt8());
    QVERIFY2(int8.quantizeDynamicInt8(&why), why.c_str());
    QVERIFY2(int8.quantizeDynamicInt8(&why), why.c_str()); // idempotent
    QVERIFY(int8.isInt8());
    QVERIFY(!fp32.isInt8());
    const inf::RunResult a = fp32.run(inputs), b = int8.run(inputs);
    QVERIFY2(a.ok, a.error.c_str());
    QVERIFY2(b.ok, b.error.c_str());
    const std::string name = output.toStdString();
    QVERIFY(a.outputs.count(name) && b.outputs.count(name));
    QVERIFY(a.outputs.at(name).shape == b.outputs.at(name).shape);
    const Agreement g = compare(a.outputs.at(name), b.outputs.at(name));
    const double relative = g.maxAbs / std::max(g.maxRef, 1e-12);
    qInfo("%s %s: int8 vs fp32 max |d| %.4g (max |fp32| %.4g, relative %.4f), argmax the same on %lld of %lld rows",
          qPrintable(QFileInfo(dir).fileName()), name.c_str(), g.maxAbs, g.maxRef, relative, (long long)g.sameArgmax,
          (long long)g.rows);
    QVERIFY2(g.maxAbs > 0, "int8 gave float32's outputs exactly: it did not run in int8");
    QVERIFY2(relative <= tolerance, qPrintable(QString::number(relative)));
    if (name == "logits")
        QVERIFY2(g.sameArgmax >= 0.9 * g.rows, qPrintable(QStringLiteral("%1 of %2").arg(g.sameArgmax).arg(g.rows)));
    QVERIFY2(int8.load(path, &why), why.c_str()); // a reload is float32 again
    QVERIFY(!int8.isInt8());
    const inf::RunResult c = int8.run(inputs);
    QVERIFY2(c.ok, c.error.c_str());
    QCOMPARE(compare(a.outputs.at(name), c.outputs.at(name)).maxAbs, 0.0);
}

// The LiLT folder of tests/common/liltfolder.h through HfTokenClassifier: int8 labels a page with
// the same words' labels as float32 on most words, off by default, float32 after a reload.
void TestInt8Hf::classifierOnOff()
{
    FOLIO_REQUIRE_INT8_ENGINE();
    FOLIO_REQUIRE_DATA(test::liltCaseDir() + "/model.safetensors");
    FOLIO_REQUIRE_DATA(test::liltTokenizerDir() + "/vocab.json");
    QTemporaryDir tmp;
    const QString folder = tmp.filePath(QStringLiteral("lilt"));
    QVERIFY(test::makeLiltFolder(folder, 1060));
    inf::HfTokenClassifier fp32, int8;
    std::string why;
    QVERIFY2(fp32.load(folder.toStdString(), &why), why.c_str());
    QVERIFY2(int8.load(folder.toStdString(), &why), why.c_str());
    QVERIFY(!int8.isInt8());
    QVERIFY2(int8.quantizeDynamicInt8(&why), why.c_str());
    QVERIFY(int8.isInt8());
    std::vector<std::string> words;
    std::vector<inf::WordBox> boxes;
    static const char *const kWords[] = {"Date:", "March", "12,", "2024", "Invoice", "number", "A-17", "Total", "amount", "due"};
    for (int i = 0; i < 30; ++i) {
        words.push_back(kWords[i % 10]);
        const int x = 40 + (i % 6) * 150, y = 30 + (i / 6) * 40;
        boxes.push_back(inf::WordBox{x, y, std::min(1000, x + 120), std::min(1000, y + 25)});
    }
    const inf::WordLabelling a = fp32.label(words, boxes), b = int8.label(words, boxes);
    QVERIFY2(a.ok, a.error.c_str());
    QVERIFY2(b.ok, b.error.c_str());
    QCOMPARE(b.words.size(), a.words.size());
    int same = 0;
    for (std::size_t i = 0; i < a.words.size(); ++i)
        same += a.words[i].labelId == b.words[i].labelId;
    qInfo("LiLT folder: int8 labels %d of %zu words as float32 does", same, a.words.size());
    QVERIFY2(same >= 0.8 * a.words.size(), qPrintable(QString::number(same)));
    QVERIFY2(int8.load(folder.toStdString(), &why), why.c_str());
    QVERIFY(!int8.isInt8());
}

// DocumentTagger::load(dir, error, int8) — `folio-cli predict --int8` — takes a Hugging Face folder:
// the first FUNSD test page through the LiLT folder, float32 then int8 (the cache is per setting):
// the word labels agree on >= 80 % of the words (random weights: near ties are common).
void TestInt8Hf::documentTaggerInt8()
{
    FOLIO_REQUIRE_INT8_ENGINE();
    FOLIO_REQUIRE_DATA(test::liltCaseDir() + "/model.safetensors");
    FOLIO_REQUIRE_DATA(test::liltTokenizerDir() + "/vocab.json");
    Document doc;
    inf::TaggerPage page;
    FOLIO_FIRST_FUNSD_TEST_PAGE(&doc, &page);
    QTemporaryDir tmp;
    const QString folder = tmp.filePath(QStringLiteral("lilt"));
    QVERIFY(test::makeLiltFolder(folder, 1060));
    pipeline::DocumentTagger tagger;
    QString error;
    QVERIFY2(tagger.load(folder, &error), qPrintable(error));
    const pipeline::DocumentPrediction fp32 = tagger.predict(doc);
    QVERIFY2(fp32.ok, qPrintable(fp32.error));
    QVERIFY2(tagger.load(folder, &error, true), qPrintable(error));
    const pipeline::DocumentPrediction int8 = tagger.predict(doc);
    QVERIFY2(int8.ok, qPrintable(int8.error));
    QCOMPARE(int8.wordLabels.size(), fp32.wordLabels.size());
    QVERIFY(!fp32.wordLabels.isEmpty());
    int same = 0;
    for (int i = 0; i < fp32.wordLabels.size(); ++i)
        same += fp32.wordLabels[i] == int8.wordLabels[i];
    qInfo("DocumentTagger, LiLT folder on the first FUNSD test page: int8 labels %d of %lld words as float32 does", same,
          (long long)fp32.wordLabels.size());
    QVERIFY2(same >= 0.8 * fp32.wordLabels.size(), qPrintable(QStringLiteral("%1 of %2").arg(same).arg(fp32.wordLabels.size())));
}

// HfMarkupLM (what `folio-cli predict|extract --int8` runs for a MarkupLM folder, through
// pipeline::MarkupRunOptions::int8): the tiny MarkupLM folder labels 40 nodes as float32 does on most.
void TestInt8Hf::markupLMOnOff()
{
    FOLIO_REQUIRE_INT8_ENGINE();
    QTemporaryDir tmp;
    const QString dir = test::makeTinyMarkupLM(tmp.filePath(QStringLiteral("markuplm")), false);
    FOLIO_REQUIRE_DATA(dir);
    inf::HfMarkupLM fp32, int8;
    std::string why;
    QVERIFY(!int8.quantizeDynamicInt8(&why));
    QVERIFY2(why.find("no MarkupLM folder loaded") != std::string::npos, why.c_str());
    QVERIFY2(fp32.load(dir.toStdString(), &why), why.c_str());
    QVERIFY2(int8.load(dir.toStdString(), &why), why.c_str());
    QVERIFY(!int8.isInt8());
    QVERIFY2(int8.quantizeDynamicInt8(&why), why.c_str());
    QVERIFY(int8.isInt8());
    static const char *const kNodes[] = {"Price", "$12.99", "Brand", "Acme", "In stock", "Add to cart", "SKU", "A-17"};
    std::vector<std::string> nodes, xpaths;
    for (int i = 0; i < 40; ++i) {
        nodes.push_back(kNodes[i % 8]);
        xpaths.push_back("/html/body/div[" + std::to_string(1 + i / 8) + "]/span[" + std::to_string(1 + i % 8) + "]");
    }
    const inf::MarkupNodeLabelling a = fp32.label(nodes, xpaths), b = int8.label(nodes, xpaths);
    QVERIFY2(a.ok, a.error.c_str());
    QVERIFY2(b.ok, b.error.c_str());
    QCOMPARE(b.nodes.size(), a.nodes.size());
    int same = 0;
    for (std::size_t i = 0; i < a.nodes.size(); ++i)
        same += a.nodes[i].labelId == b.nodes[i].labelId;
    qInfo("MarkupLM folder: int8 labels %d of %zu nodes as float32 does", same, a.nodes.size());
    QVERIFY2(same >= 0.8 * a.nodes.size(), qPrintable(QString::number(same)));
}

void TestInt8Hf::refusesArchitectureWithout()
{
    FOLIO_REQUIRE_INT8_ENGINE();
    const std::string path = test::sharedPath(QStringLiteral("fixtures/parity/debertav2")).toStdString();
    FOLIO_REQUIRE_DATA(QString::fromStdString(path + "/model.safetensors"));
    inf::ModelRunner runner;
    std::string why;
    QVERIFY2(runner.load(path, &why), why.c_str());
    QVERIFY(!runner.quantizeDynamicInt8(&why));
    QVERIFY2(why.find("deberta-v2") != std::string::npos && why.find("not implemented") != std::string::npos, why.c_str());
    QVERIFY(!runner.isInt8());
    const inf::RunResult r = runner.run(inf::readSafetensors(path + "/inputs.safetensors"));
    QVERIFY2(r.ok, r.error.c_str()); // still runs, in float32
}

void TestInt8Hf::refusesWhenNothingLoaded()
{
    std::string why;
    inf::ModelRunner runner;
    QVERIFY(!runner.quantizeDynamicInt8(&why));
    QVERIFY2(why.find("no model loaded") != std::string::npos, why.c_str());
    inf::HfTokenClassifier classifier;
    QVERIFY(!classifier.quantizeDynamicInt8(&why));
    QVERIFY2(why.find("no Hugging Face token classifier loaded") != std::string::npos, why.c_str());
    QVERIFY(!classifier.isInt8());
}

void TestInt8Hf::refusesWithoutEngine()
{
    std::string engineWhy;
    FOLIO_REQUIRE_NO_INT8_ENGINE(engineWhy);
    const std::string path = test::sharedPath(QStringLiteral("fixtures/parity/layoutlmv3_tokcls")).toStdString();
    FOLIO_REQUIRE_DATA(QString::fromStdString(path + "/model.safetensors"));
    inf::ModelRunner runner;
    std::string why;
    QVERIFY2(runner.load(path, &why), why.c_str());
    QVERIFY(!runner.quantizeDynamicInt8(&why));
    QVERIFY2(why.find("quantized engine") != std::string::npos, why.c_str());
}

FOLIO_TEST_GUILESS_MAIN(TestInt8Hf)
#include "tst_int8_hf.moc"
