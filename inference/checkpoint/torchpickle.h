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

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace folio::inference {

// The state dict's tensors (contiguous copies, the storage's dtype). Throws InferenceError.
TensorMap readTorchCheckpoint(const std::string &path);

// The pickle interpreter alone: `pickle` is data.pkl's bytes, `storage(key)` returns the bytes of
// data/<key>. `source` names the file in messages.
TensorMap readStateDictPickle(const std::string &pickle, const std::string &source,
                              const std::function<std::string(const std::string &key)> &storage);

// A whole training checkpoint torch.save wrote (fairseq's checkpoint_best.pt: {"args": Namespace
// or None, "cfg": dict, "model": state dict, "optimizer_history", "extra_state", ...}), read by the
// same interpreter with an allow-list of inert classes that are built as data, never called:
// argparse.Namespace (NEWOBJ + BUILD of its fields), collections.OrderedDict, set / frozenset (as
// lists), _codecs.encode (protocol 2's bytes, latin-1 only) and numpy scalars (numpy.dtype +
// numpy.core.multiarray.scalar, as numbers). Any other global (a Namespace subclass, os.system,
// an unknown class) is refused naming it, as are the opcodes a plain state dict does not use.
// Only the entry `stateDictKey` becomes tensors (the state dict limits above apply to it); every
// other entry is described as JSON (tensors as {"tensor": [shape]}, objects with "__class__",
// nesting past 48 levels as "...").
struct TorchTrainingCheckpoint
{
    nlohmann::json entries; // every top-level entry but the state dict
    std::map<std::string, std::vector<std::int64_t>> shapes; // the state dict's tensors
    TensorMap tensors;      // the state dict (when read with tensors)
};
TorchTrainingCheckpoint readTorchTrainingCheckpoint(const std::string &path, const std::string &stateDictKey,
                                                    bool withTensors);
// The same for data.pkl alone; `storage(key)` returns the bytes of data/<key>, valid until it returns.
TorchTrainingCheckpoint readTrainingCheckpointPickle(const std::string &pickle, const std::string &source,
                                                     const std::function<std::string_view(const std::string &key)> &storage,
                                                     const std::string &stateDictKey, bool withTensors);

} // namespace folio::inference
