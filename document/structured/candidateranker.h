#pragma once
// A learned chooser of one value per page among candidates (prices: pricecandidates.h;
// identifiers: identifiercandidates.h): a linear scorer over each candidate's features with a
// softmax across the page, trained listwise on pages whose value is known (loss: -log of the
// probability mass on the candidates equal to a gold value), plus an abstention threshold: the best
// candidate is the answer only when its probability reaches it.
//
// Training: features standardised with the training pages' mean and standard deviation; weights
// from zero, full-batch Adam (lr 0.01, 300 epochs, L2 1e-4), deterministic. The threshold is
// chosen without looking at the pages being predicted: an inner cross-validation over the
// training pages (grouped by site) collects each held-out page's best probability, whether it was
// right, and whether the page's structured data was; the rule (structured data first, or the ranker
// first) and the threshold in 0, 0.05, ..., 0.9 with the best F1 on those pages win.
//
// File (JSON, "<field>-ranker.json" beside a product model): {"format": "folio-candidate-ranker",
// "version": 1, "field": "price", "features": [names], "mean": [...], "scale": [...], "weights": [...],
// "threshold": t, "structured_first": bool, "training": {...}}. load() checks the format, the field, the feature names (the
// list the caller computes, in order; a file whose list is a prefix of it, written before features
// were appended, gets weight 0 for the rest) and every number before anything is replaced.


#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace folio::structured {

// A value found in a text node of a Document, with the features a ranker scores it by.
struct TextCandidate
{
    int node = -1;            // Document::nodes index of the text node
    int start = 0, end = 0;   // its characters in that node's text, end exclusive
    std::string text;         // as written ("1.299,00", "Ref. 1002/710" -> "1002/710")
    std::string value;        // normalised (prices: parsePrice's amount "1299.00"; identifiers: the text)
    std::string currency;     // prices: ISO code read next to the number, empty when none
    std::vector<float> features;
};

struct RankerPage
{
    std::vector<std::vector<float>> features; // one row per candidate
    std::vector<char> gold;                   // 1 where the candidate's amount is a gold price
    std::string group;                        // site: inner folds keep a site together
    int structured = -1;                      // the page's structured-data value: -1 none, 0 wrong, 1 right
    bool hasGold = false;                     // the page has a price at all
};

struct RankerOptions
{
    int epochs = 300;
    double lr = 0.01;
    double l2 = 1e-4;
    int innerFolds = 4; // 0: threshold 0
    // Random-subspace averaging (0: off). The weights become the mean of `subspaces` fits, each over
    // a random share `subspaceKeep` of the features (the others held at zero), drawn with
    // `subspaceSeed`. A feature that alone separates the training pages (one site's <h1>) then
    // carries only part of the score, and the features that also hold elsewhere carry the rest.
    // Deterministic. Measured for rankers that meet sites they were not trained on
    // (bench/bench_single_source) and not chosen there: a larger `l2` did better; no Folio path uses it.
    int subspaces = 0;
    double subspaceKeep = 0.5;
    unsigned subspaceSeed = 1;
};

class CandidateRanker
{
public:
    // `features`: the names of the columns of every row (their count is the model's width).
    static CandidateRanker train(const std::string &field, const std::vector<std::string> &features,
                                 const std::vector<RankerPage> &pages, const RankerOptions &options = {});

    bool empty() const { return weights_.empty(); }
    double threshold() const { return threshold_; }
    // F1 of the chosen rule on the inner cross-validation's held-out pages (-1: none ran). Not saved.
    double heldOutF1() const { return heldOutF1_; }
    // F1 of this ranker's rule (threshold and order) on `pages`, each page counted as the benchmark
    // counts it (a right answer, a wrong one, a missed gold value).
    double ruleF1(const std::vector<RankerPage> &pages) const;
    // The rule chosen with the threshold: true = the page's structured-data value when it has one,
    // else the ranker's; false = the ranker's answer when it reaches the threshold, else structured data.
    bool structuredFirst() const { return structuredFirst_; }
    // Softmax over the page's candidates (empty for no candidates).
    std::vector<double> probabilities(const std::vector<std::vector<float>> &features) const;

    bool save(const std::string &path, const nlohmann::json &training, std::string *error) const;
    // `field` and `features` must equal the file's.
    bool load(const std::string &path, const std::string &field, const std::vector<std::string> &features,
              std::string *error);

private:
    std::string field_;
    std::vector<std::string> features_;
    std::vector<double> mean_, scale_, weights_;
    double threshold_ = 0;
    bool structuredFirst_ = true;
    double heldOutF1_ = -1;
};

struct RankedCandidate
{
    TextCandidate candidate;
    double probability = 0;
};

// The ranker's answer for a page: the best candidate when its probability reaches the threshold.
std::optional<RankedCandidate> rankCandidates(const CandidateRanker &ranker, const std::vector<TextCandidate> &candidates);

} // namespace folio::structured
