// The shared training toolkit (inference/training/detail/optimiser.h, trainkit.h) and the layout
// tagger on the shared layers: schedule values, parameter groups (decay or not, lr scale),
// clipping, exact resume of the AdamW state, early stopping, initialisation, the error wrapper,
// ParamStore's three sources; the tagger's attention and logits against a literal computation
// of the pre-refactor formula (so the shipped checkpoints keep their numbers).
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/detail/convert.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/errors.h"
#include "inference/formtagger/detail/taggermodel.h"
#include "inference/layers/buckets.h"
#include "inference/layers/detail/relbias.h"
#include "inference/models/modelrunner.h"
#include "inference/training/detail/optimiser.h"
#include "inference/training/detail/trainkit.h"
#include "inference/training/detail/weightaverage.h"
#include "tests/common/testdata.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <thread>

using namespace folio::inference;
using namespace folio::inference::detail;

namespace {

std::map<std::string, at::Tensor> leafParams()
{
    std::map<std::string, at::Tensor> p;
    p["dense.weight"] = at::randn({3, 4});
    p["dense.bias"] = at::randn({3});
    p["LayerNorm.weight"] = at::ones({4});
    p["rel_pos_bias.weight"] = at::randn({2, 5});
    for (auto &kv : p)
        kv.second.set_requires_grad(true);
    return p;
}

std::map<std::string, at::Tensor> cloneParams(const std::map<std::string, at::Tensor> &src)
{
    std::map<std::string, at::Tensor> p;
    for (const auto &[n, t] : src)
        p[n] = t.detach().clone().set_requires_grad(true);
    return p;
}

ParamGroupRule tableRule(const std::string &name, const at::Tensor &t)
{
    const bool table = name.rfind("rel_pos", 0) == 0;
    return {t.dim() >= 2 && !table, table ? 10.0 : 1.0};
}

// A fixed loss touching every parameter.
at::Tensor lossOf(const std::map<std::string, at::Tensor> &p, const at::Tensor &x)
{
    const at::Tensor h = at::linear(x, p.at("dense.weight"), p.at("dense.bias"));
    return h.pow(2).mean() + (p.at("LayerNorm.weight") * x.sum(0)).sum() * 0.1 + p.at("rel_pos_bias.weight").sin().sum();
}

TaggerConfig tinyTagger(const std::string &variant)
{
    TaggerConfig c;
    c.variant = variant;
    c.vocabSize = 50;
    c.hidden = 16;
    c.layers = 2;
    c.heads = 2;
    c.intermediate = 32;
    c.maxPositions = 300;
    c.maxWords = 300;
    c.windowStride = 200;
    c.labels = {"O", "B-Q", "I-Q"};
    c.numLabels = 3;
    return c;
}

// A random batch of 2 pages (the second shorter: padding and key mask in play).
Batch randomBatch(const TaggerConfig &cfg, long n)
{
    std::vector<EncodedPage> pages(2);
    std::mt19937 rng(5);
    for (int b = 0; b < 2; ++b) {
        const long words = b == 0 ? n : n - 7;
        for (long i = 0; i < words; ++i) {
            pages[b].pieces.push_back({int(rng() % 49) + 1, int(rng() % 49) + 1});
            const float x = float(rng() % 900), y = float(rng() % 900);
            pages[b].boxes.push_back({x, y, x + float(rng() % 100), y + float(rng() % 60)});
        }
    }
    return makeBatch({&pages[0], &pages[1]}, cfg, nullptr);
}

} // namespace

class TestTrainKit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { at::manual_seed(3); }

    void scheduleValues()
    {
        QCOMPARE(warmupLinearDecay(0, 10, 110), 0.1);
        QCOMPARE(warmupLinearDecay(9, 10, 110), 1.0);
        QCOMPARE(warmupLinearDecay(10, 10, 110), 1.0);
        QCOMPARE(warmupLinearDecay(60, 10, 110), 0.5);
        QCOMPARE(warmupLinearDecay(110, 10, 110), 0.0);
        QCOMPARE(warmupLinearDecay(500, 10, 110), 0.0); // never negative
        QCOMPARE(warmupLinearDecay(0, 0, 4), 1.0);      // no warm-up
        QCOMPARE(warmupLinearDecay(3, 0, 4), 0.25);
    }

    void parameterGroupsDecayOrNot()
    {
        auto p = leafParams();
        const auto before = cloneParams(p);
        OptimiserOptions o;
        o.lr = 0.1;
        o.weightDecay = 0.5;
        o.totalSteps = 10;
        o.warmupSteps = 2;
        Optimiser opt(p, o, tableRule);
        const auto groups = opt.groups();
        QCOMPARE(int(groups.size()), 3);
        QCOMPARE(groups.at(ParamGroupRule{true, 1.0}), std::vector<std::string>{"dense.weight"});
        QCOMPARE(groups.at(ParamGroupRule{false, 10.0}), std::vector<std::string>{"rel_pos_bias.weight"});
        QCOMPARE(groups.at(ParamGroupRule{false, 1.0}), (std::vector<std::string>{"LayerNorm.weight", "dense.bias"}));
        // A zero gradient: Adam's update is 0, so only the decoupled decay moves a parameter.
        const double loss = opt.step([&] {
            at::Tensor zero = at::zeros({});
            for (const auto &kv : p)
                zero = zero + kv.second.sum() * 0.0;
            return zero;
        });
        QCOMPARE(loss, 0.0);
        QCOMPARE(opt.steps(), 1L);
        const double lr0 = 0.1 * 0.5; // warm-up step 1 of 2
        QVERIFY(at::allclose(p["dense.weight"], before.at("dense.weight") * (1 - lr0 * 0.5), 0, 1e-7));
        for (const char *n : {"dense.bias", "LayerNorm.weight", "rel_pos_bias.weight"})
            QVERIFY2(at::equal(p[n], before.at(n)), n);
        // The lr of each group follows the schedule and its scale (groups in rule order).
        const std::vector<double> lrs = opt.groupLearningRates();
        QCOMPARE(int(lrs.size()), 3);
        QVERIFY(std::count_if(lrs.begin(), lrs.end(), [&](double v) { return std::abs(v - lr0 * 10) < 1e-12; }) == 1);
        QVERIFY(std::count_if(lrs.begin(), lrs.end(), [&](double v) { return std::abs(v - lr0) < 1e-12; }) == 2);
        // A parameter that does not require grad is refused.
        std::map<std::string, at::Tensor> frozen{{"w", at::zeros({2, 2})}};
        QVERIFY_THROWS_EXCEPTION(InferenceError, Optimiser(frozen, o));
    }

    void clipNormApplied()
    {
        std::map<std::string, at::Tensor> p{{"w", at::zeros({4}).set_requires_grad(true)}};
        OptimiserOptions o;
        o.clipNorm = 1.0;
        o.lr = 0.0; // look at the gradient only
        Optimiser opt(p, o);
        const at::Tensor g = at::tensor({3.0f, 4.0f, 0.0f, 0.0f});
        opt.step([&] { return (p["w"] * g).sum(); });
        QCOMPARE(opt.lastGradNorm(), 5.0);
        QVERIFY(at::allclose(p["w"].grad(), g / 5.0, 1e-6, 1e-6)); // clipped to norm 1
        // Below the limit nothing is scaled.
        OptimiserOptions wide = o;
        wide.clipNorm = 10.0;
        Optimiser opt2(p, wide);
        opt2.step([&] { return (p["w"] * g).sum(); });
        QVERIFY(at::equal(p["w"].grad(), g));
    }

    void resumeRestoresStateExactly()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("optimizer.safetensors")).toStdString();
        const at::Tensor x = at::randn({6, 4});
        OptimiserOptions o;
        o.lr = 0.05;
        o.totalSteps = 8;
        o.warmupSteps = 2;
        auto a = leafParams();
        Optimiser optA(a, o, tableRule);
        for (int i = 0; i < 3; ++i)
            optA.step([&] { return lossOf(a, x); });
        optA.save(file);
        // A second run from the saved weights and optimiser state...
        auto b = cloneParams(a);
        Optimiser optB(b, o, tableRule);
        optB.load(file);
        QCOMPARE(optB.steps(), 3L);
        for (int i = 0; i < 3; ++i) {
            optA.step([&] { return lossOf(a, x); });
            optB.step([&] { return lossOf(b, x); });
        }
        // ...continues bit for bit.
        for (const auto &[n, t] : a)
            QVERIFY2(at::equal(t, b.at(n)), n.c_str());
        QCOMPARE(optB.steps(), 6L);
        // Without the state the run differs (the test can fail).
        auto c = cloneParams(b);
        Optimiser fresh(c, o, tableRule);
        fresh.step([&] { return lossOf(c, x); });
        optB.step([&] { return lossOf(b, x); });
        QVERIFY(!at::equal(c.at("dense.weight"), b.at("dense.weight")));
        // A state file of another model is refused, naming the file and tensor.
        std::map<std::string, at::Tensor> other{{"other.weight", at::zeros({3, 4}).set_requires_grad(true)}};
        Optimiser wrong(other, o);
        try {
            wrong.load(file);
            QFAIL("loading a foreign optimiser state did not throw");
        } catch (const InferenceError &e) {
            const std::string m = e.what();
            QVERIFY2(m.find(file) != std::string::npos && m.find("belongs to no parameter") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(InferenceError, wrong.load(file + ".missing"));
    }

    // Polyak averaging: the warm-up-limited decay, swap() both ways, save / load, a foreign file refused.
    void weightAverageFollowsTheFormula()
    {
        std::map<std::string, at::Tensor> p = leafParams();
        const std::map<std::string, at::Tensor> start = cloneParams(p);
        WeightAverage avg(p, 0.9);
        std::map<std::string, at::Tensor> expected = cloneParams(p);
        for (int t = 0; t < 30; ++t) {
            {
                at::NoGradGuard g;
                for (auto &[n, v] : p)
                    v.add_(at::randn(v.sizes()));
            }
            avg.update(p);
            const double d = std::min(0.9, double(1 + t) / double(10 + t));
            for (auto &[n, e] : expected)
                e = e * d + p.at(n).detach() * (1 - d);
        }
        QCOMPARE(avg.updates(), 30L);
        const std::map<std::string, at::Tensor> live = cloneParams(p);
        avg.swap(p);
        for (const auto &[n, e] : expected)
            QVERIFY2(at::allclose(p.at(n).detach(), e, 1e-5, 1e-6), n.c_str());
        QVERIFY(p.at("dense.weight").requires_grad()); // the same leaf tensors, values exchanged
        avg.swap(p);
        for (const auto &[n, v] : live)
            QVERIFY(at::equal(p.at(n).detach(), v));

        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("avg.safetensors")).toStdString();
        avg.save(file);
        WeightAverage back(start, 0.9);
        back.load(file);
        QCOMPARE(back.updates(), 30L);
        std::map<std::string, at::Tensor> q = cloneParams(start);
        back.swap(q);
        for (const auto &[n, e] : expected)
            QVERIFY(at::allclose(q.at(n).detach(), e, 1e-5, 1e-6));
        // A weights file without the update count is not a weight average; nothing is changed.
        writeSafetensors(file, {{"dense.weight", fromAten(at::zeros({3, 4}))}});
        WeightAverage other(start, 0.9);
        bool threw = false;
        try {
            other.load(file);
        } catch (const InferenceError &e) {
            threw = QString(e.what()).contains("update count");
        }
        QVERIFY(threw);
        QCOMPARE(other.updates(), 0L);
    }

    void earlyStoppingTriggers()
    {
        EarlyStopping s(2);
        QVERIFY(s.update(1, 0.5));
        QVERIFY(s.update(2, 0.6));
        QVERIFY(!s.update(3, 0.55));
        QVERIFY(!s.shouldStop());
        QVERIFY(!s.update(4, 0.6)); // equal is no improvement
        QVERIFY(s.shouldStop());
        QCOMPARE(s.best(), 0.6);
        QCOMPARE(s.bestEpoch(), 2);
        EarlyStopping r(2);
        r.restore(s.toJson());
        QVERIFY(r.shouldStop());
        QCOMPARE(r.bestEpoch(), 2);
        EarlyStopping off(0);
        for (int e = 1; e <= 20; ++e)
            off.update(e, 1.0 / e);
        QVERIFY(!off.shouldStop());
        QVERIFY(off.update(21, 0.0, true)); // forced (no dev set): the last epoch is kept
        QCOMPARE(off.bestEpoch(), 21);
    }

    // configureThreads flushes denormal floats (AdamW moments decaying into them slowed long runs
    // severalfold), on its thread and on threads started after it.
    void denormalsFlushedAfterConfigureThreads()
    {
        const auto halve = [] {
            volatile float tiny = 1e-39f, half = 0.5f; // 1e-39 is below FLT_MIN: a denormal
            return tiny * half;
        };
        at::globalContext().setFlushDenormal(false);
        QVERIFY(halve() > 0.f); // kept as a denormal: the check below can fail
        configureThreads(1);
        QCOMPARE(halve(), 0.f);
        float onThread = -1.f;
        std::thread([&] { onThread = halve(); }).join();
        QCOMPARE(onThread, 0.f);
        const at::Tensor moments = at::full({64}, 1e-39f);
        QCOMPARE((moments * 0.5f).abs().sum().item<float>(), 0.f);
    }

    void initialisationAndGuard()
    {
        std::map<std::string, at::Tensor> p{{"a.LayerNorm.weight", at::zeros({8})},
                                            {"a.LayerNorm.bias", at::ones({8})},
                                            {"a.bias", at::ones({8})},
                                            {"table.weight", at::ones({4, 64})},
                                            {"w.weight", at::zeros({256, 256})}};
        initialiseParameters(p, 1, 0.02, [](const std::string &n) { return n == "table.weight"; });
        QVERIFY(at::equal(p["a.LayerNorm.weight"], at::ones({8})));
        QVERIFY(at::equal(p["a.LayerNorm.bias"], at::zeros({8})));
        QVERIFY(at::equal(p["a.bias"], at::zeros({8})));
        QVERIFY(at::equal(p["table.weight"], at::zeros({4, 64})));
        QVERIFY(std::abs(p["w.weight"].std().item<double>() - 0.02) < 0.001);
        for (const auto &kv : p)
            QVERIFY(kv.second.requires_grad());

        std::string error;
        QVERIFY(runGuarded([] {}, &error));
        QVERIFY(!runGuarded([] { throw InferenceError("x.json: broken"); }, &error, "train"));
        QCOMPARE(error, std::string("train: x.json: broken"));
        QVERIFY(!runGuarded([] { (void)at::zeros({2}).view({3}); }, &error));
        QVERIFY2(error.find("invalid for input of size 2") != std::string::npos, error.c_str()); // torch's message kept
    }

    void paramStoreSources()
    {
        ParamStore fresh = ParamStore::fresh();
        QVERIFY(at::equal(fresh.take("a", {2, 3}), at::zeros({2, 3})));
        QCOMPARE(int(fresh.parameters().size()), 1);
        fresh.finish();
        const at::Tensor t = at::randn({2, 2}, at::kDouble);
        ParamStore mem = ParamStore::fromTensors({{"w", t}, {"unused", t}}, "memory");
        QVERIFY(mem.take("w", {2, 2}).is_same(t)); // handed out unchanged (dtype kept)
        try {
            mem.take("unused", {4});
            QFAIL("shape mismatch accepted");
        } catch (const InferenceError &e) {
            QVERIFY2(std::string(e.what()).find("memory: tensor 'unused': shape [2, 2], expected [4]") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(InferenceError, mem.finish()); // 'unused' never taken
    }

    // The shared score term: the fused kernel (no grad) equals the differentiable gather (grad
    // mode), and a [1, L] position row shared by the batch equals the expanded [B, L] rows.
    void layoutBiasScoresForms()
    {
        RelativeBucketBias r1(at::randn({3, 32}), 32, 128), rx(at::randn({3, 64}), 64, 256), ry(at::randn({3, 64}), 64, 256);
        const long B = 3, L = 41;
        const at::Tensor pos = at::arange(L, at::kLong).unsqueeze(0);
        const at::Tensor xs = at::randint(0, 1001, {B, L}, at::kLong), ys = at::randint(0, 1001, {B, L}, at::kLong);
        at::Tensor mask = at::zeros({B, L});
        mask.select(0, 2).narrow(0, 30, 11).fill_(-1e9);
        at::Tensor fused, shared, gathered;
        {
            at::NoGradGuard g;
            fused = layoutBiasScores(&r1, pos.expand({B, L}).contiguous(), &rx, xs, &ry, ys, 8.0, mask);
            shared = layoutBiasScores(&r1, pos, &rx, xs, &ry, ys, 8.0, mask);
        }
        gathered = layoutBiasScores(&r1, pos, &rx, xs, &ry, ys, 8.0, mask).detach(); // grad mode: [1, L] broadcast
        QCOMPARE(fused.sizes().vec(), (std::vector<std::int64_t>{B, 3, L, L}));
        QVERIFY(at::equal(fused, shared));
        QVERIFY(at::allclose(fused, gathered.expand_as(fused), 1e-5, 1e-5));
        // Only the 1-D term, no 2-D: H from the table; nothing at all: the mask alone, broadcast over heads.
        at::NoGradGuard g;
        QCOMPARE(layoutBiasScores(&r1, pos, nullptr, xs, nullptr, ys, 1.0, mask).size(1), std::int64_t(3));
        QVERIFY(at::equal(layoutBiasScores(nullptr, pos, nullptr, xs, nullptr, ys, 1.0, mask),
                          mask.view({B, 1, 1, L}).expand({B, 1, L, L})));
    }

    // Under autograd the score term is one fused node (relbias.cpp, issue 46): its gradients reach the
    // [H, buckets] weights as the dense gather's do (the form the reference differentiates), for
    // per-batch rows, a [1, L] row shared by the batch, and the 1-D term alone.
    void layoutBiasScoresGradient()
    {
        const long B = 2, L = 37;
        const at::Tensor xs = at::randint(0, 1001, {B, L}, at::kLong), ys = at::randint(0, 1001, {B, L}, at::kLong);
        at::Tensor mask = at::zeros({B, L});
        mask.select(0, 1).narrow(0, 30, 7).fill_(-1e4);
        const at::Tensor upstream = at::randn({B, 3, L, L});
        for (const at::Tensor &pos : {at::arange(L, at::kLong).unsqueeze(0), at::randint(0, 300, {B, L}, at::kLong)}) {
            for (const bool with2d : {true, false}) {
                const at::Tensor w1 = at::randn({3, 32}), wx = at::randn({3, 64}), wy = at::randn({3, 64});
                std::vector<at::Tensor> fusedGrads, denseGrads;
                for (const bool fused : {true, false}) {
                    std::vector<at::Tensor> ws{w1.clone().requires_grad_(), wx.clone().requires_grad_(), wy.clone().requires_grad_()};
                    RelativeBucketBias r1(ws[0], 32, 128), rx(ws[1], 64, 256), ry(ws[2], 64, 256);
                    at::Tensor scores;
                    if (fused) {
                        scores = layoutBiasScores(&r1, pos, with2d ? &rx : nullptr, xs, with2d ? &ry : nullptr, ys, 8.0, mask);
                    } else {
                        at::Tensor sum = r1.dense(pos);
                        if (with2d)
                            sum = sum + (rx.dense(xs) + ry.dense(ys));
                        scores = sum / 8.0 + mask.unsqueeze(1).unsqueeze(2);
                    }
                    QCOMPARE(scores.sizes().vec(), (std::vector<std::int64_t>{B, 3, L, L}));
                    (scores * upstream).sum().backward();
                    for (int k = 0; k < (with2d ? 3 : 1); ++k)
                        (fused ? fusedGrads : denseGrads).push_back(ws[std::size_t(k)].grad());
                    if (!with2d) {
                        QVERIFY(!ws[1].grad().defined());
                        QVERIFY(!ws[2].grad().defined());
                    }
                }
                for (std::size_t k = 0; k < fusedGrads.size(); ++k) {
                    const double scale = denseGrads[k].abs().max().item<double>();
                    const double diff = (fusedGrads[k] - denseGrads[k]).abs().max().item<double>();
                    QVERIFY2(diff <= 1e-5 * std::max(1.0, scale), qPrintable(QStringLiteral("table %1: max diff %2 of %3")
                                                                                     .arg(k).arg(diff).arg(scale)));
                }
            }
        }
    }

    // The tagger's attention (now SelfAttentionW + scaledAttention + layoutBiasScores) and logits
    // equal a literal computation of the formula the shipped checkpoints were trained with:
    // probs = softmax(q k^T * d^-1/2 + W1d[bucket(j - i)] + Wx[bucket(x0_j - x0_i)] + Wy[...] - 1e9 * pad_j),
    // pre-LN layers, LUTs over the full ±max_positions / ±1000 range.
    void taggerMatchesLiteralFormula()
    {
        for (const std::string variant : {"full", "text"}) {
            const TaggerConfig cfg = tinyTagger(variant);
            Tagger tagger(cfg);
            tagger.initialise(4);
            at::NoGradGuard g;
            for (auto &[name, t] : tagger.params())
                if (Tagger::isBiasTable(name))
                    t.normal_(0.0, 1.0); // non-zero biases (they start at zero)
            const long n = 140;          // distances beyond the 1-D max (128) saturate
            const Batch b = randomBatch(cfg, n);
            std::map<std::string, at::Tensor> trace;
            const at::Tensor logits = tagger.forward(b, false, 0, &trace);
            const auto &p = tagger.params();
            auto P = [&](const std::string &k) { return p.at(k); };
            const long B = 2, H = cfg.heads, D = cfg.hidden, dh = D / H;
            // Bias from literal T5 buckets.
            at::Tensor bias = at::zeros({B, H, n, n});
            const at::Tensor w1 = P("encoder.rel_pos_bias.weight");
            const auto bx = b.boxes.accessor<std::int64_t, 3>();
            for (long i = 0; i < n; ++i)
                for (long j = 0; j < n; ++j)
                    bias.select(2, i).select(2, j) += w1.select(1, t5Bucket(j - i, 32, 128)).unsqueeze(0);
            if (variant == "full") {
                const at::Tensor wx = P("encoder.rel_pos_x_bias.weight"), wy = P("encoder.rel_pos_y_bias.weight");
                for (long bi = 0; bi < B; ++bi)
                    for (long i = 0; i < n; ++i)
                        for (long j = 0; j < n; ++j)
                            bias[bi].select(1, i).select(1, j) += wx.select(1, t5Bucket(bx[bi][j][0] - bx[bi][i][0], 64, 256))
                                                                  + wy.select(1, t5Bucket(bx[bi][j][3] - bx[bi][i][3], 64, 256));
            }
            bias = bias + ((~b.wordMask).to(at::kFloat) * -1e9).view({B, 1, 1, n});
            at::Tensor x = tagger.embed(b, false);
            for (int l = 0; l < cfg.layers; ++l) {
                const std::string pre = "encoder.layer." + std::to_string(l) + ".";
                auto ln = [&](const at::Tensor &v, const std::string &k) {
                    return at::layer_norm(v, {D}, P(pre + k + ".weight"), P(pre + k + ".bias"), cfg.layerNormEps);
                };
                auto lin = [&](const at::Tensor &v, const std::string &k) { return at::linear(v, P(pre + k + ".weight"), P(pre + k + ".bias")); };
                const at::Tensor h = ln(x, "attention.output.LayerNorm");
                auto heads = [&](const char *k) { return lin(h, std::string("attention.self.") + k).view({B, n, H, dh}).transpose(1, 2); };
                const at::Tensor probs = at::softmax(at::matmul(heads("query"), heads("key").transpose(-2, -1)) / std::sqrt(double(dh)) + bias, -1);
                const double diff = (probs - trace.at("attentions." + std::to_string(l))).abs().max().item<double>();
                QVERIFY2(diff < 1e-5, qPrintable(QStringLiteral("%1 layer %2: attention differs by %3").arg(QString::fromStdString(variant)).arg(l).arg(diff)));
                x = x + lin(at::matmul(probs, heads("value")).transpose(1, 2).reshape({B, n, D}), "attention.output.dense");
                x = x + lin(at::gelu(lin(ln(x, "output.LayerNorm"), "intermediate.dense")), "output.dense");
            }
            const at::Tensor want = at::linear(at::layer_norm(x, {D}, P("encoder.LayerNorm.weight"), P("encoder.LayerNorm.bias"), cfg.layerNormEps),
                                               P("classifier.weight"), P("classifier.bias"));
            const at::Tensor real = b.wordMask.unsqueeze(-1).expand_as(want);
            const double diff = (want - logits).abs().masked_select(real).max().item<double>();
            QVERIFY2(diff < 1e-4, qPrintable(QStringLiteral("logits differ by %1").arg(diff)));
            // The traced bias terms are the same tables, and ablation zeroes exactly them.
            QCOMPARE(trace.at("bias.1d")[0][1][5][0].item<float>(), w1[1][t5Bucket(-5, 32, 128)].item<float>());
            std::map<std::string, at::Tensor> off;
            tagger.forward(b, false, Bias1D, &off);
            QCOMPARE(off.at("bias.1d").abs().sum().item<double>(), 0.0);
        }
    }

    // The registry path: a saved tagger loads through ModelRunner ("folio-formtagger") and its
    // logits equal the direct forward; bad inputs are errors naming the input.
    void taggerThroughModelRunner()
    {
        const TaggerConfig cfg = tinyTagger("full");
        Tagger tagger(cfg);
        tagger.initialise(8);
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        tagger.save(d + "/model.safetensors");
        writeTextFile(d + "/config.json", cfg.toJson());
        const auto types = ModelRunner::supportedModelTypes();
        QVERIFY(std::find(types.begin(), types.end(), "folio-formtagger") != types.end());
        ModelRunner runner;
        std::string error;
        QVERIFY2(runner.load(d, &error), error.c_str());
        QCOMPARE(runner.modelType(), std::string("folio-formtagger"));
        const Batch b = randomBatch(cfg, 20);
        TensorMap in;
        for (const auto &[name, t] : Tagger::batchInputs(b))
            in[name] = fromAten(t);
        RunOptions ro;
        ro.trace = true;
        const RunResult r = runner.run(in, ro);
        QVERIFY2(r.ok, r.error.c_str());
        at::NoGradGuard g;
        const at::Tensor direct = tagger.forward(b, false);
        QVERIFY(at::allclose(toAten(r.outputs.at("logits")), direct, 1e-5, 1e-5));
        QVERIFY(r.outputs.count("attentions.1") && r.outputs.count("bias.2d_y"));
        // Bad input: bbox outside 0..1000, missing gap_ids.
        TensorMap badBox = in;
        badBox["bbox"] = fromAten(b.boxes + 2000);
        RunResult e1 = runner.run(badBox);
        QVERIFY(!e1.ok);
        QVERIFY2(e1.error.find("'bbox'") != std::string::npos, e1.error.c_str());
        TensorMap noGaps = in;
        noGaps.erase("gap_ids");
        RunResult e2 = runner.run(noGaps);
        QVERIFY(!e2.ok);
        QVERIFY2(e2.error.find("gap_ids") != std::string::npos, e2.error.c_str());
    }
};

FOLIO_TEST_GUILESS_MAIN(TestTrainKit)
#include "tst_trainkit.moc"
