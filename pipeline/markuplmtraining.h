#pragma once
// Fine-tuning a Hugging Face MarkupLM token classifier on web pages' text nodes (issue 46), as
// `folio-cli train --init MARKUPLM_DIR --data SWDE_OR_PRODUCT_DIR` does.
//
//  - Nodes and XPaths: the reference feature extractor's (document/html/markupnodes.h), exactly what
//    runMarkupLM (pipeline/markuplmfields.h) gives the model at Extract Fields / `folio-cli extract`.
//  - Node labels: a node holds a field's gold value when its text, normalised as SWDE's page-level
//    rule normalises values (inference/webformer/webformereval.h normaliseFieldValue), equals the
//    value's; a value split over consecutive nodes (up to kMaxValueNodes) is those nodes. Every
//    occurrence is labelled. Other nodes are O.
//  - Label scheme: plain field names ("O", "title", ...) when the checkpoint's head already has plain
//    labels; otherwise BIO ("O", "B-title", "I-title", ...: B- on a value's first node, I- on the
//    nodes after it). markupLabelScheme says which.
//  - Tokens: MarkupLMTokenizer (inference/tokenizers/markuplmtokenizer.h) with node labels: the label
//    on each node's first sub-token, -100 on the rest, as the reference's examples do; pages longer
//    than the model get sliding windows of whole nodes (a quarter of each shared with the next), every
//    node labelled by exactly one window.
//  - Training: runHfFineTuning (pipeline/hffinetuneloop.h), the loop the layout models use; the dev
//    score per epoch is SWDE's page-level F1 (macro over fields) of the top-1 node per field.

#include "inference/checkpoint/tensor.h"
#include "inference/tokenizers/markuplmtokenizer.h"
#include "pipeline/hffinetuning.h"

#include <QString>

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace folio {
class Project;
}

namespace folio::pipeline {

constexpr int kMaxValueNodes = 4;

struct MarkupTrainPage
{
    std::string id;
    std::vector<std::string> nodes, xpaths;            // UTF-8, as runMarkupLM gives them
    std::vector<std::string> nodeFields;               // the field a node holds ("" for none), one per node
    std::vector<bool> valueStarts;                     // true on the first node of a value
    std::map<std::string, std::vector<std::string>> gold; // per field (empty: no value on the page)
    int valuesFound = 0, valuesMissed = 0;             // gold values with / without a node holding them
};

// Labels `nodes` / `xpaths` (the page's reference nodes) from its gold values.
MarkupTrainPage markupTrainPage(const std::string &id, const QStringList &nodes, const QStringList &xpaths,
                                const std::map<std::string, std::vector<std::string>> &gold);
// The page's reference nodes read from its HTML file (.htm, .html, .html.gz); throws std::runtime_error
// naming the file.
MarkupTrainPage markupTrainPageFromFile(const std::string &id, const std::string &htmlPath,
                                        const std::map<std::string, std::vector<std::string>> &gold);

struct MarkupTrainingSet
{
    std::vector<MarkupTrainPage> train, dev, test;
    std::vector<std::string> fields;
    std::string description; // data, split, licence (the model card)
};
// SWDE (loadSwdeSplit's split: per site 60% train / 10% dev / 30% test) or the Zyte product
// benchmark (loadProductBenchmark's pages; sites grouped into 5 folds as train-product does, fold 0
// test, fold 1 dev, the rest train; fields price, sku, gtin, mpn, brand with the benchmark's accepted
// strings). `maxPagesPerSite` > 0 keeps the first pages of each SWDE site (product: the first pages).
// Throws std::runtime_error naming the folder.
MarkupTrainingSet loadMarkupTrainingSet(const std::string &dataDir, int maxPagesPerSite = 0);

// A project's web documents with accepted field answers (loadFieldTrainingData's answered pages,
// pipeline/webfieldtraining.h: at most kMaxRankerPages, project order; gold = the accepted values'
// texts, a field not answered on such a page = no value), each page's nodes as runMarkupLM reads
// them (markupPageNodes: from its HTML file, else the Document's own text nodes). Every 7th page
// (at least one when there are two) is dev, the rest train; no test split. False + *error naming
// the project.
bool loadProjectMarkupTrainingSet(Project *project, MarkupTrainingSet *set, QString *error);

// "bio" or "plain" for a checkpoint whose head has these labels (empty: no head -> "bio").
std::string markupLabelScheme(const std::vector<std::string> &checkpointLabels);
// The label set for `fields` under a scheme: O first, then per field (in order) B-/I- or the name.
// Throws InferenceError for a field name the scheme cannot take (empty, "O", or already prefixed
// with B-/I- under BIO).
std::vector<std::string> markupLabels(const std::vector<std::string> &fields, const std::string &scheme);
// Each node's label id in `labels` (-100 for an empty node, which has no token).
std::vector<int> markupNodeLabelIds(const MarkupTrainPage &page, const std::vector<std::string> &labels,
                                    const std::string &scheme);

struct MarkupWindow
{
    int page = 0;
    int firstOwnedNode = 0, endOwnedNode = 0; // the nodes this window labels and predicts: [first, end)
    int firstNode = 0;                         // the window's first node (its tokens' nodeIds are relative to it)
    inference::MarkupTokens tokens;            // labels -100 off the owned nodes' first sub-tokens
};
// Windows of whole nodes whose tokens fit `maxTokens` (specials included); a page that fits is one
// window, the reference's own call. `labelIds` one per node (or empty: no labels).
std::vector<MarkupWindow> markupPageWindows(const inference::MarkupLMTokenizer &tokenizer, const MarkupTrainPage &page,
                                            int pageIndex, const std::vector<int> &labelIds, int maxTokens);
// A padded batch: input_ids, token_type_ids, attention_mask, labels [B, T], xpath_tags_seq /
// xpath_subs_seq [B, T, max_depth] (padding: <pad>, the tokenizer's pad tag and pad width, -100).
inference::TensorMap markupBatch(const std::vector<const MarkupWindow *> &windows, const inference::MarkupLMTokenizer &tokenizer);

// Page fields from per-node labels: per field, the node labelled with it (B-/plain preferred over
// I-) of the highest confidence, joined with the I- nodes right after it. Field -> value.
std::map<std::string, std::string> decodeMarkupFields(const std::vector<std::string> &nodes,
                                                      const std::vector<std::string> &nodeLabels,
                                                      const std::vector<float> &confidences);
// The fields of each page read by a written folder through HfMarkupLM (what Extract Fields runs:
// decodeMarkupFields of the argmax labels); page-level F1 (inference/webformer/webformereval.h)
// against the pages' gold, for that decoding and for the top-1 decoding.
struct MarkupFieldScore
{
    bool ok = false;
    std::string error;
    double precision = 0, recall = 0, f1 = 0;
    std::map<std::string, double> fieldF1;
    std::map<std::string, std::map<std::string, std::string>> predicted; // page -> field -> value
    // Top-1 decoding (the dev score per epoch): per field the node with the field's highest B- (or
    // plain) probability, whatever its argmax, with the I- nodes after it; every field predicted.
    double top1Precision = 0, top1Recall = 0, top1F1 = 0;
    std::map<std::string, double> top1FieldF1;
    std::map<std::string, std::map<std::string, std::string>> top1Predicted;
};
MarkupFieldScore scoreMarkupFolder(const QString &dir, const std::vector<MarkupTrainPage> &pages,
                                   const std::vector<std::string> &fields);

// Fine-tunes cfg.initDir (a MarkupLM folder with a token-classification head or none) into
// cfg.outDir. cfg.labels empty: markupLabels(fields, markupLabelScheme(the checkpoint's labels)).
// Refuses (outcome.error) a folder that is not MarkupLM, a question-answering checkpoint, field
// names the label scheme cannot take, and training pages none of whose nodes holds a value.
HfFineTuneOutcome fineTuneMarkupLM(HfFineTuneConfig cfg, const std::vector<MarkupTrainPage> &train,
                                   const std::vector<MarkupTrainPage> &dev, const std::vector<std::string> &fields,
                                   const std::function<void(const HfFineTuneProgress &)> &progress,
                                   std::atomic<bool> *cancel, std::vector<std::string> *labelsUsed = nullptr);

} // namespace folio::pipeline
