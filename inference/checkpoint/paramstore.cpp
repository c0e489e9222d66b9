#include "inference/checkpoint/detail/paramstore.h"

#include "inference/checkpoint/detail/convert.h"
#include "inference/checkpoint/fairseq.h"
#include "inference/errors.h"
#include "common/regularfile.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/checkpoint/shardedsafetensors.h"
#include "inference/checkpoint/torchpickle.h"

#include <cmath>
#include <filesystem>

namespace folio::inference::detail {

namespace {

// Every tensor of the shards as an owned copy (floating ones as float32), after the index and every
// shard's header have been checked (ShardedSafetensors).
ParamStore fromShards(const std::string &dir)
{
    const ShardedSafetensors shards(dir);
    std::map<std::string, at::Tensor> tensors;
    for (const std::string &name : shards.names()) {
        const at::Tensor a = toAten(shards.view(name)); // an owned copy
        tensors[name] = a.is_floating_point() ? a.to(at::kFloat) : a;
    }
    return ParamStore::fromTensors(std::move(tensors), shards.indexPath());
}

} // namespace

ParamStore::ParamStore(const std::string &safetensorsPath)
    : m_path(safetensorsPath), m_file(new SafetensorsFile(safetensorsPath))
{
}

ParamStore ParamStore::fromDirectory(const std::string &dir)
{
    const std::string safetensors = dir + "/model.safetensors", bin = dir + "/pytorch_model.bin";
    const std::string fairseq = fairseqCheckpointIn(dir); // checkpoint_best.pt, when it is the only weights
    if (!fairseq.empty())
        return fromRead(readFairseqCheckpoint(fairseq), fairseq);
    // pathExists: a link loop or a FIFO is "there" and refused by name when opened (issue 51).
    if (!pathExists(safetensors) && hasSafetensorsIndex(dir)) // sharded weights (issue 46), before pytorch_model.bin as transformers
        return fromShards(dir);
    if (pathExists(safetensors) || !pathExists(bin))
        return ParamStore(safetensors);
    return fromRead(readTorchCheckpoint(bin), bin);
}

ParamStore ParamStore::fromRead(TensorMap read, const std::string &source)
{
    // Each tensor is dropped once converted, so the load holds one copy of a tensor at a time
    // beside the read ones (the reader bounds those, torchpickle.h).
    std::map<std::string, at::Tensor> tensors;
    for (auto it = read.begin(); it != read.end(); it = read.erase(it)) {
        at::Tensor a = toAten(it->second);
        tensors[it->first] = a.is_floating_point() ? a.to(at::kFloat) : a;
    }
    return fromTensors(std::move(tensors), source);
}

ParamStore ParamStore::fresh()
{
    ParamStore s;
    s.m_path = "(new parameters)";
    s.m_fresh = true;
    return s;
}

ParamStore ParamStore::fromTensors(std::map<std::string, at::Tensor> tensors, const std::string &source)
{
    ParamStore s;
    s.m_path = source;
    s.m_source = std::move(tensors);
    return s;
}

ParamStore::ParamStore(ParamStore &&) noexcept = default;
ParamStore::~ParamStore() = default;

bool ParamStore::has(const std::string &key) const
{
    if (m_file)
        return m_file->contains(key);
    return m_source.count(key) > 0;
}

at::Tensor ParamStore::take(const std::string &key, const std::vector<std::int64_t> &shape)
{
    at::Tensor t;
    if (m_fresh) {
        t = at::zeros(shape, at::kFloat);
    } else if (m_file) {
        if (!m_file->contains(key))
            throw InferenceError(m_path + ": tensor '" + key + "': missing (expected shape " + shapeString(shape) + ")");
        const TensorView &v = m_file->view(key);
        if (v.shape != shape)
            throw InferenceError(m_path + ": tensor '" + key + "': shape " + shapeString(v.shape) + ", expected "
                                 + shapeString(shape));
        if (v.dtype == DType::I64 || v.dtype == DType::I32 || v.dtype == DType::Bool)
            throw InferenceError(m_path + ": tensor '" + key + "': integer dtype " + dtypeName(v.dtype)
                                 + " where floating point weights are expected");
        t = toAten(v).to(at::kFloat);
    } else {
        const auto it = m_source.find(key);
        if (it == m_source.end())
            throw InferenceError(m_path + ": tensor '" + key + "': missing (expected shape " + shapeString(shape) + ")");
        if (it->second.sizes().vec() != shape)
            throw InferenceError(m_path + ": tensor '" + key + "': shape " + shapeString(it->second.sizes().vec())
                                 + ", expected " + shapeString(shape));
        t = it->second;
    }
    // Non-finite weights (a file, pytorch_model.bin or tensors in memory) are refused, never run
    // silently (issue 18): NaN/Inf reach every output and would pass for a model that predicts badly.
    // One read-only pass first (no boolean copy; this runs for every weight of every model built,
    // a fine-tuning step's included): NaN or Inf anywhere makes the sum NaN or Inf, so a finite sum
    // clears the tensor; only a non-finite one (which finite values can also give, by overflow) is counted.
    const auto sumIsFinite = [](const at::Tensor &x) {
        at::NoGradGuard noGrad;
        return std::isfinite(x.sum().item<double>());
    };
    if (!m_fresh && t.is_floating_point() && !sumIsFinite(t)) {
        const std::int64_t bad = t.numel() - at::isfinite(t).sum().item<std::int64_t>();
        if (bad > 0)
            throw InferenceError(m_path + ": tensor '" + key + "': " + std::to_string(bad) + " of "
                                 + std::to_string(t.numel()) + " values are NaN or Inf; refusing non-finite weights");
    }
    m_params[key] = t;
    return t;
}

at::Tensor ParamStore::takeOptional(const std::string &key, const std::vector<std::int64_t> &shape)
{
    return has(key) ? take(key, shape) : at::Tensor();
}

void ParamStore::ignore(const std::string &key)
{
    if (has(key))
        m_ignored.insert(key);
}

void ParamStore::finish() const
{
    std::string extra;
    int count = 0;
    for (const auto &k : keys()) {
        if (m_params.count(k) || m_ignored.count(k))
            continue;
        if (count < 8)
            extra += (count ? ", '" : "'") + k + "'";
        ++count;
    }
    if (count)
        throw InferenceError(m_path + ": " + std::to_string(count) + " unexpected tensor(s) not used by the model: "
                             + extra + (count > 8 ? ", ..." : ""));
}

std::vector<std::string> ParamStore::keys() const
{
    if (m_file)
        return m_file->names();
    std::vector<std::string> k;
    for (const auto &kv : m_fresh ? m_params : m_source)
        k.push_back(kv.first);
    return k;
}

} // namespace folio::inference::detail
