#pragma once
// A Hugging Face MarkupLM checkpoint folder (config.json with model_type "markuplm",
// model.safetensors or pytorch_model.bin, vocab.json + merges.txt + tokenizer_config.json with
// tags_dict) run over a web page's nodes and XPaths (document/html/markupnodes.h gives them, as
// the reference feature extractor does). Torch-free facade; no exception leaves it.
//
//  - MarkupLMForTokenClassification: one label per node, from its first sub-token. The first window
//    is the reference's own call (`tokenizer(nodes, xpaths=..., truncation=True)`), and every node
//    with a token there is labelled from it; nodes past the cut are labelled from further windows
//    (each starting a quarter window before the first unlabelled node, for context), so every
//    non-empty node gets a label.
//  - MarkupLMForQuestionAnswering: the best answer span (start <= end, at most maxAnswerTokens
//    tokens, both inside the nodes; score = start + end logit) over windows of
//    `<s> question </s> nodes </s>`; the first window is the reference's `only_second` truncation.
//    Answers are reported as token and node ranges (the Fields dock highlights nodes).

#include "inference/checkpoint/tensor.h"
#include "inference/models/hftokenclassifier.h"
#include "inference/models/runoptions.h"

#include <memory>
#include <string>
#include <vector>

namespace folio::inference {

class MarkupLMTokenizer;
class ModelRunner;

struct MarkupNodeLabelling
{
    bool ok = false;
    std::string error;
    std::vector<WordLabel> nodes;               // one per input node (labelId -1: empty node)
    std::vector<TensorMap> windows;             // inputs and outputs of each window
    std::vector<std::vector<int>> windowNodeIds; // node of each position per window (-1: special)
};

struct MarkupAnswer
{
    bool ok = false;
    std::string error;
    bool found = false;     // false: no span inside the nodes (no nodes, or all cut away)
    int firstNode = -1, lastNode = -1; // nodes holding the span's first and last token
    int window = -1, startToken = -1, endToken = -1; // positions in that window's input_ids
    float score = 0;        // start + end logit
    float confidence = 0;   // p(start) * p(end): softmax over its window's node tokens (HF QA pipeline)
    std::vector<int> tokenIds; // input ids of the span
};

class HfMarkupLM
{
public:
    HfMarkupLM();
    ~HfMarkupLM();
    HfMarkupLM(HfMarkupLM &&) noexcept;
    HfMarkupLM &operator=(HfMarkupLM &&) noexcept;

    // Loads the folder; on failure returns false, sets *error (naming the file and the problem) and
    // leaves this object as it was.
    bool load(const std::string &dir, std::string *error);
    // The checks load() makes before any weight is read: config.json (its sizes against the weights
    // header), model_type and the tokenizer (tags_dict, max_depth). False + *error naming the file.
    static bool checkFolder(const std::string &dir, std::string *error);
    bool isLoaded() const;
    // Dynamic int8 of the encoder's Linear layers (ModelRunner::quantizeDynamicInt8, issue 35; until the
    // next load()). False + *error when nothing is loaded or this LibTorch has no quantized engine.
    bool quantizeDynamicInt8(std::string *error);
    bool isInt8() const;
    bool isQuestionAnswering() const; // else token classification
    const std::vector<std::string> &labels() const { return m_labels; } // empty for QA
    int maxTokens() const;            // positions per window, specials included
    const MarkupLMTokenizer *tokenizer() const;

    MarkupNodeLabelling label(const std::vector<std::string> &nodes, const std::vector<std::string> &xpaths,
                              const RunOptions &options = {}) const;
    MarkupAnswer answer(const std::string &question, const std::vector<std::string> &nodes,
                        const std::vector<std::string> &xpaths, int maxAnswerTokens = 30) const;

private:
    struct Loaded;
    std::unique_ptr<Loaded> m_loaded;
    std::vector<std::string> m_labels;
};

} // namespace folio::inference
