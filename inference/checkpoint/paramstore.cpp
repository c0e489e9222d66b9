#include "inference/checkpoint/detail/paramstore.h"

#include "inference/checkpoint/detail/convert.h"
#include "inference/errors.h"
#include "inference/checkpoint/safetensors.h"

namespace folio::inference::detail {

ParamStore::ParamStore(const std::string &safetensorsPath)
    : m_path(safetensorsPath), m_file(new SafetensorsFile(safetensorsPath))
{
}

ParamStore::~ParamStore() = default;

bool ParamStore::has(const std::string &key) const
{
    return m_file->contains(key);
}

at::Tensor ParamStore::take(const std::string &key, const std::vector<std::int64_t> &shape)
{
    if (!m_file->contains(key))
        throw InferenceError(m_path + ": tensor '" + key + "': missing (expected shape " + shapeString(shape) + ")");
    const TensorView &v = m_file->view(key);
    if (v.shape != shape)
        throw InferenceError(m_path + ": tensor '" + key + "': shape " + shapeString(v.shape) + ", expected "
                             + shapeString(shape));
    if (v.dtype == DType::I64 || v.dtype == DType::I32 || v.dtype == DType::Bool)
        throw InferenceError(m_path + ": tensor '" + key + "': integer dtype " + dtypeName(v.dtype)
                             + " where floating point weights are expected");
    m_taken.insert(key);
    return toAten(v).to(at::kFloat);
}

at::Tensor ParamStore::takeOptional(const std::string &key, const std::vector<std::int64_t> &shape)
{
    return has(key) ? take(key, shape) : at::Tensor();
}

void ParamStore::ignore(const std::string &key)
{
    if (has(key))
        m_taken.insert(key);
}

void ParamStore::finish() const
{
    std::string extra;
    int count = 0;
    for (const auto &k : m_file->names()) {
        if (m_taken.count(k))
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
    return m_file->names();
}

} // namespace folio::inference::detail
