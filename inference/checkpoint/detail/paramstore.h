#pragma once
// Weights of one checkpoint by their Hugging Face state-dict names. Models take() each tensor
// with its expected shape; finish() rejects keys nobody took. Errors name file and tensor.

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
    ~ParamStore();

    const std::string &path() const { return m_path; }
    bool has(const std::string &key) const;
    // float32 copy of `key`; throws when missing or when the shape differs from `shape`.
    at::Tensor take(const std::string &key, const std::vector<std::int64_t> &shape);
    // As take() but returns an undefined tensor when absent.
    at::Tensor takeOptional(const std::string &key, const std::vector<std::int64_t> &shape);
    // Marks keys as known-but-unused (e.g. the legacy `embeddings.position_ids` buffer).
    void ignore(const std::string &key);
    // Throws listing every key that was never taken.
    void finish() const;
    std::vector<std::string> keys() const;

private:
    std::string m_path;
    std::unique_ptr<SafetensorsFile> m_file;
    std::set<std::string> m_taken;
};

} // namespace folio::inference::detail
