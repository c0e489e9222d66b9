#pragma once
// An AdamW optimiser's state in a safetensors file, keyed by parameter name: "m.NAME" and "v.NAME"
// (first and second moments), "step.NAME" (that parameter's step count, int64) for every parameter
// that has had a gradient, and "optimiser.step" (the caller's own step counter). Folio's tagger
// optimiser and the Hugging Face Trainer's AdamW both keep their resumable state this way.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace torch::optim {
class AdamW;
}

namespace folio::inference::detail {

// Writes the state of `params` held by `adam`; `format` goes into the file's metadata.
void writeAdamWState(const std::string &path, const torch::optim::AdamW &adam,
                     const std::map<std::string, at::Tensor> &params, std::int64_t optimiserStep,
                     const std::string &format);

// Replaces `adam`'s state with the file's and returns its "optimiser.step". Moments are cast to
// `momentType`, or to each parameter's own type when it is not given. Throws InferenceError naming
// the file and the tensor when one is missing, has another shape, or belongs to no parameter.
std::int64_t readAdamWState(const std::string &path, torch::optim::AdamW &adam,
                            const std::map<std::string, at::Tensor> &params,
                            std::optional<at::ScalarType> momentType = std::nullopt);

} // namespace folio::inference::detail
