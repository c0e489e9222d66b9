// The training loop: AdamW with per-group lr, warm-up + linear decay, clipping, length-bucketed
// batches, box jitter, dev-F1 model selection, early stopping, checkpoints, resume, cancel.
#include "inference/checkpoint/detail/convert.h"
#include "inference/formtagger/detail/trainmodel.h"
#include "inference/errors.h"
#include "inference/models/modelrunner.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/formtagger/trainer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

namespace fs = std::filesystem;

namespace folio::inference {

using detail::Tagger;
using detail::TaggerConfig;

namespace {

void writeText(const fs::path &path, const std::string &text)
{
    const fs::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw InferenceError(path.string() + ": cannot write");
        out << text;
        if (!out)
            throw InferenceError(path.string() + ": write failed");
    }
    fs::rename(tmp, path);
}

nlohmann::json readJson(const fs::path &path)
{
    std::ifstream in(path);
    if (!in)
        throw InferenceError(path.string() + ": cannot open");
    return nlohmann::json::parse(in);
}

struct AdamState
{
    std::map<std::string, at::Tensor> m, v;
};

struct Unit
{
    detail::EncodedPage page;
};

// Prepares the tokenizer in outputDir (trains SentencePiece when none is given).
std::unique_ptr<Tokenizer> prepareTokenizer(const TrainConfig &cfg, const std::vector<TrainPage> &trainPages,
                                            const ProgressCallback &progress)
{
    const fs::path out(cfg.outputDir);
    if (cfg.resume && fs::exists(out / "last" / "state.json"))
        return Tokenizer::fromDirectory(out.string());
    if (cfg.tokenizerDir.empty()) {
        const fs::path words = out / "vocab-corpus.txt";
        {
            std::ofstream f(words);
            for (const TrainPage &p : trainPages)
                for (const std::string &w : p.words)
                    f << w << '\n';
        }
        if (progress) {
            TrainProgress tp;
            tp.message = "training SentencePiece unigram vocabulary (" + std::to_string(cfg.vocabSize) + ")";
            progress(tp);
        }
        trainSentencePiece(words.string(), (out / "spm").string(), cfg.vocabSize, "unigram", 1.0);
        fs::remove(words);
        fs::remove(out / "spm.vocab");
        return makeSentencePieceTokenizer((out / "spm.model").string());
    }
    auto tok = Tokenizer::fromDirectory(cfg.tokenizerDir);
    for (const std::string &f : tok->files())
        fs::copy_file(f, out / fs::path(f).filename(), fs::copy_options::overwrite_existing);
    return Tokenizer::fromDirectory(out.string());
}

std::vector<detail::EncodedPage> encodeAll(const Tokenizer &tok, const std::vector<TrainPage> &pages, const TaggerConfig &cfg,
                                           const std::map<std::string, int> &labelIds)
{
    std::vector<detail::EncodedPage> out;
    for (const TrainPage &p : pages) {
        if (p.words.empty())
            continue;
        if (p.words.size() != p.boxes.size() || p.words.size() != p.tags.size())
            throw InferenceError("page " + p.id + ": words, boxes and tags differ in number");
        for (const Window &w : slidingWindows(int(p.words.size()), cfg.maxWords, cfg.windowStride))
            out.push_back(detail::encodePage(tok, p, cfg, labelIds, w.begin, w.end));
    }
    return out;
}

} // namespace

TrainResult train(const TrainConfig &config, const std::vector<TrainPage> &trainPages, const std::vector<TrainPage> &devPages,
                  const ProgressCallback &progress, const std::atomic<bool> *cancel)
{
    TrainResult result;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        if (config.outputDir.empty())
            throw InferenceError("train: no output folder");
        if (config.variant != "full" && config.variant != "no-spatial-bias" && config.variant != "text")
            throw InferenceError("train: unknown variant \"" + config.variant + "\" (full, no-spatial-bias, text)");
        if (config.epochs <= 0 || config.batchSize <= 0)
            throw InferenceError("train: epochs and batch size must be positive");
        size_t nonEmpty = 0;
        for (const TrainPage &p : trainPages)
            nonEmpty += p.words.empty() ? 0 : 1;
        if (nonEmpty == 0)
            throw InferenceError("train: no training page has any word");
        const fs::path out(config.outputDir);
        fs::create_directories(out / "last");
        configureThreads(config.threads);

        const std::unique_ptr<Tokenizer> tok = prepareTokenizer(config, trainPages, progress);
        TaggerConfig tc;
        tc.variant = config.variant;
        tc.vocabSize = tok->vocabSize();
        tc.hidden = config.hidden;
        tc.layers = config.layers;
        tc.heads = config.heads;
        tc.intermediate = config.intermediate;
        tc.maxPiecesPerWord = config.maxPiecesPerWord;
        tc.maxWords = std::min(config.maxWords, tc.maxPositions);
        tc.windowStride = std::min(config.windowStride, tc.maxWords);
        tc.dropout = config.dropout;
        tc.labels = config.labels;
        tc.numLabels = int(config.labels.size());
        std::map<std::string, int> labelIds;
        for (size_t i = 0; i < tc.labels.size(); ++i)
            labelIds[tc.labels[i]] = int(i);

        const std::vector<detail::EncodedPage> units = encodeAll(*tok, trainPages, tc, labelIds);
        // Validate dev labels up front (clear error rather than mid-training).
        encodeAll(*tok, devPages, tc, labelIds);

        Tagger tagger(tc);
        tagger.initialise(config.seed);
        AdamState adam;
        for (auto &kv : tagger.params()) {
            adam.m[kv.first] = at::zeros_like(kv.second).detach();
            adam.v[kv.first] = at::zeros_like(kv.second).detach();
        }

        const long stepsPerEpoch = long((units.size() + size_t(config.batchSize) - 1) / size_t(config.batchSize));
        const long totalSteps = stepsPerEpoch * config.epochs;
        const long warmup = long(config.warmupFraction * double(totalSteps));
        int startEpoch = 1;
        long step = 0;
        double bestF1 = -1;
        int bestEpoch = 0, sinceBest = 0;
        nlohmann::json history = nlohmann::json::array();
        double trainSeconds = 0;
        long wordsSeen = 0, piecesSeen = 0;

        if (config.resume && fs::exists(out / "last" / "state.json")) {
            const nlohmann::json st = readJson(out / "last" / "state.json");
            tagger.load((out / "last" / "model.safetensors").string());
            for (auto &kv : tagger.params())
                kv.second.set_requires_grad(true);
            SafetensorsFile opt((out / "last" / "optimizer.safetensors").string());
            for (auto &kv : adam.m) {
                kv.second = detail::toAten(opt.tensor("m." + kv.first));
                adam.v[kv.first] = detail::toAten(opt.tensor("v." + kv.first));
            }
            startEpoch = st.at("epoch").get<int>() + 1;
            step = st.at("step").get<long>();
            bestF1 = st.at("best_dev_f1").get<double>();
            bestEpoch = st.at("best_epoch").get<int>();
            sinceBest = st.value("since_best", 0);
            history = st.value("history", nlohmann::json::array());
            trainSeconds = st.value("train_seconds", 0.0);
            wordsSeen = st.value("words_seen", 0L);
            piecesSeen = st.value("pieces_seen", 0L);
        }

        const double b1 = 0.9, b2 = 0.98, eps = 1e-8;
        bool stop = false;
        double lastLoss = 0;
        for (int epoch = startEpoch; epoch <= config.epochs && !stop; ++epoch) {
            const auto e0 = std::chrono::steady_clock::now();
            const std::uint64_t epochSeed = std::uint64_t(config.seed) * 1000003ull + std::uint64_t(epoch);
            std::mt19937 rng{static_cast<std::uint32_t>(epochSeed)};
            at::manual_seed(epochSeed);
            // Length-bucketed batches: sort by length + U(-40, 40), cut, shuffle the groups.
            std::uniform_real_distribution<double> noise(-40, 40);
            std::vector<std::pair<double, size_t>> keyed;
            for (size_t i = 0; i < units.size(); ++i)
                keyed.emplace_back(double(units[i].pieces.size()) + noise(rng), i);
            std::sort(keyed.begin(), keyed.end());
            std::vector<std::vector<size_t>> groups;
            for (size_t i = 0; i < keyed.size(); i += size_t(config.batchSize)) {
                std::vector<size_t> g;
                for (size_t k = i; k < std::min(keyed.size(), i + size_t(config.batchSize)); ++k)
                    g.push_back(keyed[k].second);
                groups.push_back(g);
            }
            std::shuffle(groups.begin(), groups.end(), rng);

            double lossSum = 0;
            long lossCount = 0;
            // The progress fields every report shares (loss so far this epoch, best dev F1, speed).
            const auto progressNow = [&] {
                TrainProgress tp;
                tp.epoch = epoch;
                tp.epochs = config.epochs;
                tp.step = step;
                tp.totalSteps = totalSteps;
                tp.loss = lossCount > 0 ? lossSum / double(lossCount) : 0;
                tp.bestDevF1 = bestF1;
                tp.tokensPerSecond = trainSeconds > 0 ? double(wordsSeen) / trainSeconds : 0;
                return tp;
            };
            for (const auto &g : groups) {
                if (cancel && cancel->load()) {
                    result.cancelled = true;
                    stop = true;
                    break;
                }
                if (config.maxSteps > 0 && step >= config.maxSteps) {
                    stop = true;
                    break;
                }
                const auto s0 = std::chrono::steady_clock::now();
                std::vector<const detail::EncodedPage *> ptrs;
                for (size_t i : g)
                    ptrs.push_back(&units[i]);
                const detail::Batch batch = detail::makeBatch(ptrs, tc, config.jitter ? &rng : nullptr);
                const at::Tensor logits = tagger.forward(batch, true);
                const at::Tensor loss = at::cross_entropy_loss(logits.reshape({-1, tc.numLabels}), batch.labels.reshape({-1}),
                                                               {}, at::Reduction::Mean, -100);
                for (auto &kv : tagger.params())
                    if (kv.second.grad().defined())
                        kv.second.mutable_grad().zero_();
                loss.backward();
                {
                    at::NoGradGuard ng;
                    double sq = 0;
                    for (auto &kv : tagger.params())
                        if (kv.second.grad().defined())
                            sq += kv.second.grad().pow(2).sum().item<double>();
                    const double norm = std::sqrt(sq);
                    const double clip = (config.clipNorm > 0 && norm > config.clipNorm) ? config.clipNorm / (norm + 1e-6) : 1.0;
                    const double sched = step < warmup ? double(step + 1) / double(std::max(1L, warmup))
                                                       : std::max(0.0, double(totalSteps - step) / double(std::max(1L, totalSteps - warmup)));
                    const double bc1 = 1 - std::pow(b1, double(step + 1)), bc2 = 1 - std::pow(b2, double(step + 1));
                    for (auto &kv : tagger.params()) {
                        at::Tensor grad = kv.second.grad();
                        if (!grad.defined())
                            continue;
                        if (clip != 1.0)
                            grad = grad * clip;
                        const double lr = config.lr * sched * (Tagger::isBiasTable(kv.first) ? config.biasLrScale : 1.0);
                        at::Tensor &m = adam.m[kv.first];
                        at::Tensor &v = adam.v[kv.first];
                        m.mul_(b1).add_(grad, 1 - b1);
                        v.mul_(b2).addcmul_(grad, grad, 1 - b2);
                        at::Tensor param = kv.second.detach();
                        if (!Tagger::noDecay(kv.first, kv.second))
                            param.mul_(1 - lr * config.weightDecay);
                        param.addcdiv_(m, (v / bc2).sqrt_().add_(eps), -lr / bc1);
                    }
                }
                const double l = loss.item<double>();
                lossSum += l;
                ++lossCount;
                lastLoss = l;
                ++step;
                trainSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
                wordsSeen += batch.words;
                piecesSeen += batch.pieces;
                if (progress) {
                    TrainProgress tp = progressNow();
                    tp.etaSeconds = step > 0 ? trainSeconds / double(step) * double(totalSteps - step) * 1.1 : 0;
                    progress(tp);
                }
            }
            if (lossCount == 0 || result.cancelled)
                break;

            double f1 = 0;
            std::string devJson = "{}";
            if (!devPages.empty())
                devJson = detail::evaluatePages(tagger, *tok, devPages, true, &f1);
            const double epochSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - e0).count();
            history.push_back({{"epoch", epoch}, {"loss", lossSum / double(lossCount)}, {"dev_f1", f1}, {"seconds", epochSeconds}});
            const bool improved = devPages.empty() || f1 > bestF1;
            if (improved) {
                bestF1 = f1;
                bestEpoch = epoch;
                sinceBest = 0;
                writeText(out / "config.json", tc.toJson());
                tagger.save((out / "model.safetensors").string());
                nlohmann::json fj;
                fj["format"] = "folio.checkpoint";
                fj["model_type"] = "folio-formtagger";
                fj["variant"] = config.variant;
                fj["tokenizer"] = tok->kind();
                fj["data"] = config.dataDescription;
                fj["train_pages"] = trainPages.size();
                fj["dev_pages"] = devPages.size();
                fj["seed"] = config.seed;
                fj["command"] = config.command;
                fj["epoch"] = epoch;
                fj["dev_metrics"] = nlohmann::json::parse(devJson);
                fj["hyperparameters"] = {{"epochs", config.epochs}, {"batch_size", config.batchSize}, {"lr", config.lr},
                                         {"bias_lr_scale", config.biasLrScale}, {"weight_decay", config.weightDecay},
                                         {"warmup_fraction", config.warmupFraction}, {"clip_norm", config.clipNorm},
                                         {"dropout", config.dropout}, {"jitter", config.jitter}, {"patience", config.patience},
                                         {"vocab_size", tc.vocabSize}, {"hidden", tc.hidden}, {"layers", tc.layers},
                                         {"heads", tc.heads}, {"intermediate", tc.intermediate}};
                writeText(out / "folio.json", fj.dump(2));
            } else {
                ++sinceBest;
            }
            // Resume state.
            tagger.save((out / "last" / "model.safetensors").string());
            TensorMap opt;
            for (const auto &kv : adam.m) {
                opt["m." + kv.first] = detail::fromAten(kv.second);
                opt["v." + kv.first] = detail::fromAten(adam.v[kv.first]);
            }
            writeSafetensors((out / "last" / "optimizer.safetensors").string(), opt);
            nlohmann::json st{{"epoch", epoch}, {"step", step}, {"best_dev_f1", bestF1}, {"best_epoch", bestEpoch},
                              {"since_best", sinceBest}, {"history", history}, {"train_seconds", trainSeconds},
                              {"words_seen", wordsSeen}, {"pieces_seen", piecesSeen}};
            writeText(out / "last" / "state.json", st.dump(2));

            if (progress) {
                TrainProgress tp = progressNow();
                tp.devF1 = f1;
                tp.etaSeconds = double(config.epochs - epoch) * epochSeconds;
                char buf[256];
                std::snprintf(buf, sizeof buf, "epoch %d/%d  loss %.4f  dev F1 %.4f  best %.4f (epoch %d)  %.1f s  %.0f words/s",
                              epoch, config.epochs, tp.loss, f1, bestF1, bestEpoch, epochSeconds, tp.tokensPerSecond);
                tp.message = buf;
                progress(tp);
            }
            if (config.patience > 0 && sinceBest >= config.patience)
                stop = true;
        }
        // folio.json: add the totals.
        if (fs::exists(out / "folio.json")) {
            nlohmann::json fj = readJson(out / "folio.json");
            fj["history"] = history;
            fj["train_seconds"] = trainSeconds;
            fj["train_words_per_second"] = trainSeconds > 0 ? double(wordsSeen) / trainSeconds : 0;
            fj["train_pieces_per_second"] = trainSeconds > 0 ? double(piecesSeen) / trainSeconds : 0;
            fj["best_epoch"] = bestEpoch;
            fj["best_dev_f1"] = bestF1;
            writeText(out / "folio.json", fj.dump(2));
        }
        result.ok = true;
        result.bestEpoch = bestEpoch;
        result.bestDevF1 = bestF1;
        result.steps = step;
        result.finalLoss = lastLoss;
        result.tokensPerSecond = trainSeconds > 0 ? double(wordsSeen) / trainSeconds : 0;
        result.piecesPerSecond = trainSeconds > 0 ? double(piecesSeen) / trainSeconds : 0;
    } catch (const InferenceError &e) {
        result.error = e.what();
    } catch (const c10::Error &e) {
        result.error = std::string("torch: ") + e.what_without_backtrace();
    } catch (const std::exception &e) {
        result.error = e.what();
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

} // namespace folio::inference
