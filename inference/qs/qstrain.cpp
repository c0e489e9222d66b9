#include "inference/qs/qstrain.h"

#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/errors.h"
#include "inference/qs/detail/seq2seqmodel.h"
#include "inference/training/detail/optimiser.h"
#include "inference/training/detail/processgroup.h"
#include "inference/training/detail/trainkit.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <random>

namespace folio::inference {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

nlohmann::json bartConfig(const QsTrainOptions &o)
{
    const QsModelSize &s = o.size;
    nlohmann::json c = {{"model_type", "bart"},
                        {"architectures", {"BartForConditionalGeneration"}},
                        {"d_model", s.dModel},
                        {"encoder_layers", s.encoderLayers},
                        {"decoder_layers", s.decoderLayers},
                        {"encoder_attention_heads", s.heads},
                        {"decoder_attention_heads", s.heads},
                        {"encoder_ffn_dim", s.ffn},
                        {"decoder_ffn_dim", s.ffn},
                        {"vocab_size", s.vocab},
                        {"max_position_embeddings", std::max(s.maxSourcePositions, s.maxTargetPositions)},
                        {"activation_function", "gelu"},
                        {"scale_embedding", false},
                        {"pad_token_id", s.pad},
                        {"bos_token_id", s.bos},
                        {"eos_token_id", s.eos},
                        {"decoder_start_token_id", s.decoderStart},
                        {"num_beams", 4},
                        {"max_length", s.maxTargetPositions},
                        {"min_length", 8},
                        {"no_repeat_ngram_size", 3},
                        {"length_penalty", 1.0},
                        {"early_stopping", true},
                        {"torch_dtype", o.float16 ? "float16" : "float32"}};
    if (o.copy)
        c["folio_copy_head"] = true;
    c.update(nlohmann::json::parse(o.extraConfigJson));
    return c;
}

void checkExamples(const std::vector<QsTrainExample> &examples, const char *what, const QsModelSize &s, bool hibrids)
{
    for (std::size_t i = 0; i < examples.size(); ++i) {
        const QsTrainExample &e = examples[i];
        const std::string where = std::string(what) + " example " + std::to_string(i);
        if (e.source.empty())
            throw InferenceError(where + ": empty source");
        if (hibrids) {
            if (e.tokenToSection.size() != e.source.size())
                throw InferenceError(where + ": HIBRIDS training needs one section per source token ("
                                     + std::to_string(e.tokenToSection.size()) + " for " + std::to_string(e.source.size()) + ")");
            const auto sections = std::int64_t(e.sectionParent.size());
            for (std::int64_t t : e.tokenToSection)
                if (t < 0 || t >= sections)
                    throw InferenceError(where + ": token section " + std::to_string(t) + " outside the "
                                         + std::to_string(sections) + " sections");
        }
        for (const auto *ids : {&e.source, &e.target})
            for (std::int64_t id : *ids)
                if (id < 0 || id >= s.vocab)
                    throw InferenceError(std::string(what) + " example " + std::to_string(i) + ": token id "
                                         + std::to_string(id) + " outside the vocabulary of " + std::to_string(s.vocab));
    }
}

detail::HibridsVariant variantNamed(const std::string &name)
{
    if (name.empty() || name == "none")
        return detail::HibridsVariant::None;
    if (name == "encoder")
        return detail::HibridsVariant::Encoder;
    if (name == "decoder")
        return detail::HibridsVariant::Decoder;
    throw InferenceError("HIBRIDS variant '" + name + "': expected none, encoder or decoder");
}

// The HIBRIDS tables of a fresh model, N(0, 0.02) from their own seed (the other weights are drawn
// before, identically for every variant).
std::map<std::string, at::Tensor> freshHibridsTables(detail::HibridsVariant v, const QsModelSize &s, std::uint64_t seed)
{
    std::map<std::string, at::Tensor> t;
    if (v == detail::HibridsVariant::Encoder)
        for (int i = 0; i < s.encoderLayers; ++i)
            t["model.encoder.layers." + std::to_string(i) + ".self_attn.relative_hierarchical_bias.weight"] =
                at::zeros({600, s.heads}, at::kFloat);
    else if (v == detail::HibridsVariant::Decoder)
        t["model.decoder.layers." + std::to_string(s.decoderLayers - 1) + ".encoder_attn.relative_hierarchical_bias.weight"] =
            at::zeros({600, 1}, at::kFloat);
    if (!t.empty())
        detail::initialiseParameters(t, seed ^ 0x9e3779b97f4a7c15ULL);
    return t;
}

// Cross-entropy of one example (sum over target tokens) and its token count.
at::Tensor exampleLoss(const detail::Seq2seqModel &model, const QsTrainExample &e, const QsModelSize &s, long *tokens)
{
    const std::size_t kept = std::min<std::size_t>(e.source.size(), std::size_t(s.maxSourcePositions));
    std::vector<std::int64_t> src(e.source.begin(), e.source.begin() + std::ptrdiff_t(kept));
    if (int(e.source.size()) > s.maxSourcePositions)
        src.back() = s.eos;
    // HIBRIDS: the layout as Seq2seqGenerator::generate builds it (detail::hibridsBatch).
    detail::HibridsBatch hier;
    const detail::HibridsVariant variant = model.config().hibrids;
    if (variant != detail::HibridsVariant::None) {
        const std::vector<std::int64_t> t2s(e.tokenToSection.begin(), e.tokenToSection.begin() + std::ptrdiff_t(kept));
        hier = detail::hibridsBatch({e.sectionParent}, at::tensor(at::ArrayRef<std::int64_t>(t2s), at::kLong).unsqueeze(0));
    }
    const bool encVariant = variant == detail::HibridsVariant::Encoder;
    const std::size_t keep = std::min<std::size_t>(e.target.size(), std::size_t(std::max(0, s.maxTargetPositions - 1)));
    std::vector<std::int64_t> labels(e.target.begin(), e.target.begin() + std::ptrdiff_t(keep));
    labels.push_back(s.eos);
    std::vector<std::int64_t> decIn{s.decoderStart};
    decIn.insert(decIn.end(), labels.begin(), labels.end() - 1);
    const at::Tensor ids = at::tensor(at::ArrayRef<std::int64_t>(src), at::kLong).unsqueeze(0);
    const at::Tensor mask = at::ones_like(ids);
    const detail::EncoderResult enc = model.encode(ids, mask, at::Tensor(), encVariant ? hier : detail::HibridsBatch(), false);
    const at::Tensor dec = at::tensor(at::ArrayRef<std::int64_t>(decIn), at::kLong).unsqueeze(0);
    const detail::DecoderResult out =
        model.decode(dec, at::Tensor(), enc.hidden, enc.mask, encVariant ? detail::HibridsBatch() : hier, nullptr, false);
    const at::Tensor y = at::tensor(at::ArrayRef<std::int64_t>(labels), at::kLong);
    *tokens = long(src.size() + labels.size());
    return at::cross_entropy_loss(model.outputScores(out, ids).squeeze(0), y, {}, at::Reduction::Sum);
}

double devLoss(const detail::Seq2seqModel &model, const std::vector<QsTrainExample> &dev, const QsModelSize &s)
{
    at::NoGradGuard noGrad;
    double sum = 0;
    long labels = 0;
    for (const QsTrainExample &e : dev) {
        long tokens = 0;
        sum += exampleLoss(model, e, s, &tokens).item<double>();
        labels += long(std::min<std::size_t>(e.target.size(), std::size_t(std::max(0, s.maxTargetPositions - 1))) + 1);
    }
    return labels > 0 ? sum / double(labels) : 0.0;
}

std::map<std::string, at::Tensor> storable(const std::map<std::string, at::Tensor> &params, bool half)
{
    std::map<std::string, at::Tensor> out;
    for (const auto &[name, t] : params)
        out[name] = half ? t.detach().to(at::kHalf) : t.detach();
    return out;
}

} // namespace

QsTrainResult trainQsModel(const std::vector<QsTrainExample> &train, const std::vector<QsTrainExample> &dev,
                           const QsTrainOptions &options, const QsTrainCallback &progress, const std::atomic<bool> *cancel)
{
    QsTrainResult result;
    const auto t0 = Clock::now();
    result.ok = detail::runGuarded([&] {
        if (train.empty())
            throw InferenceError("no training examples");
        if (options.outDir.empty())
            throw InferenceError("no output folder");
        const QsModelSize &s = options.size;
        const detail::HibridsVariant wanted = variantNamed(options.hibrids);
        const nlohmann::json config = bartConfig(options);
        const ModelConfig mc = ModelConfig::fromJson(config, options.outDir + "/config.json");
        const std::string resumeDir = options.outDir + "/resume";
        const bool resuming = options.resume && fs::exists(resumeDir + "/model.safetensors");
        if (!resuming) { // on resume the saved weights decide; checked against the examples below
            checkExamples(train, "training", s, wanted != detail::HibridsVariant::None);
            checkExamples(dev, "dev", s, wanted != detail::HibridsVariant::None);
        }
        // Data parallel (training/distributed.h): one process group, or shards in this process.
        std::unique_ptr<detail::ProcessGroup> group;
        if (options.distributed.enabled())
            group = std::make_unique<detail::ProcessGroup>(options.distributed);
        const bool writes = !group || options.distributed.writes();
        const int shards = group ? group->worldSize() : std::max(1, options.gradientShards);
        const int myShard = group ? group->rank() : -1;
        if (group && group->sum(resuming ? 1.0 : 0.0) != (resuming ? double(group->worldSize()) : 0.0))
            throw InferenceError("distributed --resume: " + resumeDir + " must exist for every rank (a shared output folder) or for none");

        std::map<std::string, at::Tensor> params;
        if (resuming) {
            detail::ParamStore store(resumeDir + "/model.safetensors");
            detail::Seq2seqModel probe(mc, store);
            params = store.parameters();
            for (auto &kv : params)
                kv.second = kv.second.detach().clone().set_requires_grad(true);
        } else {
            detail::ParamStore fresh = detail::ParamStore::fresh();
            detail::Seq2seqModel probe(mc, fresh);
            params = fresh.parameters();
            detail::initialiseParameters(params, options.seed);
            at::NoGradGuard noGrad; // BART's norms are "*layer_norm*" / "layernorm_embedding": weights 1
            for (auto &[name, t] : params)
                if ((name.find("layer_norm") != std::string::npos || name.find("layernorm") != std::string::npos)
                    && name.size() > 7 && name.compare(name.size() - 7, 7, ".weight") == 0)
                    t.fill_(1.0);
            for (auto &[name, t] : freshHibridsTables(wanted, s, options.seed))
                params[name] = t;
        }
        detail::ParamStore store = detail::ParamStore::fromTensors(params, "qs training parameters");
        const detail::Seq2seqModel model(mc, store);
        store.finish();
        const detail::HibridsVariant variant = model.config().hibrids;
        if (resuming) {
            checkExamples(train, "training", s, variant != detail::HibridsVariant::None);
            checkExamples(dev, "dev", s, variant != detail::HibridsVariant::None);
        }
        const char *variantName = variant == detail::HibridsVariant::Encoder   ? "encoder"
                                  : variant == detail::HibridsVariant::Decoder ? "decoder"
                                                                               : "none";

        const int batch = std::max(1, options.batch);
        const long stepsPerEpoch = (long(train.size()) + batch - 1) / batch;
        const long totalSteps = stepsPerEpoch * std::max(1, options.epochs);
        detail::OptimiserOptions oo;
        oo.lr = options.lr;
        oo.totalSteps = totalSteps;
        oo.warmupSteps = std::max(1L, long(options.warmupFraction * double(totalSteps)));
        detail::Optimiser optimiser(params, oo);
        if (group) {
            group->broadcastFromRankZero(params);
            optimiser.setGradientReducer([&](const std::vector<at::Tensor> &ps, bool have) { return group->averageGradients(ps, have); });
        }
        detail::EarlyStopping best;
        detail::StepClock clock;
        nlohmann::json history = nlohmann::json::array();
        int firstEpoch = 1;
        if (resuming) {
            optimiser.load(resumeDir + "/optimiser.safetensors");
            const nlohmann::json state = detail::readJsonFile(resumeDir + "/state.json");
            firstEpoch = state.at("epoch").get<int>() + 1;
            best.restore(state.at("early_stopping"));
            history = state.at("history");
            clock.restore(state.at("seconds").get<double>(), state.at("tokens").get<long>());
        }
        std::mt19937 rng(std::uint32_t(options.seed));
        for (int e = 1; e < firstEpoch; ++e) { // the same shuffles as an uninterrupted run
            std::vector<int> skipped(train.size());
            std::shuffle(skipped.begin(), skipped.end(), rng);
        }
        auto saveBest = [&](int epoch, double dl) {
            if (!writes)
                return;
            const nlohmann::json f = {{"model", "qs-bart"},         {"train_examples", train.size()},
                                      {"dev_examples", dev.size()}, {"epoch", epoch},
                                      {"dev_loss_per_token", dl},   {"seed", options.seed},
                                      {"hibrids", variantName},     {"copy_head", options.copy},
                                      {"float16", options.float16}, {"history", history}};
            detail::writeCheckpoint(options.outDir, storable(params, options.float16), "bart", config, f);
            for (const std::string &file : options.copyFiles)
                fs::copy_file(file, fs::path(options.outDir) / fs::path(file).filename(), fs::copy_options::overwrite_existing);
        };
        auto report = [&](int epoch, double loss, double dl) {
            if (!progress)
                return;
            QsTrainProgress p;
            p.epoch = epoch;
            p.epochs = options.epochs;
            p.step = optimiser.steps();
            p.totalSteps = totalSteps;
            p.loss = loss;
            p.devLoss = dl;
            p.tokensPerSecond = clock.unitsPerSecond();
            p.etaSeconds = clock.etaSeconds(p.step, totalSteps);
            progress(p);
        };
        bool stop = false;
        for (int epoch = firstEpoch; epoch <= options.epochs && !stop; ++epoch) {
            std::vector<int> order(train.size());
            for (int i = 0; i < int(order.size()); ++i)
                order[std::size_t(i)] = i;
            std::shuffle(order.begin(), order.end(), rng);
            double lossSum = 0;
            long lossTokens = 0;
            for (std::size_t b = 0; b < order.size() && !stop; b += std::size_t(batch)) {
                if (detail::cancelOnAnyRank(cancel, group.get())) { // every rank stops at the same step
                    result.cancelled = true;
                    stop = true;
                    break;
                }
                clock.start();
                long units = 0, labels = 0;
                // Example k of the batch belongs to shard k % shards: the loss is the mean of the
                // shards' per-token losses (the whole batch's when not data parallel).
                const double loss = optimiser.step([&]() -> at::Tensor {
                    at::Tensor total;
                    int counted = 0;
                    const std::size_t end = std::min(order.size(), b + std::size_t(batch));
                    for (int sh = 0; sh < shards; ++sh) {
                        if (myShard >= 0 && sh != myShard)
                            continue;
                        at::Tensor shardSum;
                        long shardLabels = 0;
                        for (std::size_t k = b + std::size_t(sh); k < end; k += std::size_t(shards)) {
                            const QsTrainExample &ex = train[std::size_t(order[k])];
                            long tokens = 0;
                            const at::Tensor l = exampleLoss(model, ex, s, &tokens);
                            units += tokens;
                            shardLabels += long(std::min<std::size_t>(ex.target.size(), std::size_t(std::max(0, s.maxTargetPositions - 1))) + 1);
                            shardSum = shardSum.defined() ? shardSum + l : l;
                        }
                        if (!shardSum.defined())
                            continue;
                        labels += shardLabels;
                        const at::Tensor mean = shardSum / double(std::max(1L, shardLabels));
                        total = total.defined() ? total + mean : mean;
                        ++counted;
                    }
                    return total.defined() ? total / double(counted) : total;
                });
                clock.stop(units);
                if (!std::isnan(loss)) {
                    lossSum += loss * double(labels);
                    lossTokens += labels;
                }
                result.steps = optimiser.steps();
                report(epoch, lossTokens ? lossSum / double(lossTokens) : 0, -1);
            }
            if (result.cancelled)
                break;
            result.lastTrainLoss = lossTokens ? lossSum / double(lossTokens) : 0;
            double dl = dev.empty() || !writes ? -1.0 : devLoss(model, dev, s);
            if (group && !dev.empty()) // rank 0's dev loss, so that every rank selects alike
                dl = group->sum(writes ? dl : 0.0);
            const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            history.push_back({{"epoch", epoch}, {"train_loss", result.lastTrainLoss}, {"dev_loss", dl},
                               {"step", optimiser.steps()}, {"seconds", seconds}});
            result.epochsRun = epoch;
            if (best.update(epoch, dev.empty() ? double(epoch) : -dl, dev.empty())) {
                result.bestEpoch = epoch;
                result.bestDevLoss = dl;
                saveBest(epoch, dl);
            }
            if (writes) {
                fs::create_directories(resumeDir);
                detail::writeParameters(resumeDir + "/model.safetensors", params, "bart");
                optimiser.save(resumeDir + "/optimiser.safetensors");
                detail::writeTextFile(resumeDir + "/state.json",
                                      nlohmann::json{{"epoch", epoch}, {"early_stopping", best.toJson()}, {"history", history},
                                                     {"seconds", clock.seconds()}, {"tokens", clock.units()}}
                                          .dump(2));
            }
            report(epoch, result.lastTrainLoss, dl);
            bool overBudget = options.timeBudgetSeconds > 0 && seconds > options.timeBudgetSeconds;
            if (group) // rank 0's clock decides for everybody
                overBudget = group->sum(writes && overBudget ? 1.0 : 0.0) > 0;
            if (overBudget)
                stop = true;
        }
        if (result.bestEpoch == 0 && !fs::exists(options.outDir + "/model.safetensors"))
            saveBest(0, -1); // cancelled in the first epoch: keep what there is
        if (group) // nobody leaves while rank 0 still writes
            group->barrier();
    }, &result.error);
    if (!result.error.empty())
        result.ok = false;
    result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return result;
}

} // namespace folio::inference
