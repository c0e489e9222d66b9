#pragma once
// Label helpers shared by the Hugging Face token-classification facades (hftokenclassifier.h,
// hfmarkuplm.h). Torch-free.
#include "inference/checkpoint/modelconfig.h"
#include "inference/checkpoint/tensor.h"
#include "inference/models/hftokenclassifier.h"

#include <string>
#include <vector>

namespace folio::inference::detail {

// config.json id2label as a dense list; throws InferenceError naming the file when absent or malformed.
std::vector<std::string> labelsFromConfig(const ModelConfig &config);
// Argmax label of `logits` [..., L, labels] (float32) at flat position `position`, with its softmax
// probability and the top-1 minus top-2 margin.
WordLabel labelAt(const Tensor &logits, std::int64_t position, const std::vector<std::string> &labels);

} // namespace folio::inference::detail
