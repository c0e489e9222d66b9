// Attributions of the tagger's other architectures (issue 48): "layoutlmv2" (SASAM-style unscaled
// bucketed 1-D + 2-D biases), "layoutlmv3" (the same divided by sqrt(d)), "" (checkpoints from
// before the key) and "ernie" (ERNIE-Layout's disentangled 1-D / x / y attention), each a tiny
// 2-layer tagger with fixed, non-zero weights (bias tables and relative embeddings included) on a
// page of words with distinct boxes. Every check goes against the real Tagger::forward, never
// against the explainer's own rebuilt encoder:
//  - the logit and the attention probabilities are the tagger's (and rollout rows sum to 1);
//  - gradient x input: the sum over words, sum_i <g_i, x_i>, is d/da f(a x) at a = 1, taken by
//    central differences on the tagger with its embedding LayerNorm's weight and bias scaled by a
//    (LN_{a gamma, a beta}(s) = a LN(s) exactly); and word by word: moving word i's text embedding
//    t_i (its one piece's row) by h t_i changes f by h <g_i, J t_i>, J the LayerNorm's Jacobian,
//        <g_i, J t_i> = GI_text_i - (GI_i - GI_shift_i) <n_i, t_i - mean(t_i)> / (D sigma_i),
//    n_i = (s_i - mean s_i) / sigma_i (x_i = gamma n_i + beta, so <g_i, gamma n_i> = GI_i - GI_shift_i);
//  - integrated gradients are complete: sum_i IG_i ~ f(x) - f(0), f(0) the tagger with the
//    embedding LayerNorm's weight and bias zeroed (its input embedding all zero);
//  - the same with the 1-D and 2-D bias families switched off.
#include "attention/attributions.h"
#include "inference/formtagger/detail/taggerexplain.h"
#include "tests/common/testdata.h"

#include <QtTest>

#include <cmath>
#include <string>
#include <vector>

namespace inf = folio::inference;
namespace det = folio::inference::detail;

namespace {

det::TaggerConfig tinyConfig(const std::string &architecture)
{
    det::TaggerConfig cfg;
    cfg.variant = "full";
    cfg.architecture = architecture;
    cfg.vocabSize = 9;
    cfg.hidden = 8;
    cfg.layers = 2;
    cfg.heads = 2;
    cfg.intermediate = 12;
    cfg.numLabels = 3;
    cfg.maxPositions = 16;
    cfg.maxWords = 16;
    cfg.labels = {"O", "B-KEY", "I-KEY"};
    return cfg;
}

// A sine of the element index per parameter; LayerNorm weights around 1; bias tables and
// relative embeddings non-zero (so the 2-D terms matter).
void fixWeights(det::Tagger &tagger)
{
    at::NoGradGuard guard;
    int k = 0;
    for (auto &[name, t] : tagger.params()) {
        ++k;
        at::Tensor flat = t.view({-1});
        const bool ln = name.find("LayerNorm.weight") != std::string::npos;
        const bool table = name.find("rel_") != std::string::npos;
        for (long i = 0; i < flat.numel(); ++i) {
            double v = 0.5 * std::sin(1.7 * double(i) + 0.9 * double(k));
            if (ln)
                v = 1.0 + 0.2 * std::sin(double(i) + double(k));
            else if (table)
                v = 0.8 * std::sin(0.37 * double(i) + double(k));
            flat[i] = float(v);
        }
    }
}

// Four words, one piece each (distinct ids), boxes far enough apart for different 2-D buckets.
det::Batch page()
{
    det::Batch b;
    const long N = 4;
    b.pieceIds = at::tensor(std::vector<std::int64_t>{3, 1, 5, 7}, at::kLong).view({1, N, 1});
    b.pieceMask = at::ones({1, N, 1}, at::kFloat);
    b.wordMask = at::ones({1, N}, at::kBool);
    b.boxes = at::tensor(std::vector<std::int64_t>{100, 80, 180, 100, 200, 82, 330, 104, 90, 400, 260, 420, 600, 700, 640, 760},
                         at::kLong).view({1, N, 4});
    b.gaps = at::tensor(std::vector<std::int64_t>{0, 3, 0, 9, 3, 0, 7, 0, 0, 12, 9, 0, 12, 0, 0, 0}, at::kLong).view({1, N, 4});
    b.words = N;
    b.pieces = N;
    return b;
}

double logitOf(const det::Tagger &tagger, const det::Batch &b, int t, int label, std::uint32_t disabled)
{
    at::NoGradGuard guard;
    return tagger.forward(b, false, disabled)[0][t][label].item<double>();
}

// f with the embedding LayerNorm's weight and bias multiplied by a (restored afterwards).
double scaledLogit(det::Tagger &tagger, const det::Batch &b, int t, int label, std::uint32_t disabled, double a)
{
    at::NoGradGuard guard;
    at::Tensor w = tagger.params().at("embeddings.LayerNorm.weight"), bias = tagger.params().at("embeddings.LayerNorm.bias");
    const at::Tensor w0 = w.clone(), b0 = bias.clone();
    w.mul_(a);
    bias.mul_(a);
    const double f = logitOf(tagger, b, t, label, disabled);
    w.copy_(w0);
    bias.copy_(b0);
    return f;
}

} // namespace

class TestExplainArchs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void attributionsAgainstTheTagger_data()
    {
        QTest::addColumn<QString>("architecture");
        QTest::addColumn<uint>("disabled");
        for (const char *a : {"layoutlmv2", "layoutlmv3", "", "ernie"}) {
            QTest::newRow((std::string(*a ? a : "legacy") + ", all biases").c_str()) << QString::fromLatin1(a) << 0u;
            QTest::newRow((std::string(*a ? a : "legacy") + ", 1-D + 2-D off").c_str())
                << QString::fromLatin1(a) << uint(inf::Bias1D | inf::Bias2D);
        }
    }
    void attributionsAgainstTheTagger()
    {
        QFETCH(QString, architecture);
        QFETCH(uint, disabled);
        det::Tagger tagger(tinyConfig(architecture.toStdString()));
        fixWeights(tagger);
        const det::Batch b = page();
        const int t = 2;
        inf::TaggerExplainOptions options;
        options.igSteps = 512;
        options.disabledBiases = disabled;
        inf::TaggerExplanation ex;
        det::explainBatch(tagger, b, t, -1, options, &ex);
        const int label = ex.labelIndex;
        const double f = logitOf(tagger, b, t, label, disabled);
        QVERIFY2(std::abs(double(ex.logit) - f) < 1e-5, qPrintable(QStringLiteral("%1 vs %2").arg(ex.logit).arg(f)));

        // The attention is the tagger's, and the rollout of it is a distribution per row.
        std::map<std::string, at::Tensor> trace;
        {
            at::NoGradGuard guard;
            tagger.forward(b, false, disabled, &trace);
        }
        QCOMPARE(int(ex.attentions.size()), 2 * 2 * 4 * 4);
        for (int l = 0; l < 2; ++l) {
            const at::Tensor a = trace.at("attentions." + std::to_string(l))[0].contiguous();
            for (int i = 0; i < 2 * 4 * 4; ++i)
                QVERIFY(std::abs(ex.attentions[std::size_t(l * 32 + i)] - a.view({-1})[i].item<float>()) < 1e-6);
        }
        const std::vector<double> r = folio::attentionRollout(ex.attentions, 2, 2, 4);
        for (int i = 0; i < 4; ++i) {
            double sum = 0;
            for (int j = 0; j < 4; ++j) {
                QVERIFY(r[std::size_t(i * 4 + j)] >= 0);
                sum += r[std::size_t(i * 4 + j)];
            }
            QVERIFY2(std::abs(sum - 1) < 1e-9, qPrintable(QString::number(sum, 'g', 12)));
        }

        // Gradient x input, summed: the derivative along the whole input at a = 1.
        const double h = 1e-3;
        const double along = (scaledLogit(tagger, b, t, label, disabled, 1 + h) - scaledLogit(tagger, b, t, label, disabled, 1 - h)) / (2 * h);
        double gi = 0;
        for (float v : ex.gradInput)
            gi += v;
        QVERIFY2(std::abs(gi - along) < 2e-3 + 1e-2 * std::abs(along), qPrintable(QStringLiteral("sum GI %1 vs d/da f(a x) %2").arg(gi).arg(along)));
        QVERIFY(std::abs(along) > 1e-3); // the check has something to check

        // Word by word: move each word's text embedding along itself (its one piece's row).
        const det::EmbeddingParts parts = det::embeddingParts(tagger, b);
        const int D = 8;
        for (int i = 0; i < 4; ++i) {
            at::NoGradGuard guard;
            const at::Tensor s = parts.sum[0][i].to(at::kDouble), text = parts.text[0][i].to(at::kDouble);
            const double sigma = std::sqrt(s.var(0, false).item<double>() + 1e-5);
            const at::Tensor n = (s - s.mean()) / sigma;
            const double predicted = double(ex.gradInputText[std::size_t(i)])
                                     - double(ex.gradInput[std::size_t(i)] - ex.gradInputShift[std::size_t(i)])
                                           * (n * (text - text.mean())).sum().item<double>() / (D * sigma);
            at::Tensor row = tagger.params().at("embeddings.word_embeddings.weight")[b.pieceIds[0][i][0].item<std::int64_t>()];
            const at::Tensor row0 = row.clone();
            const double eps = 1e-3;
            row.copy_(row0 * (1 + eps));
            const double up = logitOf(tagger, b, t, label, disabled);
            row.copy_(row0 * (1 - eps));
            const double down = logitOf(tagger, b, t, label, disabled);
            row.copy_(row0);
            const double measured = (up - down) / (2 * eps);
            QVERIFY2(std::abs(predicted - measured) < 2e-3 + 1e-2 * std::abs(measured),
                     qPrintable(QStringLiteral("word %1: from the attributions %2, finite difference %3").arg(i).arg(predicted).arg(measured)));
            // The parts add up.
            QVERIFY(std::abs(ex.gradInputText[std::size_t(i)] + ex.gradInputPosition[std::size_t(i)] + ex.gradInputBox[std::size_t(i)]
                             + ex.gradInputShift[std::size_t(i)] - ex.gradInput[std::size_t(i)]) < 1e-4);
            QVERIFY(ex.gradInputBox[std::size_t(i)] != 0.0f); // the full variant has box embeddings
        }

        // Integrated gradients are complete against the tagger's own f(0).
        double ig = 0;
        for (float v : ex.integratedGradients)
            ig += v;
        const double f0 = scaledLogit(tagger, b, t, label, disabled, 0.0);
        QVERIFY2(std::abs(double(ex.baselineLogit) - f0) < 1e-4, qPrintable(QStringLiteral("%1 vs %2").arg(ex.baselineLogit).arg(f0)));
        const double gap = f - f0;
        qInfo("%s: f(x) %.5f, f(0) %.5f, sum IG %.5f (512 cubic steps), sum GI %.5f vs %.5f", qPrintable(architecture), f, f0, ig,
              gi, along);
        QVERIFY2(std::abs(ig - gap) < 5e-4 + 1e-2 * std::abs(gap), qPrintable(QStringLiteral("sum IG %1 vs f(x) - f(0) %2").arg(ig).arg(gap)));

        // The tagger is untouched.
        for (const auto &[name, w] : tagger.params())
            QVERIFY2(!w.grad().defined(), name.c_str());
    }

    // The architectures differ where they should: the same weights give another logit with
    // ERNIE-Layout's attention than with the bucketed biases, and switching the biases off changes
    // the ernie tagger's answer (its relative terms are live).
    void ernieIsItsOwnArrangement()
    {
        det::Tagger ernie(tinyConfig("ernie")), v2(tinyConfig("layoutlmv2"));
        fixWeights(ernie);
        fixWeights(v2);
        const det::Batch b = page();
        QVERIFY(std::abs(logitOf(ernie, b, 2, 1, 0) - logitOf(v2, b, 2, 1, 0)) > 1e-4);
        QVERIFY(std::abs(logitOf(ernie, b, 2, 1, 0) - logitOf(ernie, b, 2, 1, inf::Bias1D | inf::Bias2D)) > 1e-4);
    }
};

FOLIO_TEST_GUILESS_MAIN(TestExplainArchs)
#include "tst_explain_archs.moc"
