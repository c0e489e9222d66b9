#pragma once
// A Hugging Face token-classification checkpoint folder (LayoutLMv3ForTokenClassification or
// LiltForTokenClassification: config.json with id2label, model.safetensors, vocab.json + merges.txt
// + tokenizer_config.json, a LayoutLMv3 or RoBERTa byte-level BPE tokenizer, or for LiLT also
// LayoutXLMTokenizer's sentencepiece.bpe.model;
// LayoutLMv2ForTokenClassification with LayoutLMv2Tokenizer's vocab.txt or, for LayoutXLM,
// LayoutXLMTokenizer's sentencepiece.bpe.model) labelling words
// with 0-1000 boxes: its own tokenizer, the model, and the first sub-token's argmax per word.
// Torch-free facade; no exception leaves it.
//
// Every word is fed as given (a white-space-only word is a token, an empty one has none). The first
// window is always the reference's own call (`tokenizer(words, boxes, truncation=True)`: cut at
// model_max_length - 2 tokens, maybe inside a word), and every word with a token there is labelled
// from it. Long pages: LongPages::Truncate stops there, as Hugging Face does (the words past the
// cut get no label: the parity fixture's behaviour); LongPages::Slide labels the words past the cut,
// and only those, from overlapping word windows that each fit the model (the first starting a
// quarter window before the cut), each word from the window where it sits farthest from an edge,
// so every non-empty word is labelled.

#include "inference/checkpoint/tensor.h"
#include "inference/models/runoptions.h"
#include "inference/models/wordlabels.h"
#include "inference/tokenizers/tokenizer.h"

#include <memory>
#include <string>
#include <vector>

namespace folio::inference {

class HfLayoutTokenizer;
class ModelRunner;

struct WordLabelling
{
    bool ok = false;
    std::string error;
    std::vector<WordLabel> words;      // one per input word
    // The model inputs and outputs of each window (input_ids, bbox, attention_mask, logits, and with
    // RunOptions::trace the attentions), for parity checks and the attention view.
    std::vector<TensorMap> windows;
    std::vector<std::vector<int>> windowWordIds; // word of each position per window (-1: special)
    // What this run could not do as the checkpoint's architecture would (no visual backbone weights,
    // no page image for one): the words are then labelled from text + layout only.
    std::vector<std::string> warnings;
};

class HfTokenClassifier
{
public:
    enum class LongPages { Truncate, Slide };

    HfTokenClassifier();
    ~HfTokenClassifier();
    HfTokenClassifier(HfTokenClassifier &&) noexcept;
    HfTokenClassifier &operator=(HfTokenClassifier &&) noexcept;

    // Loads the folder; on failure returns false, sets *error (naming the file and the problem) and
    // leaves this object as it was (a previously loaded checkpoint stays usable).
    bool load(const std::string &dir, std::string *error);
    bool isLoaded() const;
    const std::vector<std::string> &labels() const { return m_labels; }
    std::string modelType() const;
    // True when the checkpoint has an image branch the caller should feed (label's pixelValues).
    bool takesImage() const;
    // The loaded model's limitations (e.g. a LayoutLMv2 folder without visual backbone weights).
    std::vector<std::string> warnings() const;
    // Dynamic int8 quantization of the model's encoder Linear layers (ModelRunner::quantizeDynamicInt8,
    // issue 35; idempotent, until the next load()). False + *error when nothing is loaded, this LibTorch
    // has no quantized engine, or the architecture has no int8 path (the message names its model_type).
    bool quantizeDynamicInt8(std::string *error);
    bool isInt8() const;
    int maxTokens() const; // model_max_length of the tokenizer (positions per window, specials included)
    std::string tokenPiece(std::int64_t id) const; // the tokenizer's piece of an input id ("" when none)

    // `pixelValues`, passed to every window when the checkpoint has an image branch: LayoutLMv3's
    // pixel_values ([1, 3, S, S] float, already resized and normalised) or LayoutLMv2's image
    // ([1, 3, 224, 224] uint8 BGR, see pipeline/pagepixels.h). A LayoutLMv2 with its backbone and no
    // image runs text + layout only and says so in WordLabelling::warnings.
    WordLabelling label(const std::vector<std::string> &words, const std::vector<WordBox> &boxes,
                        LongPages longPages = LongPages::Slide, const RunOptions &options = {},
                        const Tensor *pixelValues = nullptr) const;

    // The checks load() makes before any weight is read: config.json (its sizes against the
    // weights header), model_type, id2label and the tokenizer (class, files, ids against vocab_size).
    // False + *error naming the file and the problem.
    static bool checkFolder(const std::string &dir, std::string *error);

    // The model types this facade can run (token classification heads).
    static std::vector<std::string> supportedModelTypes();

private:
    struct Loaded;
    std::unique_ptr<Loaded> m_loaded;
    std::vector<std::string> m_labels;
};

} // namespace folio::inference
