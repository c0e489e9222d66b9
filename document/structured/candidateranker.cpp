#include "document/structured/candidateranker.h"

#include "document/formats/datasetformat.h"
#include "document/structured/groupedfolds.h"

#include <nlohmann/json.hpp>

#include <QFile>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>

namespace folio::structured {

namespace {

constexpr const char *kFormat = "folio-candidate-ranker";
constexpr qint64 kMaxFileBytes = qint64(1) << 20;

double dot(const std::vector<double> &w, const std::vector<float> &x, const std::vector<double> &mean,
           const std::vector<double> &scale)
{
    double s = 0;
    for (std::size_t k = 0; k < w.size(); ++k)
        s += w[k] * ((double(x[k]) - mean[k]) / scale[k]);
    return s;
}

std::vector<double> softmax(std::vector<double> s)
{
    if (s.empty())
        return s;
    const double top = *std::max_element(s.begin(), s.end());
    double sum = 0;
    for (double &v : s)
        sum += (v = std::exp(v - top));
    for (double &v : s)
        v /= sum;
    return s;
}

bool usable(const RankerPage &p, std::size_t width)
{
    if (p.features.empty() || p.gold.size() != p.features.size())
        return false;
    for (const auto &row : p.features)
        if (row.size() != width)
            return false;
    return std::find(p.gold.begin(), p.gold.end(), 1) != p.gold.end();
}

// Full-batch Adam on the listwise loss from zero weights; features where `mask` is 0 keep weight 0.
std::vector<double> fitWeights(const std::vector<const RankerPage *> &used, const std::vector<double> &mean,
                               const std::vector<double> &scale, const RankerOptions &options, const std::vector<char> &mask)
{
    const std::size_t width = mean.size();
    std::vector<double> weights(width, 0), m(width, 0), v(width, 0), grad(width);
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    for (int epoch = 1; epoch <= options.epochs; ++epoch) {
        std::fill(grad.begin(), grad.end(), 0.0);
        for (const auto *p : used) {
            std::vector<double> s(p->features.size());
            for (std::size_t i = 0; i < s.size(); ++i)
                s[i] = dot(weights, p->features[i], mean, scale);
            const std::vector<double> prob = softmax(s);
            double goldMass = 0;
            for (std::size_t i = 0; i < s.size(); ++i)
                goldMass += p->gold[i] ? prob[i] : 0;
            for (std::size_t i = 0; i < s.size(); ++i) {
                const double q = p->gold[i] ? prob[i] / goldMass : 0;
                const double d = (prob[i] - q) / double(used.size());
                for (std::size_t k = 0; k < width; ++k)
                    grad[k] += d * ((double(p->features[i][k]) - mean[k]) / scale[k]);
            }
        }
        for (std::size_t k = 0; k < width; ++k) {
            if (!mask[k])
                continue;
            const double g = grad[k] + options.l2 * weights[k];
            m[k] = b1 * m[k] + (1 - b1) * g;
            v[k] = b2 * v[k] + (1 - b2) * g * g;
            const double mh = m[k] / (1 - std::pow(b1, epoch)), vh = v[k] / (1 - std::pow(b2, epoch));
            weights[k] -= options.lr * mh / (std::sqrt(vh) + eps);
        }
    }
    return weights;
}

// F1 of answering the pages with pmax >= t (best: the page's best probability and whether it was right).
struct HeldOut
{
    double best = -1;   // the ranker's best probability (-1: no candidate)
    bool right = false; // the ranker's best candidate is a gold value
    bool hasGold = false;
    int structured = -1; // RankerPage::structured
};

// F1 over held-out pages of a rule at threshold t.
double f1At(const std::vector<HeldOut> &pages, double t, bool structuredFirst)
{
    long tp = 0, fp = 0, fn = 0;
    for (const HeldOut &h : pages) {
        const bool ranker = h.best >= 0 && h.best >= t;
        int answer = -1; // -1 none, 0 wrong, 1 right
        if (structuredFirst)
            answer = h.structured >= 0 ? h.structured : ranker ? int(h.right) : -1;
        else
            answer = ranker ? int(h.right) : h.structured;
        if (answer == 1)
            ++tp;
        else if (answer == 0)
            ++fp;
        if (answer != 1 && h.hasGold)
            ++fn;
    }
    if (tp == 0)
        return 0;
    const double p = double(tp) / double(tp + fp), r = double(tp) / double(tp + fn);
    return 2 * p * r / (p + r);
}

// What the rule needs to know of one page: the ranker's best candidate and whether it is right.
HeldOut heldOut(const CandidateRanker &ranker, const RankerPage &p)
{
    HeldOut h;
    h.hasGold = p.hasGold;
    h.structured = p.structured;
    const std::vector<double> prob = ranker.probabilities(p.features);
    if (!prob.empty() && p.gold.size() == prob.size()) {
        const std::size_t b = std::size_t(std::max_element(prob.begin(), prob.end()) - prob.begin());
        h.best = prob[b];
        h.right = p.gold[b] != 0;
    }
    return h;
}

} // namespace

CandidateRanker CandidateRanker::train(const std::string &field, const std::vector<std::string> &features,
                                       const std::vector<RankerPage> &pages, const RankerOptions &options)
{
    const std::size_t width = features.size();
    std::vector<const RankerPage *> used;
    for (const auto &p : pages)
        if (usable(p, width))
            used.push_back(&p);
    CandidateRanker r;
    r.field_ = field;
    r.features_ = features;
    r.mean_.assign(width, 0);
    r.scale_.assign(width, 1);
    r.weights_.assign(width, 0);
    if (used.empty())
        return r;
    // standardisation over every candidate row of the training pages
    double rows = 0;
    std::vector<double> sq(width, 0);
    for (const auto *p : used)
        for (const auto &x : p->features) {
            rows += 1;
            for (std::size_t k = 0; k < width; ++k) {
                r.mean_[k] += x[k];
                sq[k] += double(x[k]) * x[k];
            }
        }
    for (std::size_t k = 0; k < width; ++k) {
        r.mean_[k] /= rows;
        const double var = sq[k] / rows - r.mean_[k] * r.mean_[k];
        r.scale_[k] = var > 1e-12 ? std::sqrt(var) : 1.0;
    }
    if (options.subspaces <= 0) {
        r.weights_ = fitWeights(used, r.mean_, r.scale_, options, std::vector<char>(width, 1));
    } else {
        std::mt19937 rng(options.subspaceSeed);
        const double keep = std::clamp(options.subspaceKeep, 0.0, 1.0);
        for (int b = 0; b < options.subspaces; ++b) {
            std::vector<char> mask(width, 0);
            bool any = false;
            for (std::size_t k = 0; k < width; ++k)
                any = (mask[k] = double(rng()) < keep * 4294967296.0 ? 1 : 0) || any;
            if (!any)
                mask[std::size_t(rng() % width)] = 1;
            const std::vector<double> w = fitWeights(used, r.mean_, r.scale_, options, mask);
            for (std::size_t k = 0; k < width; ++k)
                r.weights_[k] += w[k] / options.subspaces;
        }
    }
    // abstention threshold from an inner grouped cross-validation
    if (options.innerFolds >= 2) {
        std::vector<std::string> groups;
        for (const auto &p : pages)
            groups.push_back(p.group);
        const std::vector<int> fold = groupedFolds(groups, options.innerFolds);
        RankerOptions inner = options;
        inner.innerFolds = 0;
        std::vector<HeldOut> held;
        for (int f = 0; f < options.innerFolds; ++f) {
            std::vector<RankerPage> train;
            for (std::size_t i = 0; i < pages.size(); ++i)
                if (fold[i] != f)
                    train.push_back(pages[i]);
            const CandidateRanker ir = CandidateRanker::train(field, features, train, inner);
            for (std::size_t i = 0; i < pages.size(); ++i) {
                const RankerPage &p = pages[i];
                if (fold[i] != f)
                    continue;
                held.push_back(heldOut(ir, p));
            }
        }
        double bestF1 = -1;
        for (bool structuredFirst : {true, false})
            for (int step = 0; step <= 18; ++step) {
                const double t = 0.05 * step;
                const double f1 = f1At(held, t, structuredFirst);
                if (f1 > bestF1 + 1e-12) {
                    bestF1 = f1;
                    r.threshold_ = t;
                    r.structuredFirst_ = structuredFirst;
                }
            }
        r.heldOutF1_ = bestF1;
    }
    return r;
}

double CandidateRanker::ruleF1(const std::vector<RankerPage> &pages) const
{
    std::vector<HeldOut> held;
    held.reserve(pages.size());
    for (const RankerPage &p : pages)
        held.push_back(heldOut(*this, p));
    return f1At(held, threshold_, structuredFirst_);
}

std::vector<double> CandidateRanker::probabilities(const std::vector<std::vector<float>> &features) const
{
    std::vector<double> s;
    if (weights_.empty())
        return s;
    s.reserve(features.size());
    for (const auto &x : features)
        s.push_back(x.size() == weights_.size() ? dot(weights_, x, mean_, scale_) : -1e30);
    return softmax(std::move(s));
}

bool CandidateRanker::save(const std::string &path, const nlohmann::json &training, std::string *error) const
{
    const nlohmann::json j{{"format", kFormat},     {"version", 1},        {"field", field_}, {"features", features_},
                           {"mean", mean_},         {"scale", scale_},     {"weights", weights_},
                           {"threshold", threshold_}, {"structured_first", structuredFirst_}, {"training", training}};
    QString err;
    if (!formats::writeFileAtomically(QString::fromStdString(path), QByteArray::fromStdString(j.dump(1)), &err)) {
        if (error)
            *error = err.toStdString();
        return false;
    }
    return true;
}

bool CandidateRanker::load(const std::string &path, const std::string &field, const std::vector<std::string> &features,
                           std::string *error)
{
    const auto fail = [&](const std::string &why) {
        if (error)
            *error = path + ": " + why;
        return false;
    };
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        return fail("cannot open the ranker file");
    if (file.size() > kMaxFileBytes)
        return fail("over 1 MiB: not a ranker file");
    const auto j = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.value("format", std::string()) != kFormat)
        return fail("not a ranker file (format \"folio-candidate-ranker\" expected)");
    if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
        return fail("unsupported ranker version (1 expected)");
    if (j.value("field", std::string()) != field)
        return fail("a ranker for \"" + j.value("field", std::string("?")) + "\", not for \"" + field + "\"");
    // A file written before features were appended to the list (its list a prefix of this
    // Folio's) loads with weight 0 for the new ones: it ranks as it did.
    const auto listed = j.find("features");
    const bool prefix = listed != j.end() && listed->is_array() && !listed->empty() && listed->size() <= features.size()
                        && std::equal(listed->begin(), listed->end(), features.begin(),
                                      [](const nlohmann::json &a, const std::string &b) { return a.is_string() && a.get<std::string>() == b; });
    if (!prefix)
        return fail("its features differ from this Folio's " + field + " features: retrain it (Train Field Extractor, folio-cli train-rankers)");
    const std::size_t width = listed->size();
    std::vector<double> vecs[3];
    const char *names[3] = {"mean", "scale", "weights"};
    for (int i = 0; i < 3; ++i) {
        const auto it = j.find(names[i]);
        if (it == j.end() || !it->is_array() || it->size() != width)
            return fail(std::string("\"") + names[i] + "\" must be " + std::to_string(width) + " numbers");
        for (const auto &x : *it) {
            if (!x.is_number() || !std::isfinite(x.get<double>()))
                return fail(std::string("\"") + names[i] + "\" holds a value that is not a finite number");
            vecs[i].push_back(x.get<double>());
        }
    }
    for (double s : vecs[1])
        if (s <= 0)
            return fail("\"scale\" must be positive");
    if (!j.contains("threshold") || !j["threshold"].is_number() || !std::isfinite(j["threshold"].get<double>()))
        return fail("\"threshold\" must be a number");
    if (j.contains("structured_first") && !j["structured_first"].is_boolean())
        return fail("\"structured_first\" must be true or false");
    for (std::size_t k = width; k < features.size(); ++k) {
        vecs[0].push_back(0);
        vecs[1].push_back(1);
        vecs[2].push_back(0);
    }
    field_ = field;
    features_ = features;
    mean_ = std::move(vecs[0]);
    scale_ = std::move(vecs[1]);
    weights_ = std::move(vecs[2]);
    threshold_ = j["threshold"].get<double>();
    structuredFirst_ = j.value("structured_first", true);
    return true;
}

std::optional<RankedCandidate> rankCandidates(const CandidateRanker &ranker, const std::vector<TextCandidate> &candidates)
{
    std::vector<std::vector<float>> features;
    features.reserve(candidates.size());
    for (const auto &c : candidates)
        features.push_back(c.features);
    const std::vector<double> prob = ranker.probabilities(features);
    if (prob.empty())
        return std::nullopt;
    const std::size_t b = std::size_t(std::max_element(prob.begin(), prob.end()) - prob.begin());
    if (prob[b] < ranker.threshold())
        return std::nullopt;
    return RankedCandidate{candidates[b], prob[b]};
}

} // namespace folio::structured
