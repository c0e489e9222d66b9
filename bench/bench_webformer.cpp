// Benchmark: WebFormer encoder forward, blockwise form (text blocks of r+1 with prev/current/next
// keys + side keys; HTML queries as an edge-list segment softmax) vs the dense masked [L, L] form
// (one score matrix per head, dense mask and dense relation-id matrices) in the same process, on
// the same random weights and the same synthetic page, at 512 / 2048 / 8192 text tokens.
// Peak memory: the resident-set high-water mark (VmHWM) during one forward, after resetting it
// through /proc/self/clear_refs; reported as growth over the resident set before the forward.
// Plain timers; prints a Markdown table for BENCHMARKS.md.
//   bench_webformer [--threads 2] [--sizes 512,2048,8192] [--reps 3] [--dense-max 8192]
// Sizes above --dense-max run the blockwise form only (the dense [L, L] form needs L^2 floats per
// head: 16k tokens would take tens of GB); the last column shows blockwise ms per 1,000 text tokens,
// constant when the cost is linear.
// --chunk-compare: a second table, the blockwise form with its text queries a chunk at a time (the
// default, 2048 rows) against all of them at once (the form before chunking), same process.
#include "inference/webformer/detail/webformer.h"
#include "inference/models/modelrunner.h"

#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace folio::inference;
using namespace folio::inference::detail;

namespace {

long statusKb(const char *key)
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0)
            return std::stol(line.substr(std::strlen(key) + 1));
    return -1;
}

bool resetPeak()
{
    std::ofstream f("/proc/self/clear_refs");
    f << "5";
    f.flush();
    return bool(f);
}

// body > section x (T/256) > p x 16 > text of 16 one-piece words; F = 5 fields.
WebPage syntheticPage(int textTokens, std::vector<std::string> *vocabWords)
{
    WebPage p;
    p.nodes.push_back({-1, "html", "/html", false, {}});
    p.nodes.push_back({0, "body", "/html/body", false, {}});
    int made = 0, w = 0;
    while (made < textTokens) {
        const int sec = int(p.nodes.size());
        p.nodes.push_back({1, "div", "/html/body/div", false, {}});
        for (int k = 0; k < 16 && made < textTokens; ++k) {
            const int para = int(p.nodes.size());
            p.nodes.push_back({sec, "p", "p", false, {}});
            WebNode t{para, "#text", "p/text()", true, {}};
            for (int j = 0; j < 16 && made < textTokens; ++j, ++made)
                t.words.push_back("w" + std::to_string((w++ * 7919) % 997));
            p.nodes.push_back(t);
        }
    }
    for (int i = 0; i < 997; ++i)
        for (int r = 0; r < 2; ++r)
            vocabWords->push_back("w" + std::to_string(i));
    return p;
}

struct Measure
{
    double ms = 0;
    double peakMb = -1;
    at::Tensor out;
};

Measure run(const WebFormerModel &model, const WebTensors &t, WebFormerModel::Form form, int reps)
{
    Measure m;
    c10::InferenceMode guard;
    m.out = model.encode(t, false, form).text.clone(); // warm-up
    std::vector<double> times;
    for (int i = 0; i < reps; ++i) {
        const long before = statusKb("VmRSS:");
        const bool reset = resetPeak();
        const auto t0 = std::chrono::steady_clock::now();
        const WebEncoded e = model.encode(t, false, form);
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        if (reset && i == 0)
            m.peakMb = double(statusKb("VmHWM:") - before) / 1024.0;
    }
    std::sort(times.begin(), times.end());
    m.ms = times[times.size() / 2];
    return m;
}

} // namespace

int main(int argc, char **argv)
{
    int threads = 2, reps = 3, denseMax = 8192;
    bool chunkCompare = false;
    std::vector<int> sizes = {512, 2048, 8192};
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--chunk-compare")
            chunkCompare = true;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--chunk-compare") {
            --i; // a flag without a value
            continue;
        }
        if (a == "--threads")
            threads = std::atoi(argv[i + 1]);
        else if (a == "--dense-max")
            denseMax = std::atoi(argv[i + 1]);
        else if (a == "--reps")
            reps = std::max(1, std::atoi(argv[i + 1]));
        else if (a == "--sizes") {
            sizes.clear();
            std::stringstream ss(argv[i + 1]);
            std::string s;
            while (std::getline(ss, s, ','))
                sizes.push_back(std::atoi(s.c_str()));
        }
    }
    configureThreads(threads);
    WebFormerConfig cfg; // the trained configuration: 2 layers, 128 hidden, 4 heads, r = 31
    cfg.hidden = 128;
    cfg.layers = 2;
    cfg.heads = 4;
    cfg.intermediate = 512;
    cfg.radius = 31;
    cfg.maxTextTokens = 1 << 20;
    std::printf("WebFormer encoder forward, %d layers, hidden %d, %d heads, radius %d, 5 fields, %d threads, median of %d\n\n",
                cfg.layers, cfg.hidden, cfg.heads, cfg.radius, threads, reps);
    std::printf("| text tokens T | HTML tokens N | edges | blockwise ms | dense [L,L] ms | speed-up | blockwise peak MB | dense peak MB | memory ratio | max abs diff | blockwise ms / 1k T |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    struct ChunkRow
    {
        int T, N;
        double ms, oneMs, peak, onePeak, diff;
    };
    std::vector<ChunkRow> chunkRows;
    for (int T : sizes) {
        std::vector<std::string> words;
        const WebPage page = syntheticPage(T, &words);
        const WebVocab vocab = WebVocab::build(words, 2000);
        const WebFormerInputs in = buildWebFormerInputs(page, vocab, cfg, {"title", "author", "isbn_13", "publisher", "publication_date"});
        WebFormerModel model(cfg, vocab.size());
        model.initialise(5);
        const WebTensors t = toWebTensors(in);
        const Measure b = run(model, t, WebFormerModel::Form::Blockwise, reps);
        if (chunkCompare) {
            model.setTextQueryRows(1 << 30);
            const Measure one = run(model, t, WebFormerModel::Form::Blockwise, reps);
            model.setTextQueryRows(2048);
            chunkRows.push_back({in.numText(), in.numHtml(), b.ms, one.ms, b.peakMb, one.peakMb,
                                 (b.out - one.out).abs().max().item<double>()});
        }
        if (T > denseMax) {
            std::printf("| %d | %d | %zu | %.1f | - | - | %.0f | - | - | - | %.1f |\n", in.numText(), in.numHtml(),
                        in.edgeQuery.size(), b.ms, b.peakMb, b.ms * 1000.0 / in.numText());
            std::fflush(stdout);
            continue;
        }
        const Measure d = run(model, t, WebFormerModel::Form::Dense, reps);
        const double diff = (b.out - d.out).abs().max().item<double>();
        std::printf("| %d | %d | %zu | %.1f | %.1f | %.1fx | %.0f | %.0f | %.1fx | %.1e | %.1f |\n", in.numText(), in.numHtml(),
                    in.edgeQuery.size(), b.ms, d.ms, d.ms / b.ms, b.peakMb, d.peakMb, b.peakMb > 0 ? d.peakMb / b.peakMb : 0.0, diff,
                    b.ms * 1000.0 / in.numText());
        std::fflush(stdout);
    }
    if (chunkCompare) {
        std::printf("\nBlockwise text queries 2048 rows at a time (default) vs all at once, same weights and page:\n\n");
        std::printf("| text tokens T | HTML tokens N | chunked ms | all-at-once ms | time ratio | chunked peak MB | all-at-once peak MB | memory ratio | max abs diff |\n");
        std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (const ChunkRow &r : chunkRows)
            std::printf("| %d | %d | %.1f | %.1f | %.2fx | %.0f | %.0f | %.1fx | %.1e |\n", r.T, r.N, r.ms, r.oneMs, r.ms / r.oneMs,
                        r.peak, r.onePeak, r.peak > 0 ? r.onePeak / r.peak : 0.0, r.diff);
    }
    return 0;
}
