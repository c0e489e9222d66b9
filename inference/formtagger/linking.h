#pragma once
// Key -> value links between entities (question -> answer, header -> question), predicted by a
// small head on top of a folio-formtagger checkpoint's frozen encoder. Torch-free facade.
//
// Features of an entity: the mean of its words' encoder states (Tagger::hidden, the same windows
// the tagger predicts with), a one-hot of its entity type (the checkpoint's labels without B-/I-)
// and its box. A pair (from, to) is scored by an MLP over [from, to, from * to, relative geometry]
// (differences of the boxes' edges and centres, the distance); sigmoid > threshold proposes the
// link, and each `to` entity keeps only its best `from` (an answer has one question).
//
// Files, inside the tagger's checkpoint folder (a checkpoint without them simply has no links):
//   link_head.safetensors  the MLP (model_type "folio-linkhead" in the header metadata)
//   link_head.json         {"format": "folio.linkhead", "entity_types", "hidden_size", "threshold",
//                           "features", training metadata and scores}
// No exception leaves these functions.

#include "inference/formtagger/predictor.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace folio::inference {

struct LinkEntity
{
    std::string type;       // entity type without B-/I- ("question", "answer", ...)
    std::vector<int> words; // indices into the page's words
};

// A page for link training / evaluation: words and boxes in model order, entities, gold links.
struct LinkPage
{
    TaggerPage page;
    std::vector<LinkEntity> entities;
    std::vector<std::pair<int, int>> links; // (from, to) entity indices
};

// The tagger's entities (word ranges) as link-head entities (word lists).
std::vector<LinkEntity> linkEntities(const std::vector<PredictedEntity> &entities);

struct PredictedLink
{
    int from = 0, to = 0;   // entity indices
    double confidence = 0;  // sigmoid of the pair's score
};

struct LinkTrainConfig
{
    std::string checkpointDir;  // the tagger checkpoint whose encoder is used (frozen)
    std::string outputDir;      // where link_head.* go (default: checkpointDir)
    int epochs = 30;
    int hidden = 128;
    double lr = 1e-3, weightDecay = 0.01, dropout = 0.1;
    double threshold = 0.5;     // used when there is no dev set; otherwise chosen on dev (0.3 .. 0.9)
    unsigned seed = 1;
    int threads = 2;
    std::string command, dataDescription; // recorded in link_head.json
};

struct LinkTrainProgress
{
    int epoch = 0, epochs = 0;
    double loss = 0, devF1 = 0;
};

struct LinkTrainResult
{
    bool ok = false;
    bool cancelled = false;
    std::string error;
    int bestEpoch = 0;
    double bestDevF1 = 0, seconds = 0;
    double threshold = 0.5; // the decision threshold written to link_head.json
};

// Trains the head on `train`, keeps the epoch and threshold with the best link F1 on `dev` (given
// gold entities).
LinkTrainResult trainLinkHead(const LinkTrainConfig &config, const std::vector<LinkPage> &train,
                              const std::vector<LinkPage> &dev,
                              const std::function<void(const LinkTrainProgress &)> &progress = {},
                              const std::atomic_bool *cancel = nullptr);

// Link precision / recall / F1 over pages (micro over links).
struct LinkScore
{
    long tp = 0, fp = 0, fn = 0;
    double precision() const { return tp + fp ? double(tp) / double(tp + fp) : 0.0; }
    double recall() const { return tp + fn ? double(tp) / double(tp + fn) : 0.0; }
    double f1() const { const double p = precision(), r = recall(); return p + r > 0 ? 2 * p * r / (p + r) : 0.0; }
};

class LinkPredictor
{
public:
    LinkPredictor();
    ~LinkPredictor();
    LinkPredictor(const LinkPredictor &) = delete;
    LinkPredictor &operator=(const LinkPredictor &) = delete;

    // Loads the tagger and its link head from a checkpoint folder. False + *error naming the file
    // when the folder or link_head.* cannot be read; hasHead() false (and true returned) when the
    // checkpoint simply has no link head.
    bool load(const std::string &checkpointDir, std::string *error);
    bool hasHead() const;
    // Links among `entities` of `page` (sorted by confidence, best first); false + *error.
    bool predict(const TaggerPage &page, const std::vector<LinkEntity> &entities, std::vector<PredictedLink> *links,
                 std::string *error) const;
    // The same, from word states a Predictor of this checkpoint kept while it tagged `page`
    // (Predictor::predict's `states`): the encoder is not run again. States that do not fit the
    // page or the encoder are an error.
    bool predict(const TaggerPage &page, const WordStates &states, const std::vector<LinkEntity> &entities,
                 std::vector<PredictedLink> *links, std::string *error) const;

    struct Impl;

private:
    // Both predict()s: `kept` null runs the encoder.
    bool predictFrom(const TaggerPage &page, const WordStates *kept, const std::vector<LinkEntity> &entities,
                     std::vector<PredictedLink> *links, std::string *error) const;
    std::unique_ptr<Impl> m_impl;
};

// Scores predicted links against gold ones. With `predictedEntities` (end to end), a predicted
// link counts when both its ends equal gold entities (same type, same words) that are linked.
void scoreLinks(const LinkPage &gold, const std::vector<LinkEntity> &predictedEntities,
                const std::vector<PredictedLink> &predicted, LinkScore *score);

} // namespace folio::inference
