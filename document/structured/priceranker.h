#pragma once
// A learned price chooser: a linear scorer over a page's price candidates
// (pricecandidates.h) with a softmax across the page, trained listwise on pages whose price is
// known (loss: -log of the probability mass on the candidates equal to the gold price), plus an
// abstention threshold: the best candidate is the answer only when its probability reaches it.
//
// Training: features standardised with the training pages' mean and standard deviation; weights
// from zero, full-batch Adam (lr 0.01, 300 epochs, L2 1e-4), deterministic. The threshold is
// chosen without looking at the pages being predicted: an inner cross-validation over the
// training pages (grouped by site) collects each held-out page's best probability and whether it
// was right, and the threshold in 0, 0.05, ..., 0.5 with the best F1 on those pages wins.
//
// File (JSON, "price-ranker.json" beside a product model): {"format": "folio-price-ranker",
// "version": 1, "features": [names], "mean": [...], "scale": [...], "weights": [...],
// "threshold": t, "training": {...}}. load() checks the format, the feature names (the same list,
// in order) and every number before anything is replaced.

#include "document/structured/pricecandidates.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace folio::structured {

struct PriceRankerPage
{
    std::vector<std::vector<float>> features; // one row per candidate
    std::vector<char> gold;                   // 1 where the candidate's amount is a gold price
    std::string group;                        // site: inner folds keep a site together
    bool usesRanker = true;                   // false when structured data answers the page (threshold choice skips it)
    bool hasGold = false;                     // the page has a price at all
};

struct PriceRankerOptions
{
    int epochs = 300;
    double lr = 0.01;
    double l2 = 1e-4;
    int innerFolds = 4; // 0: threshold 0
};

class PriceRanker
{
public:
    static PriceRanker train(const std::vector<PriceRankerPage> &pages, const PriceRankerOptions &options = {});

    bool empty() const { return weights_.empty(); }
    double threshold() const { return threshold_; }
    // Softmax over the page's candidates (empty for no candidates).
    std::vector<double> probabilities(const std::vector<std::vector<float>> &features) const;

    bool save(const std::string &path, const nlohmann::json &training, std::string *error) const;
    bool load(const std::string &path, std::string *error);

private:
    std::vector<double> mean_, scale_, weights_;
    double threshold_ = 0;
};

struct RankedPrice
{
    PriceCandidate candidate;
    double probability = 0;
};

// The ranker's answer for a page: the best candidate when its probability reaches the threshold.
std::optional<RankedPrice> rankPrice(const PriceRanker &ranker, const std::vector<PriceCandidate> &candidates);

} // namespace folio::structured
