#pragma once
// pytorch_model.bin as torch.save writes a state dict (a zip archive: <name>/data.pkl, the tensors'
// storages in <name>/data/<key>), read WITHOUT running pickle code: a minimal pickle interpreter
// that knows only what a plain state dict uses (dict / collections.OrderedDict, tuples, lists,
// strings, ints, floats, bools, None, persistent storage ids ('storage', torch.FloatStorage, key,
// location, numel) and torch._utils._rebuild_tensor_v2 / _rebuild_parameter). Any other GLOBAL
// (os.system, builtins.eval, ...) or opcode, or a pickle whose result is not a dict of tensors,
// is refused with an InferenceError naming the file and the opcode or global. Torch-free.

#include "inference/checkpoint/tensor.h"

#include <functional>
#include <string>

namespace folio::inference {

// The state dict's tensors (contiguous copies, the storage's dtype). Throws InferenceError.
TensorMap readTorchCheckpoint(const std::string &path);

// The pickle interpreter alone: `pickle` is data.pkl's bytes, `storage(key)` returns the bytes of
// data/<key>. `source` names the file in messages.
TensorMap readStateDictPickle(const std::string &pickle, const std::string &source,
                              const std::function<std::string(const std::string &key)> &storage);

} // namespace folio::inference
