// Dynamic int8 quantization of the Linear layers (issue 35, inference/layers/detail/int8linear.h):
// one LinearW against float32 (relative error bound), the shipped funsd-layout tagger on a FUNSD
// test page (int8 probabilities within a stated tolerance of float32, >= 90 % of the word labels
// the same, through the Predictor and the DocumentTagger), and the refusals (nothing loaded; no quantized engine in this LibTorch).
#include "document/formats/funsd.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/formtagger/detail/taggermodel.h"
#include "inference/formtagger/predictor.h"
#include "inference/tokenizers/tokenizer.h"
#include "pipeline/documentprediction.h"
#include "pipeline/modelinputs/taggerpages.h"
#include "tests/common/funsdtestpage.h"
#include "tests/common/int8engine.h"
#include "tests/common/testdata.h"

#include <QtTest>

#include <cmath>

using namespace folio;
namespace inf = folio::inference;
namespace det = folio::inference::detail;

namespace {

const std::string kCheckpoint = FOLIO_SOURCE_DIR "/resources/models/funsd-layout";

} // namespace

class TestInt8 : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void linearWithinTolerance();
    void taggerAgreesWithFloat();
    void predictorOption();
    void documentTaggerOption();
    void refusesWhenNothingLoaded();
    void refusesWithoutEngine();

private:
    Document m_doc;
    inf::TaggerPage m_page;
};

void TestInt8::initTestCase()
{
    FOLIO_FIRST_FUNSD_TEST_PAGE(&m_doc, &m_page);
}

// One Linear 256 -> 1024 (the tagger's FFN shape) on 50 rows: max |int8 - fp32| <= 2 % of max |fp32|;
// quantizing twice changes nothing; a bias-less layer works too.
void TestInt8::linearWithinTolerance()
{
    FOLIO_REQUIRE_INT8_ENGINE();
    at::manual_seed(7);
    det::LinearW l;
    l.weight = at::randn({1024, 256}) * 0.05;
    l.bias = at::randn({1024}) * 0.1;
    const at::Tensor x = at::randn({1, 50, 256});
    const at::Tensor ref = l(x);
    det::quantizeDynamicInt8(l);
    QVERIFY(l.int8 != nullptr);
    const at::Tensor y = l(x);
    QCOMPARE(y.sizes().vec(), ref.sizes().vec());
    const double err = (y - ref).abs().max().item<double>(), scale = ref.abs().max().item<double>();
    QVERIFY2(err <= 0.02 * scale, qPrintable(QStringLiteral("max error %1 against max |fp32| %2").arg(err).arg(scale)));
    QVERIFY(err > 0); // it did run in int8
    const auto *packed = l.int8.get();
    det::quantizeDynamicInt8(l);
    QCOMPARE(l.int8.get(), packed);
    QCOMPARE(l(at::zeros({1, 0, 256})).sizes().vec(), (std::vector<std::int64_t>{1, 0, 1024})); // no rows
    det::LinearW noBias;
    noBias.weight = l.weight;
    const at::Tensor refNoBias = noBias(x);
    det::quantizeDynamicInt8(noBias);
    QVERIFY((noBias(x) - refNoBias).abs().max().item<double>() <= 0.02 * refNoBias.abs().max().item<double>());
}

// The shipped tagger, fp32 and int8, on a FUNSD test page: per-word label probabilities within
// 0.1 of each other (max) and 0.005 (mean; measured 0.019 and 0.0002), and >= 90 % of the argmax
// labels the same (measured: all).
void TestInt8::taggerAgreesWithFloat()
{
    FOLIO_REQUIRE_INT8_ENGINE();
    const det::TaggerConfig cfg = det::TaggerConfig::fromJsonFile(kCheckpoint + "/config.json");
    det::ParamStore a(kCheckpoint + "/model.safetensors"), b(kCheckpoint + "/model.safetensors");
    det::Tagger fp32(cfg, a), int8(cfg, b);
    int8.quantizeDynamicInt8();
    const auto tok = inf::Tokenizer::fromDirectory(kCheckpoint);
    const std::vector<float> p = det::predictLogProbs(fp32, *tok, m_page);
    const std::vector<float> q = det::predictLogProbs(int8, *tok, m_page);
    QCOMPARE(q.size(), p.size());
    const int n = int(m_page.words.size()), L = cfg.numLabels;
    double maxDiff = 0, sumDiff = 0;
    int same = 0;
    for (int i = 0; i < n; ++i) {
        int ap = 0, aq = 0;
        for (int k = 0; k < L; ++k) {
            const size_t at = size_t(i) * size_t(L) + size_t(k);
            const double d = std::fabs(std::exp(double(p[at])) - std::exp(double(q[at])));
            maxDiff = std::max(maxDiff, d);
            sumDiff += d;
            if (p[at] > p[size_t(i) * size_t(L) + size_t(ap)])
                ap = k;
            if (q[at] > q[size_t(i) * size_t(L) + size_t(aq)])
                aq = k;
        }
        same += ap == aq;
    }
    const double meanDiff = sumDiff / double(n * L), agree = double(same) / double(n);
    qInfo("int8 vs fp32 on %d words: max |dp| %.4f, mean |dp| %.5f, argmax agreement %.3f", n, maxDiff, meanDiff, agree);
    QVERIFY2(maxDiff <= 0.1, qPrintable(QString::number(maxDiff)));
    QVERIFY2(meanDiff <= 0.005, qPrintable(QString::number(meanDiff)));
    QVERIFY2(agree >= 0.9, qPrintable(QString::number(agree)));
}

// The facade: off by default, on after quantizeDynamicInt8, Viterbi tags >= 90 % the same.
void TestInt8::predictorOption()
{
    FOLIO_REQUIRE_INT8_ENGINE();
    inf::Predictor fp32, int8;
    std::string why;
    QVERIFY2(fp32.load(kCheckpoint, &why), why.c_str());
    QVERIFY2(int8.load(kCheckpoint, &why), why.c_str());
    QVERIFY(!int8.isInt8());
    QVERIFY2(int8.quantizeDynamicInt8(&why), why.c_str());
    QVERIFY(int8.isInt8());
    QVERIFY(!inf::Predictor::int8Engine().empty());
    inf::PagePrediction a, b;
    QVERIFY2(fp32.predict(m_page, &a, &why), why.c_str());
    QVERIFY2(int8.predict(m_page, &b, &why), why.c_str());
    QCOMPARE(b.tags.size(), a.tags.size());
    int same = 0;
    for (size_t i = 0; i < a.tags.size(); ++i)
        same += a.tags[i] == b.tags[i];
    QVERIFY2(double(same) >= 0.9 * double(a.tags.size()), qPrintable(QStringLiteral("%1 of %2").arg(same).arg(a.tags.size())));
    // A reload is float32 again.
    QVERIFY2(int8.load(kCheckpoint, &why), why.c_str());
    QVERIFY(!int8.isInt8());
}

// The pipeline path (`folio-cli predict --int8`, DocumentTagger::load(dir, error, true)): the same
// folder loaded with the other setting is loaded again (the cache is per folder and setting), and
// the word labels agree with float32's on >= 90 % of the words.
void TestInt8::documentTaggerOption()
{
    FOLIO_REQUIRE_INT8_ENGINE();
    pipeline::DocumentTagger tagger;
    QString error;
    const QString dir = QString::fromStdString(kCheckpoint);
    QVERIFY2(tagger.load(dir, &error), qPrintable(error));
    const pipeline::DocumentPrediction fp32 = tagger.predict(m_doc);
    QVERIFY2(fp32.ok, qPrintable(fp32.error));
    QVERIFY2(tagger.load(dir, &error, true), qPrintable(error));
    const pipeline::DocumentPrediction int8 = tagger.predict(m_doc);
    QVERIFY2(int8.ok, qPrintable(int8.error));
    QCOMPARE(int8.wordLabels.size(), fp32.wordLabels.size());
    int same = 0;
    for (int i = 0; i < fp32.wordLabels.size(); ++i)
        same += fp32.wordLabels[i] == int8.wordLabels[i];
    QVERIFY2(same >= 0.9 * fp32.wordLabels.size(), qPrintable(QStringLiteral("%1 of %2").arg(same).arg(fp32.wordLabels.size())));
    QVERIFY(!int8.entities.empty());
    // It did run in int8 (not the cached float32 model): some confidence moved.
    bool moved = int8.entities.size() != fp32.entities.size();
    for (size_t i = 0; !moved && i < fp32.entities.size(); ++i)
        moved = int8.entities[i].confidence != fp32.entities[i].confidence;
    QVERIFY(moved);
}

void TestInt8::refusesWhenNothingLoaded()
{
    inf::Predictor none;
    std::string why;
    QVERIFY(!none.quantizeDynamicInt8(&why));
    QVERIFY2(why.find("no checkpoint loaded") != std::string::npos, why.c_str());
    QVERIFY(!none.isInt8());
}

void TestInt8::refusesWithoutEngine()
{
    std::string why, engineWhy;
    FOLIO_REQUIRE_NO_INT8_ENGINE(engineWhy);
    QVERIFY2(engineWhy.find("quantized engine") != std::string::npos, engineWhy.c_str());
    inf::Predictor loaded;
    QVERIFY2(loaded.load(kCheckpoint, &why), why.c_str());
    QVERIFY(!loaded.quantizeDynamicInt8(&why));
    QVERIFY2(why.find("quantized engine") != std::string::npos, why.c_str());
    det::LinearW l;
    l.weight = at::zeros({2, 2});
    QVERIFY_THROWS_EXCEPTION(std::exception, det::quantizeDynamicInt8(l));
}

FOLIO_TEST_GUILESS_MAIN(TestInt8)
#include "tst_int8.moc"
