#pragma once
// config.json sizes checked before any model is built (issue 18): every size key has a stated
// range, head counts divide their width, and where model.safetensors holds a tensor that carries a
// size (or a layer index), the config must agree with that tensor's header shape. Nothing is
// allocated: shapes come from the safetensors header. Torch-free; one place for every model type
// (ModelConfig::fromDirectory runs it, and every loader reads its config through that).

#include "inference/checkpoint/modelconfig.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace folio::inference {

struct ConfigSizeLimit
{
    const char *key;
    long long min;
    long long max;
};

// The stated limits (also listed in inference/README.md).
const std::vector<ConfigSizeLimit> &configSizeLimits();

using TensorShapes = std::map<std::string, std::vector<std::int64_t>>;

// Throws InferenceError "<config source>: '<key>' ..." on the first problem. `shapes` may be empty
// (no weights file yet: only the limits and divisibility are checked); `weightsLabel` names the
// weights file in messages.
void checkConfigSizes(const ModelConfig &config, const TensorShapes &shapes, const std::string &weightsLabel);

} // namespace folio::inference
