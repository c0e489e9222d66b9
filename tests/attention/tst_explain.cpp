// Attributions checked against their definitions (issue 48): attention rollout on matrices whose
// product is worked out by hand, and gradient x input / integrated gradients of a 2-layer
// folio-formtagger with fixed weights against an independent double-precision re-implementation
// of the same network in this file (central finite differences for the gradients, the midpoint
// sum for IG).
#include "attention/attributions.h"
#include "attention/headgrid.h"
#include "inference/errors.h"
#include "inference/formtagger/detail/taggerexplain.h"
#include "tests/common/testdata.h"

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace folio;
namespace inf = folio::inference;
namespace det = folio::inference::detail;

namespace {

// ---- the reference network (doubles) ----------------------------------------------------------

using Vec = std::vector<double>;
using Mat = std::vector<Vec>; // rows

struct Ref
{
    std::map<std::string, std::vector<double>> p; // parameters by name, row-major
    int D = 4, H = 2, layers = 2, inter = 6, labels = 3;

    const std::vector<double> &at(const std::string &n) const { return p.at(n); }

    Vec layerNorm(const Vec &x, const std::string &name) const
    {
        double mean = 0, var = 0;
        for (double v : x) mean += v / double(x.size());
        for (double v : x) var += (v - mean) * (v - mean) / double(x.size());
        Vec y(x.size());
        const auto &w = at(name + ".weight"), &b = at(name + ".bias");
        for (size_t i = 0; i < x.size(); ++i)
            y[i] = (x[i] - mean) / std::sqrt(var + 1e-5) * w[i] + b[i];
        return y;
    }
    Vec linear(const Vec &x, const std::string &name, int out) const
    {
        const auto &w = at(name + ".weight"), &b = at(name + ".bias");
        const int in = int(x.size());
        Vec y(size_t(out), 0.0);
        for (int o = 0; o < out; ++o) {
            y[size_t(o)] = b[size_t(o)];
            for (int i = 0; i < in; ++i)
                y[size_t(o)] += w[size_t(o * in + i)] * x[size_t(i)];
        }
        return y;
    }
    // f = logit[label] at word t from the embedded words x (after the embedding LayerNorm);
    // probs (optional) per layer [H][N][N].
    double forward(Mat x, int t, int label, std::vector<std::vector<Mat>> *probs = nullptr) const
    {
        const int N = int(x.size()), d = D / H;
        if (probs)
            probs->clear();
        for (int l = 0; l < layers; ++l) {
            const std::string pre = "encoder.layer." + std::to_string(l);
            Mat q(static_cast<size_t>(N)), k(static_cast<size_t>(N)), v(static_cast<size_t>(N));
            for (int i = 0; i < N; ++i) {
                const Vec h = layerNorm(x[size_t(i)], pre + ".attention.output.LayerNorm");
                q[size_t(i)] = linear(h, pre + ".attention.self.query", D);
                k[size_t(i)] = linear(h, pre + ".attention.self.key", D);
                v[size_t(i)] = linear(h, pre + ".attention.self.value", D);
            }
            Mat ctx(static_cast<size_t>(N), Vec(static_cast<size_t>(D), 0.0));
            std::vector<Mat> layerProbs;
            for (int hd = 0; hd < H; ++hd) {
                Mat P(static_cast<size_t>(N), Vec(static_cast<size_t>(N)));
                for (int i = 0; i < N; ++i) {
                    double mx = -1e300;
                    for (int j = 0; j < N; ++j) {
                        double sc = 0;
                        for (int c = 0; c < d; ++c)
                            sc += q[size_t(i)][size_t(hd * d + c)] * k[size_t(j)][size_t(hd * d + c)];
                        P[size_t(i)][size_t(j)] = sc / std::sqrt(double(d)); // the 1-D bias table is zero
                        mx = std::max(mx, P[size_t(i)][size_t(j)]);
                    }
                    double z = 0;
                    for (int j = 0; j < N; ++j) z += (P[size_t(i)][size_t(j)] = std::exp(P[size_t(i)][size_t(j)] - mx));
                    for (int j = 0; j < N; ++j) P[size_t(i)][size_t(j)] /= z;
                    for (int j = 0; j < N; ++j)
                        for (int c = 0; c < d; ++c)
                            ctx[size_t(i)][size_t(hd * d + c)] += P[size_t(i)][size_t(j)] * v[size_t(j)][size_t(hd * d + c)];
                }
                layerProbs.push_back(P);
            }
            if (probs)
                probs->push_back(layerProbs);
            for (int i = 0; i < N; ++i) {
                Vec x1 = linear(ctx[size_t(i)], pre + ".attention.output.dense", D);
                for (int c = 0; c < D; ++c) x1[size_t(c)] += x[size_t(i)][size_t(c)];
                Vec u = linear(layerNorm(x1, pre + ".output.LayerNorm"), pre + ".intermediate.dense", inter);
                for (double &z : u) z = 0.5 * z * (1.0 + std::erf(z / std::sqrt(2.0)));
                const Vec o = linear(u, pre + ".output.dense", D);
                for (int c = 0; c < D; ++c) x1[size_t(c)] += o[size_t(c)];
                x[size_t(i)] = x1;
            }
        }
        return linear(layerNorm(x[size_t(t)], "encoder.LayerNorm"), "classifier", labels)[size_t(label)];
    }
    Mat gradient(const Mat &s, int t, int label) const
    {
        Mat g = s;
        const double h = 1e-5;
        for (size_t i = 0; i < s.size(); ++i)
            for (size_t c = 0; c < s[i].size(); ++c) {
                Mat a = s, b = s;
                a[i][c] += h;
                b[i][c] -= h;
                g[i][c] = (forward(a, t, label) - forward(b, t, label)) / (2 * h);
            }
        return g;
    }
};

det::TaggerConfig tinyConfig()
{
    det::TaggerConfig cfg;
    cfg.variant = "text"; // no box embeddings or 2-D biases: the reference stays small
    cfg.vocabSize = 7;
    cfg.hidden = 4;
    cfg.layers = 2;
    cfg.heads = 2;
    cfg.intermediate = 6;
    cfg.numLabels = 3;
    cfg.maxPositions = 8;
    cfg.maxWords = 8;
    cfg.labels = {"O", "B-KEY", "I-KEY"};
    return cfg;
}

// Fixed weights: a sine of the element index per parameter; LayerNorm weights around 1, the 1-D
// relative-bias table zero. The reference gets the same numbers.
void fixWeights(det::Tagger &tagger, Ref *ref)
{
    at::NoGradGuard guard;
    int k = 0;
    for (auto &[name, t] : tagger.params()) {
        ++k;
        at::Tensor flat = t.view({-1});
        std::vector<double> values(size_t(flat.numel()));
        for (long i = 0; i < flat.numel(); ++i) {
            double v = 0.6 * std::sin(1.7 * double(i) + 0.9 * double(k));
            if (name.find("LayerNorm.weight") != std::string::npos)
                v = 1.0 + 0.2 * std::sin(double(i) + double(k));
            else if (name.find("rel_pos") != std::string::npos)
                v = 0.0;
            values[size_t(i)] = double(float(v));
            flat[i] = float(v);
        }
        ref->p[name] = values;
    }
}

det::Batch tinyBatch(const std::vector<int> &ids)
{
    det::Batch b;
    const long N = long(ids.size());
    std::vector<std::int64_t> v(ids.begin(), ids.end());
    b.pieceIds = at::tensor(v, at::kLong).view({1, N, 1});
    b.pieceMask = at::ones({1, N, 1}, at::kFloat);
    b.wordMask = at::ones({1, N}, at::kBool);
    b.boxes = at::zeros({1, N, 4}, at::kLong);
    b.gaps = at::zeros({1, N, 4}, at::kLong);
    b.words = N;
    b.pieces = N;
    return b;
}

// x_i = LN(word_i + position_i) (one piece per word).
Mat referenceEmbeddings(const Ref &ref, const std::vector<int> &ids)
{
    Mat s;
    for (size_t i = 0; i < ids.size(); ++i) {
        Vec e(size_t(ref.D));
        for (int c = 0; c < ref.D; ++c)
            e[size_t(c)] = ref.at("embeddings.word_embeddings.weight")[size_t(ids[i] * ref.D + c)]
                         + ref.at("embeddings.position_embeddings.weight")[size_t(int(i) * ref.D + c)];
        s.push_back(ref.layerNorm(e, "embeddings.LayerNorm"));
    }
    return s;
}

} // namespace

class TestExplain : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Two layers, one head, two words: Â0 = [[1, 0], [.25, .75]], Â1 = [[.5, .5], [.5, .5]],
    // R = Â1 Â0 = [[.625, .375], [.625, .375]].
    void rolloutByHand()
    {
        const std::vector<float> a{1, 0, 0.5f, 0.5f, /* layer 1 */ 0, 1, 1, 0};
        const std::vector<double> r = attentionRollout(a, 2, 1, 2);
        const std::vector<double> want{0.625, 0.375, 0.625, 0.375};
        QCOMPARE(int(r.size()), 4);
        for (int i = 0; i < 4; ++i)
            QVERIFY2(std::abs(r[size_t(i)] - want[size_t(i)]) < 1e-12, qPrintable(QString::number(r[size_t(i)])));
        for (int t = 0; t < 2; ++t) {
            const std::vector<double> row = attentionRolloutRow(a, 2, 1, 2, t);
            QCOMPARE(int(row.size()), 2);
            QVERIFY(std::abs(row[0] - want[size_t(2 * t)]) < 1e-12 && std::abs(row[1] - want[size_t(2 * t + 1)]) < 1e-12);
        }
    }
    // Heads are averaged before the identity: heads I and the swap average to uniform halves,
    // so one layer gives Â = [[.75, .25], [.25, .75]].
    void rolloutAveragesHeads()
    {
        const std::vector<float> a{1, 0, 0, 1, /* head 1 */ 0, 1, 1, 0};
        const std::vector<double> r = attentionRollout(a, 1, 2, 2);
        QCOMPARE(int(r.size()), 4);
        QVERIFY(std::abs(r[0] - 0.75) < 1e-12 && std::abs(r[1] - 0.25) < 1e-12);
        QVERIFY(std::abs(r[2] - 0.25) < 1e-12 && std::abs(r[3] - 0.75) < 1e-12);
    }
    void rolloutRefusesBadShapes()
    {
        QVERIFY(attentionRollout({1, 0, 0}, 1, 1, 2).empty());
        QVERIFY(attentionRollout({}, 0, 1, 0).empty());
        QVERIFY(attentionRolloutRow({1, 0, 0, 1}, 1, 1, 2, 2).empty());
        QVERIFY(attentionRolloutRow({1, 0, 0, 1}, 1, 1, 2, -1).empty());
    }

    // Head statistics by hand: two words 100 units apart; head 0 looks at itself (distance 0,
    // entropy 0), head 1 uniformly (distance 50, entropy ln 2). The grid writes PNG and SVG.
    void headStatisticsByHand()
    {
        AttentionTrace trace;
        const std::vector<float> probs{1, 0, 0, 1, /* head 1 */ 0.5f, 0.5f, 0.5f, 0.5f};
        QString error;
        QVERIFY2(trace.ingest(QStringLiteral("attentions.0"), {1, 2, 2, 2}, probs.data(), {}, &error), qPrintable(error));
        const std::vector<float> bias{0.5f, -0.5f, 1, 0, 0, 0, 0, 0};
        QVERIFY2(trace.ingest(QStringLiteral("bias.1d"), {1, 2, 2, 2}, bias.data(), {}, &error), qPrintable(error));
        trace.tokenWord = {0, 1};
        QVERIFY2(trace.finish(&error), qPrintable(error));
        const std::vector<QRectF> boxes{QRectF(0, 0, 10, 10), QRectF(100, 0, 10, 10)};
        const std::vector<HeadStatistics> s = headStatistics(trace, 0, boxes);
        QCOMPARE(int(s.size()), 2);
        QVERIFY(std::abs(s[0].meanDistance) < 1e-9 && std::abs(s[0].entropy) < 1e-9);
        QVERIFY(std::abs(s[1].meanDistance - 50.0) < 1e-6 && std::abs(s[1].entropy - std::log(2.0)) < 1e-6);
        QVERIFY(headStatistics(trace, 1, boxes).empty());
        QTemporaryDir dir;
        HeadGridOptions o;
        o.size = QSize(400, 300);
        o.sort = HeadSort::Entropy;
        QVERIFY2(saveHeadGrid(trace, boxes, o, dir.filePath(QStringLiteral("g.png")), &error), qPrintable(error));
        QCOMPARE(QImage(dir.filePath(QStringLiteral("g.png"))).size(), QSize(400, 300));
        o.selectedToken = 1;
        QVERIFY2(saveHeadGrid(trace, boxes, o, dir.filePath(QStringLiteral("g.svg")), &error), qPrintable(error));
        QFile svg(dir.filePath(QStringLiteral("g.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("bias.1d"));
        o.selectedToken = 2;
        QVERIFY(!saveHeadGrid(trace, boxes, o, dir.filePath(QStringLiteral("h.png")), &error));
        QVERIFY2(error.contains(QStringLiteral("token 2 is not in window 0")), qPrintable(error));
        o.selectedToken = -1;
        QVERIFY(!saveHeadGrid(trace, boxes, o, dir.filePath(QStringLiteral("h.bmp")), &error));
        QVERIFY2(error.contains(QStringLiteral("h.bmp: a head grid is written as .png or .svg")), qPrintable(error));
    }

    // The tagger's gradient x input and IG against the reference's finite differences.
    void gradientsMatchTheReference()
    {
        det::Tagger tagger(tinyConfig());
        Ref ref;
        fixWeights(tagger, &ref);
        const std::vector<int> ids{3, 1, 5};
        const det::Batch batch = tinyBatch(ids);
        const Mat s = referenceEmbeddings(ref, ids);
        const int t = 1, label = 2, steps = 8;

        inf::TaggerExplainOptions options;
        options.igSteps = steps;
        options.igPower = 1;
        inf::TaggerExplanation ex;
        at::Tensor before;
        {
            at::NoGradGuard g;
            before = tagger.forward(batch, false).clone();
        }
        det::explainBatch(tagger, batch, t, label, options, &ex);

        std::vector<std::vector<Mat>> probs;
        const double f = ref.forward(s, t, label, &probs);
        QVERIFY2(std::abs(double(ex.logit) - f) < 1e-4, qPrintable(QStringLiteral("%1 vs %2").arg(ex.logit).arg(f)));
        QCOMPARE(ex.labelIndex, label);
        QCOMPARE(ex.wordCount, 3);
        // Attention probabilities: the reference's, layer by layer, head by head.
        QCOMPARE(int(ex.attentions.size()), 2 * 2 * 3 * 3);
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 2; ++h)
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j)
                        QVERIFY(std::abs(double(ex.attentions[size_t(((l * 2 + h) * 3 + i) * 3 + j)]) - probs[size_t(l)][size_t(h)][size_t(i)][size_t(j)]) < 1e-5);

        // Gradient x input: <df/dx_i, x_i>.
        const Mat g = ref.gradient(s, t, label);
        for (int i = 0; i < 3; ++i) {
            double gi = 0;
            for (int c = 0; c < ref.D; ++c)
                gi += g[size_t(i)][size_t(c)] * s[size_t(i)][size_t(c)];
            QVERIFY2(std::abs(double(ex.gradInput[size_t(i)]) - gi) < 2e-4,
                     qPrintable(QStringLiteral("word %1: %2 vs %3").arg(i).arg(ex.gradInput[size_t(i)]).arg(gi)));
            QVERIFY(std::abs(double(ex.gradInputText[size_t(i)] + ex.gradInputPosition[size_t(i)] + ex.gradInputBox[size_t(i)]
                                    + ex.gradInputShift[size_t(i)] - ex.gradInput[size_t(i)])) < 1e-4);
            QVERIFY(std::abs(double(ex.igText[size_t(i)] + ex.igPosition[size_t(i)] + ex.igBox[size_t(i)] + ex.igShift[size_t(i)]
                                    - ex.integratedGradients[size_t(i)])) < 1e-4);
            QCOMPARE(ex.gradInputBox[size_t(i)], 0.0f); // the text variant has no box embeddings
        }
        // Integrated gradients: zero baseline, midpoint rule with the same steps in u, alpha = u^p
        // (p = 1: equal steps; p = 3: the default cubic spacing).
        for (int power : {1, 3}) {
            if (power == 3) {
                options.igPower = 3;
                det::explainBatch(tagger, batch, t, label, options, &ex);
            }
            Vec ig(3, 0.0);
            for (int k = 1; k <= steps; ++k) {
                const double u = (k - 0.5) / steps, alpha = std::pow(u, power), weight = power * std::pow(u, power - 1);
                Mat scaled = s;
                for (Vec &row : scaled)
                    for (double &v : row) v *= alpha;
                const Mat gk = ref.gradient(scaled, t, label);
                for (int i = 0; i < 3; ++i)
                    for (int c = 0; c < ref.D; ++c)
                        ig[size_t(i)] += weight * s[size_t(i)][size_t(c)] * gk[size_t(i)][size_t(c)] / steps;
            }
            for (int i = 0; i < 3; ++i)
                QVERIFY2(std::abs(double(ex.integratedGradients[size_t(i)]) - ig[size_t(i)]) < 2e-4,
                         qPrintable(QStringLiteral("p %4, word %1: %2 vs %3").arg(i).arg(ex.integratedGradients[size_t(i)]).arg(ig[size_t(i)]).arg(power)));
        }
        Mat zero = s;
        for (Vec &row : zero)
            for (double &v : row) v = 0;
        QVERIFY(std::abs(double(ex.baselineLogit) - ref.forward(zero, t, label)) < 1e-4);
        QCOMPARE(ex.igSteps, steps);

        // The tagger is untouched: same logits, no gradient on its weights.
        at::NoGradGuard noGrad;
        QVERIFY(at::equal(tagger.forward(batch, false), before));
        for (const auto &[name, w] : tagger.params())
            QVERIFY2(!w.grad().defined(), name.c_str());
    }

    // Completeness: sum_i IG_i -> f(x) - f(0) as the steps grow. The path starts where every
    // pre-LN layer's LayerNorm divides by ~sqrt(eps) (alpha x with alpha -> 0), so the integrand is
    // steep near 0 and the midpoint sum converges slowly there: the error shrinks with the steps
    // and is small at 4096.
    void integratedGradientsAreComplete()
    {
        det::Tagger tagger(tinyConfig());
        Ref ref;
        fixWeights(tagger, &ref);
        const det::Batch batch = tinyBatch({2, 6, 4, 1});
        double previous = 1e300;
        for (int steps : {16, 256, 4096}) {
            inf::TaggerExplainOptions options;
            options.igSteps = steps;
            options.igPower = 1;
            inf::TaggerExplanation ex;
            det::explainBatch(tagger, batch, 3, -1, options, &ex);
            double sum = 0;
            for (float v : ex.integratedGradients) sum += v;
            const double gap = double(ex.logit) - double(ex.baselineLogit);
            const double error = std::abs(sum - gap) / std::max(1.0, std::abs(gap));
            qInfo("IG with %d steps: sum %.5f, f(x) - f(0) %.5f, relative error %.2e", steps, sum, gap, error);
            QVERIFY(error < previous);
            previous = error;
        }
        QVERIFY2(previous < 5e-3, qPrintable(QString::number(previous)));
        // The cubic spacing gets there with far fewer steps.
        for (int steps : {32, 64}) {
            inf::TaggerExplainOptions options;
            options.igSteps = steps;
            inf::TaggerExplanation ex;
            det::explainBatch(tagger, batch, 3, -1, options, &ex);
            double sum = 0;
            for (float v : ex.integratedGradients) sum += v;
            const double gap = double(ex.logit) - double(ex.baselineLogit);
            const double error = std::abs(sum - gap) / std::max(1.0, std::abs(gap));
            qInfo("IG with %d cubic steps: sum %.5f, f(x) - f(0) %.5f, relative error %.2e", steps, sum, gap, error);
            if (steps == 64)
                QVERIFY2(error < 5e-3, qPrintable(QString::number(error)));
        }
    }

    void badTargetAndLabel()
    {
        det::Tagger tagger(tinyConfig());
        Ref ref;
        fixWeights(tagger, &ref);
        const det::Batch batch = tinyBatch({1, 2});
        inf::TaggerExplanation ex;
        QVERIFY_THROWS_EXCEPTION(inf::InferenceError, det::explainBatch(tagger, batch, 2, -1, {}, &ex));
        QVERIFY_THROWS_EXCEPTION(inf::InferenceError, det::explainBatch(tagger, batch, 0, 3, {}, &ex));
        inf::TaggerExplainOptions tooMany;
        tooMany.igSteps = 5000;
        QVERIFY_THROWS_EXCEPTION(inf::InferenceError, det::explainBatch(tagger, batch, 0, 0, tooMany, &ex));
    }
};

FOLIO_TEST_MAIN(TestExplain) // the grid paints text: a QGuiApplication (offscreen)
#include "tst_explain.moc"
