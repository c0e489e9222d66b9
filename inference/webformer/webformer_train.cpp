// WebFormer training on the shared toolkit (training/detail/optimiser.h, trainkit.h): AdamW
// (decoupled weight decay on the >= 2-D non-embedding tensors), warm-up + linear decay, gradient
// clipping, one page per step (all fields at once), best epoch on dev page-level F1.
//
// Loss per page and field: start = -log sum_{gold starts} p(start) over [null, text...] (all
// occurrences of a gold value count); end = -log p(end | first gold start) (teacher forcing);
// a page without a value trains the null answer; a value that occurs nowhere in the kept text
// is skipped (training it as null would teach the model to miss it).
#include "inference/checkpoint/detail/convert.h"
#include "inference/webformer/detail/webformer.h"
#include "inference/errors.h"
#include "inference/models/modelrunner.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/webformer/webformereval.h"
#include "inference/training/detail/optimiser.h"
#include "inference/training/detail/trainkit.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

namespace folio::inference {

namespace {

using Clock = std::chrono::steady_clock;

struct PreparedPage
{
    detail::WebTensors tensors;
    std::vector<std::vector<GoldSpan>> spans; // per field
    std::vector<char> hasGold;                // per field: gold values listed
};

void saveCheckpoint(const detail::WebFormerModel &model, const WebVocab &vocab, const std::string &dir,
                    const nlohmann::json &folio)
{
    detail::writeCheckpoint(dir, model.params(), "webformer", detail::webFormerConfigJson(model.config(), model.vocabSize()),
                            folio);
    vocab.save(dir + "/vocab.txt");
}

double devScore(const detail::WebFormerModel &model, const WebVocab &vocab, const std::vector<WebPage> &dev,
                const std::vector<std::string> &fields)
{
    std::map<std::string, std::map<std::string, std::string>> pred;
    PageFieldValues gold;
    for (const WebPage &p : dev) {
        for (const FieldSpan &s : detail::webFormerExtract(model, vocab, p, fields))
            if (s.found)
                pred[p.id][s.field] = s.value;
        for (const auto &f : fields) {
            const auto it = p.gold.find(f);
            gold[p.id][f] = it == p.gold.end() ? std::vector<std::string>() : it->second;
        }
    }
    return scorePageLevel(pred, gold).f1;
}

} // namespace

WebFormerTrainResult trainWebFormer(const WebFormerTrainOptions &options, const std::vector<WebPage> &train,
                                    const std::vector<WebPage> &dev,
                                    const std::function<void(const WebFormerTrainProgress &)> &progress,
                                    const std::atomic<bool> *cancel)
{
    WebFormerTrainResult result;
    const auto t0 = Clock::now();
    result.ok = detail::runGuarded([&] {
        if (train.empty())
            throw InferenceError("no training pages");
        if (options.outputDir.empty())
            throw InferenceError("no output folder");
        configureThreads(options.threads);
        WebFormerConfig cfg = options.model;
        if (cfg.fields.empty()) {
            std::set<std::string> f;
            for (const auto &p : train)
                for (const auto &kv : p.gold)
                    f.insert(kv.first);
            cfg.fields.assign(f.begin(), f.end());
        }
        std::vector<std::string> words;
        for (const auto &p : train)
            for (const auto &n : p.nodes)
                words.insert(words.end(), n.words.begin(), n.words.end());
        for (const auto &f : cfg.fields)
            words.push_back(f);
        const WebVocab vocab = WebVocab::build(words, options.vocabSize);
        detail::WebFormerModel model(cfg, vocab.size());
        model.initialise(options.seed);

        std::vector<PreparedPage> pages;
        long goldFound = 0, goldMissing = 0;
        for (const auto &p : train) {
            const WebFormerInputs in = buildWebFormerInputs(p, vocab, cfg, cfg.fields);
            if (in.numText() == 0)
                continue;
            PreparedPage pp;
            pp.tensors = detail::toWebTensors(in);
            for (const auto &f : cfg.fields) {
                const auto it = p.gold.find(f);
                const std::vector<std::string> values = it == p.gold.end() ? std::vector<std::string>() : it->second;
                pp.spans.push_back(findGoldSpans(in, values));
                pp.hasGold.push_back(!values.empty());
                if (!values.empty())
                    (pp.spans.back().empty() ? goldMissing : goldFound) += 1;
            }
            pages.push_back(std::move(pp));
        }
        if (pages.empty())
            throw InferenceError("no training page has text");

        const long totalSteps = options.maxSteps > 0 ? std::min<long>(options.maxSteps, long(pages.size()) * options.epochs)
                                                     : long(pages.size()) * options.epochs;
        detail::OptimiserOptions oo;
        oo.lr = options.lr;
        oo.weightDecay = options.weightDecay;
        oo.clipNorm = options.clipNorm;
        oo.totalSteps = totalSteps;
        oo.warmupSteps = std::max(1L, long(options.warmupFraction * double(totalSteps)));
        detail::Optimiser optimiser(model.params(), oo, [](const std::string &name, const at::Tensor &t) {
            return detail::ParamGroupRule{t.dim() >= 2 && name.find("embeddings") == std::string::npos, 1.0};
        });
        std::mt19937 rng(options.seed);
        long step = 0;
        detail::EarlyStopping best;
        bool stop = false;
        nlohmann::json history = nlohmann::json::array();
        auto folioJson = [&](int epoch, double devF1) {
            return nlohmann::json{{"model", "webformer"},
                                  {"command", options.command},
                                  {"data", options.dataDescription},
                                  {"seed", options.seed},
                                  {"train_pages", train.size()},
                                  {"dev_pages", dev.size()},
                                  {"gold_values_found_in_text", goldFound},
                                  {"gold_values_not_found", goldMissing},
                                  {"epoch", epoch},
                                  {"dev_page_level_f1", devF1},
                                  {"history", history}};
        };
        for (int epoch = 1; epoch <= options.epochs && !stop; ++epoch) {
            std::vector<int> order(pages.size());
            for (int i = 0; i < int(order.size()); ++i)
                order[i] = i;
            std::shuffle(order.begin(), order.end(), rng);
            double lossSum = 0;
            int lossCount = 0;
            for (int pi : order) {
                if ((options.maxSteps > 0 && step >= options.maxSteps) || detail::cancelRequested(cancel)
                    || (options.maxSeconds > 0 && std::chrono::duration<double>(Clock::now() - t0).count() > options.maxSeconds)) {
                    stop = true;
                    break;
                }
                const PreparedPage &pp = pages[pi];
                const double lossValue = optimiser.step([&]() -> at::Tensor {
                    const detail::WebEncoded enc = model.encode(pp.tensors, true);
                    const at::Tensor startLp = at::log_softmax(model.startLogits(enc), 1); // [F, T+1]
                    const int F = int(cfg.fields.size());
                    std::vector<std::int64_t> firstStart(F, 0);
                    for (int f = 0; f < F; ++f)
                        if (!pp.spans[f].empty())
                            firstStart[f] = pp.spans[f][0].start;
                    const at::Tensor endLp = at::log_softmax(
                        model.endLogits(enc, at::tensor(at::ArrayRef<std::int64_t>(firstStart), at::kLong).clone()), 1); // [F, T]
                    at::Tensor loss = at::zeros({}, startLp.options());
                    int terms = 0;
                    for (int f = 0; f < F; ++f) {
                        if (!pp.hasGold[f]) {
                            loss = loss - startLp[f][0];
                            ++terms;
                        } else if (!pp.spans[f].empty()) {
                            std::vector<std::int64_t> s;
                            for (const GoldSpan &g : pp.spans[f])
                                s.push_back(g.start + 1);
                            const at::Tensor idx = at::tensor(at::ArrayRef<std::int64_t>(s), at::kLong).clone();
                            loss = loss - at::logsumexp(startLp[f].index_select(0, idx), 0) - endLp[f][pp.spans[f][0].end];
                            ++terms;
                        }
                    }
                    return terms == 0 ? at::Tensor() : loss / double(terms);
                });
                if (std::isnan(lossValue))
                    continue; // nothing to learn on this page
                step = optimiser.steps();
                lossSum += lossValue;
                ++lossCount;
                result.stepLosses.push_back(lossValue);
                if (progress && step % 10 == 0) {
                    WebFormerTrainProgress tp;
                    tp.epoch = epoch;
                    tp.epochs = options.epochs;
                    tp.step = step;
                    tp.totalSteps = totalSteps;
                    tp.loss = lossSum / lossCount;
                    progress(tp);
                }
            }
            if (lossCount == 0)
                break;
            const double epochLoss = lossSum / lossCount;
            result.epochLosses.push_back(epochLoss);
            const double f1 = dev.empty() ? -1.0 : devScore(model, vocab, dev, cfg.fields);
            history.push_back({{"epoch", epoch}, {"loss", epochLoss}, {"dev_f1", f1}, {"step", step},
                               {"seconds", std::chrono::duration<double>(Clock::now() - t0).count()}});
            if (best.update(epoch, f1, dev.empty())) {
                result.bestEpoch = epoch;
                saveCheckpoint(model, vocab, options.outputDir, folioJson(epoch, f1));
            }
            if (progress) {
                WebFormerTrainProgress tp;
                tp.epoch = epoch;
                tp.epochs = options.epochs;
                tp.step = step;
                tp.totalSteps = totalSteps;
                tp.loss = epochLoss;
                tp.devF1 = f1;
                tp.message = "epoch " + std::to_string(epoch) + ": loss " + std::to_string(epochLoss)
                             + (dev.empty() ? std::string() : ", dev page-level F1 " + std::to_string(f1));
                progress(tp);
            }
        }
        if (result.bestEpoch == 0) // stopped before the first epoch ended: keep what we have
            saveCheckpoint(model, vocab, options.outputDir, folioJson(0, -1));
        result.bestDevF1 = best.best();
        result.steps = step;
    }, &result.error);
    result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return result;
}

} // namespace folio::inference
