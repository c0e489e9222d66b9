// Fine-tuning a Hugging Face token classifier on labelled pages (issue 46): windows, batches, the
// training loop with dev entity F1 per epoch, resume state, the model card.
#include "pipeline/hffinetuning.h"
#include "pipeline/hffinetuneloop.h"

#include "inference/checkpoint/modelconfig.h"
#include "inference/errors.h"
#include "inference/training/hf/hfarchitectures.h"
#include "inference/training/hf/hffinetuner.h"
#include "inference/training/metrics.h"
#include "pipeline/pagepixels.h"
#include "pipeline/unitwindows.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QSaveFile>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <numeric>
#include <random>

namespace folio::pipeline {

using inference::Tensor;
using inference::TensorMap;

std::vector<HfEncodedWindow> hfPageWindows(const inference::HfLayoutTokenizer &tokenizer, const inference::TaggerPage &page,
                                           int pageIndex, const std::vector<std::string> &labels, int maxTokens)
{
    if (maxTokens < 3)
        throw inference::InferenceError("a window needs room for at least one token besides the two specials");
    const std::size_t n = page.words.size();
    std::vector<int> labelIds(n, -100);
    if (!page.tags.empty()) {
        if (page.tags.size() != n)
            throw inference::InferenceError("page " + page.id + ": " + std::to_string(page.tags.size()) + " tags for "
                                            + std::to_string(n) + " words");
        for (std::size_t i = 0; i < n; ++i) {
            const auto it = std::find(labels.begin(), labels.end(), page.tags[i]);
            if (it == labels.end())
                throw inference::InferenceError("page " + page.id + ": tag \"" + page.tags[i]
                                                + "\" is not in the label set being trained");
            labelIds[i] = int(it - labels.begin());
        }
    }
    // Tokens of each word (an empty word has none).
    const inference::LayoutTokens all = tokenizer.encode(page.words, page.boxes, nullptr, 1 << 30, false);
    std::vector<int> count(n, 0);
    for (int w : all.wordIds)
        if (w >= 0)
            ++count[std::size_t(w)];
    const int budget = maxTokens - 2;
    std::vector<HfEncodedWindow> out;
    for (const UnitWindow &span : planUnitWindows(count, budget)) {
        const std::size_t begin = span.begin, owned = span.owned, end = span.end;
        HfEncodedWindow win;
        win.page = pageIndex;
        win.firstOwnedWord = int(owned);
        win.endOwnedWord = int(end);
        const std::vector<std::string> words(page.words.begin() + long(begin), page.words.begin() + long(end));
        const std::vector<inference::WordBox> boxes(page.boxes.begin() + long(begin), page.boxes.begin() + long(end));
        std::vector<int> wl(labelIds.begin() + long(begin), labelIds.begin() + long(end));
        for (std::size_t i = begin; i < owned && i < end; ++i)
            wl[i - begin] = -100; // labelled by an earlier window
        win.tokens = tokenizer.encode(words, boxes, page.tags.empty() ? nullptr : &wl, maxTokens, true);
        for (int &w : win.tokens.wordIds)
            if (w >= 0)
                w += int(begin);
        out.push_back(std::move(win));
    }
    return out;
}

TensorMap hfBatch(const std::vector<const HfEncodedWindow *> &windows, int padId, const std::vector<const Tensor *> &pixels)
{
    const auto b = std::int64_t(windows.size());
    std::int64_t t = 0;
    for (const HfEncodedWindow *w : windows)
        t = std::max<std::int64_t>(t, std::int64_t(w->tokens.inputIds.size()));
    std::vector<std::int64_t> ids(std::size_t(b * t), padId), mask(std::size_t(b * t), 0), labels(std::size_t(b * t), -100),
        bbox(std::size_t(b * t * 4), 0);
    for (std::int64_t r = 0; r < b; ++r) {
        const inference::LayoutTokens &k = windows[std::size_t(r)]->tokens;
        for (std::size_t i = 0; i < k.inputIds.size(); ++i) {
            const std::size_t at = std::size_t(r * t) + i;
            ids[at] = k.inputIds[i];
            mask[at] = k.attentionMask.empty() ? 1 : k.attentionMask[i];
            labels[at] = k.labels.empty() ? -100 : k.labels[i];
            const inference::WordBox &box = k.bbox[i];
            bbox[at * 4] = box.x0;
            bbox[at * 4 + 1] = box.y0;
            bbox[at * 4 + 2] = box.x1;
            bbox[at * 4 + 3] = box.y1;
        }
    }
    TensorMap out;
    out["input_ids"] = Tensor::fromInt64({b, t}, ids);
    out["attention_mask"] = Tensor::fromInt64({b, t}, mask);
    out["labels"] = Tensor::fromInt64({b, t}, labels);
    out["bbox"] = Tensor::fromInt64({b, t, 4}, bbox);
    if (!pixels.empty() && pixels.size() == windows.size() && pixels.front()) {
        Tensor pv;
        pv.dtype = pixels.front()->dtype; // float32 pixel_values; LayoutLMv2's image is uint8
        pv.shape = pixels.front()->shape;
        pv.shape[0] = b;
        for (const Tensor *p : pixels)
            pv.bytes.insert(pv.bytes.end(), p->bytes.begin(), p->bytes.end());
        out["pixel_values"] = std::move(pv);
    }
    return out;
}

bool isHfFineTunableFolder(const QString &dir)
{
    QFile f(dir + QStringLiteral("/config.json"));
    if (f.size() > (8 << 20) || !f.open(QIODevice::ReadOnly))
        return false;
    const nlohmann::json j = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
    if (!j.is_object() || !j.contains("model_type") || !j["model_type"].is_string())
        return false;
    const auto types = inference::HfFineTuner::supportedModelTypes();
    return std::find(types.begin(), types.end(), j["model_type"].get<std::string>()) != types.end();
}

QString funsdPageImage(const QString &funsdRoot, const std::string &pageId)
{
    for (const char *split : {"training_data", "testing_data"}) {
        const QString p = QStringLiteral("%1/%2/images/%3.png").arg(funsdRoot, QLatin1String(split), QString::fromStdString(pageId));
        if (QFileInfo::exists(p))
            return p;
    }
    return {};
}

namespace {

struct Prepared
{
    std::vector<HfEncodedWindow> windows;
    std::vector<Tensor> pixels; // per page (empty tensor: no image)
};

Prepared prepareWindows(const std::vector<HfTrainPage> &pages, const inference::HfLayoutTokenizer &tokenizer,
                 const std::vector<std::string> &labels, int maxTokens, const ImageProcessing *image, int *withoutImage)
{
    Prepared p;
    for (std::size_t i = 0; i < pages.size(); ++i) {
        auto w = hfPageWindows(tokenizer, pages[i].page, int(i), labels, maxTokens);
        p.windows.insert(p.windows.end(), std::make_move_iterator(w.begin()), std::make_move_iterator(w.end()));
        Tensor px;
        if (image) {
            QImage img;
            if (!pages[i].imagePath.isEmpty())
                img.load(pages[i].imagePath);
            if (img.isNull()) {
                ++*withoutImage;
            } else {
                QString error;
                px = pagePixelValues(img, *image, &error);
                if (!error.isEmpty())
                    throw inference::InferenceError(pages[i].imagePath.toStdString() + ": " + error.toStdString());
            }
        }
        p.pixels.push_back(std::move(px));
    }
    return p;
}

// Pixels of each window of a batch, or none when any of its pages has no image (the model then
// runs the batch on text and layout).
std::vector<const Tensor *> batchPixels(const Prepared &p, const std::vector<const HfEncodedWindow *> &batch)
{
    std::vector<const Tensor *> out;
    for (const HfEncodedWindow *w : batch) {
        const Tensor &t = p.pixels[std::size_t(w->page)];
        if (t.bytes.empty())
            return {};
        out.push_back(&t);
    }
    return out;
}

// hfBatch under the model's own name for the image input: LayoutLMv2 takes `image` (uint8 BGR)
// and, for a batch without page images, visual_tokens = 0 (text + layout only, as Folio runs such
// a checkpoint without an image).
TensorMap modelBatch(const std::vector<const HfEncodedWindow *> &windows, int padId, const std::vector<const Tensor *> &pixels,
                     const std::string &imageInput)
{
    TensorMap batch = hfBatch(windows, padId, pixels);
    if (imageInput != "image")
        return batch;
    const auto it = batch.find("pixel_values");
    if (it == batch.end()) {
        batch["visual_tokens"] = Tensor::fromInt64({1}, {0});
    } else {
        batch["image"] = std::move(it->second);
        batch.erase(it);
    }
    return batch;
}

// Entity F1 (seqeval semantics) of the model on the pages, each word predicted from its first
// sub-token in the window that owns it.
double devF1(const inference::HfFineTuner &tuner, const Prepared &p, const std::vector<HfTrainPage> &pages,
             const std::vector<std::string> &labels, int padId, const std::string &imageInput)
{
    std::vector<std::vector<std::string>> predicted(pages.size());
    for (std::size_t i = 0; i < pages.size(); ++i)
        predicted[i].assign(pages[i].page.words.size(), "O");
    for (const HfEncodedWindow &w : p.windows) {
        const std::vector<const HfEncodedWindow *> one{&w};
        const inference::RunResult r = tuner.forward(modelBatch(one, padId, batchPixels(p, one), imageInput));
        if (!r.ok)
            throw inference::InferenceError(r.error);
        const Tensor &logits = r.outputs.at("logits");
        const auto c = logits.shape[2];
        const float *v = logits.data<float>();
        int prev = -1;
        for (std::size_t k = 0; k < w.tokens.wordIds.size(); ++k) {
            const int word = w.tokens.wordIds[k];
            if (word < 0 || word == prev) {
                prev = word;
                continue;
            }
            prev = word;
            if (word < w.firstOwnedWord || word >= w.endOwnedWord)
                continue;
            const float *row = v + std::int64_t(k) * c;
            predicted[std::size_t(w.page)][std::size_t(word)] = labels[std::size_t(std::max_element(row, row + c) - row)];
        }
    }
    inference::EntityScorer scorer;
    for (std::size_t i = 0; i < pages.size(); ++i)
        scorer.add(pages[i].page.tags, predicted[i]);
    return scorer.micro().f1();
}

std::string baseModelName(const QString &initDir)
{
    QFile f(initDir + QStringLiteral("/config.json"));
    if (f.open(QIODevice::ReadOnly)) {
        const nlohmann::json j = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
        if (j.is_object() && j.contains("_name_or_path") && j["_name_or_path"].is_string()
            && !j["_name_or_path"].get<std::string>().empty())
            return j["_name_or_path"].get<std::string>();
    }
    return QDir(initDir).absolutePath().toStdString();
}

std::string modelCard(const HfFineTuneConfig &cfg, const HfFineTuneOutcome &o, const std::string &modelType, long totalSteps,
                      const HfTrainingData &data)
{
    auto num = [](double v, int prec) {
        char b[64];
        std::snprintf(b, sizeof b, "%.*f", prec, v);
        return std::string(b);
    };
    std::string s = "---\nbase_model: " + baseModelName(cfg.initDir) + "\nlibrary_name: transformers\n"
                    "pipeline_tag: token-classification\ntags:\n- " + modelType + "\n- token-classification\n- folio\n---\n\n";
    s += "# " + QFileInfo(cfg.outDir).fileName().toStdString() + "\n\n";
    s += "A " + inference::HfFineTuner::tokenClassificationArchitecture(modelType) + " fine-tuned by Folio from `"
         + baseModelName(cfg.initDir) + "` with the Hugging Face Trainer's step (AdamW, linear schedule, gradient clipping).\n\n";
    s += "## Data\n\n" + (cfg.dataDescription.empty() ? std::string("(not recorded)") : cfg.dataDescription) + "\n\n";
    s += "Labels (" + std::to_string(cfg.labels.size()) + "): ";
    for (std::size_t i = 0; i < cfg.labels.size(); ++i)
        s += (i ? ", " : "") + cfg.labels[i];
    s += o.newHead ? ". The classification head is new (the base checkpoint's labels differ), initialised N(0, initializer_range).\n\n"
                   : ". The base checkpoint's head was kept (same labels).\n\n";
    s += "## Training\n\n| setting | value |\n|---|---|\n";
    s += "| epochs | " + std::to_string(cfg.epochs) + " |\n| windows per step | " + std::to_string(cfg.batchSize) + " |\n";
    s += "| learning rate | " + num(cfg.lr, 8) + " (linear, warm-up ratio " + num(cfg.warmupRatio, 3) + ") |\n";
    s += "| weight decay | " + num(cfg.weightDecay, 4) + " |\n| max grad norm | " + num(cfg.maxGradNorm, 2) + " |\n";
    s += "| dropout | as config.json says (hidden_dropout_prob, attention_probs_dropout_prob, classifier_dropout) |\n";
    s += "| steps | " + std::to_string(o.steps) + " of " + std::to_string(totalSteps) + " |\n| seed | " + std::to_string(cfg.seed) + " |\n";
    s += "| train / dev windows | " + std::to_string(o.trainWindows) + " / " + std::to_string(o.devWindows) + " |\n\n";
    s += "## Results\n\n| epoch | mean train loss | " + data.metric + " |\n|---|---|---|\n";
    for (std::size_t e = 0; e < o.lossPerEpoch.size(); ++e)
        s += "| " + std::to_string(e + 1) + " | " + num(o.lossPerEpoch[e], 4) + " | "
             + (e < o.devF1PerEpoch.size() && o.devF1PerEpoch[e] >= 0 ? num(o.devF1PerEpoch[e], 4) : std::string("-")) + " |\n";
    if (o.bestDevF1 >= 0)
        s += "\nThese weights: epoch " + std::to_string(o.bestEpoch) + ", " + data.metric + " " + num(o.bestDevF1, 4) + " ("
             + data.metricNote + ").\n";
    else
        s += "\nNo dev pages: these are the last epoch's weights.\n";
    s += "\n## Command\n\n```\n" + (cfg.command.empty() ? std::string("(not recorded)") : cfg.command) + "\n```\n";
    return s;
}

bool writeJson(const QString &path, const nlohmann::json &j)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    const std::string text = j.dump(2) + "\n";
    f.write(text.data(), qint64(text.size()));
    return f.commit();
}

} // namespace

HfFineTuneOutcome runHfFineTuning(const HfFineTuneConfig &cfg,
                                  const std::function<HfTrainingData(const inference::HfFineTuner &tuner)> &prepare,
                                  const std::function<void(const HfFineTuneProgress &)> &progress, std::atomic<bool> *cancel)
{
    HfFineTuneOutcome o;
    const auto t0 = std::chrono::steady_clock::now();
    auto say = [&](const std::string &m) {
        if (progress) {
            HfFineTuneProgress p;
            p.message = m;
            progress(p);
        }
    };
    try {
        if (cfg.labels.empty())
            throw inference::InferenceError("no label set");
        if (cfg.epochs < 1 || cfg.batchSize < 1)
            throw inference::InferenceError("epochs and batch size must be at least 1");
        const QString lastDir = cfg.outDir + QStringLiteral("/last");
        const bool resuming = cfg.resume && QFileInfo::exists(lastDir + QStringLiteral("/trainer_state.json"));
        if (cfg.resume && !resuming)
            throw inference::InferenceError(lastDir.toStdString() + "/trainer_state.json: nothing to resume");
        inference::HfFineTuner tuner;
        std::string err;
        if (!tuner.load((resuming ? lastDir : cfg.initDir).toStdString(), &err))
            throw inference::InferenceError(err);
        bool newHead = false;
        if (!tuner.setLabels(cfg.labels, cfg.seed, &newHead, &err))
            throw inference::InferenceError(err);
        o.newHead = newHead;
        const bool writes = cfg.distributed.writes();
        if (cfg.distributed.enabled() && !tuner.setDistributed(cfg.distributed, &err))
            throw inference::InferenceError(err);
        const HfTrainingData data = prepare(tuner);
        if (data.trainWindows == 0)
            throw inference::InferenceError("no training windows");
        o.trainWindows = int(data.trainWindows);
        o.devWindows = int(data.devWindows);
        o.pagesWithoutImage = data.pagesWithoutImage;
        if (!data.note.empty() && writes)
            say(data.note);

        const long perEpoch = (long(data.trainWindows) + cfg.batchSize - 1) / cfg.batchSize;
        long total = perEpoch * cfg.epochs;
        if (cfg.maxSteps > 0)
            total = std::min(total, cfg.maxSteps);
        inference::HfFineTuneOptions opt;
        opt.lr = cfg.lr;
        opt.weightDecay = cfg.weightDecay;
        opt.maxGradNorm = cfg.maxGradNorm;
        opt.totalSteps = total;
        opt.warmupSteps = long(std::ceil(cfg.warmupRatio * double(total)));
        opt.seed = cfg.seed;
        tuner.setOptions(opt);

        int startEpoch = 0;
        long startBatch = 0;
        if (resuming) {
            QFile f(lastDir + QStringLiteral("/trainer_state.json"));
            if (!f.open(QIODevice::ReadOnly))
                throw inference::InferenceError(lastDir.toStdString() + "/trainer_state.json: cannot open");
            const nlohmann::json st = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
            if (!st.is_object() || !st.contains("epoch") || !st.contains("batch_in_epoch"))
                throw inference::InferenceError(lastDir.toStdString() + "/trainer_state.json: not a Folio trainer state");
            if (st.value("total_steps", 0L) != total)
                throw inference::InferenceError(lastDir.toStdString() + "/trainer_state.json: the run had "
                                                + std::to_string(st.value("total_steps", 0L)) + " steps, this one "
                                                + std::to_string(total) + " (resume with the same data and settings)");
            startEpoch = st["epoch"].get<int>();
            startBatch = st["batch_in_epoch"].get<long>();
            o.bestDevF1 = st.value("best_dev_f1", -1.0);
            o.bestEpoch = st.value("best_epoch", 0);
            o.devF1PerEpoch = st.value("dev_f1_per_epoch", std::vector<double>());
            o.lossPerEpoch = st.value("loss_per_epoch", std::vector<double>());
            o.newHead = st.value("new_head", false);
            if (!tuner.loadOptimiserState((lastDir + QStringLiteral("/optimizer.safetensors")).toStdString(), &err))
                throw inference::InferenceError(err);
            say("resuming at epoch " + std::to_string(startEpoch + 1) + ", step " + std::to_string(tuner.steps()));
        }
        auto saveLast = [&](int epoch, long batchInEpoch) {
            std::string e;
            if (!tuner.saveFolder(lastDir.toStdString(), cfg.initDir.toStdString(), {}, &e)
                || !tuner.saveOptimiserState((lastDir + QStringLiteral("/optimizer.safetensors")).toStdString(), &e))
                throw inference::InferenceError(e);
            const nlohmann::json st{{"epoch", epoch},           {"batch_in_epoch", batchInEpoch}, {"global_step", tuner.steps()},
                                    {"total_steps", total},     {"best_dev_f1", o.bestDevF1},    {"best_epoch", o.bestEpoch},
                                    {"dev_f1_per_epoch", o.devF1PerEpoch}, {"loss_per_epoch", o.lossPerEpoch},
                                    {"new_head", o.newHead}};
            if (!writeJson(lastDir + QStringLiteral("/trainer_state.json"), st))
                throw inference::InferenceError(lastDir.toStdString() + "/trainer_state.json: cannot write");
        };

        double trainSeconds = 0;
        long timedSteps = 0;
        bool done = tuner.steps() >= total;
        for (int epoch = startEpoch; epoch < cfg.epochs && !done; ++epoch) {
            if (tuner.steps() >= total)
                break; // --max-steps reached at an epoch's end
            std::vector<std::size_t> order(data.trainWindows);
            std::iota(order.begin(), order.end(), 0);
            std::mt19937_64 rng(cfg.seed * 1000003ULL + std::uint64_t(epoch));
            std::shuffle(order.begin(), order.end(), rng);
            double lossSum = 0;
            long lossCount = 0;
            for (long b = epoch == startEpoch ? startBatch : 0; b < perEpoch; ++b) {
                if (tuner.steps() >= total) {
                    done = true;
                    break;
                }
                const bool stop = tuner.isDistributed() ? tuner.sumOverRanks(cancel && cancel->load() ? 1.0 : 0.0) > 0
                                                        : cancel && cancel->load();
                if (stop) {
                    if (writes)
                        saveLast(epoch, b);
                    o.cancelled = true;
                    o.steps = tuner.steps();
                    return o;
                }
                // This rank's items of the global batch (k % W), split into the in-process shards (k % S).
                const int world = cfg.distributed.enabled() ? cfg.distributed.worldSize : 1;
                const int shardsWanted = std::max(1, cfg.gradientShards);
                std::vector<std::vector<std::size_t>> parts(static_cast<std::size_t>(shardsWanted));
                int item = 0;
                for (std::size_t k = std::size_t(b) * std::size_t(cfg.batchSize);
                     k < order.size() && k < std::size_t(b + 1) * std::size_t(cfg.batchSize); ++k, ++item)
                    if (item % world == cfg.distributed.rank % world)
                        parts[std::size_t((item / world) % shardsWanted)].push_back(order[k]);
                std::vector<TensorMap> shards;
                for (const auto &part : parts)
                    if (!part.empty())
                        shards.push_back(data.batch(part));
                const auto s0 = std::chrono::steady_clock::now();
                const inference::HfStepResult r = tuner.step(shards);
                if (!r.ok) {
                    // A batch without any labelled position (every word owned elsewhere) is no step.
                    if (r.error.find("no position of the batch has a label") != std::string::npos)
                        continue;
                    throw inference::InferenceError(r.error);
                }
                trainSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
                ++timedSteps;
                lossSum += r.loss;
                ++lossCount;
                o.finalLoss = r.loss;
                if (progress) {
                    HfFineTuneProgress p;
                    p.step = tuner.steps();
                    p.totalSteps = total;
                    p.epoch = epoch + 1;
                    p.epochs = cfg.epochs;
                    p.loss = r.loss;
                    p.lr = r.lr;
                    p.etaSeconds = trainSeconds / double(timedSteps) * double(total - tuner.steps());
                    progress(p);
                }
            }
            o.lossPerEpoch.push_back(lossCount ? lossSum / double(lossCount) : 0.0);
            double f1 = data.devWindows == 0 ? -1.0 : writes && data.devScore ? data.devScore(tuner) : 0.0;
            if (tuner.isDistributed() && data.devWindows > 0)
                f1 = tuner.sumOverRanks(f1); // rank 0's score, on every rank (the others add 0)
            o.devF1PerEpoch.push_back(f1);
            const bool best = f1 < 0 || o.bestDevF1 < 0 || f1 > o.bestDevF1 || (data.laterEpochWinsTies && f1 == o.bestDevF1);
            if (best) {
                o.bestDevF1 = f1;
                o.bestEpoch = epoch + 1;
            }
            char line[256];
            std::snprintf(line, sizeof line, "epoch %d/%d: mean loss %.4f, %s %s%s", epoch + 1, cfg.epochs,
                          o.lossPerEpoch.back(), data.metric.c_str(), f1 < 0 ? "- (no dev pages)" : std::to_string(f1).c_str(),
                          best && f1 >= 0 ? " (best so far: written)" : "");
            if (writes)
                say(line);
            o.steps = tuner.steps();
            if (!writes)
                continue; // rank 0 writes the folder and the resume state
            if (best && !tuner.saveFolder(cfg.outDir.toStdString(), cfg.initDir.toStdString(), modelCard(cfg, o, tuner.modelType(), total, data), &err))
                throw inference::InferenceError(err);
            if (!best) { // the card's results table follows every epoch; the weights stay the best epoch's
                QSaveFile card(cfg.outDir + QStringLiteral("/README.md"));
                const std::string text = modelCard(cfg, o, tuner.modelType(), total, data);
                if (!card.open(QIODevice::WriteOnly) || card.write(text.data(), qint64(text.size())) != qint64(text.size())
                    || !card.commit())
                    throw inference::InferenceError(cfg.outDir.toStdString() + "/README.md: cannot write");
            }
            saveLast(epoch + 1, 0);
        }
        o.steps = tuner.steps();
        if (writes)
            QDir(lastDir).removeRecursively();
        o.ok = true;
    } catch (const std::exception &e) {
        o.error = QString::fromUtf8(e.what());
    }
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return o;
}


HfFineTuneOutcome fineTuneHfTokenClassifier(const HfFineTuneConfig &cfg, const std::vector<HfTrainPage> &train,
                                            const std::vector<HfTrainPage> &dev,
                                            const std::function<void(const HfFineTuneProgress &)> &progress,
                                            std::atomic<bool> *cancel)
{
    HfFineTuneOutcome refused;
    if (train.empty())
        refused.error = QStringLiteral("no labelled training pages");
    // MarkupLM fine-tunes on web pages' nodes (pipeline/markuplmtraining.h): only the layout models here.
    else if (QFileInfo::exists(cfg.initDir + QStringLiteral("/config.json")) && !isHfFineTunableFolder(cfg.initDir))
        refused.error = cfg.initDir + QStringLiteral("/config.json: its model_type cannot be fine-tuned on "
                                                     "pages (layoutlmv3, lilt and layoutlmv2 / LayoutXLM can; markuplm on web pages)");
    if (!refused.error.isEmpty())
        return refused;
    Prepared trainData, devData; // filled once the checkpoint is loaded; the batches point into them
    ImageProcessing usedImage;      // how the pages' images were given to the model, when they were
    bool imageUsed = false;
    HfFineTuneOutcome o = runHfFineTuning(
        cfg,
        [&](const inference::HfFineTuner &tuner) {
            const inference::HfLayoutTokenizer tokenizer = inference::HfLayoutTokenizer::fromDirectory(cfg.initDir.toStdString());
            const inference::ModelConfig config = inference::ModelConfig::fromDirectory(cfg.initDir.toStdString());
            const long long positions = inference::hfMaxTextPositions(config);
            int maxTokens = int(std::min<long long>(tokenizer.config().modelMaxLength, std::max(3LL, positions)));
            if (cfg.maxTokens > 0)
                maxTokens = std::min(maxTokens, cfg.maxTokens);
            ImageProcessing image;
            QString imageError;
            if (!readImageProcessing(cfg.initDir, &image, &imageError))
                throw inference::InferenceError(imageError.toStdString());
            // LayoutLMv3 with visual_embed: pixel_values; LayoutLMv2 / LayoutXLM with backbone weights: image.
            const std::string imageInput = tuner.imageInputName();
            const bool visual = !imageInput.empty() && (imageInput == "image" || image.visual);
            usedImage = image;
            imageUsed = visual;
            HfTrainingData d;
            trainData = prepareWindows(train, tokenizer, cfg.labels, maxTokens, visual ? &image : nullptr, &d.pagesWithoutImage);
            devData = prepareWindows(dev, tokenizer, cfg.labels, maxTokens, visual ? &image : nullptr, &d.pagesWithoutImage);
            d.trainWindows = trainData.windows.size();
            d.devWindows = devData.windows.size();
            if (visual && d.pagesWithoutImage > 0)
                d.note = std::to_string(d.pagesWithoutImage) + " pages have no image: their windows train on text and layout only";
            const int padId = tokenizer.padId();
            d.batch = [&trainData, padId, imageInput](const std::vector<std::size_t> &windows) {
                std::vector<const HfEncodedWindow *> part;
                for (std::size_t k : windows)
                    part.push_back(&trainData.windows[k]);
                return modelBatch(part, padId, batchPixels(trainData, part), imageInput);
            };
            d.devScore = [&devData, &dev, &cfg, padId, imageInput](const inference::HfFineTuner &t) {
                return devF1(t, devData, dev, cfg.labels, padId, imageInput);
            };
            return d;
        },
        progress, cancel);
    // A folder started without preprocessor_config.json gets one stating the image processing the
    // model was trained with, so that Python's processor prepares pages as Folio did.
    const QString pre = cfg.outDir + QStringLiteral("/preprocessor_config.json");
    if (o.ok && imageUsed && QFileInfo::exists(cfg.outDir + QStringLiteral("/model.safetensors")) && !QFileInfo::exists(pre)) {
        QFile tokenizerConfig(cfg.initDir + QStringLiteral("/tokenizer_config.json"));
        const bool xlm = tokenizerConfig.open(QIODevice::ReadOnly) && tokenizerConfig.read(1 << 20).contains("LayoutXLM");
        const QString processor = usedImage.bgrUint8 ? (xlm ? QStringLiteral("LayoutXLMProcessor") : QStringLiteral("LayoutLMv2Processor"))
                                                     : QStringLiteral("LayoutLMv3Processor");
        QString why;
        if (!writeImageProcessorConfig(cfg.outDir, usedImage, processor, &why)) {
            o.ok = false;
            o.error = why;
        }
    }
    return o;
}

} // namespace folio::pipeline
