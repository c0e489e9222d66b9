#pragma once
// pytorch_model.bin as torch.save writes a state dict (a zip archive: <name>/data.pkl, the tensors'
// storages in <name>/data/<key>), read WITHOUT running pickle code: a minimal pickle interpreter
// that knows only what a plain state dict uses (dict / collections.OrderedDict, tuples, lists,
// strings, ints, floats, bools, None, persistent storage ids ('storage', torch.FloatStorage, key,
// location, numel) and torch._utils._rebuild_tensor_v2 / _rebuild_parameter). Any other GLOBAL
// (os.system, builtins.eval, ...) or opcode, or a pickle whose result is not a dict of tensors,
// is refused with an InferenceError naming the file and the opcode or global. Torch-free.
//
// Hostile numbers (issue 36): every size, stride, offset and count is checked without overflow;
// each storage's declared size against the bytes its entry holds; and the bytes the state dict's
// tensors need together against 4 x the bytes of the storages they come from + 64 MiB (tied
// weights take a storage two to four times), all before a tensor is allocated. The pickle's values
// are at most 1,048,576, live in one arena and are freed flatly (no recursion however deep the
// nesting). See inference/README.md "Checkpoint limits".

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
