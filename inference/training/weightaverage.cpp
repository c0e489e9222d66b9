// Polyak averaging of parameters (detail/weightaverage.h).
#include "inference/training/detail/weightaverage.h"

#include "inference/checkpoint/detail/convert.h"
#include "inference/checkpoint/detail/paramstore.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/errors.h"

#include <algorithm>

namespace folio::inference::detail {

WeightAverage::WeightAverage(const std::map<std::string, at::Tensor> &params, double decay) : m_decay(decay)
{
    at::NoGradGuard guard;
    for (const auto &[name, p] : params)
        m_average[name] = p.detach().clone();
}

void WeightAverage::update(const std::map<std::string, at::Tensor> &params)
{
    at::NoGradGuard guard;
    const double d = std::min(m_decay, double(1 + m_updates) / double(10 + m_updates));
    for (const auto &[name, p] : params)
        m_average.at(name).mul_(d).add_(p.detach(), 1.0 - d);
    ++m_updates;
}

void WeightAverage::swap(std::map<std::string, at::Tensor> &params)
{
    at::NoGradGuard guard;
    for (auto &[name, p] : params) {
        at::Tensor &a = m_average.at(name);
        const at::Tensor live = p.detach().clone();
        p.detach().copy_(a);
        a.copy_(live);
    }
}

void WeightAverage::save(const std::string &path) const
{
    TensorMap out;
    for (const auto &[name, a] : m_average)
        out[name] = fromAten(a);
    writeSafetensors(path, out, {{"format", "pt"}, {"updates", std::to_string(m_updates)}});
}

void WeightAverage::load(const std::string &path)
{
    long updates = 0;
    {
        const SafetensorsFile file(path);
        const auto it = file.metadata().find("updates");
        if (it == file.metadata().end() || it->second.empty() ||
            !std::all_of(it->second.begin(), it->second.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
            it->second.size() > 12)
            throw InferenceError(path + ": no update count in the header metadata (not a weight-average file)");
        updates = std::stol(it->second);
    }
    ParamStore store(path);
    std::map<std::string, at::Tensor> loaded;
    for (const auto &[name, a] : m_average)
        loaded[name] = store.take(name, a.sizes().vec()); // all checked before anything changes
    store.finish();
    at::NoGradGuard guard;
    for (auto &[name, a] : m_average)
        a.copy_(loaded.at(name));
    m_updates = updates;
}

} // namespace folio::inference::detail
