// Pretraining loop (pretrain.h): whole-word MLM + masked box regression on the tagger's encoder,
// on the shared toolkit (AdamW groups, warm-up + decay, clipping, exact optimiser state).
#include "inference/formtagger/pretrain.h"

#include "inference/checkpoint/detail/paramstore.h"
#include "inference/errors.h"
#include "inference/formtagger/detail/taggermodel.h"
#include "inference/layers/detail/layers.h"
#include "inference/models/modelrunner.h"
#include "inference/training/detail/optimiser.h"
#include "inference/training/detail/trainkit.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

namespace fs = std::filesystem;

namespace folio::inference {

namespace {

using detail::Tagger;
using detail::TaggerConfig;

// The two pretraining heads over the encoder's output (not part of model.safetensors).
struct Heads
{
    detail::LinearW dense, decoder, box;
    detail::LayerNormW norm;
    std::map<std::string, at::Tensor> params;

    Heads(detail::ParamStore &store, std::int64_t hidden, std::int64_t vocab, double eps)
    {
        dense = detail::LinearW::load(store, "mlm.dense", hidden, hidden);
        norm = detail::LayerNormW::load(store, "mlm.LayerNorm", hidden, eps);
        decoder = detail::LinearW::load(store, "mlm.decoder", hidden, vocab);
        box = detail::LinearW::load(store, "box", hidden, 4);
        params = {{"mlm.dense.weight", dense.weight}, {"mlm.dense.bias", dense.bias},
                  {"mlm.LayerNorm.weight", norm.weight}, {"mlm.LayerNorm.bias", norm.bias},
                  {"mlm.decoder.weight", decoder.weight}, {"mlm.decoder.bias", decoder.bias},
                  {"box.weight", box.weight}, {"box.bias", box.bias}};
    }
};

std::unique_ptr<Tokenizer> corpusTokenizer(const PretrainConfig &cfg, const std::vector<TaggerPage> &corpus, bool resuming)
{
    const fs::path out(cfg.outputDir);
    if (resuming && fs::exists(out / "spm.model"))
        return Tokenizer::fromDirectory(out.string());
    if (!cfg.tokenizerDir.empty()) {
        const auto given = Tokenizer::fromDirectory(cfg.tokenizerDir);
        for (const std::string &f : given->files())
            fs::copy_file(f, out / fs::path(f).filename(), fs::copy_options::overwrite_existing);
        return Tokenizer::fromDirectory(out.string());
    }
    const fs::path words = out / "vocab-corpus.txt";
    {
        std::ofstream f(words);
        for (const TaggerPage &p : corpus)
            for (const std::string &w : p.words)
                f << w << '\n';
    }
    try {
        trainSentencePiece(words.string(), (out / "spm").string(), cfg.vocabSize, "unigram", 1.0);
    } catch (const std::exception &e) {
        // SentencePiece says how large a vocabulary this text supports ("... <= 114."): pass that on.
        const std::string what = e.what();
        const auto at = what.find("<= ");
        const std::string limit = at == std::string::npos ? std::string() : what.substr(at + 3, what.find_first_not_of("0123456789", at + 3) - at - 3);
        fs::remove(words);
        if (limit.empty())
            throw;
        throw InferenceError("pretrain: the corpus is too small for a vocabulary of " + std::to_string(cfg.vocabSize) +
                             " pieces (its text supports at most " + limit + "): add documents or lower --vocab-size");
    }
    fs::remove(words);
    fs::remove(out / "spm.vocab");
    return makeSentencePieceTokenizer((out / "spm.model").string());
}

// The corpus cut into windows of at most maxWords words, encoded (no labels).
std::vector<detail::EncodedPage> corpusUnits(const Tokenizer &tok, const std::vector<TaggerPage> &corpus, const TaggerConfig &tc)
{
    std::vector<detail::EncodedPage> units;
    for (TaggerPage page : corpus) {
        page.tags.clear();
        if (page.words.empty() || page.words.size() != page.boxes.size())
            continue;
        for (const Window &w : slidingWindows(int(page.words.size()), tc.maxWords, tc.maxWords))
            if (w.end - w.begin >= 2)
                units.push_back(detail::encodePage(tok, page, tc, {}, w.begin, w.end));
    }
    return units;
}

// The units of step `step`: epoch e = step / stepsPerEpoch reads a permutation seeded by (seed, e).
std::vector<const detail::EncodedPage *> unitsOfStep(const std::vector<detail::EncodedPage> &units, long step, int batch,
                                                    unsigned seed, std::vector<size_t> *order, long *orderEpoch)
{
    const long perEpoch = long((units.size() + size_t(batch) - 1) / size_t(batch));
    const long epoch = step / perEpoch;
    if (epoch != *orderEpoch) {
        order->resize(units.size());
        std::iota(order->begin(), order->end(), size_t(0));
        std::mt19937 rng(static_cast<std::uint32_t>(std::uint64_t(seed) * 2654435761ull + std::uint64_t(epoch)));
        std::shuffle(order->begin(), order->end(), rng);
        *orderEpoch = epoch;
    }
    std::vector<const detail::EncodedPage *> out;
    const size_t first = size_t(step % perEpoch) * size_t(batch);
    for (size_t i = first; i < std::min(units.size(), first + size_t(batch)); ++i)
        out.push_back(&units[(*order)[i]]);
    return out;
}

struct StepLosses
{
    at::Tensor total;
    double mlm = 0, box = 0;
};

// Masks a batch (whole words; masks drawn from `rng`), runs the encoder and both heads.
StepLosses maskedLosses(const Tagger &tagger, const Heads &heads, detail::Batch batch, const PretrainConfig &cfg,
                        int maskId, std::mt19937 &rng)
{
    const auto b = batch.wordMask.size(0), n = batch.wordMask.size(1), k = batch.pieceIds.size(2);
    std::vector<std::uint8_t> chosen(size_t(b * n), 0), replace(size_t(b * n), 0), randomise(size_t(b * n), 0);
    std::vector<std::int64_t> randomPiece(size_t(b * n), 0);
    const at::Tensor real = batch.wordMask.contiguous();
    const bool *isReal = real.data_ptr<bool>();
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::uniform_int_distribution<std::int64_t> piece(1, std::int64_t(tagger.config().vocabSize) - 1);
    long count = 0;
    for (size_t i = 0; i < chosen.size(); ++i) {
        if (!isReal[i] || u(rng) >= cfg.maskFraction)
            continue;
        chosen[i] = 1;
        ++count;
        const double r = u(rng);
        replace[i] = r < 0.8;
        randomise[i] = r >= 0.8 && r < 0.9;
        randomPiece[i] = piece(rng);
    }
    if (count == 0) // at least one word per batch
        for (size_t i = 0; i < chosen.size(); ++i)
            if (isReal[i]) {
                chosen[i] = replace[i] = 1;
                break;
            }
    const auto mask = [&](const std::vector<std::uint8_t> &v) {
        return at::from_blob(const_cast<std::uint8_t *>(v.data()), {b, n}, at::kByte).to(at::kBool);
    };
    const at::Tensor chosenMask = mask(chosen), replaceMask = mask(replace), randomMask = mask(randomise);
    const at::Tensor targets = batch.pieceIds.select(2, 0).masked_select(chosenMask);        // [M] first sub-tokens
    const at::Tensor boxTargets = batch.boxes.to(at::kFloat).index({chosenMask}) / 1000.0;  // [M, 4]

    // Inputs: replaced words become one mask piece, randomised words one random piece.
    at::Tensor ids = batch.pieceIds.clone(), pieceMask = batch.pieceMask.clone();
    const at::Tensor single = replaceMask.logical_or(randomMask).unsqueeze(2);
    const at::Tensor firstOnly = at::arange(k, at::kLong).eq(0).view({1, 1, k}); // only a word's first piece
    pieceMask = pieceMask.masked_fill(single.logical_and(firstOnly.logical_not()), 0.0);
    ids = ids.masked_fill(single.logical_and(firstOnly.logical_not()), 0);
    ids.select(2, 0).masked_fill_(replaceMask, maskId);
    const at::Tensor randomIds = at::from_blob(randomPiece.data(), {b, n}, at::kLong).clone();
    ids.select(2, 0).copy_(at::where(randomMask, randomIds, ids.select(2, 0)));
    batch.pieceIds = ids;
    batch.pieceMask = pieceMask;
    // Boxes and gaps of every chosen word are hidden.
    batch.boxes = batch.boxes.masked_fill(chosenMask.unsqueeze(2), 0);
    batch.gaps = batch.gaps.masked_fill(chosenMask.unsqueeze(2), 0);

    const at::Tensor h = tagger.hidden(batch, true).index({chosenMask}); // [M, D]
    const at::Tensor logits = heads.decoder(heads.norm(at::gelu(heads.dense(h))));
    const at::Tensor mlm = at::cross_entropy_loss(logits, targets);
    const at::Tensor box = at::l1_loss(at::sigmoid(heads.box(h)), boxTargets);
    StepLosses out;
    out.total = mlm + cfg.boxLossWeight * box;
    out.mlm = mlm.item<double>();
    out.box = box.item<double>();
    return out;
}

void saveState(const fs::path &dir, const Tagger &tagger, const Heads &heads, const detail::Optimiser &optimiser,
               const nlohmann::json &state)
{
    fs::create_directories(dir);
    tagger.save((dir / "model.safetensors").string());
    detail::writeParameters((dir / "heads.safetensors").string(), heads.params, "folio-pretrain-heads");
    optimiser.save((dir / "optimizer.safetensors").string());
    detail::writeTextFile((dir / "state.json").string(), state.dump(2)); // last: its presence marks a complete state
}

} // namespace

PretrainResult pretrain(const PretrainConfig &config, const std::vector<TaggerPage> &corpus,
                        const std::function<void(const PretrainProgress &)> &progress, const std::atomic<bool> *cancel)
{
    PretrainResult result;
    result.ok = detail::runGuarded([&] {
        if (config.outputDir.empty())
            throw InferenceError("pretrain: no output folder");
        if (config.steps <= 0 || config.batchSize <= 0 || config.checkpointEvery <= 0)
            throw InferenceError("pretrain: steps, batch size and checkpoint interval must be positive");
        if (!(config.maskFraction > 0.0 && config.maskFraction < 1.0))
            throw InferenceError("pretrain: the mask fraction must lie in (0, 1)");
        long words = 0;
        for (const TaggerPage &p : corpus)
            words += long(p.words.size());
        result.corpusWords = words;
        if (words < config.minWords)
            throw InferenceError("pretrain: the corpus is too small to pretrain on: " + std::to_string(words) + " words in " +
                                 std::to_string(corpus.size()) + " pages, need at least " + std::to_string(config.minWords));
        const fs::path out(config.outputDir);
        const bool resuming = config.resume && fs::exists(out / "last" / "state.json");
        if (config.resume && !resuming && fs::exists(out / "last"))
            throw InferenceError("pretrain --resume: " + (out / "last").string() + " holds no complete checkpoint");
        fs::create_directories(out);
        configureThreads(config.threads);

        const std::unique_ptr<Tokenizer> tok = corpusTokenizer(config, corpus, resuming);
        TaggerConfig tc;
        tc.vocabSize = tok->vocabSize();
        tc.hidden = config.hidden;
        tc.layers = config.layers;
        tc.heads = config.heads;
        tc.intermediate = config.intermediate;
        tc.maxWords = std::min(config.maxWords, tc.maxPositions);
        tc.windowStride = tc.maxWords;
        tc.dropout = config.dropout;
        tc.labels = {"O"};
        tc.numLabels = 1;
        const std::vector<detail::EncodedPage> units = corpusUnits(*tok, corpus, tc);
        if (units.empty())
            throw InferenceError("pretrain: no page of the corpus has two words");

        std::unique_ptr<Tagger> model;
        std::unique_ptr<Heads> heads;
        if (resuming) {
            detail::ParamStore store((out / "last" / "model.safetensors").string());
            model = std::make_unique<Tagger>(tc, store);
            store.finish();
            detail::ParamStore headStore((out / "last" / "heads.safetensors").string());
            heads = std::make_unique<Heads>(headStore, tc.hidden, tc.vocabSize, tc.layerNormEps);
            headStore.finish();
            for (auto &kv : model->params())
                kv.second.set_requires_grad(true);
            for (auto &kv : heads->params)
                kv.second.set_requires_grad(true);
        } else {
            model = std::make_unique<Tagger>(tc);
            model->initialise(config.seed);
            detail::ParamStore fresh = detail::ParamStore::fresh();
            heads = std::make_unique<Heads>(fresh, tc.hidden, tc.vocabSize, tc.layerNormEps);
            detail::initialiseParameters(heads->params, std::uint64_t(config.seed) + 17);
        }
        Tagger &tagger = *model;
        // The classifier plays no part (no labels): everything else is trained.
        std::map<std::string, at::Tensor> trained;
        for (const auto &[name, t] : tagger.params())
            if (name.rfind("classifier.", 0) != 0)
                trained.emplace(name, t);
        for (const auto &[name, t] : heads->params)
            trained.emplace("pretrain." + name, t);
        detail::OptimiserOptions oo;
        oo.lr = config.lr;
        oo.weightDecay = config.weightDecay;
        oo.clipNorm = config.clipNorm;
        oo.totalSteps = config.steps;
        oo.warmupSteps = long(config.warmupFraction * double(config.steps));
        detail::Optimiser optimiser(trained, oo, [](const std::string &name, const at::Tensor &t) {
            return detail::ParamGroupRule{!Tagger::noDecay(name, t), 1.0};
        });
        detail::StepClock clock;
        nlohmann::json losses = nlohmann::json::array(); // every 10 steps: step, mlm, box
        if (resuming) {
            const nlohmann::json st = detail::readJsonFile((out / "last" / "state.json").string());
            optimiser.load((out / "last" / "optimizer.safetensors").string());
            clock.restore(st.value("train_seconds", 0.0), st.value("words_seen", 0L));
            losses = st.value("losses", nlohmann::json::array());
        }
        const double secondsBefore = clock.seconds();
        const long wordsBefore = clock.units();
        const int maskId = tok->unkId();
        std::vector<size_t> order;
        long orderEpoch = -1;
        std::vector<double> firstMlm, lastMlm, lastBox;
        double mlmSum = 0, boxSum = 0;
        long sumCount = 0;
        const auto state = [&](long step) {
            return nlohmann::json{{"step", step}, {"train_seconds", clock.seconds()}, {"words_seen", clock.units()},
                                  {"losses", losses}, {"seed", config.seed}, {"corpus_words", words}};
        };
        long step = optimiser.steps();
        while (step < config.steps) {
            if (detail::cancelRequested(cancel)) {
                result.cancelled = true;
                break;
            }
            const std::vector<const detail::EncodedPage *> pages = unitsOfStep(units, step, config.batchSize, config.seed,
                                                                               &order, &orderEpoch);
            std::mt19937 rng(static_cast<std::uint32_t>(std::uint64_t(config.seed) * 7919ull + std::uint64_t(step)));
            at::manual_seed(std::uint64_t(config.seed) * 1000003ull + std::uint64_t(step));
            clock.start();
            StepLosses l;
            long batchWords = 0;
            optimiser.step([&] {
                const detail::Batch batch = detail::makeBatch(pages, tc, nullptr);
                batchWords = batch.words;
                l = maskedLosses(tagger, *heads, batch, config, maskId, rng);
                return l.total;
            });
            step = optimiser.steps();
            clock.stop(batchWords);
            if (firstMlm.size() < 10)
                firstMlm.push_back(l.mlm);
            lastMlm.push_back(l.mlm);
            lastBox.push_back(l.box);
            if (lastMlm.size() > 10) {
                lastMlm.erase(lastMlm.begin());
                lastBox.erase(lastBox.begin());
            }
            mlmSum += l.mlm;
            boxSum += l.box;
            ++sumCount;
            if (step % 10 == 0 || step == config.steps) {
                losses.push_back({{"step", step}, {"mlm", mlmSum / double(sumCount)}, {"box", boxSum / double(sumCount)}});
                if (progress)
                    progress({step, config.steps, mlmSum / double(sumCount), boxSum / double(sumCount), clock.unitsPerSecond(),
                              clock.etaSeconds(step, config.steps)});
                mlmSum = boxSum = 0;
                sumCount = 0;
            }
            if (step % config.checkpointEvery == 0 && step < config.steps)
                saveState(out / "last", tagger, *heads, optimiser, state(step));
        }
        saveState(out / "last", tagger, *heads, optimiser, state(step)); // where a cancelled run resumes
        const auto mean = [](const std::vector<double> &v) {
            return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
        };
        result.steps = step;
        result.seconds = clock.seconds() - secondsBefore;
        result.wordsPerSecond = result.seconds > 0 ? double(clock.units() - wordsBefore) / result.seconds : 0;
        result.firstMlmLoss = mean(firstMlm);
        result.lastMlmLoss = mean(lastMlm);
        result.lastBoxLoss = mean(lastBox);
        if (result.cancelled)
            return;
        detail::writeTextFile((out / "config.json").string(), tc.toJson());
        tagger.save((out / "model.safetensors").string());
        detail::writeParameters((out / "heads.safetensors").string(), heads->params, "folio-pretrain-heads");
        nlohmann::json fj{{"format", "folio.checkpoint"},
                          {"model_type", "folio-formtagger"},
                          {"pretrained", {{"objectives", {"whole-word masked language modelling (first sub-token)",
                                                          "masked box regression (L1, 0-1 coordinates)"}},
                                          {"steps", step},
                                          {"batch_size", config.batchSize},
                                          {"mask_fraction", config.maskFraction},
                                          {"box_loss_weight", config.boxLossWeight},
                                          {"lr", config.lr},
                                          {"corpus_pages", corpus.size()},
                                          {"corpus_words", words},
                                          {"windows", units.size()},
                                          {"train_seconds", clock.seconds()},
                                          {"words_per_second", clock.unitsPerSecond()},
                                          {"losses", losses}}},
                          {"tokenizer", tok->kind()},
                          {"seed", config.seed},
                          {"data", config.dataDescription},
                          {"command", config.command},
                          {"hyperparameters", {{"vocab_size", tc.vocabSize}, {"hidden", tc.hidden}, {"layers", tc.layers},
                                               {"heads", tc.heads}, {"intermediate", tc.intermediate}}}};
        detail::writeTextFile((out / "folio.json").string(), fj.dump(2));
    }, &result.error);
    if (result.cancelled)
        result.ok = false;
    return result;
}

} // namespace folio::inference
