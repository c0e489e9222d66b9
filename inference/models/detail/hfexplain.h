#pragma once
// The ATen side of hfexplain.h: attributions on one window's model inputs. Tests run it on the
// parity fixtures' inputs and check it against the model's own forward.

#include "inference/detail/aten.h"
#include "inference/models/detail/model.h"
#include "inference/models/hfexplain.h"

#include <map>
#include <string>
#include <vector>

namespace folio::inference::detail {

// A differentiable copy of a Hugging Face model and its parameters by name (the tensors it holds).
struct HfGradientModel
{
    std::unique_ptr<Model> model;
    std::map<std::string, at::Tensor> params;
    std::string modelType;
};
// config.json + weights of `dir`; refuses model types without a gradient path (names them).
HfGradientModel loadHfGradientModel(const std::string &dir);

// The LayerNorms (name prefixes, e.g. "layoutlmv3.embeddings.LayerNorm") whose weight and bias,
// scaled by a, scale the encoder input by a: see hfexplain.h. `image`: the inputs hold an image.
std::vector<std::string> encoderInputLayerNorms(const HfGradientModel &m, bool image);

// f = logit[label] at `target` with the encoder input scaled by `alpha` (no gradient); the
// LayerNorms are restored afterwards. `only` restricts the scaling to those LayerNorms (tests:
// one flow at a time); empty = encoderInputLayerNorms.
double scaledLogit(HfGradientModel &m, const AtMap &inputs, int target, int label, double alpha,
                   const std::vector<std::string> &only = {});

// Fills out->logit, labelIndex (label < 0: the argmax at target), positions, attentions, gradient x
// input and integrated gradients (positionWord, window, label text are the caller's). The model's
// parameters get no gradient and are unchanged afterwards. Throws InferenceError.
void explainInputs(HfGradientModel &m, const AtMap &inputs, int target, int label, const HfExplainOptions &options,
                   HfExplanation *out);

} // namespace folio::inference::detail
