// An AdamW optimiser's state in a safetensors file (see detail/adamwstatefile.h).
#include "inference/training/detail/adamwstatefile.h"

#include "inference/checkpoint/detail/convert.h"
#include "inference/checkpoint/safetensors.h"
#include "inference/errors.h"

#include <torch/types.h>
#include <torch/optim/adamw.h>

#include <set>

namespace folio::inference::detail {

namespace {

// torch::optim keys a parameter's state by its TensorImpl's address.
std::string stateKey(const at::Tensor &p) { return c10::guts::to_string(p.unsafeGetTensorImpl()); }

} // namespace

void writeAdamWState(const std::string &path, const torch::optim::AdamW &adam,
                     const std::map<std::string, at::Tensor> &params, std::int64_t optimiserStep,
                     const std::string &format)
{
    const auto &states = adam.state();
    TensorMap out;
    for (const auto &[name, p] : params) {
        const auto it = states.find(stateKey(p));
        if (it == states.end())
            continue; // never had a gradient
        const auto &s = static_cast<const torch::optim::AdamWParamState &>(*it->second);
        out["m." + name] = fromAten(s.exp_avg());
        out["v." + name] = fromAten(s.exp_avg_sq());
        out["step." + name] = fromAten(at::tensor(std::vector<std::int64_t>{s.step()}, at::kLong));
    }
    out["optimiser.step"] = fromAten(at::tensor(std::vector<std::int64_t>{optimiserStep}, at::kLong));
    writeSafetensors(path, out, {{"format", format}});
}

std::int64_t readAdamWState(const std::string &path, torch::optim::AdamW &adam,
                            const std::map<std::string, at::Tensor> &params,
                            std::optional<at::ScalarType> momentType)
{
    SafetensorsFile file(path);
    auto require = [&](const std::string &key) {
        if (!file.contains(key))
            throw InferenceError(path + ": tensor '" + key + "' is missing");
        return toAten(file.view(key));
    };
    auto scalar = [&](const std::string &key) {
        const at::Tensor t = require(key);
        if (t.scalar_type() != at::kLong || t.numel() != 1)
            throw InferenceError(path + ": tensor '" + key + "' must be one int64");
        return t.item<std::int64_t>();
    };
    auto moment = [&](const std::string &key, const at::Tensor &p) {
        const at::Tensor t = require(key);
        if (t.sizes() != p.sizes())
            throw InferenceError(path + ": tensor '" + key + "' has shape " + shapeString(t.sizes().vec()) + ", expected "
                                 + shapeString(p.sizes().vec()));
        return t.to(momentType.value_or(p.scalar_type())).contiguous();
    };
    std::set<std::string> known{"optimiser.step"};
    auto &states = adam.state();
    states.clear();
    for (const auto &[name, p] : params) {
        if (!file.contains("m." + name))
            continue;
        auto s = std::make_unique<torch::optim::AdamWParamState>();
        s->exp_avg(moment("m." + name, p));
        s->exp_avg_sq(moment("v." + name, p));
        s->step(scalar("step." + name));
        states[stateKey(p)] = std::move(s);
        known.insert({"m." + name, "v." + name, "step." + name});
    }
    for (const std::string &n : file.names())
        if (!known.count(n))
            throw InferenceError(path + ": tensor '" + n + "' belongs to no parameter of this model");
    return scalar("optimiser.step");
}

} // namespace folio::inference::detail
