#pragma once
// Prediction and evaluation with a folio-formtagger checkpoint (trainer.h trains them). Torch-free
// facade: folio-cli, Suggest Labels and the attention view call it; no exception leaves load(),
// predict() or evaluate() — failures come back as messages.

#include "inference/checkpoint/tensor.h"
#include "inference/formtagger/taggerpage.h"
#include "inference/models/runoptions.h"
#include "inference/models/wordlabels.h"

#include <memory>
#include <string>
#include <vector>

namespace folio::inference {

// The encoder's output for each word of a page (words x dim floats, row-major): what the tagger
// classifies and the key -> value link head (linking.h) reads. Kept from a prediction so the link
// head need not run the encoder again.
struct WordStates
{
    int words = 0, dim = 0;
    std::vector<float> values;
};

struct PagePrediction
{
    std::vector<std::string> tags;        // one per word
    std::vector<double> confidences;      // probability of each word's tag
    std::vector<PredictedEntity> entities;
};

// AttentionTrace of one window of a traced prediction (units are words, not sub-tokens).
// `tensors` holds float32 `attentions.N` (post-softmax, [heads, words, words], row = query) for
// every layer and the shared score terms `bias.1d`, `bias.2d_x`, `bias.2d_y` ([heads, words,
// words], added before the softmax; the 2-D terms only for the "full" variant). A family switched
// off by RunOptions::disabledBiases is recorded as zeros.
struct PredictionTraceWindow
{
    int firstWord = 0; // page word index of the window's first word
    int wordCount = 0; // words in the window
    TensorMap tensors;
};

// An ensemble folder: config.json {"model_type": "folio-formtagger-ensemble", "members": [...]},
// 2-16 folio-formtagger folders (relative to the ensemble folder or absolute) with the same label
// map and word order. Predictor averages their per-word label probabilities before decoding.
inline constexpr const char *kTaggerEnsembleType = "folio-formtagger-ensemble";
// The member folders of an ensemble folder; empty when `dir` is not one. Throws InferenceError on a
// malformed members list.
std::vector<std::string> taggerEnsembleMembers(const std::string &dir);
// What Predictor::load checks before reading weights (members exist, are no ensembles, share the
// label map and word order); false + *error naming the folder. Also true for a single tagger folder.
bool checkTaggerEnsemble(const std::string &dir, std::string *error);

class Predictor
{
public:
    Predictor();
    ~Predictor();
    Predictor(const Predictor &) = delete;
    Predictor &operator=(const Predictor &) = delete;

    // Loads a checkpoint folder; false + *error (naming the folder/file) on failure, e.g. when
    // the tokenizer files are missing.
    // An ensemble folder (kTaggerEnsembleType) loads every member; all or nothing.
    bool load(const std::string &checkpointDir, std::string *error);
    int memberCount() const; // 1, or the members of an ensemble; 0 when nothing is loaded
    // Dynamic int8 quantization of the loaded model's Linear layers (issue 35; off unless asked):
    // weights int8 per output channel, activations quantized per call, on LibTorch's fbgemm engine
    // (oneDNN or QNNPACK where this LibTorch has no fbgemm; see int8Engine()). False + *error when
    // nothing is loaded or no quantized engine exists. Lasts until the next load().
    bool quantizeDynamicInt8(std::string *error);
    bool isInt8() const;
    // The engine quantizeDynamicInt8 uses ("fbgemm", "onednn", "qnnpack"); "" + *why when none.
    static std::string int8Engine(std::string *why = nullptr);
    bool isLoaded() const;
    const std::vector<std::string> &labels() const;
    std::string variant() const;
    std::string wordOrder() const; // config.json "word_order" ("" when not recorded)
    // Predicts one page. Empty pages are an error. Pages longer than the model's window are
    // windowed (stride from the config) and merged back.
    // `options` (may be null): RunOptions::disabledBiases switches off the 1-D (Bias1D) and/or the
    // 2-D x/y (Bias2D) relative attention biases for this prediction (bias ablation); with
    // RunOptions::trace and a non-null `trace`, *trace receives one entry per window. Without
    // them (the default) nothing is captured: the same computation as before. With `states`,
    // *states receives the encoder's word states of the same pass (for LinkPredictor::predict).
    bool predict(const TaggerPage &page, PagePrediction *out, std::string *error, bool viterbi = true,
                 const RunOptions *options = nullptr, std::vector<PredictionTraceWindow> *trace = nullptr,
                 WordStates *states = nullptr) const;
    // Entity P/R/F1 (seqeval semantics) over pages with gold tags; JSON text in *json.
    // Gold tags outside the label map are an error.
    bool evaluate(const std::vector<TaggerPage> &pages, std::string *json, std::string *error, bool viterbi = true) const;

    struct Impl;

private:
    std::unique_ptr<Impl> m_impl; // null until load() succeeds
};

} // namespace folio::inference
