#pragma once
// Why a word got its label from a Hugging Face token classifier (issue 48): LayoutLMv3 (words,
// boxes and image patches), LayoutLMv2 / LayoutXLM (words, boxes, the 7 x 7 visual tokens) and
// LiLT (text flow and layout flow). Torch-free facade; no exception leaves it.
//
// What is explained: f = logit_c at the target word's first token (the token its label is read
// from, hftokenclassifier.h), c its predicted label unless asked, in the window that labelled it.
// The input: the encoder's input sequence x (the model's "hidden_states.0": text tokens after the
// embedding LayerNorm, then LayoutLMv3's image patches / LayoutLMv2's visual tokens; LiLT has two,
// the text flow's x and the layout flow's x_l = LN(Linear(box) + box position)). Every token's
// vector carries its word, its position and its box (and, for image tokens, the pixels):
//  - gradient x input: GI_p = <df/dx_p, x_p> per encoder position p (LiLT: the text flow's part
//    and the layout flow's part, GI_p = text + layout);
//  - integrated gradients from the all-zero encoder input (x' = 0, LiLT: both flows 0) along
//    alpha x, m midpoint steps in u with alpha = u^p (as taggerexplain.h):
//        IG_p = < x_p , (1/m) sum_k p u_k^(p-1) g_p(u_k^p x) >, completeness sum_p IG_p ~ f(x) - f(0).
//    alpha x is made exactly by scaling the weight and bias of the LayerNorm(s) that produce x
//    (LN_{a gamma, a beta}(s) = a LN(s)): LayoutLMv3 embeddings.LayerNorm (text only) or the
//    sequence LayerNorm over text + patches; LayoutLMv2 embeddings.LayerNorm and visual_LayerNorm;
//    LiLT embeddings.LayerNorm and layout_embeddings.LayerNorm. The relative-position biases read
//    the real positions and boxes throughout (their effect is what the what-if edits show);
//  - attention rollout from the window's attentions (attention/attributions.h) by the caller.
// Per word: the sum over its tokens; image tokens are reported by position (grid row, column).

#include "inference/checkpoint/tensor.h"
#include "inference/models/hftokenclassifier.h"

#include <memory>
#include <string>
#include <vector>

namespace folio::inference {

struct HfExplainOptions
{
    int igSteps = 128;     // 0 = no integrated gradients
    int igPower = 3;       // 1 = equal steps in alpha, 3 = cubic spacing
    bool gradients = true; // false: the forward only (logit, attentions)
};

struct HfExplanation
{
    std::string modelType;
    std::string label;
    int labelIndex = -1;
    int window = -1;           // WordLabelling::windows index
    int targetPosition = -1;   // encoder position of the target word's first token
    float logit = 0, baselineLogit = 0;
    int positions = 0;         // encoder positions: text tokens, then image tokens
    int textPositions = 0;
    int imageGrid = 0;         // image tokens per side (0: none); a leading CLS image token when imageCls
    bool imageCls = false;
    std::vector<int> positionWord; // word per position: >= 0 a page word, -1 special / padding, -2 image token
    int layers = 0, heads = 0;
    std::vector<float> attentions; // [layers][heads][positions][positions], post-softmax
    std::vector<float> gradInput, integratedGradients; // per position (LiLT: both flows)
    std::vector<float> gradInputLayout, igLayout;      // LiLT: the layout flow's part (empty otherwise)
    int igSteps = 0;
    std::string input;         // what x is for this model, in words
    double forwardSeconds = 0, gradientSeconds = 0, igSeconds = 0;
};

class HfExplainer
{
public:
    HfExplainer();
    ~HfExplainer();
    HfExplainer(const HfExplainer &) = delete;
    HfExplainer &operator=(const HfExplainer &) = delete;

    // A LayoutLMv3 / LayoutLMv2 / LayoutXLM / LiLT token-classification folder (as HfTokenClassifier
    // loads it) and a second, differentiable copy of its model. Other model types are refused
    // naming the folder and the types that have a gradient path.
    bool load(const std::string &dir, std::string *error);
    bool isLoaded() const;
    const HfTokenClassifier &classifier() const;
    std::string modelType() const;
    static std::vector<std::string> supportedModelTypes();

    // Attributions for `word` of a labelling this explainer's classifier made (its windows hold
    // the inputs); `pixelValues` as given to HfTokenClassifier::label (null: none).
    bool explain(const WordLabelling &labelling, int word, const std::string &label, const HfExplainOptions &options,
                 const Tensor *pixelValues, HfExplanation *out, std::string *error) const;

    struct Impl;

private:
    std::unique_ptr<Impl> m_impl;
};

} // namespace folio::inference
