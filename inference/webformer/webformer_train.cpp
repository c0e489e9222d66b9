// WebFormer training: AdamW (decoupled weight decay), warm-up + linear decay, gradient clipping,
// one page per step (all fields at once), best epoch on dev page-level F1.
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
    std::filesystem::create_directories(dir);
    TensorMap out;
    for (const auto &[name, t] : const_cast<detail::WebFormerModel &>(model).params())
        out[name] = detail::fromAten(t.detach().contiguous());
    writeSafetensors(dir + "/model.safetensors", out, {{"format", "pt"}, {"model_type", "webformer"}});
    vocab.save(dir + "/vocab.txt");
    std::ofstream(dir + "/config.json") << detail::webFormerConfigJson(model.config(), model.vocabSize()).dump(2) << "\n";
    std::ofstream(dir + "/folio.json") << folio.dump(2) << "\n";
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
    try {
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

        // AdamW state.
        std::vector<std::string> names;
        std::vector<at::Tensor> params, m1, m2;
        for (auto &[name, t] : model.params()) {
            names.push_back(name);
            params.push_back(t);
            m1.push_back(at::zeros_like(t));
            m2.push_back(at::zeros_like(t));
        }
        const long totalSteps = options.maxSteps > 0 ? std::min<long>(options.maxSteps, long(pages.size()) * options.epochs)
                                                     : long(pages.size()) * options.epochs;
        const long warmup = std::max(1L, long(options.warmupFraction * double(totalSteps)));
        std::mt19937 rng(options.seed);
        long step = 0;
        double bestF1 = -1;
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
                if ((options.maxSteps > 0 && step >= options.maxSteps) || (cancel && cancel->load())
                    || (options.maxSeconds > 0 && std::chrono::duration<double>(Clock::now() - t0).count() > options.maxSeconds)) {
                    stop = true;
                    break;
                }
                const PreparedPage &pp = pages[pi];
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
                if (terms == 0)
                    continue;
                loss = loss / double(terms);
                for (auto &p : params)
                    if (p.grad().defined())
                        p.mutable_grad().zero_();
                loss.backward();
                const double lossValue = loss.item<double>();
                {
                    at::NoGradGuard ng;
                    double sq = 0;
                    for (auto &p : params)
                        if (p.grad().defined())
                            sq += p.grad().pow(2).sum().item<double>();
                    const double norm = std::sqrt(sq);
                    const double clip = options.clipNorm > 0 && norm > options.clipNorm ? options.clipNorm / (norm + 1e-6) : 1.0;
                    const double sched = step < warmup ? double(step + 1) / double(warmup)
                                                       : std::max(0.0, double(totalSteps - step) / double(std::max(1L, totalSteps - warmup)));
                    const double lr = options.lr * sched, b1 = 0.9, b2 = 0.999;
                    const double bc1 = 1 - std::pow(b1, double(step + 1)), bc2 = 1 - std::pow(b2, double(step + 1));
                    for (std::size_t i = 0; i < params.size(); ++i) {
                        if (!params[i].grad().defined())
                            continue;
                        const at::Tensor g = params[i].grad() * clip;
                        m1[i].mul_(b1).add_(g, 1 - b1);
                        m2[i].mul_(b2).addcmul_(g, g, 1 - b2);
                        if (params[i].dim() >= 2 && names[i].find("embeddings") == std::string::npos)
                            params[i].mul_(1 - lr * options.weightDecay);
                        params[i].addcdiv_(m1[i] / bc1, (m2[i] / bc2).sqrt_().add_(1e-8), -lr);
                    }
                }
                ++step;
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
            if (dev.empty() || f1 > bestF1) {
                bestF1 = f1;
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
        result.bestDevF1 = bestF1;
        result.steps = step;
        result.ok = true;
    } catch (const c10::Error &e) {
        result.error = e.what_without_backtrace();
    } catch (const std::exception &e) {
        result.error = e.what();
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return result;
}

} // namespace folio::inference
