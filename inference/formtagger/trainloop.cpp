// The tagger's training loop on the shared toolkit (training/detail/optimiser.h, trainkit.h):
// AdamW parameter groups (bias tables: lr x biasLrScale, no decay; vectors: no decay),
// length-bucketed batches, box jitter, dev-F1 model selection, early stopping, checkpoints,
// resume, cancel.
#include "inference/checkpoint/detail/convert.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/formtagger/detail/taggermodel.h"
#include "inference/errors.h"
#include "inference/models/modelrunner.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/formtagger/trainer.h"
#include "inference/training/detail/optimiser.h"
#include "inference/training/detail/processgroup.h"
#include "inference/training/detail/trainkit.h"
#include "inference/training/detail/weightaverage.h"

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

// Prepares the tokenizer in outputDir (trains SentencePiece when none is given).
std::unique_ptr<Tokenizer> prepareTokenizer(const TrainConfig &cfg, const std::vector<TaggerPage> &trainPages,
                                            const ProgressCallback &progress)
{
    const fs::path out(cfg.outputDir);
    if (cfg.distributed.enabled()) {
        // Every rank must use the same vocabulary: a given one, read where it is (rank 0 copies it).
        if (cfg.tokenizerDir.empty())
            throw InferenceError("distributed training needs a trained vocabulary (--tokenizer DIR, e.g. from folio-cli vocab), "
                                 "so that every rank uses the same one");
        if (!cfg.distributed.writes())
            return Tokenizer::fromDirectory(cfg.tokenizerDir);
    }
    if (cfg.resume && fs::exists(out / "last" / "state.json"))
        return Tokenizer::fromDirectory(out.string());
    if (cfg.tokenizerDir.empty()) {
        const fs::path words = out / "vocab-corpus.txt";
        {
            std::ofstream f(words);
            for (const TaggerPage &p : trainPages)
                for (const std::string &w : p.words)
                    f << w << '\n';
        }
        if (progress) {
            TrainProgress tp;
            tp.message = "training SentencePiece unigram vocabulary (" + std::to_string(cfg.vocabSize) + ")";
            progress(tp);
        }
        // At most cfg.vocabSize pieces: a project of a few pages cannot give 4000.
        trainSentencePiece(words.string(), (out / "spm").string(), cfg.vocabSize, "unigram", 1.0, /*atMost=*/true);
        fs::remove(words);
        fs::remove(out / "spm.vocab");
        return makeSentencePieceTokenizer((out / "spm.model").string());
    }
    auto tok = Tokenizer::fromDirectory(cfg.tokenizerDir);
    for (const std::string &f : tok->files())
        fs::copy_file(f, out / fs::path(f).filename(), fs::copy_options::overwrite_existing);
    return Tokenizer::fromDirectory(out.string());
}

std::vector<detail::EncodedPage> encodeAll(const Tokenizer &tok, const std::vector<TaggerPage> &pages, const TaggerConfig &cfg,
                                           const std::map<std::string, int> &labelIds)
{
    std::vector<detail::EncodedPage> out;
    for (const TaggerPage &p : pages) {
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

TrainResult train(const TrainConfig &config, const std::vector<TaggerPage> &trainPages, const std::vector<TaggerPage> &devPages,
                  const ProgressCallback &progress, const std::atomic<bool> *cancel)
{
    TrainResult result;
    const auto t0 = std::chrono::steady_clock::now();
    result.ok = detail::runGuarded([&] {
        if (config.outputDir.empty())
            throw InferenceError("train: no output folder");
        if (config.variant != "full" && config.variant != "no-spatial-bias" && config.variant != "text")
            throw InferenceError("train: unknown variant \"" + config.variant + "\" (full, no-spatial-bias, text)");
        const std::string &arch = config.architecture;
        if (!arch.empty() && arch != "layoutlmv3" && arch != "layoutlmv2" && arch != "ernie" && arch != "text")
            throw InferenceError("train: unknown architecture \"" + arch + "\" (layoutlmv3, layoutlmv2, ernie, text)");
        if (config.epochs <= 0 || config.batchSize <= 0)
            throw InferenceError("train: epochs and batch size must be positive");
        size_t nonEmpty = 0;
        for (const TaggerPage &p : trainPages)
            nonEmpty += p.words.empty() ? 0 : 1;
        if (nonEmpty == 0)
            throw InferenceError("train: no training page has any word");
        const fs::path out(config.outputDir);
        fs::create_directories(out / "last");
        configureThreads(config.threads);
        // Data parallel (training/distributed.h): one process group, or shards in this process.
        std::unique_ptr<detail::ProcessGroup> group;
        if (config.distributed.enabled())
            group = std::make_unique<detail::ProcessGroup>(config.distributed);
        const bool writes = !group || config.distributed.writes();
        const int shards = group ? group->worldSize() : std::max(1, config.gradientShards);
        const int myShard = group ? group->rank() : -1; // -1: every shard in this process

        TrainConfig effective = config;
        TaggerConfig pretrained;
        if (!config.initDir.empty()) {
            // A pretrained encoder decides the sizes and the vocabulary.
            pretrained = TaggerConfig::fromJsonFile((fs::path(config.initDir) / "config.json").string());
            if (!config.tokenizerDir.empty() && fs::weakly_canonical(config.tokenizerDir) != fs::weakly_canonical(config.initDir))
                throw InferenceError("train --init " + config.initDir + ": the encoder was pretrained with its own vocabulary; "
                                     "leave --tokenizer out (it is taken from that folder)");
            effective.tokenizerDir = config.initDir;
            effective.hidden = pretrained.hidden;
            effective.layers = pretrained.layers;
            effective.heads = pretrained.heads;
            effective.intermediate = pretrained.intermediate;
            effective.maxPiecesPerWord = pretrained.maxPiecesPerWord;
        }
        const std::unique_ptr<Tokenizer> tok = prepareTokenizer(effective, trainPages, progress);
        TaggerConfig tc;
        tc.variant = arch.empty() ? config.variant : arch == "text" ? "text" : "full";
        tc.architecture = arch;
        if (!config.wordOrder.empty() && config.wordOrder != "annotation" && config.wordOrder != "reading" && config.wordOrder != "layout")
            throw InferenceError("train: unknown word order \"" + config.wordOrder + "\" (annotation, reading, layout)");
        tc.wordOrder = config.wordOrder;
        tc.vocabSize = tok->vocabSize();
        tc.hidden = effective.hidden;
        tc.layers = effective.layers;
        tc.heads = effective.heads;
        tc.intermediate = effective.intermediate;
        tc.maxPiecesPerWord = effective.maxPiecesPerWord;
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

        const long stepsPerEpoch = long((units.size() + size_t(config.batchSize) - 1) / size_t(config.batchSize));
        const long totalSteps = stepsPerEpoch * config.epochs;
        const bool resuming = config.resume && fs::exists(out / "last" / "state.json");
        if (group && group->sum(resuming ? 1.0 : 0.0) != (resuming ? double(group->worldSize()) : 0.0))
            throw InferenceError("distributed --resume: " + (out / "last" / "state.json").string() +
                                 " must exist for every rank (a shared output folder) or for none");
        std::unique_ptr<Tagger> model;
        if (resuming) {
            detail::ParamStore store((out / "last" / "model.safetensors").string());
            model = std::make_unique<Tagger>(tc, store);
            store.finish();
            for (auto &kv : model->params())
                kv.second.set_requires_grad(true);
        } else {
            model = std::make_unique<Tagger>(tc);
            model->initialise(config.seed);
            if (!config.initDir.empty()) {
                if (pretrained.vocabSize != tc.vocabSize || pretrained.variant != tc.variant || pretrained.architecture != tc.architecture)
                    throw InferenceError("train --init " + config.initDir + ": the pretrained encoder (variant " + pretrained.variant +
                                         ", vocabulary " + std::to_string(pretrained.vocabSize) + ") does not match this training");
                detail::ParamStore store((fs::path(config.initDir) / "model.safetensors").string());
                at::NoGradGuard noGrad;
                for (auto &[name, t] : model->params())
                    if (name.rfind("classifier.", 0) != 0)
                        t.copy_(store.take(name, t.sizes().vec()));
            }
        }
        Tagger &tagger = *model;
        detail::OptimiserOptions oo;
        oo.lr = config.lr;
        oo.weightDecay = config.weightDecay;
        oo.clipNorm = config.clipNorm;
        oo.totalSteps = totalSteps;
        oo.warmupSteps = long(config.warmupFraction * double(totalSteps));
        detail::Optimiser optimiser(tagger.params(), oo, [&](const std::string &name, const at::Tensor &t) {
            return detail::ParamGroupRule{!Tagger::noDecay(name, t), Tagger::isBiasTable(name) ? config.biasLrScale : 1.0};
        });
        if (group) {
            group->broadcastFromRankZero(tagger.params());
            optimiser.setGradientReducer([&](const std::vector<at::Tensor> &ps, bool have) { return group->averageGradients(ps, have); });
        }
        int startEpoch = 1;
        detail::EarlyStopping stopper(config.patience);
        nlohmann::json history = nlohmann::json::array();
        detail::StepClock clock;
        long piecesSeen = 0;
        if (resuming) {
            const nlohmann::json st = detail::readJsonFile((out / "last" / "state.json").string());
            optimiser.load((out / "last" / "optimizer.safetensors").string());
            startEpoch = st.at("epoch").get<int>() + 1;
            stopper.restore(st);
            history = st.value("history", nlohmann::json::array());
            clock.restore(st.value("train_seconds", 0.0), st.value("words_seen", 0L));
            piecesSeen = st.value("pieces_seen", 0L);
        }
        long step = optimiser.steps();
        // The weight average, when asked for (resumed from last/ with the rest of the state).
        std::unique_ptr<detail::WeightAverage> average;
        if (config.emaDecay > 0) {
            if (config.emaDecay >= 1)
                throw InferenceError("train: the weight-average decay must be below 1 (got " + std::to_string(config.emaDecay) + ")");
            average = std::make_unique<detail::WeightAverage>(tagger.params(), config.emaDecay);
            if (resuming) {
                const fs::path saved = out / "last" / "weight_average.safetensors";
                if (!fs::exists(saved))
                    throw InferenceError("train --resume: " + saved.string() + " is missing (the run was started without --ema)");
                average->load(saved.string());
            }
        }

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
                tp.bestDevF1 = stopper.best();
                tp.tokensPerSecond = clock.unitsPerSecond();
                return tp;
            };
            long stepsThisEpoch = 0;
            for (const auto &g : groups) {
                if (detail::cancelOnAnyRank(cancel, group.get())) { // every rank stops at the same step
                    result.cancelled = true;
                    stop = true;
                    break;
                }
                if (config.maxSteps > 0 && step >= config.maxSteps) {
                    stop = true;
                    break;
                }
                clock.start();
                // Item k of the batch belongs to shard k % shards; the loss is the mean of the
                // shards' mean losses (one shard, the whole batch, when not data parallel).
                std::vector<std::vector<const detail::EncodedPage *>> shardPages(static_cast<std::size_t>(shards));
                for (size_t k = 0; k < g.size(); ++k)
                    shardPages[k % std::size_t(shards)].push_back(&units[g[k]]);
                long batchWords = 0, batchPieces = 0;
                const double l = optimiser.step([&] {
                    at::Tensor total;
                    int counted = 0;
                    for (int sh = 0; sh < shards; ++sh) {
                        if ((myShard >= 0 && sh != myShard) || shardPages[std::size_t(sh)].empty())
                            continue;
                        const detail::Batch batch = detail::makeBatch(shardPages[std::size_t(sh)], tc, config.jitter ? &rng : nullptr);
                        const at::Tensor logits = tagger.forward(batch, true);
                        const at::Tensor loss = at::cross_entropy_loss(logits.reshape({-1, tc.numLabels}), batch.labels.reshape({-1}),
                                                                       {}, at::Reduction::Mean, -100);
                        total = total.defined() ? total + loss : loss;
                        ++counted;
                        batchWords += batch.words;
                        batchPieces += batch.pieces;
                    }
                    return total.defined() ? total / double(counted) : total;
                });
                ++stepsThisEpoch;
                if (average)
                    average->update(tagger.params());
                if (!std::isnan(l)) {
                    lossSum += l;
                    ++lossCount;
                    lastLoss = l;
                }
                step = optimiser.steps();
                clock.stop(batchWords);
                piecesSeen += batchPieces;
                if (progress) {
                    TrainProgress tp = progressNow();
                    tp.etaSeconds = clock.etaSeconds(step, totalSteps);
                    progress(tp);
                }
            }
            if (stepsThisEpoch == 0 || result.cancelled)
                break;

            double f1 = 0;
            std::string devJson = "{}";
            if (average) // dev scores and the best checkpoint are the average's; swapped back below
                average->swap(tagger.params());
            if (!devPages.empty() && writes)
                devJson = detail::evaluatePages(tagger, *tok, devPages, true, &f1);
            if (group) // rank 0's score, so that every rank selects and stops alike
                f1 = group->sum(writes ? f1 : 0.0);
            const double epochSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - e0).count();
            history.push_back({{"epoch", epoch}, {"loss", lossSum / double(lossCount)}, {"dev_f1", f1}, {"seconds", epochSeconds}});
            if (stopper.update(epoch, f1, devPages.empty()) && writes) {
                detail::writeTextFile((out / "config.json").string(), tc.toJson());
                tagger.save((out / "model.safetensors").string());
                nlohmann::json fj;
                fj["format"] = "folio.checkpoint";
                fj["model_type"] = "folio-formtagger";
                fj["variant"] = tc.variant;
                fj["architecture"] = tc.architecture;
                if (!tc.wordOrder.empty())
                    fj["word_order"] = tc.wordOrder;
                fj["tokenizer"] = tok->kind();
                fj["data"] = config.dataDescription;
                fj["train_pages"] = trainPages.size();
                fj["dev_pages"] = devPages.size();
                fj["seed"] = config.seed;
                if (shards > 1)
                    fj["data_parallel"] = {{"shards", shards}, {"processes", group ? group->worldSize() : 1}};
                fj["command"] = config.command;
                if (!config.initDir.empty())
                    fj["init"] = config.initDir; // started from this pretrained encoder
                fj["epoch"] = epoch;
                fj["dev_metrics"] = nlohmann::json::parse(devJson);
                fj["hyperparameters"] = {{"epochs", config.epochs}, {"batch_size", config.batchSize}, {"lr", config.lr},
                                         {"bias_lr_scale", config.biasLrScale}, {"weight_decay", config.weightDecay},
                                         {"warmup_fraction", config.warmupFraction}, {"clip_norm", config.clipNorm},
                                         {"dropout", config.dropout}, {"jitter", config.jitter}, {"patience", config.patience},
                                         {"vocab_size", tc.vocabSize}, {"hidden", tc.hidden}, {"layers", tc.layers},
                                         {"heads", tc.heads}, {"intermediate", tc.intermediate}, {"ema_decay", config.emaDecay}};
                detail::writeTextFile((out / "folio.json").string(), fj.dump(2));
            }
            if (average)
                average->swap(tagger.params()); // the live weights again, to save and train on
            // Resume state (rank 0 only when data parallel).
            if (writes) {
                if (average)
                    average->save((out / "last" / "weight_average.safetensors").string());
                tagger.save((out / "last" / "model.safetensors").string());
                optimiser.save((out / "last" / "optimizer.safetensors").string());
                nlohmann::json st = stopper.toJson();
                st.update({{"epoch", epoch}, {"step", step}, {"history", history}, {"train_seconds", clock.seconds()},
                           {"words_seen", clock.units()}, {"pieces_seen", piecesSeen}});
                detail::writeTextFile((out / "last" / "state.json").string(), st.dump(2));
            }

            if (progress) {
                TrainProgress tp = progressNow();
                tp.devF1 = f1;
                tp.etaSeconds = double(config.epochs - epoch) * epochSeconds;
                char buf[256];
                std::snprintf(buf, sizeof buf, "epoch %d/%d  loss %.4f  dev F1 %.4f  best %.4f (epoch %d)  %.1f s  %.0f words/s",
                              epoch, config.epochs, tp.loss, f1, stopper.best(), stopper.bestEpoch(), epochSeconds,
                              tp.tokensPerSecond);
                tp.message = buf;
                progress(tp);
            }
            if (stopper.shouldStop())
                stop = true;
        }
        if (group) // nobody leaves while rank 0 still writes
            group->barrier();
        // folio.json: add the totals.
        if (writes && fs::exists(out / "folio.json")) {
            nlohmann::json fj = detail::readJsonFile((out / "folio.json").string());
            fj["history"] = history;
            fj["train_seconds"] = clock.seconds();
            fj["train_words_per_second"] = clock.unitsPerSecond();
            fj["train_pieces_per_second"] = clock.seconds() > 0 ? double(piecesSeen) / clock.seconds() : 0;
            fj["best_epoch"] = stopper.bestEpoch();
            fj["best_dev_f1"] = stopper.best();
            fj["optimiser"] = {{"kind", "torch::optim::AdamW"}, {"betas", {oo.beta1, oo.beta2}}, {"eps", oo.eps}};
            detail::writeTextFile((out / "folio.json").string(), fj.dump(2));
        }
        result.bestEpoch = stopper.bestEpoch();
        result.bestDevF1 = stopper.best();
        result.steps = step;
        result.finalLoss = lastLoss;
        result.tokensPerSecond = clock.unitsPerSecond();
        result.piecesPerSecond = clock.seconds() > 0 ? double(piecesSeen) / clock.seconds() : 0;
    }, &result.error);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

} // namespace folio::inference
