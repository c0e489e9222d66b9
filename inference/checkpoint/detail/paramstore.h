#pragma once
// Weights of one model by their Hugging Face state-dict names. Models take() each tensor with its
// expected shape; finish() rejects keys nobody took. Errors name file and tensor.
//
// Three sources, one interface, so a model builds its layers the same way whether it is loaded,
// created for training or rebuilt from tensors in memory:
//  - a safetensors file (ParamStore(path)): float32 copies, the file's dtype converted;
//  - fresh (ParamStore::fresh()): take() creates zero tensors of the asked shape (a trainer then
//    initialises them in place, see training/detail/trainkit.h initialiseParameters);
//  - a tensor map (ParamStore::fromTensors()): take() hands the given tensors out unchanged.
// Every tensor handed out is kept by name in parameters() (the trainable set, for the optimiser
// and for saving).

#include "inference/checkpoint/tensor.h"
#include "inference/detail/aten.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace folio::inference {
class SafetensorsFile;
}

namespace folio::inference::detail {

class ParamStore
{
public:
    explicit ParamStore(const std::string &safetensorsPath);
    static ParamStore fresh();
    // A checkpoint folder's weights: <dir>/model.safetensors, else <dir>/pytorch_model.bin (a
    // torch.save state dict read by checkpoint/torchpickle.h, floating tensors as float32), else
    // <dir>/checkpoint_best.pt (a fairseq checkpoint, checkpoint/fairseq.h: Hugging Face names).
    static ParamStore fromDirectory(const std::string &dir);
    // `source` names the tensors in error messages.
    static ParamStore fromTensors(std::map<std::string, at::Tensor> tensors, const std::string &source = "parameters");
    ParamStore(ParamStore &&) noexcept;
    ~ParamStore();

    const std::string &path() const { return m_path; }
    bool isFresh() const { return m_fresh; }
    bool has(const std::string &key) const;
    // float32 copy of `key` (a fresh store: zeros); throws when missing or when the shape differs.
    at::Tensor take(const std::string &key, const std::vector<std::int64_t> &shape);
    // As take() but returns an undefined tensor when absent (a fresh store: also undefined).
    at::Tensor takeOptional(const std::string &key, const std::vector<std::int64_t> &shape);
    // Marks keys as known-but-unused (e.g. the legacy `embeddings.position_ids` buffer).
    void ignore(const std::string &key);
    // Throws listing every key that was never taken.
    void finish() const;
    std::vector<std::string> keys() const;
    // Every tensor take() handed out, by name (the same tensor objects the model holds).
    const std::map<std::string, at::Tensor> &parameters() const { return m_params; }

private:
    ParamStore() = default;
    static ParamStore fromRead(TensorMap read, const std::string &source); // float32 copies, `source` in messages
    std::string m_path;
    std::unique_ptr<SafetensorsFile> m_file;
    std::map<std::string, at::Tensor> m_source; // fromTensors()
    bool m_fresh = false;
    std::map<std::string, at::Tensor> m_params;
    std::set<std::string> m_ignored;
};

} // namespace folio::inference::detail
