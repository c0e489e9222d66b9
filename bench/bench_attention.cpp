// bench_attention: the attention view on a 512-token page, 12 layers x 12 heads.
//  1. Redraw after a layer/head change and after a change of the selected box (AttentionPanel:
//     view model + heatmap image + page overlay colours + a synchronous repaint), against the
//     baseline of a repaint with nothing changed. Target: well under 50 ms.
//  2. Capture cost: ModelRunner::run with the AttentionTrace off vs on, on a random-weight
//     LayoutLMv3 of the same shape (12 x 12, hidden 192, 512 tokens), and the cost of turning the
//     traced outputs into the view's trace. Ratio = on / off.
// Usage: bench_attention [repeats=20] [hidden=192]
#include "bench/benchclock.h"
#include "inference/models/modelrunner.h"
#include "inference/checkpoint/safetensors.h"
#include "ui/attention/attentionpanel.h"
#include "widgets/heatmapview.h"
#include "widgets/pagecanvas.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <thread>

using namespace folio;
namespace inf = folio::inference;

using folio::bench::median;

namespace {

constexpr int kTokens = 512, kLayers = 12, kHeads = 12;

// ~400 words, one or two sub-tokens each, on a page in 20 lines.
Document makePage(std::vector<int> *tokenWord)
{
    Document d;
    d.sourcePath = QStringLiteral("bench-page.png");
    d.kind = SourceKind::Image;
    d.pages.push_back(Page{QSizeF(2480, 3508), QString(), 300});
    Node root;
    root.kind = NodeKind::Root;
    d.nodes.push_back(root);
    tokenWord->assign(1, -1);
    int w = 0;
    while (int(tokenWord->size()) < kTokens - 1) {
        Word word;
        word.id = QStringLiteral("w%1").arg(w);
        word.text = QStringLiteral("word%1").arg(w);
        word.box = QRectF(100 + 110 * (w % 20), 100 + 160 * (w / 20), 100, 60);
        Node n;
        n.kind = NodeKind::Word;
        n.id = word.id;
        word.node = d.addNode(n, 0);
        d.words.push_back(word);
        const int pieces = (w % 4 == 0) ? 2 : 1;
        for (int p = 0; p < pieces && int(tokenWord->size()) < kTokens - 1; ++p)
            tokenWord->push_back(w);
        ++w;
    }
    tokenWord->push_back(-1);
    d.normaliseWordBoxes();
    return d;
}

AttentionTrace makeTrace(const Document &doc, const std::vector<int> &tokenWord)
{
    AttentionTrace t;
    t.modelType = QStringLiteral("layoutlmv3");
    t.checkpoint = QStringLiteral("bench");
    t.documentId = attentionDocumentId(doc);
    t.modelWindow = kTokens;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<float> p(std::size_t(kHeads) * kTokens * kTokens);
    QString error;
    for (int layer = 0; layer < kLayers; ++layer) {
        for (std::size_t r = 0; r < std::size_t(kHeads) * kTokens; ++r) {
            float sum = 0;
            for (int k = 0; k < kTokens; ++k)
                sum += (p[r * kTokens + k] = u(rng));
            for (int k = 0; k < kTokens; ++k)
                p[r * kTokens + k] /= sum;
        }
        if (!t.ingest(QStringLiteral("attentions.%1").arg(layer), {1, kHeads, kTokens, kTokens}, p.data(), {}, &error))
            qFatal("%s", qPrintable(error));
    }
    t.tokenWord = tokenWord;
    return t;
}

// A random-weight LayoutLMv3 token classifier with HF names (torch-free: safetensors + JSON).
bool writeCheckpoint(const QString &dir, int hidden)
{
    const int inter = 4 * hidden, coord = hidden / 6 * 1, shape = (hidden - 4 * coord) / 2;
    std::mt19937 rng(11);
    std::normal_distribution<float> n(0.0f, 1.0f);
    inf::TensorMap t;
    auto rnd = [&](std::vector<std::int64_t> s, float scale) {
        inf::Tensor x = inf::Tensor::zeros(inf::DType::F32, s);
        for (std::int64_t i = 0; i < x.numel(); ++i)
            x.data<float>()[i] = n(rng) * scale;
        return x;
    };
    auto ones = [&](std::int64_t d) {
        inf::Tensor x = inf::Tensor::zeros(inf::DType::F32, {d});
        for (std::int64_t i = 0; i < d; ++i)
            x.data<float>()[i] = 1.0f;
        return x;
    };
    const std::string e = "layoutlmv3.embeddings.";
    t[e + "LayerNorm.weight"] = ones(hidden);
    t[e + "LayerNorm.bias"] = rnd({hidden}, 0.02f);
    t[e + "word_embeddings.weight"] = rnd({500, hidden}, 0.5f);
    t[e + "position_embeddings.weight"] = rnd({kTokens + 2, hidden}, 0.5f);
    t[e + "token_type_embeddings.weight"] = rnd({2, hidden}, 0.5f);
    t[e + "x_position_embeddings.weight"] = rnd({1024, coord}, 0.5f);
    t[e + "y_position_embeddings.weight"] = rnd({1024, coord}, 0.5f);
    t[e + "h_position_embeddings.weight"] = rnd({1024, shape}, 0.5f);
    t[e + "w_position_embeddings.weight"] = rnd({1024, shape}, 0.5f);
    const float w = 1.0f / std::sqrt(float(hidden));
    for (int l = 0; l < kLayers; ++l) {
        const std::string p = "layoutlmv3.encoder.layer." + std::to_string(l) + ".";
        for (const char *m : {"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"}) {
            t[p + m + ".weight"] = rnd({hidden, hidden}, w);
            t[p + m + ".bias"] = rnd({hidden}, 0.1f);
        }
        t[p + "attention.output.LayerNorm.weight"] = ones(hidden);
        t[p + "attention.output.LayerNorm.bias"] = rnd({hidden}, 0.1f);
        t[p + "intermediate.dense.weight"] = rnd({inter, hidden}, w);
        t[p + "intermediate.dense.bias"] = rnd({inter}, 0.1f);
        t[p + "output.dense.weight"] = rnd({hidden, inter}, 1.0f / std::sqrt(float(inter)));
        t[p + "output.dense.bias"] = rnd({hidden}, 0.1f);
        t[p + "output.LayerNorm.weight"] = ones(hidden);
        t[p + "output.LayerNorm.bias"] = rnd({hidden}, 0.1f);
    }
    t["layoutlmv3.encoder.rel_pos_bias.weight"] = rnd({kHeads, 32}, 1.0f);
    t["layoutlmv3.encoder.rel_pos_x_bias.weight"] = rnd({kHeads, 64}, 1.0f);
    t["layoutlmv3.encoder.rel_pos_y_bias.weight"] = rnd({kHeads, 64}, 1.0f);
    t["classifier.weight"] = rnd({7, hidden}, w);
    t["classifier.bias"] = rnd({7}, 0.1f);
    try {
        inf::writeSafetensors((dir + "/model.safetensors").toStdString(), t);
    } catch (const std::exception &ex) {
        std::fprintf(stderr, "%s\n", ex.what());
        return false;
    }
    QFile cfg(dir + "/config.json");
    if (!cfg.open(QIODevice::WriteOnly))
        return false;
    cfg.write(QStringLiteral(R"({"model_type": "layoutlmv3", "architectures": ["LayoutLMv3ForTokenClassification"],
 "hidden_size": %1, "num_hidden_layers": %2, "num_attention_heads": %3, "intermediate_size": %4,
 "hidden_act": "gelu", "layer_norm_eps": 1e-5, "max_position_embeddings": %5, "max_2d_position_embeddings": 1024,
 "coordinate_size": %6, "shape_size": %7, "has_relative_attention_bias": true, "has_spatial_attention_bias": true,
 "rel_pos_bins": 32, "max_rel_pos": 128, "rel_2d_pos_bins": 64, "max_rel_2d_pos": 256, "pad_token_id": 1,
 "bos_token_id": 0, "eos_token_id": 2, "type_vocab_size": 2, "vocab_size": 500, "num_labels": 7,
 "text_embed": true, "visual_embed": false, "input_size": 224, "patch_size": 16, "num_channels": 3,
 "id2label": {"0":"O","1":"B-H","2":"I-H","3":"B-Q","4":"I-Q","5":"B-A","6":"I-A"}})")
                  .arg(hidden).arg(kLayers).arg(kHeads).arg(inter).arg(kTokens + 2).arg(coord).arg(shape)
                  .toUtf8());
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const int repeats = argc > 1 ? std::max(3, std::atoi(argv[1])) : 20;
    const int hidden = argc > 2 ? std::max(48, std::atoi(argv[2])) : 192;

    // ---- 1. redraw ---------------------------------------------------------------------
    std::vector<int> tokenWord;
    const Document doc = makePage(&tokenWord);
    QElapsedTimer timer;
    timer.start();
    AttentionTrace trace = makeTrace(doc, tokenWord);
    const double makeMs = double(timer.nsecsElapsed()) / 1e6;
    AttentionPanel panel;
    panel.resize(1000, 800);
    panel.show();
    PageCanvas canvas; // the page, coloured through the overlay API as MainWindow wires it
    canvas.resize(900, 1200);
    canvas.setPage(doc, 0);
    canvas.show();
    QObject::connect(&panel, &AttentionPanel::wordColorsChanged, &canvas, &PageCanvas::setBoxColors);
    panel.setDocument(doc);
    timer.restart();
    if (!panel.setTrace(trace)) {
        std::fprintf(stderr, "setTrace failed: %s\n", qPrintable(panel.statusText()));
        return 1;
    }
    app.processEvents();
    const double setTraceMs = double(timer.nsecsElapsed()) / 1e6;
    std::printf("page: %d tokens, %zu words, %d layers x %d heads (trace %.0f MB, built in %.0f ms, shown in %.1f ms)\n", kTokens,
                doc.words.size(), kLayers, kHeads, double(kLayers) * kHeads * kTokens * kTokens * 4 / 1e6, makeMs, setTraceMs);
    AttentionViewModel *vm = panel.viewModel();
    HeatmapView *heat = panel.heatmap();
    panel.selectWord(10);
    auto timeIt = [&](auto change) {
        std::vector<double> ms;
        for (int i = 0; i < repeats; ++i) {
            timer.restart();
            change(i);
            heat->repaint(); // synchronous paint of the heatmap and of the page
            canvas.repaint();
            ms.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
        return median(ms);
    };
    const double baseline = timeIt([](int) {});
    const double headMs = timeIt([&](int i) { vm->setHead((i + 1) % kHeads); });
    const double layerMs = timeIt([&](int i) { vm->setLayer((i + 1) % kLayers); });
    const double boxMs = timeIt([&](int i) { panel.selectWord((i * 37) % int(doc.words.size())); });
    vm->setHead(-1);
    const double avgHeadsMs = timeIt([&](int i) { vm->setLayer((i + 1) % kLayers); });
    vm->setLayer(-1);
    const double avgAllMs = timeIt([&](int i) { vm->setHead(i % 2 ? -1 : 0); vm->setLayer(-1); });
    std::printf("redraw (median of %d, heatmap %dx%d + page canvas %dx%d with %zu coloured boxes):\n", repeats, heat->width(),
                heat->height(), canvas.width(), canvas.height(), doc.words.size());
    std::printf("  repaint, nothing changed (baseline) %8.2f ms\n", baseline);
    std::printf("  head change                         %8.2f ms  (%.1fx baseline)\n", headMs, headMs / std::max(baseline, 1e-3));
    std::printf("  layer change                        %8.2f ms  (%.1fx baseline)\n", layerMs, layerMs / std::max(baseline, 1e-3));
    std::printf("  selected box change                 %8.2f ms  (%.1fx baseline)\n", boxMs, boxMs / std::max(baseline, 1e-3));
    std::printf("  layer change, average of 12 heads   %8.2f ms\n", avgHeadsMs);
    std::printf("  all-layer/all-head average toggle   %8.2f ms\n", avgAllMs);

    // ---- 2. capture cost ---------------------------------------------------------------
    QTemporaryDir tmp;
    if (!writeCheckpoint(tmp.path(), hidden))
        return 1;
    inf::configureThreads(0);
    inf::ModelRunner runner;
    std::string error;
    if (!runner.load(tmp.path().toStdString(), &error)) {
        std::fprintf(stderr, "load: %s\n", error.c_str());
        return 1;
    }
    std::vector<std::int64_t> ids(kTokens), bbox(std::size_t(kTokens) * 4), mask(kTokens, 1);
    for (int t = 0; t < kTokens; ++t) {
        ids[std::size_t(t)] = t == 0 ? 0 : t == kTokens - 1 ? 2 : 3 + (t * 7) % 490;
        const NormBox b = t > 0 && t < kTokens - 1 ? doc.words[std::size_t(tokenWord[std::size_t(t)])].norm : NormBox{};
        bbox[std::size_t(t) * 4 + 0] = b.x0;
        bbox[std::size_t(t) * 4 + 1] = b.y0;
        bbox[std::size_t(t) * 4 + 2] = b.x1;
        bbox[std::size_t(t) * 4 + 3] = b.y1;
    }
    inf::TensorMap in;
    in["input_ids"] = inf::Tensor::fromInt64({1, kTokens}, ids);
    in["bbox"] = inf::Tensor::fromInt64({1, kTokens, 4}, bbox);
    in["attention_mask"] = inf::Tensor::fromInt64({1, kTokens}, mask);
    const int runs = std::max(3, repeats / 4);
    auto timeRun = [&](bool traceOn) {
        inf::RunOptions o;
        o.trace = traceOn;
        std::vector<double> ms;
        for (int i = 0; i < runs; ++i) {
            timer.restart();
            const inf::RunResult r = runner.run(in, o);
            ms.push_back(double(timer.nsecsElapsed()) / 1e6);
            if (!r.ok) {
                std::fprintf(stderr, "run: %s\n", r.error.c_str());
                std::exit(1);
            }
        }
        return median(ms);
    };
    timeRun(false); // warm-up
    const double off1 = timeRun(false);
    const double on = timeRun(true);
    const double off2 = timeRun(false);
    const double off = std::min(off1, off2);
    inf::RunOptions o;
    o.trace = true;
    const inf::RunResult traced = runner.run(in, o);
    timer.restart();
    AttentionTrace fromRun;
    QString qerror;
    for (const auto &[name, t] : traced.outputs)
        if (!fromRun.ingest(QString::fromStdString(name), t.shape, t.data<float>(), {}, &qerror) && !qerror.isEmpty())
            break;
    const double ingestMs = double(timer.nsecsElapsed()) / 1e6;
    std::printf("capture (LayoutLMv3 random weights, hidden %d, %d x %d, %d tokens, median of %d, %d threads):\n", hidden, kLayers,
                kHeads, kTokens, runs, int(std::thread::hardware_concurrency()));
    std::printf("  trace off   %8.1f ms   (second off run: %.1f ms, off/off ratio %.3f)\n", off1, off2, off2 / off1);
    std::printf("  trace on    %8.1f ms   ratio on/off %.3f\n", on, on / off);
    std::printf("  outputs -> view trace  %.1f ms (%zu outputs)\n", ingestMs, traced.outputs.size());
    return 0;
}
