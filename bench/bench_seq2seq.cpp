// Benchmark: seq2seq decoding speed with the key/value cache against recomputing the whole prefix
// every step (the baseline), same process, same random weights, same source; greedy and beam 4.
// Models: a BART (d_model 256, 3+3 layers, 4 heads, FFN 1024, vocab 8192) and the same size LED
// with the HIBRIDS decoder variant (window 64, global token 0, 16 flat sections). The token lists
// of both modes must be equal (checked). Plain timers; prints a Markdown table for BENCHMARKS.md.
//   bench_seq2seq [--source 512] [--tokens 128] [--reps 2]
#include "inference/checkpoint/safetensors.h"
#include "inference/models/modelrunner.h"
#include "inference/openmpenv.h"
#include "inference/qs/seq2seq.h"

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

std::string writeModel(const std::string &type)
{
    const std::string dir = "/tmp/folio_bench_seq2seq_" + type;
    std::filesystem::create_directories(dir);
    const bool led = type == "led";
    const std::string pre = led ? "led." : "model.";
    const int offset = led ? 0 : 2;
    Weights w;
    w.add(pre + "shared.weight", {kVocab, kD}, 0.5f);
    w.add("final_logits_bias", {1, kVocab}, 0.1f);
    for (const std::string stack : {"encoder", "decoder"}) {
        w.add(pre + stack + ".embed_positions.weight", {kPositions + offset, kD}, 0.2f);
        w.norm(pre + stack + ".layernorm_embedding");
        for (int l = 0; l < kLayers; ++l) {
            const std::string lp = pre + stack + ".layers." + std::to_string(l) + ".";
            if (stack == "encoder" && led) {
                for (const char *n : {"query", "key", "value", "query_global", "key_global", "value_global"})
                    w.linear(lp + "self_attn.longformer_self_attn." + n, kD, kD);
                w.linear(lp + "self_attn.output", kD, kD);
            } else {
                for (const char *n : {"q_proj", "k_proj", "v_proj", "out_proj"})
                    w.linear(lp + "self_attn." + n, kD, kD);
            }
            w.norm(lp + "self_attn_layer_norm");
            if (stack == "decoder") {
                for (const char *n : {"q_proj", "k_proj", "v_proj", "out_proj"})
                    w.linear(lp + "encoder_attn." + n, kD, kD);
                w.norm(lp + "encoder_attn_layer_norm");
                if (led && l == kLayers - 1)
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
        cfg << ", \"max_encoder_position_embeddings\": " << kPositions << ", \"max_decoder_position_embeddings\": "
            << kPositions << ", \"attention_window\": 64";
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

} // namespace

int main(int argc, char **argv)
{
    ensurePassiveOpenMpWait(argv);
    int source = 512, tokens = 128, reps = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--source"))
            source = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--tokens"))
            tokens = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--reps"))
            reps = std::atoi(argv[i + 1]);
    }
    configureThreads();
    std::printf("| model | search | source | new tokens | cache tok/s | recompute tok/s | speed-up | same tokens |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    for (const std::string type : {"bart", "led"}) {
        Seq2seqGenerator gen;
        std::string error;
        if (!gen.load(writeModel(type), &error)) {
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
