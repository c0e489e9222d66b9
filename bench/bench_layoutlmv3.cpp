// Benchmark: base-size LayoutLMv3 (12 layers, 768, random weights) on one 512-token page + 224x224
// image, Folio's encoder vs a dense reference-style forward (int64 [L, L] bucket matrices built with
// the float log formula, [B, L, L, H] gathers, per-layer bias scaling, CogView softmax, separate
// Q/K/V) in the same process on the same weights; the machine's sgemm peak measured in the same run.
// Also HIBRIDS at 16k tokens: section-granular index vs a dense [L, L] int64 index.
// Plain timers; prints a Markdown block for BENCHMARKS.md.
#include "inference/openmpenv.h"
#include "inference/detail/aten.h"
#include "inference/layers/hibrids.h"
#include "inference/models/modelrunner.h"
#include "inference/checkpoint/safetensors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <filesystem>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <sys/utsname.h>

using namespace folio::inference;

namespace {

const std::int64_t D = 768, H = 12, NL = 12, FF = 3072, T = 512, V = 197, N = T + V;

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Peak RSS since the last reset (VmHWM), in MiB.
void resetPeak()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}
double peakMiB()
{
    std::ifstream s("/proc/self/status");
    std::string line;
    while (std::getline(s, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;
    return 0;
}
double rssMiB()
{
    std::ifstream s("/proc/self/status");
    std::string line;
    while (std::getline(s, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;
    return 0;
}

double bestOf(int reps, const std::function<void()> &f)
{
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
        const double t0 = now();
        f();
        best = std::min(best, now() - t0);
    }
    return best;
}

double sgemmPeak()
{
    const std::int64_t n = 2048;
    const at::Tensor a = at::randn({n, n}), b = at::randn({n, n});
    at::Tensor c = at::empty({n, n});
    at::mm_out(c, a, b);
    const double t = bestOf(5, [&] { at::mm_out(c, a, b); });
    return 2.0 * n * n * n / t / 1e9;
}

// ---- random base checkpoint ------------------------------------------------------------------
std::map<std::string, at::Tensor> randomWeights()
{
    std::map<std::string, at::Tensor> w;
    auto lin = [&](const std::string &p, std::int64_t in, std::int64_t out) {
        w[p + ".weight"] = at::randn({out, in}) / std::sqrt(double(in));
        w[p + ".bias"] = at::randn({out}) * 0.1;
    };
    auto ln = [&](const std::string &p) {
        w[p + ".weight"] = 1 + 0.1 * at::randn({D});
        w[p + ".bias"] = 0.1 * at::randn({D});
    };
    w["embeddings.word_embeddings.weight"] = at::randn({50265, D}) * 0.5;
    w["embeddings.token_type_embeddings.weight"] = at::randn({1, D}) * 0.5;
    w["embeddings.position_embeddings.weight"] = at::randn({514, D}) * 0.5;
    for (const char *k : {"x", "y"})
        w[std::string("embeddings.") + k + "_position_embeddings.weight"] = at::randn({1024, 128}) * 0.5;
    for (const char *k : {"h", "w"})
        w[std::string("embeddings.") + k + "_position_embeddings.weight"] = at::randn({1024, 128}) * 0.5;
    ln("embeddings.LayerNorm");
    w["patch_embed.proj.weight"] = at::randn({D, 3, 16, 16}) / std::sqrt(768.0);
    w["patch_embed.proj.bias"] = at::randn({D}) * 0.1;
    w["cls_token"] = at::randn({1, 1, D}) * 0.5;
    w["pos_embed"] = at::randn({1, 197, D}) * 0.5;
    ln("LayerNorm");
    ln("norm");
    for (int i = 0; i < NL; ++i) {
        const std::string p = "encoder.layer." + std::to_string(i);
        lin(p + ".attention.self.query", D, D);
        lin(p + ".attention.self.key", D, D);
        lin(p + ".attention.self.value", D, D);
        lin(p + ".attention.output.dense", D, D);
        ln(p + ".attention.output.LayerNorm");
        lin(p + ".intermediate.dense", D, FF);
        lin(p + ".output.dense", FF, D);
        ln(p + ".output.LayerNorm");
    }
    w["encoder.rel_pos_bias.weight"] = at::randn({H, 32});
    w["encoder.rel_pos_x_bias.weight"] = at::randn({H, 64});
    w["encoder.rel_pos_y_bias.weight"] = at::randn({H, 64});
    return w;
}

Tensor toPlain(const at::Tensor &t)
{
    const at::Tensor c = t.contiguous();
    Tensor out;
    out.dtype = c.scalar_type() == at::kLong ? DType::I64 : DType::F32;
    out.shape.assign(c.sizes().begin(), c.sizes().end());
    out.bytes.resize(c.numel() * c.element_size());
    std::memcpy(out.bytes.data(), c.data_ptr(), out.bytes.size());
    return out;
}

// ---- dense reference-style forward (what the HF code does, op for op) ---------------------------
at::Tensor refBucket(const at::Tensor &rel, int numBuckets, int maxDistance)
{
    // bidirectional T5 bucket over an int64 [B, L, L] matrix, float log formula
    const int half = numBuckets / 2;
    at::Tensor ret = (rel > 0).to(at::kLong) * half;
    const at::Tensor n = rel.abs();
    const int exact = half / 2;
    const at::Tensor isSmall = n < exact;
    at::Tensor large = exact + (at::log(n.to(at::kFloat) / exact) / std::log(double(maxDistance) / exact)
                                * (half - exact)).to(at::kLong);
    large = at::min(large, at::full_like(large, half - 1));
    return ret + at::where(isSmall, n, large);
}

at::Tensor denseForward(std::map<std::string, at::Tensor> &w, const at::Tensor &ids, const at::Tensor &bbox,
                        const at::Tensor &pixels)
{
    using namespace at;
    using at::Tensor;
    const auto b = ids.size(0);
    auto lin = [&](const Tensor &x, const std::string &p) { return linear(x, w[p + ".weight"], w[p + ".bias"]); };
    auto ln = [&](const Tensor &x, const std::string &p, double eps) {
        return layer_norm(x, {D}, w[p + ".weight"], w[p + ".bias"], eps);
    };
    const Tensor m = ids.ne(1).to(kLong);
    const Tensor posIds = cumsum(m, 1) * m + 1;
    Tensor e = embedding(w["embeddings.word_embeddings.weight"], ids)
               + embedding(w["embeddings.token_type_embeddings.weight"], zeros_like(ids));
    e = e + embedding(w["embeddings.position_embeddings.weight"], posIds);
    const Tensor x0 = bbox.select(2, 0), y0 = bbox.select(2, 1), x1 = bbox.select(2, 2), y1 = bbox.select(2, 3);
    e = e + cat({embedding(w["embeddings.x_position_embeddings.weight"], x0),
                 embedding(w["embeddings.y_position_embeddings.weight"], y0),
                 embedding(w["embeddings.x_position_embeddings.weight"], x1),
                 embedding(w["embeddings.y_position_embeddings.weight"], y1),
                 embedding(w["embeddings.h_position_embeddings.weight"], (y1 - y0).clamp(0, 1023)),
                 embedding(w["embeddings.w_position_embeddings.weight"], (x1 - x0).clamp(0, 1023))},
                -1);
    e = ln(e, "embeddings.LayerNorm", 1e-5);
    Tensor v = conv2d(pixels, w["patch_embed.proj.weight"], w["patch_embed.proj.bias"], {16, 16}).flatten(2).transpose(1, 2);
    v = cat({w["cls_token"].expand({b, -1, -1}), v}, 1) + w["pos_embed"];
    v = ln(v, "norm", 1e-6);
    Tensor hs = ln(cat({e, v}, 1), "LayerNorm", 1e-5);
    // visual bbox and positions
    std::vector<std::int64_t> vb = {1, 1, 999, 999};
    for (int r = 0; r < 14; ++r)
        for (int c = 0; c < 14; ++c)
            vb.insert(vb.end(), {c * 1000 / 14, r * 1000 / 14, (c + 1) * 1000 / 14, (r + 1) * 1000 / 14});
    const Tensor fullBox = cat({bbox, at::tensor(vb, kLong).view({1, -1, 4}).expand({b, -1, -1})}, 1);
    const Tensor pos = cat({arange(T, kLong), arange(V, kLong)}).unsqueeze(0).expand({b, N});
    const Tensor mask = ((1.0 - ones({b, N})) * std::numeric_limits<float>::lowest()).view({b, 1, 1, N});
    // biases as the reference builds them: int64 [B, L, L] matrices, bucket, gather [B, L, L, H], permute
    auto relBias = [&](const Tensor &p, const std::string &key, int nb, int md) {
        const Tensor rel = p.unsqueeze(-2) - p.unsqueeze(-1);
        const Tensor bucket = refBucket(rel, nb, md);
        return w[key].t().index({bucket}).permute({0, 3, 1, 2}).contiguous();
    };
    const Tensor rel1 = relBias(pos, "encoder.rel_pos_bias.weight", 32, 128);
    const Tensor rel2 = relBias(fullBox.select(2, 0), "encoder.rel_pos_x_bias.weight", 64, 256)
                        + relBias(fullBox.select(2, 3), "encoder.rel_pos_y_bias.weight", 64, 256);
    const double sq = std::sqrt(64.0);
    for (int i = 0; i < NL; ++i) {
        const std::string p = "encoder.layer." + std::to_string(i);
        auto heads = [&](const Tensor &x) { return x.view({b, N, H, 64}).permute({0, 2, 1, 3}); };
        const Tensor q = heads(lin(hs, p + ".attention.self.query"));
        const Tensor k = heads(lin(hs, p + ".attention.self.key"));
        const Tensor vv = heads(lin(hs, p + ".attention.self.value"));
        Tensor s = matmul(q / sq, k.transpose(-1, -2));
        s += (rel1 + rel2) / sq;
        s = s + mask;
        const Tensor scaled = s / 32.0;
        const Tensor mx = std::get<0>(scaled.max(-1, true));
        const Tensor probs = softmax((scaled - mx) * 32.0, -1);
        const Tensor ctx = matmul(probs, vv).permute({0, 2, 1, 3}).contiguous().view({b, N, D});
        const Tensor h1 = ln(lin(ctx, p + ".attention.output.dense") + hs, p + ".attention.output.LayerNorm", 1e-5);
        hs = ln(lin(gelu(lin(h1, p + ".intermediate.dense")), p + ".output.dense") + h1, p + ".output.LayerNorm", 1e-5);
    }
    return hs;
}

} // namespace

int main(int, char **argv)
{
    folio::inference::ensurePassiveOpenMpWait(argv); // as folio and folio-cli do (FOLIO_NO_REEXEC=1 to compare)
    configureThreads();
    const int threads = at::get_num_threads();
    const std::string blas = openBlasLibraryPath();
    struct utsname u;
    uname(&u);
    std::printf("threads %d, BLAS %s, %s %s\n", threads, blas.empty() ? "NOT OpenBLAS" : blas.c_str(), u.sysname, u.machine);
    at::manual_seed(1);
    c10::InferenceMode guard;

    const double peak = sgemmPeak();
    std::printf("sgemm peak (2048^3, %d threads): %.1f GFLOP/s\n", threads, peak);

    // Checkpoint folder with random base weights.
    const std::string dir = "/tmp/folio_bench_layoutlmv3";
    std::filesystem::create_directories(dir);
    auto weights = randomWeights();
    {
        TensorMap plain;
        for (const auto &[k, t] : weights)
            plain[k] = toPlain(t);
        writeSafetensors(dir + "/model.safetensors", plain);
        nlohmann::json cfg = {{"model_type", "layoutlmv3"}, {"hidden_size", D}, {"num_attention_heads", H},
                              {"num_hidden_layers", NL}, {"intermediate_size", FF}, {"vocab_size", 50265},
                              {"max_position_embeddings", 514}, {"type_vocab_size", 1}, {"layer_norm_eps", 1e-5},
                              {"pad_token_id", 1}, {"coordinate_size", 128}, {"shape_size", 128},
                              {"input_size", 224}, {"patch_size", 16}, {"visual_embed", true}};
        std::ofstream(dir + "/config.json") << cfg.dump(2);
    }
    ModelRunner runner;
    std::string err;
    if (!runner.load(dir, &err)) {
        std::fprintf(stderr, "load failed: %s\n", err.c_str());
        return 1;
    }
    // One page: 512 tokens in reading order on a 1000x1000 grid, plus the image.
    const at::Tensor ids = at::randint(3, 50265, {1, T}, at::kLong);
    std::vector<std::int64_t> boxes;
    for (std::int64_t i = 0; i < T; ++i) {
        const std::int64_t line = i / 16, col = i % 16;
        boxes.insert(boxes.end(), {col * 60 + 10, line * 30 + 5, col * 60 + 60, line * 30 + 25});
    }
    const at::Tensor bbox = at::tensor(boxes, at::kLong).view({1, T, 4});
    const at::Tensor pixels = at::rand({1, 3, 224, 224}) * 2 - 1;
    TensorMap inputs = {{"input_ids", toPlain(ids)}, {"bbox", toPlain(bbox)}, {"pixel_values", toPlain(pixels)}};

    // Agreement first (same weights, same inputs).
    const RunResult r0 = runner.run(inputs);
    if (!r0.ok) {
        std::fprintf(stderr, "run failed: %s\n", r0.error.c_str());
        return 1;
    }
    const at::Tensor ours = at::from_blob(const_cast<std::uint8_t *>(r0.outputs.at("last_hidden_state").bytes.data()),
                                          {1, N, D}, at::kFloat).clone();
    const at::Tensor ref = denseForward(weights, ids, bbox, pixels);
    const double maxDiff = (ours - ref).abs().max().item<double>();

    const int reps = 3;
    const double baseRss = rssMiB();
    resetPeak();
    const double tOurs = bestOf(reps, [&] { runner.run(inputs); });
    const double peakOurs = peakMiB() - baseRss;
    resetPeak();
    const double tDense = bestOf(reps, [&] { denseForward(weights, ids, bbox, pixels); });
    const double peakDense = peakMiB() - baseRss;

    const double flops = NL * (2.0 * N * D * D * 4 + 2.0 * N * D * FF * 2 + 2.0 * 2.0 * N * N * D);
    std::printf("\nLayoutLMv3-base forward, 1 page (%lld text + %lld image tokens), best of %d:\n", (long long)T,
                (long long)V, reps);
    std::printf("  folio   : %8.1f ms  %6.1f GFLOP/s (%.0f%% of sgemm peak)  peak RSS +%.0f MiB\n", tOurs * 1e3,
                flops / tOurs / 1e9, 100.0 * flops / tOurs / 1e9 / peak, peakOurs);
    std::printf("  dense   : %8.1f ms  %6.1f GFLOP/s (%.0f%% of sgemm peak)  peak RSS +%.0f MiB\n", tDense * 1e3,
                flops / tDense / 1e9, 100.0 * flops / tDense / 1e9 / peak, peakDense);
    std::printf("  speed-up %.2fx, peak-memory ratio %.2f, max |diff| %.2e, %.1f GFLOP per forward\n", tDense / tOurs,
                peakOurs / std::max(peakDense, 1.0), maxDiff, flops / 1e9);

    // Bias construction alone (the part the two forms do differently).
    {
        at::Tensor pos = at::cat({at::arange(T, at::kLong), at::arange(V, at::kLong)}).unsqueeze(0);
        const double tRef = bestOf(5, [&] {
            const at::Tensor rel = pos.unsqueeze(-2) - pos.unsqueeze(-1);
            weights["encoder.rel_pos_bias.weight"].t().index({refBucket(rel, 32, 128)}).permute({0, 3, 1, 2}).contiguous();
        });
        std::printf("  1-D bias build alone: dense int64 [L,L] path %.1f ms\n", tRef * 1e3);
    }

    // ---- HIBRIDS at 16k tokens -------------------------------------------------------------------
    const std::int64_t L = 16384, heads = 16, w1 = 512;
    HibridsLayout lay;
    // <s>, 300 sections (3 levels), </s>; tokens spread evenly.
    lay.sectionParent.push_back(-1);
    for (int s = 0; s < 300; ++s) {
        const int level = s % 3;
        lay.sectionParent.push_back(level == 0 ? -1 : static_cast<std::int64_t>(lay.sectionParent.size()) - 1);
    }
    lay.sectionParent.push_back(-1);
    const auto S = static_cast<std::int64_t>(lay.sectionParent.size());
    for (std::int64_t i = 0; i < L; ++i)
        lay.tokenToSection.push_back(i == 0 ? 0 : (i == L - 1 ? S - 1 : 1 + (i - 1) * (S - 2) / (L - 2)));
    const double tPrep = bestOf(3, [&] { hibridsPrepare(&lay); });
    const double secBytes = S * S * 4.0 + L * 8.0;
    Tensor table = Tensor::zeros(DType::F32, {600, heads});
    const double tBand = bestOf(2, [&] { hibridsBandedBias(table, lay, w1, &err); });
    // Dense reference form: int64 [L, L] index gathered from the section table, then banded.
    double tDenseIdx = 0, denseBytes = double(L) * L * 8.0;
    {
        const at::Tensor sec = at::tensor(std::vector<std::int32_t>(lay.sectionIndex), at::kInt).view({S, S}).to(at::kLong);
        const at::Tensor t2s = at::tensor(lay.tokenToSection, at::kLong);
        resetPeak();
        const double before = rssMiB();
        const double t0 = now();
        at::Tensor dense = sec.index_select(0, t2s).index_select(1, t2s); // [L, L] int64
        tDenseIdx = now() - t0;
        std::printf("\nHIBRIDS %lld tokens, %lld sections, %lld heads, window %lld:\n", (long long)L, (long long)S,
                    (long long)heads, (long long)(2 * w1 + 1));
        std::printf("  dense int64 [L,L] index: %.0f MiB (measured peak +%.0f MiB), built in %.0f ms\n",
                    denseBytes / 1048576.0, peakMiB() - before, tDenseIdx * 1e3);
    }
    std::printf("  section-granular: [S,S] int32 + [L] int64 = %.2f MiB, built in %.1f ms (ratio %.0fx smaller)\n",
                secBytes / 1048576.0, tPrep * 1e3, denseBytes / secBytes);
    std::printf("  banded fp32 bias [L, H, 2w+1] from the section table: %.0f MiB in %.0f ms\n",
                L * heads * (2.0 * w1 + 1) * 4 / 1048576.0, tBand * 1e3);
    return 0;
}
