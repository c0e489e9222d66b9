// Benchmark: Suggest Labels (pipeline::DocumentTagger::predict) on one 500-word scanned page with a
// base-size Hugging Face LayoutLMv3ForTokenClassification folder (12 layers, 768, random weights,
// image branch on, 7 FUNSD labels; the tokenizer files of the layoutlmv3_pipeline parity fixture),
// against the engine alone on the same prepared tensors (ModelRunner::run on the very windows and
// pixel_values the pipeline built — what `folio-cli run` does after loading), in the same run.
// Overhead = pipeline / engine - 1 (tokenizer, windowing, page image decode + resize + normalise,
// label repair, merging). Plain timers, median of N alternating repeats; prints a Markdown block.
//
//   bench_hfpredict [repeats=5] [words=500]
#include "bench/benchclock.h"
#include "document/formats/datasetformat.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/models/modelrunner.h"
#include "pipeline/documentprediction.h"
#include "pipeline/hfpagelabeller.h"

#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>

using namespace folio;
namespace inf = folio::inference;

using folio::bench::median;
using folio::bench::seconds;

namespace {

// Uniform values in [-scale, scale] (xorshift), or around `centre`.
struct Random
{
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    float next()
    {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return float(double(state >> 11) / double(1ull << 53)) * 2.f - 1.f;
    }
    inf::Tensor tensor(std::vector<std::int64_t> shape, float scale, float centre = 0.f)
    {
        std::int64_t n = 1;
        for (auto d : shape) n *= d;
        std::vector<float> v(static_cast<std::size_t>(n));
        for (float &x : v) x = centre + scale * next();
        return inf::Tensor::fromFloats(std::move(shape), v);
    }
};

// A layoutlmv3-base-shaped token classifier with random weights.
void writeBaseCheckpoint(const QString &dir, const QString &tokenizerDir)
{
    const std::int64_t d = 768, ff = 3072, layers = 12, heads = 12, labels = 7;
    Random r;
    inf::TensorMap w;
    const auto linear = [&](const std::string &name, std::int64_t in, std::int64_t out) {
        w[name + ".weight"] = r.tensor({out, in}, float(std::sqrt(3.0 / double(in))));
        w[name + ".bias"] = r.tensor({out}, 0.02f);
    };
    const auto norm = [&](const std::string &name) {
        w[name + ".weight"] = r.tensor({d}, 0.05f, 1.f);
        w[name + ".bias"] = r.tensor({d}, 0.02f);
    };
    const std::string m = "layoutlmv3.";
    const std::pair<const char *, std::vector<std::int64_t>> tables[] = {
        {"embeddings.word_embeddings.weight", {50265, d}}, {"embeddings.position_embeddings.weight", {514, d}},
        {"embeddings.token_type_embeddings.weight", {1, d}}, {"embeddings.x_position_embeddings.weight", {1024, 128}},
        {"embeddings.y_position_embeddings.weight", {1024, 128}}, {"embeddings.h_position_embeddings.weight", {1024, 128}},
        {"embeddings.w_position_embeddings.weight", {1024, 128}}, {"cls_token", {1, 1, d}}, {"pos_embed", {1, 197, d}},
        {"encoder.rel_pos_bias.weight", {heads, 32}}, {"encoder.rel_pos_x_bias.weight", {heads, 64}},
        {"encoder.rel_pos_y_bias.weight", {heads, 64}}, {"patch_embed.proj.weight", {d, 3, 16, 16}}};
    for (const auto &[name, shape] : tables)
        w[m + name] = r.tensor(shape, 0.5f);
    w[m + "patch_embed.proj.bias"] = r.tensor({d}, 0.02f);
    for (const char *n : {"embeddings.LayerNorm", "LayerNorm", "norm"})
        norm(m + n);
    for (std::int64_t i = 0; i < layers; ++i) {
        const std::string p = m + "encoder.layer." + std::to_string(i) + ".";
        for (const char *q : {"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"})
            linear(p + q, d, d);
        linear(p + "intermediate.dense", d, ff);
        linear(p + "output.dense", ff, d);
        norm(p + "attention.output.LayerNorm");
        norm(p + "output.LayerNorm");
    }
    linear("classifier", d, labels);
    inf::writeSafetensors(QDir(dir).filePath(QStringLiteral("model.safetensors")).toStdString(), w);
    const nlohmann::json id2label = {{"0", "O"}, {"1", "B-HEADER"}, {"2", "I-HEADER"}, {"3", "B-QUESTION"},
                                     {"4", "I-QUESTION"}, {"5", "B-ANSWER"}, {"6", "I-ANSWER"}};
    const nlohmann::json config = {
        {"architectures", {"LayoutLMv3ForTokenClassification"}}, {"model_type", "layoutlmv3"}, {"hidden_size", d},
        {"num_attention_heads", heads}, {"num_hidden_layers", layers}, {"intermediate_size", ff}, {"vocab_size", 50265},
        {"max_position_embeddings", 514}, {"type_vocab_size", 1}, {"layer_norm_eps", 1e-5}, {"pad_token_id", 1},
        {"bos_token_id", 0}, {"eos_token_id", 2}, {"coordinate_size", 128}, {"shape_size", 128}, {"input_size", 224},
        {"patch_size", 16}, {"visual_embed", true}, {"has_relative_attention_bias", true},
        {"has_spatial_attention_bias", true}, {"rel_pos_bins", 32}, {"max_rel_pos", 128}, {"rel_2d_pos_bins", 64},
        {"max_rel_2d_pos", 256}, {"max_2d_position_embeddings", 1024}, {"hidden_act", "gelu"}, {"id2label", id2label}};
    std::ofstream(QDir(dir).filePath(QStringLiteral("config.json")).toStdString()) << config.dump(2);
    for (const QString &f : QDir(tokenizerDir).entryList(QDir::Files))
        if (f != QLatin1String("config.json") && f != QLatin1String("model.safetensors")) {
            QFile::remove(QDir(dir).filePath(f));
            QFile::copy(QDir(tokenizerDir).filePath(f), QDir(dir).filePath(f));
        }
    // The fixture's tokenizer is cut at 64 tokens; a base checkpoint's takes 512.
    const std::string tokenizerConfig = QDir(dir).filePath(QStringLiteral("tokenizer_config.json")).toStdString();
    nlohmann::json tc;
    std::ifstream(tokenizerConfig) >> tc;
    tc["model_max_length"] = 512;
    std::ofstream(tokenizerConfig) << tc.dump(2);
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen"); // drawing the page needs fonts, not a display
    QGuiApplication app(argc, argv);
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    const int wordCount = argc > 2 ? std::max(10, std::atoi(argv[2])) : 500;
    const QString fixture = QStringLiteral(FOLIO_SHARED_DIR "/fixtures/parity-next/layoutlmv3_pipeline");
    const QString dir = QDir::temp().filePath(QStringLiteral("folio_bench_hfpredict"));
    QDir().mkpath(dir);
    double t0 = seconds();
    writeBaseCheckpoint(dir, fixture + QStringLiteral("/checkpoint"));
    std::printf("random base checkpoint written in %.1f s (%s)\n", seconds() - t0, qPrintable(dir));

    // A 500-word page: the fixture's words in a 25-row grid on a 1700 x 2200 scan.
    QFile docs(fixture + QStringLiteral("/documents.json"));
    if (!docs.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "%s: cannot read\n", qPrintable(docs.fileName()));
        return 1;
    }
    QStringList vocabulary;
    const nlohmann::json parsed = nlohmann::json::parse(docs.readAll().toStdString());
    for (const auto &doc : parsed["documents"])
        for (const auto &w : doc["words"])
            if (!QString::fromStdString(w.get<std::string>()).trimmed().isEmpty())
                vocabulary << QString::fromStdString(w.get<std::string>());
    if (vocabulary.isEmpty()) {
        std::fprintf(stderr, "%s: no words\n", qPrintable(docs.fileName()));
        return 1;
    }
    QStringList texts;
    std::vector<NormBox> boxes;
    const int perRow = 20;
    for (int i = 0; i < wordCount; ++i) {
        texts << vocabulary[i % vocabulary.size()];
        const int row = i / perRow, col = i % perRow;
        boxes.push_back(NormBox{20 + col * 48, 20 + row * 38, 60 + col * 48, 45 + row * 38});
    }
    const QString imagePath = QDir(dir).filePath(QStringLiteral("page.png"));
    {
        QImage page(1700, 2200, QImage::Format_RGB32);
        page.fill(Qt::white);
        QPainter p(&page);
        for (int i = 0; i < wordCount; ++i)
            p.drawText(QRect(boxes[std::size_t(i)].x0 * 17 / 10, boxes[std::size_t(i)].y0 * 22 / 10, 80, 50), texts[i]);
        p.end();
        page.save(imagePath);
    }
    Document document = formats::documentFromWords(imagePath, texts, boxes, QSizeF(1000, 1000), imagePath);

    pipeline::DocumentTagger tagger;
    QString error;
    t0 = seconds();
    if (!tagger.load(dir, &error)) {
        std::fprintf(stderr, "load: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("DocumentTagger::load %.2f s\n", seconds() - t0);
    // The same windows as prepared tensors (what `folio-cli run --inputs` would take).
    pipeline::HfPageLabeller labeller;
    if (!labeller.load(dir, &error)) {
        std::fprintf(stderr, "load: %s\n", qPrintable(error));
        return 1;
    }
    const auto pages = pipeline::taggerPagesOfDocument(document, nullptr);
    const inf::WordLabelling prepared = labeller.labelPage(pages.front(), document);
    if (!prepared.ok) {
        std::fprintf(stderr, "label: %s\n", prepared.error.c_str());
        return 1;
    }
    pipeline::ImageProcessing processing = labeller.imageProcessing();
    const inf::Tensor pixels = pipeline::pagePixelValues(QImage(imagePath), processing, &error);
    std::vector<inf::TensorMap> windows = prepared.windows;
    int tokens = 0;
    for (inf::TensorMap &w : windows) {
        for (auto it = w.begin(); it != w.end();)
            it = (it->first == "input_ids" || it->first == "bbox" || it->first == "attention_mask") ? std::next(it) : w.erase(it);
        w["pixel_values"] = pixels;
        tokens += int(w.at("input_ids").shape[1]);
    }
    inf::ModelRunner runner;
    std::string why;
    if (!runner.load(dir.toStdString(), &why)) {
        std::fprintf(stderr, "runner: %s\n", why.c_str());
        return 1;
    }
    // Warm-up, then alternate.
    tagger.predict(document);
    for (const auto &w : windows)
        runner.run(w);
    std::vector<double> pipelineTimes, engineTimes;
    int entities = 0;
    for (int r = 0; r < repeats; ++r) {
        t0 = seconds();
        const pipeline::DocumentPrediction p = tagger.predict(document);
        pipelineTimes.push_back(seconds() - t0);
        if (!p.ok) {
            std::fprintf(stderr, "predict: %s\n", qPrintable(p.error));
            return 1;
        }
        entities = int(p.entities.size());
        t0 = seconds();
        for (const auto &w : windows)
            if (!runner.run(w).ok)
                return 1;
        engineTimes.push_back(seconds() - t0);
    }
    // The pipeline's own work, timed alone: page image decode + resize + normalise (once per page).
    std::vector<double> imageTimes;
    for (int r = 0; r < repeats; ++r) {
        t0 = seconds();
        const inf::Tensor again = pipeline::pagePixelValues(QImage(imagePath), processing, &error);
        imageTimes.push_back(seconds() - t0);
        if (again.bytes != pixels.bytes)
            return 1;
    }
    const double pm = median(pipelineTimes), em = median(engineTimes);
    const double pmin = *std::min_element(pipelineTimes.begin(), pipelineTimes.end());
    const double emin = *std::min_element(engineTimes.begin(), engineTimes.end());
    std::printf("\n| %d-word page, layoutlmv3-base shape, image on | seconds / page (median of %d) |\n|---|---|\n", wordCount, repeats);
    std::printf("| Suggest Labels (DocumentTagger::predict: tokenize, %zu windows / %d tokens, image, repair) | %.3f |\n",
                windows.size(), tokens, pm);
    std::printf("| engine alone on the same prepared tensors (ModelRunner::run, as folio-cli run) | %.3f |\n", em);
    std::printf("| pipeline overhead (medians) | %+.1f%% |\n", 100.0 * (pm / em - 1.0));
    std::printf("| fastest runs: pipeline %.3f, engine %.3f | %+.1f%% |\n", pmin, emin, 100.0 * (pmin / emin - 1.0));
    std::printf("| page image decode + resize + normalise alone (median) | %.3f (%.1f%% of the engine) |\n",
                median(imageTimes), 100.0 * median(imageTimes) / em);
    std::printf("\n%d entities suggested; all runs:", entities);
    for (std::size_t i = 0; i < pipelineTimes.size(); ++i)
        std::printf(" %.3f/%.3f", pipelineTimes[i], engineTimes[i]);
    std::printf("\n");
    return 0;
}
