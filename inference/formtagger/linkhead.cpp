// The key -> value link head (linking.h): entity features from the frozen tagger encoder, an MLP
// over entity pairs, training with early stopping on dev link F1, loading and prediction.
#include "inference/formtagger/linking.h"

#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/modelconfig.h"
#include "inference/errors.h"
#include "inference/formtagger/detail/taggermodel.h"
#include "inference/layers/detail/layers.h"
#include "inference/models/detail/model.h"
#include "inference/models/modelrunner.h"
#include "inference/training/detail/optimiser.h"
#include "inference/training/detail/trainkit.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <numeric>
#include <random>
#include <set>

namespace fs = std::filesystem;

namespace folio::inference {

namespace {

using detail::Tagger;

constexpr int kGeometry = 13;
constexpr const char *kHeadFile = "link_head.safetensors";
constexpr const char *kMetaFile = "link_head.json";
constexpr int kMaxEntities = 2000; // pairs grow with the square: refuse pages past this

// "dir/funsd-layout/" -> "funsd-layout" (link_head.json names its tagger without a machine's path).
std::string folderName(const std::string &dir)
{
    fs::path p = fs::absolute(dir).lexically_normal();
    if (!p.has_filename())
        p = p.parent_path();
    return p.filename().string();
}

// Entity types of a tagger's label set: B-/I- stripped, "O" dropped, first-seen order.
std::vector<std::string> entityTypes(const std::vector<std::string> &labels)
{
    std::vector<std::string> types;
    for (const std::string &l : labels) {
        if (l.size() < 3 || l[1] != '-')
            continue;
        const std::string t = l.substr(2);
        if (std::find(types.begin(), types.end(), t) == types.end())
            types.push_back(t);
    }
    return types;
}

// Encoder states per word [n, D], windows merged as the tagger merges its scores (the tagger's own
// prediction pass, keeping its states).
at::Tensor wordStates(const Tagger &tagger, const Tokenizer &tok, const TaggerPage &page)
{
    const int n = int(page.words.size());
    if (n == 0)
        throw InferenceError("page " + page.id + ": no words");
    std::vector<float> merged;
    detail::predictLogProbs(tagger, tok, page, nullptr, nullptr, &merged);
    return at::from_blob(merged.data(), {n, tagger.config().hidden}, at::kFloat).clone();
}

struct EntityFeatures
{
    at::Tensor repr;  // [E, D + types]
    at::Tensor boxes; // [E, 4] in 0..1
};

EntityFeatures entityFeatures(const at::Tensor &states, const TaggerPage &page, const std::vector<LinkEntity> &entities,
                              const std::vector<std::string> &types)
{
    const auto e = static_cast<std::int64_t>(entities.size());
    const std::int64_t d = states.size(1), t = static_cast<std::int64_t>(types.size());
    EntityFeatures f;
    f.repr = at::zeros({e, d + t}, at::kFloat);
    f.boxes = at::zeros({e, 4}, at::kFloat);
    const int n = int(page.words.size());
    for (std::int64_t i = 0; i < e; ++i) {
        const LinkEntity &ent = entities[size_t(i)];
        std::vector<std::int64_t> rows;
        float x0 = 1000, y0 = 1000, x1 = 0, y1 = 0;
        for (int w : ent.words) {
            if (w < 0 || w >= n)
                continue;
            rows.push_back(w);
            const WordBox &b = page.boxes[size_t(w)];
            x0 = std::min<float>(x0, float(b.x0));
            y0 = std::min<float>(y0, float(b.y0));
            x1 = std::max<float>(x1, float(b.x1));
            y1 = std::max<float>(y1, float(b.y1));
        }
        if (rows.empty())
            continue;
        f.repr[i].slice(0, 0, d).copy_(states.index_select(0, at::tensor(rows, at::kLong)).mean(0));
        const auto it = std::find(types.begin(), types.end(), ent.type);
        if (it != types.end())
            f.repr[i][d + (it - types.begin())] = 1.0f;
        f.boxes[i] = at::tensor({x0, y0, x1, y1}, at::kFloat) / 1000.0f;
    }
    return f;
}

// Every ordered pair (from != to): two int64 index tensors.
std::pair<at::Tensor, at::Tensor> allPairs(std::int64_t e)
{
    const at::Tensor idx = at::arange(e, at::kLong);
    const at::Tensor from = idx.repeat_interleave(e), to = idx.repeat({e});
    const at::Tensor keep = from.ne(to);
    return {from.masked_select(keep), to.masked_select(keep)};
}

// Relative geometry of (from, to): edge differences, centre difference, distance, both sizes, and
// how near each end is among the other's candidates (1 / (1 + rank) by centre distance, both ways:
// an answer is usually its question's nearest neighbour to the right or below).
at::Tensor pairGeometry(const at::Tensor &boxes, const at::Tensor &from, const at::Tensor &to)
{
    const auto centre = [](const at::Tensor &x) {
        return at::stack({(x.select(1, 0) + x.select(1, 2)) / 2, (x.select(1, 1) + x.select(1, 3)) / 2}, 1);
    };
    const auto size = [](const at::Tensor &x) {
        return at::stack({x.select(1, 2) - x.select(1, 0), x.select(1, 3) - x.select(1, 1)}, 1);
    };
    const at::Tensor a = boxes.index_select(0, from), b = boxes.index_select(0, to);
    const at::Tensor dc = centre(b) - centre(a);
    const at::Tensor c = centre(boxes);
    at::Tensor distance = (c.unsqueeze(1) - c.unsqueeze(0)).norm(2, 2); // [E, E]
    distance = distance + at::eye(boxes.size(0), at::kFloat) * 1e6f;     // never one's own neighbour
    const at::Tensor rankAlongRow = distance.argsort(std::int64_t(1), false).argsort(std::int64_t(1), false).to(at::kFloat); // rank of column j for row i
    const at::Tensor rankAlongColumn = distance.argsort(std::int64_t(0), false).argsort(std::int64_t(0), false).to(at::kFloat);
    const at::Tensor cell = from * boxes.size(0) + to;
    const at::Tensor nearTo = 1.0f / (1.0f + rankAlongRow.reshape(-1).index_select(0, cell));      // `to` among `from`'s
    const at::Tensor nearFrom = 1.0f / (1.0f + rankAlongColumn.reshape(-1).index_select(0, cell)); // `from` among `to`'s
    return at::cat({b - a, dc, dc.norm(2, 1, true), size(a), size(b), nearTo.unsqueeze(1), nearFrom.unsqueeze(1)}, 1);
}

struct Head
{
    detail::LinearW dense, out;
    std::map<std::string, at::Tensor> params;

    Head(detail::ParamStore &store, std::int64_t in, std::int64_t hidden)
    {
        dense = detail::LinearW::load(store, "link.dense", in, hidden);
        out = detail::LinearW::load(store, "link.out", hidden, 1);
        params = {{"link.dense.weight", dense.weight}, {"link.dense.bias", dense.bias},
                  {"link.out.weight", out.weight}, {"link.out.bias", out.bias}};
    }
    // Pair logits [P] for the pairs (from[i], to[i]) with their geometry [P, kGeometry]
    // (pairGeometry). The dense layer is split by its input blocks [from | to | from * to | geometry]:
    // the `from` and `to` blocks are applied once per entity and gathered, so only the product and
    // geometry blocks are computed per pair (a third of the multiply-adds of the concatenated input).
    // In training, dropout masks an entity's features once (the same mask in every pair it is in),
    // the pair geometry and the hidden layer.
    at::Tensor operator()(const EntityFeatures &f, const at::Tensor &geometry, const at::Tensor &from, const at::Tensor &to,
                          double dropout, bool training) const
    {
        const std::int64_t r = f.repr.size(1);
        const at::Tensor &w = dense.weight; // [hidden, 3r + geometry]
        const at::Tensor repr = at::dropout(f.repr, dropout, training);
        const at::Tensor perFrom = at::matmul(repr, w.narrow(1, 0, r).t());
        const at::Tensor perTo = at::matmul(repr, w.narrow(1, r, r).t());
        const at::Tensor product = repr.index_select(0, from) * repr.index_select(0, to);
        at::Tensor h = at::linear(at::dropout(geometry, dropout, training), w.narrow(1, 3 * r, w.size(1) - 3 * r), dense.bias);
        h = h + at::matmul(product, w.narrow(1, 2 * r, r).t()) + perFrom.index_select(0, from) + perTo.index_select(0, to);
        h = at::dropout(at::gelu(h), dropout, training);
        return out(h).squeeze(1);
    }
};

// Proposed links: sigmoid > threshold, each `to` keeps its best `from`; best first.
std::vector<PredictedLink> decodeLinks(const at::Tensor &logits, const at::Tensor &from, const at::Tensor &to,
                                       double threshold)
{
    const at::Tensor p = at::sigmoid(logits).contiguous();
    const at::Tensor fromC = from.contiguous(), toC = to.contiguous();
    const float *pp = p.data_ptr<float>();
    const std::int64_t *fp = fromC.data_ptr<std::int64_t>(), *tp = toC.data_ptr<std::int64_t>();
    std::map<std::int64_t, PredictedLink> best; // by `to`
    for (std::int64_t i = 0; i < p.numel(); ++i) {
        if (pp[i] <= threshold)
            continue;
        auto it = best.find(tp[i]);
        if (it == best.end() || pp[i] > it->second.confidence)
            best[tp[i]] = PredictedLink{int(fp[i]), int(tp[i]), double(pp[i])};
    }
    std::vector<PredictedLink> out;
    for (const auto &kv : best)
        out.push_back(kv.second);
    std::sort(out.begin(), out.end(), [](const PredictedLink &x, const PredictedLink &y) { return x.confidence > y.confidence; });
    return out;
}

struct PreparedPage
{
    EntityFeatures features;
    at::Tensor from, to, target; // pairs and 0/1 targets
    at::Tensor geometry;         // pairGeometry of the pairs (the boxes do not change while training)
    const LinkPage *source = nullptr;
};

} // namespace

// ---- loading -------------------------------------------------------------------------------------

struct LinkPredictor::Impl
{
    std::unique_ptr<detail::Model> model;
    const Tagger *taggerModel = nullptr;
    std::unique_ptr<Tokenizer> tokenizer;
    std::vector<std::string> types;
    std::unique_ptr<Head> head;
    double threshold = 0.5;
};

namespace {

// The tagger of a checkpoint folder (frozen): model, tokenizer, entity types.
void loadTagger(const std::string &dir, std::unique_ptr<detail::Model> *model, const Tagger **tagger,
                std::unique_ptr<Tokenizer> *tok, std::vector<std::string> *types)
{
    const ModelConfig checked = ModelConfig::fromDirectory(dir);
    const detail::TaggerConfig cfg = detail::TaggerConfig::fromJson(checked.json(), checked.source());
    if (!fs::exists(fs::path(dir) / "model.safetensors"))
        throw InferenceError(dir + ": model.safetensors is missing");
    *tok = Tokenizer::fromDirectory(dir);
    at::NoGradGuard noGrad;
    detail::ParamStore store((fs::path(dir) / "model.safetensors").string());
    *model = detail::createModel(checked, store);
    store.finish();
    *tagger = dynamic_cast<const Tagger *>(model->get());
    if (!*tagger)
        throw InferenceError(dir + ": not a folio-formtagger checkpoint");
    *types = entityTypes(cfg.labels);
}

std::int64_t headInputSize(const Tagger &t, const std::vector<std::string> &types)
{
    return 3 * (std::int64_t(t.config().hidden) + std::int64_t(types.size())) + kGeometry;
}

} // namespace

LinkPredictor::LinkPredictor() = default;
LinkPredictor::~LinkPredictor() = default;

bool LinkPredictor::hasHead() const { return m_impl && m_impl->head; }

bool LinkPredictor::load(const std::string &dir, std::string *error)
{
    return detail::runGuarded([&] {
        auto impl = std::make_unique<Impl>();
        loadTagger(dir, &impl->model, &impl->taggerModel, &impl->tokenizer, &impl->types);
        const fs::path meta = fs::path(dir) / kMetaFile, weights = fs::path(dir) / kHeadFile;
        if (fs::exists(meta) || fs::exists(weights)) {
            if (!fs::exists(meta) || !fs::exists(weights))
                throw InferenceError(dir + ": link_head.json and link_head.safetensors must come together");
            const nlohmann::json j = detail::readJsonFile(meta.string());
            if (!j.is_object() || j.value("format", std::string()) != "folio.linkhead")
                throw InferenceError(meta.string() + ": not a Folio link head (format \"folio.linkhead\")");
            std::vector<std::string> types;
            std::int64_t hidden = 0;
            try {
                types = j.at("entity_types").get<std::vector<std::string>>();
                hidden = j.at("hidden_size").get<std::int64_t>();
                impl->threshold = j.value("threshold", 0.5);
            } catch (const std::exception &e) {
                throw InferenceError(meta.string() + ": " + e.what());
            }
            if (types != impl->types)
                throw InferenceError(meta.string() + ": entity_types do not match the tagger's labels");
            if (hidden < 1 || hidden > 4096 || !(impl->threshold > 0.0 && impl->threshold < 1.0))
                throw InferenceError(meta.string() + ": hidden_size must be 1..4096 and threshold in (0, 1)");
            at::NoGradGuard noGrad;
            detail::ParamStore store(weights.string());
            impl->head = std::make_unique<Head>(store, headInputSize(*impl->taggerModel, impl->types), hidden);
            store.finish();
        }
        m_impl = std::move(impl);
    }, error);
}

bool LinkPredictor::predict(const TaggerPage &page, const std::vector<LinkEntity> &entities,
                            std::vector<PredictedLink> *links, std::string *error) const
{
    return predictFrom(page, nullptr, entities, links, error);
}

bool LinkPredictor::predict(const TaggerPage &page, const WordStates &states, const std::vector<LinkEntity> &entities,
                            std::vector<PredictedLink> *links, std::string *error) const
{
    return predictFrom(page, &states, entities, links, error);
}

bool LinkPredictor::predictFrom(const TaggerPage &page, const WordStates *kept, const std::vector<LinkEntity> &entities,
                                std::vector<PredictedLink> *links, std::string *error) const
{
    links->clear();
    return detail::runGuarded([&] {
        if (!m_impl)
            throw InferenceError("no checkpoint loaded");
        if (!m_impl->head || entities.size() < 2)
            return;
        if (entities.size() > size_t(kMaxEntities))
            throw InferenceError("page " + page.id + ": " + std::to_string(entities.size()) + " entities exceed the link head's " +
                                 std::to_string(kMaxEntities));
        at::NoGradGuard guard;
        at::Tensor states;
        if (kept) {
            const int dim = m_impl->taggerModel->config().hidden;
            if (kept->words != int(page.words.size()) || kept->dim != dim ||
                kept->values.size() != size_t(kept->words) * size_t(dim))
                throw InferenceError("page " + page.id + ": word states of " + std::to_string(kept->words) + " x " +
                                     std::to_string(kept->dim) + " do not fit a page of " + std::to_string(page.words.size()) +
                                     " words and a " + std::to_string(dim) + "-wide encoder");
            states = at::from_blob(const_cast<float *>(kept->values.data()), {kept->words, dim}, at::kFloat);
        } else {
            states = wordStates(*m_impl->taggerModel, *m_impl->tokenizer, page);
        }
        const EntityFeatures f = entityFeatures(states, page, entities, m_impl->types);
        const auto [from, to] = allPairs(std::int64_t(entities.size()));
        *links = decodeLinks((*m_impl->head)(f, pairGeometry(f.boxes, from, to), from, to, 0.0, false), from, to,
                             m_impl->threshold);
    }, error);
}

std::vector<LinkEntity> linkEntities(const std::vector<PredictedEntity> &entities)
{
    std::vector<LinkEntity> out;
    for (const PredictedEntity &e : entities) {
        LinkEntity le{e.label, {}};
        for (int w = e.firstWord; w <= e.lastWord; ++w)
            le.words.push_back(w);
        out.push_back(std::move(le));
    }
    return out;
}

// ---- scoring -------------------------------------------------------------------------------------

void scoreLinks(const LinkPage &gold, const std::vector<LinkEntity> &predictedEntities,
                const std::vector<PredictedLink> &predicted, LinkScore *score)
{
    const auto key = [](const LinkEntity &e) {
        std::vector<int> w = e.words;
        std::sort(w.begin(), w.end());
        return std::make_pair(e.type, w);
    };
    std::map<std::pair<std::string, std::vector<int>>, int> goldIndex;
    for (size_t i = 0; i < gold.entities.size(); ++i)
        goldIndex.emplace(key(gold.entities[i]), int(i));
    const std::set<std::pair<int, int>> goldLinks(gold.links.begin(), gold.links.end());
    std::set<std::pair<int, int>> hit;
    for (const PredictedLink &l : predicted) {
        if (l.from < 0 || l.to < 0 || size_t(l.from) >= predictedEntities.size() || size_t(l.to) >= predictedEntities.size()) {
            ++score->fp;
            continue;
        }
        const auto a = goldIndex.find(key(predictedEntities[size_t(l.from)]));
        const auto b = goldIndex.find(key(predictedEntities[size_t(l.to)]));
        if (a != goldIndex.end() && b != goldIndex.end() && goldLinks.count({a->second, b->second})
            && hit.insert({a->second, b->second}).second)
            ++score->tp;
        else
            ++score->fp;
    }
    score->fn += long(goldLinks.size() - hit.size());
}

// ---- training ------------------------------------------------------------------------------------

LinkTrainResult trainLinkHead(const LinkTrainConfig &config, const std::vector<LinkPage> &train,
                              const std::vector<LinkPage> &dev,
                              const std::function<void(const LinkTrainProgress &)> &progress,
                              const std::atomic_bool *cancel)
{
    LinkTrainResult result;
    const auto t0 = std::chrono::steady_clock::now();
    result.ok = detail::runGuarded([&] {
        if (config.epochs < 1 || config.hidden < 1 || config.hidden > 4096)
            throw InferenceError("train-links: epochs must be positive and hidden 1..4096");
        if (!(config.threshold > 0.0 && config.threshold < 1.0))
            throw InferenceError("train-links: threshold must lie in (0, 1)");
        result.threshold = config.threshold;
        configureThreads(config.threads);
        std::unique_ptr<detail::Model> model;
        const Tagger *tagger = nullptr;
        std::unique_ptr<Tokenizer> tok;
        std::vector<std::string> types;
        loadTagger(config.checkpointDir, &model, &tagger, &tok, &types);

        // The encoder is frozen: entity features are computed once.
        const auto prepare = [&](const std::vector<LinkPage> &pages) {
            std::vector<PreparedPage> out;
            for (const LinkPage &p : pages) {
                if (p.entities.size() < 2 || p.page.words.empty())
                    continue;
                if (p.entities.size() > size_t(kMaxEntities))
                    throw InferenceError("page " + p.page.id + ": too many entities for the link head");
                PreparedPage prep;
                prep.source = &p;
                prep.features = entityFeatures(wordStates(*tagger, *tok, p.page), p.page, p.entities, types);
                std::tie(prep.from, prep.to) = allPairs(std::int64_t(p.entities.size()));
                prep.geometry = pairGeometry(prep.features.boxes, prep.from, prep.to);
                const std::set<std::pair<int, int>> gold(p.links.begin(), p.links.end());
                std::vector<float> target(size_t(prep.from.numel()));
                const auto *f = prep.from.data_ptr<std::int64_t>(), *t = prep.to.data_ptr<std::int64_t>();
                for (size_t i = 0; i < target.size(); ++i)
                    target[i] = gold.count({int(f[i]), int(t[i])}) ? 1.0f : 0.0f;
                prep.target = at::tensor(target, at::kFloat);
                out.push_back(std::move(prep));
                if (cancel && cancel->load())
                    throw InferenceError("cancelled");
            }
            return out;
        };
        const std::vector<PreparedPage> trainSet = prepare(train), devSet = prepare(dev);
        if (trainSet.empty())
            throw InferenceError("train-links: no training page has two entities");
        double positives = 0, pairs = 0;
        for (const PreparedPage &p : trainSet) {
            positives += p.target.sum().item<double>();
            pairs += double(p.target.numel());
        }
        if (positives == 0)
            throw InferenceError("train-links: the training pages have no links");
        const at::Tensor posWeight = at::full({1}, std::min(50.0, (pairs - positives) / positives), at::kFloat);

        at::manual_seed(config.seed);
        detail::ParamStore fresh = detail::ParamStore::fresh();
        Head head(fresh, headInputSize(*tagger, types), config.hidden);
        detail::initialiseParameters(head.params, config.seed);
        // The trainers' optimiser: AdamW, 6 % warm-up then linear decay to 0 over all epochs, clipping.
        detail::OptimiserOptions schedule;
        schedule.lr = config.lr;
        schedule.weightDecay = config.weightDecay;
        schedule.totalSteps = long(config.epochs) * long(trainSet.size());
        schedule.warmupSteps = schedule.totalSteps * 6 / 100;
        detail::Optimiser optimiser(head.params, schedule);

        // Dev link F1 at each candidate threshold (the decision threshold is chosen on dev too).
        const std::vector<double> thresholds{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
        const auto devF1 = [&](double *threshold) {
            at::NoGradGuard g;
            std::vector<LinkScore> s(thresholds.size());
            for (const PreparedPage &p : devSet) {
                const at::Tensor logits = head(p.features, p.geometry, p.from, p.to, 0.0, false);
                for (size_t k = 0; k < thresholds.size(); ++k)
                    scoreLinks(*p.source, p.source->entities, decodeLinks(logits, p.from, p.to, thresholds[k]), &s[k]);
            }
            size_t best = 0;
            for (size_t k = 1; k < s.size(); ++k)
                if (s[k].f1() > s[best].f1())
                    best = k;
            *threshold = thresholds[best];
            return s[best].f1();
        };
        std::mt19937 rng(config.seed);
        std::vector<size_t> order(trainSet.size());
        std::iota(order.begin(), order.end(), size_t(0));
        std::map<std::string, at::Tensor> best;
        result.bestDevF1 = -1;
        for (int epoch = 1; epoch <= config.epochs; ++epoch) {
            std::shuffle(order.begin(), order.end(), rng);
            double lossSum = 0;
            for (size_t i : order) {
                if (cancel && cancel->load()) {
                    result.cancelled = true;
                    throw InferenceError("cancelled");
                }
                const PreparedPage &p = trainSet[i];
                lossSum += optimiser.step([&] {
                    return at::binary_cross_entropy_with_logits(head(p.features, p.geometry, p.from, p.to, config.dropout, true),
                                                                p.target, {}, posWeight);
                });
            }
            double threshold = config.threshold;
            const double f1 = devSet.empty() ? 0.0 : devF1(&threshold);
            if (devSet.empty() || f1 > result.bestDevF1) {
                result.bestDevF1 = f1;
                result.bestEpoch = epoch;
                result.threshold = threshold;
                best.clear();
                for (const auto &[name, t] : head.params)
                    best[name] = t.detach().clone();
            }
            if (progress)
                progress({epoch, config.epochs, lossSum / double(trainSet.size()), f1});
        }
        const std::string out = config.outputDir.empty() ? config.checkpointDir : config.outputDir;
        fs::create_directories(out);
        result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        detail::writeParameters((fs::path(out) / kHeadFile).string(), best, "folio-linkhead");
        nlohmann::json meta{{"format", "folio.linkhead"},
                            {"entity_types", types},
                            {"hidden_size", config.hidden},
                            {"threshold", result.threshold},
                            {"features", "mean encoder state + entity type one-hot per entity; pairs [from, to, from*to, nearness ranks both ways, "
                                         "box edge and centre differences, distance, both sizes]; frozen tagger encoder"},
                            {"decoding", "sigmoid > threshold; each `to` entity keeps its best `from`"},
                            {"tagger", folderName(config.checkpointDir)},
                            {"train_pages", trainSet.size()},
                            {"dev_pages", devSet.size()},
                            {"epochs", config.epochs},
                            {"best_epoch", result.bestEpoch},
                            {"best_dev_link_f1", result.bestDevF1},
                            {"lr", config.lr},
                            {"schedule", "AdamW (beta2 0.98, clip 1), 6 % warm-up then linear decay to 0; dropout on entity features, geometry, hidden"},
                            {"seed", config.seed},
                            {"seconds", result.seconds},
                            {"command", config.command},
                            {"data", config.dataDescription}};
        detail::writeTextFile((fs::path(out) / kMetaFile).string(), meta.dump(2) + "\n");
    }, &result.error);
    if (result.cancelled)
        result.ok = false;
    return result;
}

} // namespace folio::inference
