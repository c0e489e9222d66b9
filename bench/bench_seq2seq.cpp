// Benchmark: seq2seq decoding speed with the key/value cache against recomputing the whole prefix
// every step (the baseline), same process, same random weights, same source; greedy and beam 4.
// Models: a BART (d_model 256, 3+3 layers, 4 heads, FFN 1024, vocab 8192) and the same size LED
// with the HIBRIDS decoder variant (window 64, global token 0, 16 flat sections). The token lists
// of both modes must be equal (checked). Plain timers; prints a Markdown table for BENCHMARKS.md.
//   bench_seq2seq [--source 512] [--tokens 128] [--reps 2]
// --long: the HIBRIDS encoder variant on long inputs with a 300-section tree: (1) the banded bias
// index built from the section table block by block vs from the dense [L, L] index the reference
// collate materialises (time, peak memory, equal results), (2) LED encoder time at 2k..16k tokens
// (window 512), which the sliding window should keep linear.
#include "inference/checkpoint/safetensors.h"
#include "inference/models/modelrunner.h"
#include "inference/openmpenv.h"
#include "inference/qs/seq2seq.h"
#include "inference/qs/detail/seq2seqmodel.h"

#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>

using namespace folio::inference;

namespace {

constexpr int kD = 256, kHeads = 4, kLayers = 3, kFfn = 1024, kVocab = 8192, kPositions = 1024;

struct Weights
{
    TensorMap map;
    std::mt19937 rng{7};
    void add(const std::string &name, std::vector<std::int64_t> shape, float scale, float offset = 0.f)
    {
        std::normal_distribution<float> n(0.f, 1.f);
        std::int64_t count = 1;
        for (auto s : shape)
            count *= s;
        std::vector<float> v(static_cast<std::size_t>(count));
        for (auto &x : v)
            x = offset + scale * n(rng);
        map[name] = Tensor::fromFloats(std::move(shape), v);
    }
    void linear(const std::string &p, int in, int out)
    {
        add(p + ".weight", {out, in}, 1.f / std::sqrt(static_cast<float>(in)));
        add(p + ".bias", {out}, 0.02f);
    }
    void norm(const std::string &p)
    {
        add(p + ".weight", {kD}, 0.05f, 1.f);
        add(p + ".bias", {kD}, 0.05f);
    }
};

// hibrids: "" (none), "encoder" or "decoder" (LED only).
std::string writeModel(const std::string &type, const std::string &hibrids, int positions = kPositions, int window = 64)
{
    const std::string dir = "/tmp/folio_bench_seq2seq_" + type + hibrids;
    std::filesystem::create_directories(dir);
    const bool led = type == "led";
    const std::string pre = led ? "led." : "model.";
    const int offset = led ? 0 : 2;
    Weights w;
    w.add(pre + "shared.weight", {kVocab, kD}, 0.5f);
    w.add("final_logits_bias", {1, kVocab}, 0.1f);
    for (const std::string stack : {"encoder", "decoder"}) {
        w.add(pre + stack + ".embed_positions.weight", {(stack == "encoder" ? positions : kPositions) + offset, kD}, 0.2f);
        w.norm(pre + stack + ".layernorm_embedding");
        for (int l = 0; l < kLayers; ++l) {
            const std::string lp = pre + stack + ".layers." + std::to_string(l) + ".";
            if (stack == "encoder" && led) {
                for (const char *n : {"query", "key", "value", "query_global", "key_global", "value_global"})
                    w.linear(lp + "self_attn.longformer_self_attn." + n, kD, kD);
                w.linear(lp + "self_attn.output", kD, kD);
                if (hibrids == "encoder")
                    w.add(lp + "self_attn.longformer_self_attn.relative_hierarchical_bias.weight", {600, kHeads}, 1.f);
            } else {
                for (const char *n : {"q_proj", "k_proj", "v_proj", "out_proj"})
                    w.linear(lp + "self_attn." + n, kD, kD);
            }
            w.norm(lp + "self_attn_layer_norm");
            if (stack == "decoder") {
                for (const char *n : {"q_proj", "k_proj", "v_proj", "out_proj"})
                    w.linear(lp + "encoder_attn." + n, kD, kD);
                w.norm(lp + "encoder_attn_layer_norm");
                if (hibrids == "decoder" && l == kLayers - 1)
                    w.add(lp + "encoder_attn.relative_hierarchical_bias.weight", {600, 1}, 1.f);
            }
            w.linear(lp + "fc1", kD, kFfn);
            w.linear(lp + "fc2", kFfn, kD);
            w.norm(lp + "final_layer_norm");
        }
    }
    writeSafetensors(dir + "/model.safetensors", w.map);
    std::ofstream cfg(dir + "/config.json");
    cfg << "{\"model_type\": \"" << type << "\", \"d_model\": " << kD << ", \"encoder_layers\": " << kLayers
        << ", \"decoder_layers\": " << kLayers << ", \"encoder_attention_heads\": " << kHeads
        << ", \"decoder_attention_heads\": " << kHeads << ", \"encoder_ffn_dim\": " << kFfn
        << ", \"decoder_ffn_dim\": " << kFfn << ", \"vocab_size\": " << kVocab;
    if (led)
        cfg << ", \"max_encoder_position_embeddings\": " << positions << ", \"max_decoder_position_embeddings\": "
            << kPositions << ", \"attention_window\": " << window;
    else
        cfg << ", \"max_position_embeddings\": " << kPositions;
    cfg << "}\n";
    return dir;
}

double seconds(const std::function<void()> &f, int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

// A "Name: value kB" entry of /proc/self/status, in kB (-1 when absent).
long statusKb(const std::string &key)
{
    std::ifstream in("/proc/self/status");
    std::string name;
    long kb = -1;
    while (in >> name) {
        if (name == key)
            return (in >> kb) ? kb : -1;
        in.ignore(1 << 16, '\n');
    }
    return -1;
}

// Peak resident growth (MiB) of f(): VmHWM reset through /proc/self/clear_refs first.
double peakMiB(const std::function<void()> &f)
{
    std::ofstream("/proc/self/clear_refs") << "5";
    const long before = statusKb("VmRSS:");
    f();
    return static_cast<double>(statusKb("VmHWM:") - before) / 1024.0;
}

// A 300-section tree (depth <= 4, parents before children) and an even token -> section map.
void longLayout(int length, std::vector<std::int64_t> *parents, std::vector<std::int64_t> *t2s)
{
    std::mt19937 rng(5);
    std::vector<int> depth;
    parents->clear();
    for (int s = 0; s < 300; ++s) {
        std::int64_t p = -1;
        if (s > 0 && rng() % 3 != 0) {
            p = static_cast<std::int64_t>(rng() % static_cast<unsigned>(s));
            if (depth[static_cast<std::size_t>(p)] >= 4)
                p = -1;
        }
        parents->push_back(p);
        depth.push_back(p < 0 ? 0 : depth[static_cast<std::size_t>(p)] + 1);
    }
    t2s->clear();
    for (int i = 0; i < length; ++i)
        t2s->push_back(static_cast<std::int64_t>(i) * 300 / length);
}

int benchLong(int reps)
{
    using namespace folio::inference::detail;
    const int window = 512, w = window / 2, length = 16384;
    std::vector<std::int64_t> parents, t2s;
    longLayout(length, &parents, &t2s);
    c10::InferenceMode guard;
    const at::Tensor t2sT = at::tensor(t2s, at::kLong).view({1, length});
    const at::Tensor offsets = at::arange(w, at::kLong).unsqueeze(1) + at::arange(2 * w + 1, at::kLong).unsqueeze(0);
    at::Tensor sectionBand, denseBand;
    auto sectionForm = [&] {
        const HibridsBatch h = hibridsBatch({parents}, t2sT);
        std::vector<at::Tensor> blocks;
        for (std::int64_t c0 = 0; c0 < length; c0 += w)
            blocks.push_back(hibridsBandIndex(h, c0, w, w, offsets));
        sectionBand = at::cat(blocks, 1);
    };
    auto denseForm = [&] {
        const HibridsBatch h = hibridsBatch({parents}, t2sT);
        const at::Tensor dense = h.sectionIndex[0].index_select(0, t2sT[0]).index_select(1, t2sT[0]); // [L, L] int64
        const at::Tensor padded = at::constant_pad_nd(dense, {w, w}, 0);
        const at::Tensor cols = at::arange(length, at::kLong).unsqueeze(1) + at::arange(2 * w + 1, at::kLong).unsqueeze(0);
        denseBand = padded.gather(1, cols).unsqueeze(0);
    };
    const double memSection = peakMiB(sectionForm), memDense = peakMiB(denseForm);
    const double tSection = seconds(sectionForm, reps), tDense = seconds(denseForm, reps);
    // Out-of-sequence band entries differ (0 vs the padded 0 of the dense form): compare inside.
    const at::Tensor inside = (at::arange(length, at::kLong).unsqueeze(1) + at::arange(2 * w + 1, at::kLong).unsqueeze(0) - w)
                                  .ge(0).logical_and((at::arange(length, at::kLong).unsqueeze(1) + at::arange(2 * w + 1, at::kLong).unsqueeze(0) - w).lt(length));
    const bool same = sectionBand.squeeze(0).masked_select(inside).equal(denseBand.squeeze(0).masked_select(inside));
    std::printf("HIBRIDS banded bias index, L %d, 300 sections, window %d (one-sided %d):\n\n", length, window, w);
    std::printf("| form | time s | peak MiB | equal |\n|---|---|---|---|\n");
    std::printf("| section table + token map, per block | %.3f | %.1f | %s |\n", tSection, memSection, same ? "yes" : "NO");
    std::printf("| dense [L, L] int64 index, then banded | %.3f | %.1f | |\n", tDense, memDense);
    std::printf("| ratio dense / section | %.1fx | %.0fx | |\n\n", tDense / tSection, memDense / std::max(memSection, 0.1));

    std::printf("LED encoder with the HIBRIDS encoder bias (d_model %d, %d layers, %d heads, window %d), encode only:\n\n",
                kD, kLayers, kHeads, window);
    std::printf("| tokens | seconds | ms per 1k tokens |\n|---|---|---|\n");
    Seq2seqGenerator gen;
    std::string error;
    if (!gen.load(writeModel("led", "encoder", length, window), &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    for (int len : {2048, 4096, 8192, 16384}) {
        Seq2seqSource src;
        std::mt19937 rng(3);
        for (int i = 0; i < len; ++i)
            src.ids.push_back(3 + static_cast<std::int64_t>(rng() % (kVocab - 3)));
        src.globalTokens = {0};
        longLayout(len, &src.layout.sectionParent, &src.layout.tokenToSection);
        GenerationSettings s;
        s.maxLength = 1; // encoder (and nothing else)
        GenerationResult r;
        const double t = seconds([&] { r = gen.generate({src}, s); }, reps);
        if (!r.ok) {
            std::fprintf(stderr, "%s\n", r.error.c_str());
            return 1;
        }
        std::printf("| %d | %.2f | %.0f |\n", len, t, 1000.0 * t / (len / 1000.0));
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    ensurePassiveOpenMpWait(argv);
    int source = 512, tokens = 128, reps = 2;
    bool longMode = false;
    for (int i = 1; i < argc; ++i) {
        const bool value = i + 1 < argc;
        if (!std::strcmp(argv[i], "--long"))
            longMode = true;
        else if (value && !std::strcmp(argv[i], "--source"))
            source = std::atoi(argv[++i]);
        else if (value && !std::strcmp(argv[i], "--tokens"))
            tokens = std::atoi(argv[++i]);
        else if (value && !std::strcmp(argv[i], "--reps"))
            reps = std::atoi(argv[++i]);
    }
    configureThreads();
    if (longMode)
        return benchLong(reps);
    std::printf("| model | search | source | new tokens | cache tok/s | recompute tok/s | speed-up | same tokens |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    for (const std::string type : {"bart", "led"}) {
        Seq2seqGenerator gen;
        std::string error;
        if (!gen.load(writeModel(type, type == "led" ? "decoder" : ""), &error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 1;
        }
        Seq2seqSource src;
        std::mt19937 rng(11);
        src.ids.push_back(0);
        for (int i = 1; i < source - 1; ++i)
            src.ids.push_back(3 + static_cast<std::int64_t>(rng() % (kVocab - 3)));
        src.ids.push_back(2);
        if (type == "led") {
            src.globalTokens = {0};
            src.layout.sectionParent.assign(16, -1);
            for (int i = 0; i < source; ++i)
                src.layout.tokenToSection.push_back(std::min(15, i * 16 / source));
        }
        for (int beams : {1, 4}) {
            GenerationSettings s;
            s.numBeams = beams;
            s.maxLength = tokens + 1;
            s.stopAtEos = false;
            s.earlyStopping = false;
            GenerationResult cached, plain;
            s.useCache = true;
            const double tc = seconds([&] { cached = gen.generate({src}, s); }, reps);
            s.useCache = false;
            const double tp = seconds([&] { plain = gen.generate({src}, s); }, reps);
            if (!cached.ok || !plain.ok) {
                std::fprintf(stderr, "%s%s\n", cached.error.c_str(), plain.error.c_str());
                return 1;
            }
            const double n = static_cast<double>(cached.steps);
            std::printf("| %s | %s | %d | %d | %.1f | %.1f | %.2fx | %s |\n",
                        type == "led" ? "LED + HIBRIDS dec." : "BART", beams == 1 ? "greedy" : "beam 4", source,
                        cached.steps, n / tc, plain.steps / tp, (n / tc) / (plain.steps / tp),
                        cached.rows[0].tokens == plain.rows[0].tokens ? "yes" : "NO");
        }
    }
    return 0;
}
