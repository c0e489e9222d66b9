#pragma once
// WebFormer-style field extraction from web pages (Wang et al., WWW 2022; ../shared/MODELS.md §6).
// Torch-free facade: folio-cli and the GUI include this; no exception leaves it.
//
// Tokens: field tokens (one per field to extract: the mean word-piece embedding of its name),
// HTML tokens (one per kept DOM node, element or text: tag embedding + segment embedding) and text
// tokens (word pieces of the text nodes in document order + segment embedding).
// Attention, one fused softmax per query type (ETC style, separate K/V projections per pattern):
//  - text  -> local text (|i-j| <= radius, blocks of radius+1, keys = previous/current/next block,
//             relative position embeddings on the key side) + all HTML + all field tokens
//             (a key-side edge embedding marks the token's own text node and that node's parent);
//  - HTML  -> DOM edges (self/parent/child/sibling, learned edge-type key embeddings) + its own
//             text tokens (H2T: a text node's pieces; an element: pieces of its direct text
//             children) + all field tokens; evaluated as one segment softmax over an edge list;
//  - field -> all HTML tokens + all field tokens.
// Post-LN layers with a GELU FFN. Span head per field: start over [null, text...] from
// [h_j ; h_field], end from [h_j ; h_start ; h_field]; best span with start <= end < start+maxSpan.
//
// Checkpoint folder (Hugging Face layout): config.json (model_type "webformer", sizes, tag and
// field lists), model.safetensors, vocab.txt (WordPiece), folio.json (data, split, metrics, seed).

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace folio::inference {

// One DOM node of a page, in document order (pre-order); parent < own index, -1 for the root(s).
struct WebNode
{
    int parent = -1;
    std::string tag;   // lower-case element tag; "#text" for a text node
    std::string xpath; // the node's XPath (lxml getpath form)
    bool isText = false;
    std::vector<std::string> words; // text nodes: whitespace-separated words
};

struct WebPage
{
    std::string id;
    std::string source; // the file it was read from, when known (loadSwdeSplit)
    std::vector<WebNode> nodes;
    // Gold values per field (training / evaluation); empty vector = the page has no value.
    std::map<std::string, std::vector<std::string>> gold;
};

struct WebFormerConfig
{
    int hidden = 128, layers = 2, heads = 4, intermediate = 512;
    int radius = 31;              // T2T local radius r (block length r+1)
    int siblingWindow = 8;        // H2H sibling edges to the nearest k siblings on each side (0: all)
    bool domGraph = true;         // false: HTML tokens attend to themselves only among HTML tokens (ablation)
    int maxTextTokens = 4096;     // longer pages are truncated (the tail is dropped)
    int maxPiecesPerWord = 6;
    int maxSpanTokens = 48;       // decoded spans are at most this many word pieces
    double dropout = 0.1;
    std::vector<std::string> fields; // field names, in output order
};

// One extracted value.
struct FieldSpan
{
    std::string field;
    bool found = false;       // false when the null answer wins
    std::string value;        // words joined by single spaces
    std::string xpath;        // text node of the first word
    int firstWord = -1, lastWord = -1; // page word indices (text nodes' words in document order)
    double confidence = 0;    // p(start) * p(end | start); for !found: p(null)
};

class WebFormerExtractor
{
public:
    WebFormerExtractor();
    ~WebFormerExtractor();
    WebFormerExtractor(const WebFormerExtractor &) = delete;
    WebFormerExtractor &operator=(const WebFormerExtractor &) = delete;

    // Loads config.json + model.safetensors + vocab.txt; false + *error naming the file.
    bool load(const std::string &checkpointDir, std::string *error);
    bool isLoaded() const;
    const WebFormerConfig &config() const;
    // Extracts `fields` (empty: every field of the checkpoint). Fields the checkpoint was not
    // trained on are allowed (their token is built from the name's word pieces) but unreliable.
    bool extract(const WebPage &page, const std::vector<std::string> &fields, std::vector<FieldSpan> *out,
                 std::string *error) const;
    // Dynamic int8 quantization of the encoder's Linear layers (issue 35; off unless asked; the span
    // head stays float32): fbgemm, or oneDNN where this LibTorch has no fbgemm. False + *error when
    // nothing is loaded or this LibTorch has no quantized engine; a load() is float32 again.
    bool quantizeDynamicInt8(std::string *error);
    bool isInt8() const;

    struct Impl;

private:
    std::unique_ptr<Impl> m_impl;
};

struct WebFormerTrainOptions
{
    WebFormerConfig model;
    std::string outputDir;
    int epochs = 12;
    double lr = 1e-3, weightDecay = 0.01, clipNorm = 1.0, warmupFraction = 0.1;
    int vocabSize = 6000;
    unsigned seed = 1;
    int threads = 2;
    int maxSteps = 0;            // stop after this many optimizer steps (tests); 0 = no limit
    double maxSeconds = 0;       // stop training after this long (0 = no limit); best dev epoch is kept
    std::string command, dataDescription; // recorded in folio.json
};

struct WebFormerTrainProgress
{
    int epoch = 0, epochs = 0;
    long step = 0, totalSteps = 0;
    double loss = 0;     // mean loss of the last epoch (or running)
    double devF1 = -1;
    std::string message;
};

struct WebFormerTrainResult
{
    bool ok = false;
    std::string error;
    std::vector<double> epochLosses; // mean training loss per epoch
    std::vector<double> stepLosses;  // loss of every optimizer step
    double bestDevF1 = 0;
    int bestEpoch = 0;
    double seconds = 0;
    long steps = 0;
};

// Trains on `train`, keeps the epoch with the best dev page-level F1 (when dev is non-empty;
// else the last epoch) in options.outputDir.
WebFormerTrainResult trainWebFormer(const WebFormerTrainOptions &options, const std::vector<WebPage> &train,
                                    const std::vector<WebPage> &dev,
                                    const std::function<void(const WebFormerTrainProgress &)> &progress = {},
                                    const std::atomic<bool> *cancel = nullptr);

} // namespace folio::inference
