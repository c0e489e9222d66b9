// Attributions of Hugging Face token classifiers (issue 48): LayoutLMv3 (text only, and with image
// patches), LayoutLMv2 with its 7 x 7 visual tokens, LiLT's two flows, on the parity fixtures'
// tiny checkpoints and their first input row. Checked against the definitions with the model's
// own forward (ModelRunner, no autograd), never the explainer's:
//  - the logit is the one ModelRunner computes; rollout rows of the traced attention sum to 1;
//  - gradient x input: sum_p <g_p, x_p> = d/da f(a x) at a = 1, by central differences on the model
//    with its encoder-input LayerNorm(s) scaled by a; per part too: scaling only LayoutLMv2's text
//    LayerNorm gives the text tokens' sum, only its visual LayerNorm the visual tokens' sum; only
//    LiLT's layout LayerNorm the layout flow's sum;
//  - integrated gradients are complete: sum_p IG_p ~ f(x) - f(0) (512 cubic steps);
//  - the model's parameters are as before; unsupported model types are refused with a message.
// The facade (HfExplainer) on the pipeline fixture's complete folder: the labelled word's window,
// its first token, and the classifier's label.
#include "attention/attributions.h"
#include "inference/checkpoint/detail/convert.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/models/detail/hfexplain.h"
#include "inference/models/modelrunner.h"
#include "tests/common/testdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

namespace inf = folio::inference;
namespace det = folio::inference::detail;
using nlohmann::json;

namespace {

json readJson(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? json::parse(f.readAll().toStdString()) : json();
}

// The fixture's config and weights in `dir`, with a token-classification head added where it has none.
void prepareFolder(const QString &fixture, const QString &dir)
{
    json config = readJson(fixture + QStringLiteral("/config.json"));
    inf::TensorMap weights = inf::readSafetensors((fixture + QStringLiteral("/model.safetensors")).toStdString());
    if (!weights.count("classifier.weight")) {
        const int hidden = config["hidden_size"].get<int>(), labels = int(config["id2label"].size());
        std::vector<float> w(std::size_t(labels * hidden));
        for (std::size_t i = 0; i < w.size(); ++i)
            w[i] = float(std::sin(0.7 * double(i) + 0.3)) * 0.3f;
        weights["classifier.weight"] = inf::Tensor::fromFloats({labels, hidden}, w);
        weights["classifier.bias"] = inf::Tensor::fromFloats({labels}, std::vector<float>(std::size_t(labels), 0.f));
    }
    inf::writeSafetensors(QDir(dir).filePath(QStringLiteral("model.safetensors")).toStdString(), weights);
    QFile out(QDir(dir).filePath(QStringLiteral("config.json")));
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(config.dump()));
}

// Row 0 of the fixture's inputs, as the model takes them.
det::AtMap firstRow(const QString &fixture)
{
    det::AtMap in;
    for (const auto &[name, t] : inf::readSafetensors((fixture + QStringLiteral("/inputs.safetensors")).toStdString()))
        in[name] = det::toAten(t).narrow(0, 0, 1).contiguous();
    return in;
}

double runnerLogit(const QString &dir, const det::AtMap &in, int target, int label)
{
    inf::ModelRunner runner;
    std::string error;
    if (!runner.load(dir.toStdString(), &error))
        qFatal("%s", error.c_str());
    inf::TensorMap tin;
    for (const auto &[name, t] : in)
        tin[name] = det::fromAten(t);
    const inf::RunResult r = runner.run(tin);
    if (!r.ok)
        qFatal("%s", r.error.c_str());
    return det::toAten(r.outputs.at("logits"))[0][target][label].item<double>();
}

double derivative(det::HfGradientModel &m, const det::AtMap &in, int t, int label, const std::vector<std::string> &only = {})
{
    const double h = 1e-3;
    return (det::scaledLogit(m, in, t, label, 1 + h, only) - det::scaledLogit(m, in, t, label, 1 - h, only)) / (2 * h);
}

bool close(double a, double b, double rel = 1e-2, double abs = 2e-3) { return std::abs(a - b) < abs + rel * std::abs(b); }

} // namespace

class TestHfExplain : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void againstTheModel_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<bool>("withImage");
        QTest::newRow("layoutlmv3, text") << QStringLiteral("fixtures/parity/layoutlmv3_tokcls") << false;
        QTest::newRow("layoutlmv3, image patches") << QStringLiteral("fixtures/parity/layoutlmv3_visual") << true;
        QTest::newRow("layoutlmv2, visual tokens") << QStringLiteral("fixtures/parity-new/layoutlmv2_visual") << true;
        QTest::newRow("lilt") << QStringLiteral("fixtures/parity-new/lilt_tokcls") << false;
    }
    void againstTheModel()
    {
        QFETCH(QString, fixture);
        QFETCH(bool, withImage);
        const QString source = folio::test::sharedPath(fixture);
        FOLIO_REQUIRE_DATA(source + QStringLiteral("/model.safetensors"));
        QTemporaryDir dir;
        prepareFolder(source, dir.path());
        det::HfGradientModel m = det::loadHfGradientModel(dir.path().toStdString());
        const det::AtMap in = firstRow(source);
        const int T = int(in.at("input_ids").size(1)), t = 3;
        inf::HfExplainOptions options;
        options.igSteps = 512;
        inf::HfExplanation ex;
        det::explainInputs(m, in, t, -1, options, &ex);
        const int label = ex.labelIndex;

        const double f = runnerLogit(dir.path(), in, t, label);
        QVERIFY2(close(ex.logit, f, 0, 1e-4), qPrintable(QStringLiteral("%1 vs ModelRunner %2").arg(ex.logit).arg(f)));
        QCOMPARE(ex.textPositions, T);
        if (withImage) {
            QVERIFY2(ex.positions > T && ex.imageGrid > 0, qPrintable(QStringLiteral("%1 positions, grid %2").arg(ex.positions).arg(ex.imageGrid)));
            QCOMPARE(ex.positions, T + ex.imageGrid * ex.imageGrid + (ex.imageCls ? 1 : 0));
        } else {
            QCOMPARE(ex.positions, T);
        }
        QCOMPARE(int(ex.gradInput.size()), ex.positions);
        QCOMPARE(int(ex.attentions.size()), ex.layers * ex.heads * ex.positions * ex.positions);
        QVERIFY(ex.layers == 2);
        const std::vector<double> r = folio::attentionRolloutRow(ex.attentions, ex.layers, ex.heads, ex.positions, t);
        double rowSum = 0;
        for (double v : r)
            rowSum += v;
        QVERIFY2(std::abs(rowSum - 1) < 1e-6, qPrintable(QString::number(rowSum, 'g', 12)));

        // Gradient x input: the whole, and the parts each LayerNorm makes.
        double gi = 0;
        for (float v : ex.gradInput)
            gi += v;
        const double along = derivative(m, in, t, label);
        QVERIFY2(close(gi, along), qPrintable(QStringLiteral("sum GI %1 vs d/da f(a x) %2").arg(gi).arg(along)));
        QVERIFY(std::abs(along) > 1e-4);
        const std::vector<std::string> lns = det::encoderInputLayerNorms(m, withImage);
        if (m.modelType == "layoutlmv2") {
            QCOMPARE(int(lns.size()), 2);
            double text = 0, image = 0;
            for (int p = 0; p < ex.positions; ++p)
                (p < T ? text : image) += ex.gradInput[std::size_t(p)];
            const double dText = derivative(m, in, t, label, {lns[0]}), dImage = derivative(m, in, t, label, {lns[1]});
            QVERIFY2(close(text, dText), qPrintable(QStringLiteral("text tokens %1 vs %2").arg(text).arg(dText)));
            QVERIFY2(close(image, dImage), qPrintable(QStringLiteral("visual tokens %1 vs %2").arg(image).arg(dImage)));
            QVERIFY(std::abs(dImage) > 1e-5); // the visual tokens matter here
        }
        if (m.modelType == "lilt") {
            QCOMPARE(int(ex.gradInputLayout.size()), T);
            double layout = 0;
            for (float v : ex.gradInputLayout)
                layout += v;
            const double dLayout = derivative(m, in, t, label, {lns[1]});
            QVERIFY2(close(layout, dLayout), qPrintable(QStringLiteral("layout flow %1 vs %2").arg(layout).arg(dLayout)));
            QVERIFY(std::abs(dLayout) > 1e-5);
        } else {
            QVERIFY(ex.gradInputLayout.empty());
        }

        // Integrated gradients are complete.
        double ig = 0;
        for (float v : ex.integratedGradients)
            ig += v;
        const double f0 = det::scaledLogit(m, in, t, label, 0.0);
        QVERIFY(close(ex.baselineLogit, f0, 0, 1e-5));
        const double gap = f - f0;
        qInfo("%s: f(x) %.5f f(0) %.5f sum IG %.5f (512 cubic steps), sum GI %.5f vs %.5f", qPrintable(fixture), f, f0, ig, gi, along);
        QVERIFY2(std::abs(ig - gap) < 1e-2 * std::max(1.0, std::abs(gap)), qPrintable(QStringLiteral("sum IG %1 vs f(x) - f(0) %2").arg(ig).arg(gap)));

        // The model is as it was: the same logit, no gradient left on its weights.
        QVERIFY(close(det::scaledLogit(m, in, t, label, 1.0), f, 0, 1e-5));
        for (const auto &[name, w] : m.params)
            QVERIFY2(!w.requires_grad() && !w.grad().defined(), name.c_str());
    }

    void unsupportedModelTypes()
    {
        const QString deberta = folio::test::sharedPath(QStringLiteral("fixtures/parity/debertav2"));
        FOLIO_REQUIRE_DATA(deberta + QStringLiteral("/config.json"));
        try {
            det::loadHfGradientModel(deberta.toStdString());
            QFAIL("a deberta-v2 folder was accepted");
        } catch (const std::exception &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("gradient path for layoutlmv3, layoutlmv2 (LayoutXLM), lilt")), e.what());
        }
        inf::HfExplainer explainer;
        std::string error;
        QVERIFY(!explainer.load(deberta.toStdString(), &error));
        QVERIFY(!error.empty());
    }

    // The facade on a complete folder (tokenizer included): the word's window and first token.
    void facadeOnAFolder()
    {
        const QString pipeline = folio::test::sharedPath(QStringLiteral("fixtures/parity-next/layoutlmv3_pipeline"));
        FOLIO_REQUIRE_DATA(pipeline + QStringLiteral("/checkpoint/model.safetensors"));
        inf::HfExplainer explainer;
        std::string error;
        QVERIFY2(explainer.load((pipeline + QStringLiteral("/checkpoint")).toStdString(), &error), error.c_str());
        QCOMPARE(explainer.modelType(), std::string("layoutlmv3"));
        const json docs = readJson(pipeline + QStringLiteral("/documents.json"));
        std::vector<std::string> words;
        std::vector<inf::WordBox> boxes;
        for (const auto &w : docs["documents"][0]["words"])
            words.push_back(w.get<std::string>());
        for (const auto &b : docs["documents"][0]["boxes"])
            boxes.push_back(inf::WordBox{b[0].get<int>(), b[1].get<int>(), b[2].get<int>(), b[3].get<int>()});
        const inf::WordLabelling labelling = explainer.classifier().label(words, boxes);
        QVERIFY2(labelling.ok, labelling.error.c_str());
        const int word = std::min(2, int(words.size()) - 1);
        inf::HfExplainOptions options;
        options.igSteps = 16;
        inf::HfExplanation ex;
        QVERIFY2(explainer.explain(labelling, word, "", options, nullptr, &ex, &error), error.c_str());
        QCOMPARE(ex.label, labelling.words[std::size_t(word)].label);
        QCOMPARE(ex.positionWord[std::size_t(ex.targetPosition)], word);
        QVERIFY(ex.targetPosition == 0 || ex.positionWord[std::size_t(ex.targetPosition - 1)] != word); // its first token
        QCOMPARE(ex.igSteps, 16);
        QVERIFY(!explainer.explain(labelling, word, "NO-SUCH-LABEL", options, nullptr, &ex, &error));
        QVERIFY2(QString::fromStdString(error).contains(QStringLiteral("not in the model's label map")), error.c_str());
        QVERIFY(!explainer.explain(labelling, int(words.size()) + 5, "", options, nullptr, &ex, &error));
        QVERIFY2(QString::fromStdString(error).contains(QStringLiteral("has no token")), error.c_str());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestHfExplain)
#include "tst_hfexplain.moc"
