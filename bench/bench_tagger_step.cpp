// Benchmark: one training step of the layout tagger at the FUNSD recipe size (D 256, 4 layers,
// 4 heads, FFN 1024, vocab 4000, batch 8 pages x 200 words x 2 pieces), interleaved in one process:
//   new  = Optimiser::step (torch::optim::AdamW, clip_grad_norm_) on Tagger::forward (shared layers);
//   base = the same forward/backward + the pre-toolkit update arithmetic (per-tensor squared-norm
//          sums read back one by one, clip factor, m/v update, decoupled decay, bias correction);
// and the bias term alone (forward + backward, [8, 4, 200, 200]): the shared layoutBiasScores
// gather vs the pre-refactor form (embedding of the transposed table over a LUT-indexed [N, N] /
// [B, N, N] distance matrix). Median of 9 interleaved repetitions; words/s = 1600 / step time.
#include "bench/benchclock.h"
#include "inference/openmpenv.h"
#include "inference/formtagger/detail/taggermodel.h"
#include "inference/layers/buckets.h"
#include "inference/models/modelrunner.h"
#include "inference/training/detail/optimiser.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

using namespace folio::inference;
using namespace folio::inference::detail;

using folio::bench::median;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

TaggerConfig recipe()
{
    TaggerConfig c;
    c.labels = {"O", "B-HEADER", "I-HEADER", "B-QUESTION", "I-QUESTION", "B-ANSWER", "I-ANSWER"};
    c.numLabels = 7;
    c.dropout = 0.1;
    return c;
}

std::vector<EncodedPage> pages(int count, int words)
{
    std::mt19937 rng(3);
    std::vector<EncodedPage> out(static_cast<size_t>(count));
    for (auto &p : out)
        for (int i = 0; i < words; ++i) {
            p.pieces.push_back({int(rng() % 3999) + 1, int(rng() % 3999) + 1});
            const float x = float(rng() % 900), y = float(rng() % 950);
            p.boxes.push_back({x, y, x + float(rng() % 100), y + 12});
            p.labels.push_back(int(rng() % 7));
            p.pieceCount += 2;
        }
    return out;
}

at::Tensor lossOf(const Tagger &t, const Batch &b)
{
    return at::cross_entropy_loss(t.forward(b, true).reshape({-1, 7}), b.labels.reshape({-1}), {}, at::Reduction::Mean, -100);
}

// The update the tagger's trainer did before the toolkit (hand-written AdamW, per-group lr).
struct OldAdam
{
    std::map<std::string, at::Tensor> m, v;
    long step = 0;
    void update(std::map<std::string, at::Tensor> &params, double lr)
    {
        at::NoGradGuard ng;
        double sq = 0;
        for (auto &kv : params)
            if (kv.second.grad().defined())
                sq += kv.second.grad().pow(2).sum().item<double>();
        const double norm = std::sqrt(sq), clip = norm > 1.0 ? 1.0 / (norm + 1e-6) : 1.0;
        const double bc1 = 1 - std::pow(0.9, double(step + 1)), bc2 = 1 - std::pow(0.98, double(step + 1));
        for (auto &kv : params) {
            at::Tensor g = kv.second.grad();
            if (!g.defined())
                continue;
            if (clip != 1.0)
                g = g * clip;
            at::Tensor &mm = m.try_emplace(kv.first, at::zeros_like(g)).first->second;
            at::Tensor &vv = v.try_emplace(kv.first, at::zeros_like(g)).first->second;
            const double l = lr * (Tagger::isBiasTable(kv.first) ? 10.0 : 1.0);
            mm.mul_(0.9).add_(g, 0.1);
            vv.mul_(0.98).addcmul_(g, g, 0.02);
            at::Tensor p = kv.second.detach();
            if (!Tagger::noDecay(kv.first, kv.second))
                p.mul_(1 - l * 0.01);
            p.addcdiv_(mm, (vv / bc2).sqrt_().add_(1e-8), -l / bc1);
        }
        ++step;
    }
};

} // namespace

int main(int, char **argv)
{
    ensurePassiveOpenMpWait(argv);
    configureThreads(1); // the recipe's --threads 1
    const TaggerConfig cfg = recipe();
    const std::vector<EncodedPage> data = pages(8, 200);
    std::vector<const EncodedPage *> ptrs;
    for (const auto &p : data)
        ptrs.push_back(&p);
    std::mt19937 jitter(1);
    const Batch batch = makeBatch(ptrs, cfg, &jitter);

    Tagger a(cfg), b(cfg);
    a.initialise(1);
    b.initialise(1);
    OptimiserOptions oo;
    oo.totalSteps = 1000;
    oo.warmupSteps = 60;
    Optimiser opt(a.params(), oo, [](const std::string &n, const at::Tensor &t) {
        return ParamGroupRule{!Tagger::noDecay(n, t), Tagger::isBiasTable(n) ? 10.0 : 1.0};
    });
    OldAdam old;

    // Bias term alone: shared gather vs the pre-refactor embedding-over-LUT form.
    const long B = 8, N = 200, H = 4;
    RelativeBucketBias r1(at::randn({H, 32}).set_requires_grad(true), 32, 128);
    RelativeBucketBias rx(at::randn({H, 64}).set_requires_grad(true), 64, 256);
    RelativeBucketBias ry(at::randn({H, 64}).set_requires_grad(true), 64, 256);
    const at::Tensor pos = at::arange(N, at::kLong).unsqueeze(0);
    const at::Tensor xs = batch.boxes.select(2, 0).contiguous(), ys = batch.boxes.select(2, 3).contiguous();
    const at::Tensor mask = at::zeros({B, N});
    const at::Tensor lut1 = at::tensor(t5BucketLut(32, 128, 1024), at::kLong), lut2 = at::tensor(t5BucketLut(64, 256, 1000), at::kLong);
    auto oldBias = [&] {
        const at::Tensor p = at::arange(N, at::kLong);
        const at::Tensor rel = p.unsqueeze(0) - p.unsqueeze(1) + 1024;
        at::Tensor b1 = at::embedding(r1.weight().t(), at::take(lut1, rel)).permute({2, 0, 1}).unsqueeze(0);
        at::Tensor bx = at::embedding(rx.weight().t(), at::take(lut2, xs.unsqueeze(1) - xs.unsqueeze(2) + 1000)).permute({0, 3, 1, 2});
        at::Tensor by = at::embedding(ry.weight().t(), at::take(lut2, ys.unsqueeze(1) - ys.unsqueeze(2) + 1000)).permute({0, 3, 1, 2});
        return b1 + bx + by + mask.view({B, 1, 1, N});
    };
    auto newBias = [&] { return layoutBiasScores(&r1, pos, &rx, xs, &ry, ys, 1.0, mask); };
    const double diff = (oldBias() - newBias()).abs().max().item<double>();

    std::vector<double> tNew, tOld, tBiasNew, tBiasOld;
    for (int rep = 0; rep < 10; ++rep) { // first repetition = warm-up, not counted
        double t0 = now();
        opt.step([&] { return lossOf(a, batch); });
        const double sNew = now() - t0;
        t0 = now();
        for (auto &kv : b.params())
            if (kv.second.grad().defined())
                kv.second.mutable_grad().zero_();
        lossOf(b, batch).backward();
        old.update(b.params(), 1e-3 * warmupLinearDecay(old.step, 60, 1000));
        const double sOld = now() - t0;
        t0 = now();
        newBias().sum().backward();
        const double bNew = now() - t0;
        t0 = now();
        oldBias().sum().backward();
        const double bOld = now() - t0;
        if (rep > 0) {
            tNew.push_back(sNew);
            tOld.push_back(sOld);
            tBiasNew.push_back(bNew);
            tBiasOld.push_back(bOld);
        }
    }
    const double n = median(tNew), o = median(tOld), bn = median(tBiasNew), bo = median(tBiasOld);
    std::printf("tagger training step, batch 8 x 200 words, 1 thread (median of 9, interleaved):\n");
    std::printf("  toolkit (torch AdamW + clip_grad_norm_): %7.1f ms  %6.0f words/s\n", n * 1e3, 1600 / n);
    std::printf("  pre-toolkit update arithmetic          : %7.1f ms  %6.0f words/s\n", o * 1e3, 1600 / o);
    std::printf("  ratio (pre-toolkit / toolkit time)     : %.2f\n", o / n);
    std::printf("bias term [8, 4, 200, 200] forward + backward: shared gather %.1f ms, pre-refactor embedding form %.1f ms"
                " (ratio %.2f), max |diff| %.1e\n", bn * 1e3, bo * 1e3, bo / bn, diff);
    return 0;
}
