#pragma once
// The values the pytorch_model.bin pickle reader builds (torchpickle.cpp) and the step that turns
// a state dict of them into tensors (torchtensors.cpp). Torch-free.
//
// Values live in one arena (a deque owned by the reader) and point at each other with plain
// pointers: nothing is freed value by value, so a pickle nesting a million lists is destroyed as
// flatly as it was built (issue 36: shared_ptr children were destroyed recursively and overflowed
// the stack), and a list that contains itself is no leak.

#include "inference/checkpoint/tensor.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace folio::inference::detail {

struct PickleValue
{
    // Object: an instance of an allow-listed inert class (training checkpoints only, torchpickle.h):
    // `s` its class, `dict` its fields (argparse.Namespace), `items` its constructor arguments.
    enum Kind { None, Bool, Int, Float, String, Tuple, List, Dict, Global, Storage, TensorRef, Mark, Object } kind = None;
    DType dtype = DType::F32;                              // Storage
    std::int64_t i = 0;                                    // Int, Bool; Storage: its declared element count
    double f = 0;
    std::string s;                                         // String; Global "module.name"; Storage: key
    std::vector<PickleValue *> items;                      // Tuple, List; TensorRef: {storage, offset, size, stride}
    std::vector<std::pair<PickleValue *, PickleValue *>> dict; // Dict (insertion order)
};

// Owns every value of one read; at most `limit` of them (a refusal beyond, by the caller).
class PickleArena
{
public:
    PickleValue *make(PickleValue::Kind kind)
    {
        m_values.emplace_back();
        m_values.back().kind = kind;
        return &m_values.back();
    }
    std::size_t size() const { return m_values.size(); }

private:
    std::deque<PickleValue> m_values;
};

// A storage's bytes by key; the view must stay valid until materialiseStateDict returns.
using StorageBytes = std::function<std::string_view(const std::string &key)>;

// The state dict `root` (a Dict of String -> TensorRef) as contiguous tensors. Every size, stride,
// offset and count is checked (no overflow), each storage's declared size against the bytes it
// holds, and the bytes all tensors need against kMaterialiseFactor x the storages' bytes +
// kMaterialiseSlack, all before anything is allocated. Messages start with `source` and name the
// tensor. Throws InferenceError.
constexpr std::uint64_t kMaterialiseFactor = 4;
constexpr std::uint64_t kMaterialiseSlack = 64ull << 20;
TensorMap materialiseStateDict(const PickleValue &root, const std::string &source, const StorageBytes &storage);
// The same checks without copying anything (a description refuses what a load refuses).
void checkStateDict(const PickleValue &root, const std::string &source, const StorageBytes &storage);

} // namespace folio::inference::detail
