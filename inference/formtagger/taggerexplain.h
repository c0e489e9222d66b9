#pragma once
// Why a word got its label (issue 48): attributions of a folio-formtagger prediction over the
// input words. Torch-free facade (folio-cli explain, the attention views); no exception leaves it.
//
// For one target word t and its predicted label c (the Viterbi tag, as Predictor decodes it), the
// explained quantity is f = logit_c(t), the classifier's pre-softmax score of c at t, in the model
// window holding t (a page longer than max_words is explained in the window of max_words words
// centred on t; words outside it get no attribution).
//
// The input of word i is its embedding x_i = LN(s_i), the embedding LayerNorm's output (what the
// first encoder layer reads), where s_i = text_i + position_i + box_i: text_i the mean of its
// word-piece embeddings, position_i the position embedding of its index in the window, box_i the
// x0/y0/x1/y1/w/h coordinate embeddings plus the four gap embeddings (0 for the "text" variant).
// LN is scale-invariant, so gradients before it say nothing (<df/ds_i, s_i> = 0); after it, x_i
// splits exactly into parts: x_i = sum_p gamma*(p_i - mean(p_i))/sigma(s_i) + beta, p = text,
// position, box, and beta (the LayerNorm shift, the same for every word: "shift").
// The gradient g_i = df/dx_i is taken through every layer, the final LayerNorm and the classifier;
// the relative attention biases (1-D, 2-D; ERNIE-Layout's disentangled 1-D / x / y terms for the
// "ernie" architecture) read the boxes directly, not x_i, and stay at the real boxes throughout
// (a box's effect through them is what the what-if edits show). Every tagger architecture has
// this gradient path (layoutlmv3, layoutlmv2, ernie, text).
//  - gradient x input: GI_i = <g_i(x), x_i>, split exactly into its text, position, box and shift parts.
//  - integrated gradients: baseline x' = 0 for every word of the window (the all-zero input
//    embedding), IG_i = < x_i , integral_0^1 g_i(alpha x) d alpha >, with m steps of the midpoint
//    rule in u where alpha = u^p:
//        IG_i = < x_i , (1/m) * sum_{k=1..m} p u_k^(p-1) g_i(u_k^p x) >,  u_k = (k - 1/2)/m.
//    p = 1 is the usual equal-step sum; the default p = 3 crowds the steps near the baseline,
//    where the encoder's pre-LN LayerNorms (scale-invariant) make the integrand steep: below
//    alpha ~ sqrt(eps) it changes fast, above it hardly. Split the same way as gradient x input;
//    completeness: sum_i IG_i ~ f(x) - f(0) (both reported).
// Attention rollout is computed from `attentions` by attention/attributions.h.

#include "inference/formtagger/taggerpage.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace folio::inference {

struct TaggerExplainOptions
{
    int igSteps = 128;          // m above; 0 = no integrated gradients
    int igPower = 3;            // p above: 1 = equal steps in alpha, 3 = cubic spacing (the default)
    bool gradients = true;      // false: only the forward pass (labels, logits, attentions)
    std::uint32_t disabledBiases = 0; // BiasFamily bits switched off for every pass
};

struct TaggerExplanation
{
    int target = -1;           // page word index
    std::string label;         // the explained label (predicted unless asked)
    int labelIndex = -1;
    float logit = 0;           // f(e)
    float baselineLogit = 0;   // f(0) (integrated gradients only)
    int firstWord = 0;         // page word index of the window's first word
    int wordCount = 0;         // words in the window
    int layers = 0, heads = 0;
    std::vector<float> attentions; // [layers][heads][wordCount][wordCount], post-softmax, row = query
    // Per window word (empty when not computed):
    std::vector<float> gradInput, gradInputText, gradInputPosition, gradInputBox, gradInputShift;
    std::vector<float> integratedGradients, igText, igPosition, igBox, igShift;
    int igSteps = 0;
    // Wall time of each part in this process (seconds): one plain forward of the window, the
    // gradient pass, the m integrated-gradient passes plus the baseline.
    double forwardSeconds = 0, gradientSeconds = 0, igSeconds = 0;
};

class TaggerExplainer
{
public:
    TaggerExplainer();
    ~TaggerExplainer();
    TaggerExplainer(const TaggerExplainer &) = delete;
    TaggerExplainer &operator=(const TaggerExplainer &) = delete;

    // A folio-formtagger folder (config.json, model.safetensors, tokenizer). Ensembles and other
    // model types are refused naming the folder. False + *error on failure.
    bool load(const std::string &checkpointDir, std::string *error);
    bool isLoaded() const;
    const std::vector<std::string> &labels() const;
    std::string wordOrder() const;
    int maxWords() const;

    // The page's Viterbi tags (Predictor's decoding). False + *error on an empty page.
    bool predict(const TaggerPage &page, std::vector<std::string> *tags, std::string *error,
                 std::uint32_t disabledBiases = 0) const;
    // Attributions for page word `target`; `label` "" = its predicted tag, else a label of the map.
    bool explain(const TaggerPage &page, int target, const std::string &label, const TaggerExplainOptions &options,
                 TaggerExplanation *out, std::string *error);

    struct Impl;

private:
    std::unique_ptr<Impl> m_impl;
};

} // namespace folio::inference
