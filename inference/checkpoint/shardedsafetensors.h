#pragma once
// Sharded safetensors weights, as Hugging Face writes a large checkpoint: model.safetensors.index.json
// ({"metadata": {...}, "weight_map": {tensor: shard file}}) beside the shards
// (model-00001-of-00002.safetensors, ...). The index is read as hostile input (at most 64 MB, JSON
// nested at most 16 deep, 1,000,000 tensors, 10,000 shards): a shard named outside the folder
// ('..', an absolute path, a backslash, a control character) or not *.safetensors, a tensor named
// twice in the map or held by two shards, a shard that is missing or does not hold a tensor the
// map gives it: refused, the message naming the file and the tensor. Every shard is opened (its
// header validated, its data memory-mapped) up front. Torch-free.

#include "inference/checkpoint/safetensors.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace folio::inference {

inline constexpr const char *kSafetensorsIndexFile = "model.safetensors.index.json";

class ShardedSafetensors
{
public:
    // Reads <dir>/model.safetensors.index.json and opens its shards; throws InferenceError.
    explicit ShardedSafetensors(const std::string &dir);
    ~ShardedSafetensors();
    ShardedSafetensors(const ShardedSafetensors &) = delete;
    ShardedSafetensors &operator=(const ShardedSafetensors &) = delete;

    const std::string &indexPath() const { return m_indexPath; }
    const std::vector<std::string> &shardFiles() const { return m_shardNames; } // as the index names them
    std::vector<std::string> names() const;
    bool contains(const std::string &name) const { return m_where.count(name) != 0; }
    const TensorView &view(const std::string &name) const; // throws if absent
    std::string shardPath(const std::string &name) const;   // the shard file holding `name`

private:
    std::string m_indexPath;
    std::vector<std::string> m_shardNames;
    std::vector<std::unique_ptr<SafetensorsFile>> m_files;
    std::map<std::string, std::size_t> m_where;
};

// True when <dir> has model.safetensors.index.json (whether or not it is valid).
bool hasSafetensorsIndex(const std::string &dir);

} // namespace folio::inference
