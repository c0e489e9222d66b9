#pragma once
// What differs between the Hugging Face architectures HfFineTuner fine-tunes (issue 46): the model
// types it takes, the token-classification class written into config.json, the parameters the
// reference's optimiser never sees, the name of the image input, and how many text tokens fit.
// Torch-free; the names are the reference's ("layoutlmv2.visual.backbone.bottom_up.res3.0.conv1.weight").
//
// LayoutLMv2 / LayoutXLM (model_type "layoutlmv2"): Hugging Face builds the detectron2 ResNeXt-FPN
// backbone with FrozenBatchNorm2d (MODEL.RESNETS.NORM's default) and MODEL.BACKBONE.FREEZE_AT's
// default 2, and LayoutLMv2Model never freezes anything else. So the backbone trains except for
//  - every FrozenBN's weight / bias / running_mean / running_var (buffers in the reference, not
//    parameters: never in the optimiser, never saved differently), and
//  - the stem when FREEZE_AT >= 1 and the res2..res<k> blocks when FREEZE_AT = k >= 2
//    (requires_grad = False in the reference).
// The FPN's p3..p5 output convolutions are parameters the loss never reaches: no gradient, as in
// the reference (they are not frozen, they are simply off the graph).

#include "inference/checkpoint/modelconfig.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace folio::inference {

// layoutlmv3, lilt, layoutlmv2 (LayoutXLM is a layoutlmv2 folder with an XLM-R tokenizer): the
// types `train --init` and Start from fine-tune on pages (pipeline/hffinetuning.h).
std::vector<std::string> hfFineTunableModelTypes();
// The types HfFineTuner takes a step for: the above and markuplm (MarkupLMForTokenClassification on
// a batch of input_ids / xpath_tags_seq / xpath_subs_seq; no page pipeline feeds it yet).
std::vector<std::string> hfStepModelTypes();

// "LayoutLMv3ForTokenClassification", "LiltForTokenClassification",
// "LayoutLMv2ForTokenClassification", "MarkupLMForTokenClassification"; "" for another type.
std::string hfTokenClassificationArchitecture(const std::string &modelType);

// The names among `names` (the checkpoint's tensors under the reference's names) that fine-tuning
// keeps fixed as the reference does; empty for LayoutLMv3 and LiLT. Throws InferenceError naming
// config.json when a LayoutLMv2 folder with a backbone has detectron2_config_args Folio refuses.
std::vector<std::string> hfFrozenParameters(const ModelConfig &config, const std::vector<std::string> &names);

// Tensors the reference saves but whose module its forward never runs, which Folio's model ignores:
// carried through fine-tuning unchanged (fixed, no gradient, as in the reference) so the folder
// written keeps them (MarkupLM's xpath_unitseq2_embeddings, [hidden_size, max_depth *
// xpath_unit_hidden_size] and its bias). Name (reference name) and shape.
std::vector<std::pair<std::string, std::vector<std::int64_t>>> hfCarriedTensors(const ModelConfig &config);

// The model input that takes the page image: "pixel_values" (LayoutLMv3 with visual_embed), "image"
// (LayoutLMv2 with visual.backbone weights: uint8 BGR), "" when the checkpoint has no image branch.
std::string hfImageInputName(const ModelConfig &config, const std::vector<std::string> &names);

// The most text tokens (specials included) the model's position table takes: LayoutLMv2 counts
// positions from 0 (max_position_embeddings), the RoBERTa-style models from pad_token_id + 1
// (max_position_embeddings - 2).
long long hfMaxTextPositions(const ModelConfig &config);

} // namespace folio::inference
