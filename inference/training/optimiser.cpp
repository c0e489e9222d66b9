// AdamW (torch::optim) with parameter groups, warm-up + linear decay, gradient clipping and an
// exact optimiser-state file.
#include "inference/training/detail/optimiser.h"

#include "inference/training/detail/adamwstatefile.h"
#include "inference/errors.h"

#include <torch/types.h>
#include <torch/optim/adamw.h>
#include <torch/nn/utils/clip_grad.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace folio::inference::detail {

ParamGroupRule decayMatricesOnly(const std::string &, const at::Tensor &tensor)
{
    return {tensor.dim() >= 2, 1.0};
}

double warmupLinearDecay(long step, long warmupSteps, long totalSteps)
{
    if (step < warmupSteps)
        return double(step + 1) / double(std::max(1L, warmupSteps));
    return std::max(0.0, double(totalSteps - step) / double(std::max(1L, totalSteps - warmupSteps)));
}

struct Optimiser::Impl
{
    std::vector<ParamGroupRule> rules;                 // per torch param group
    std::vector<std::vector<std::string>> names;       // per group
    std::map<std::string, at::Tensor> params;          // by name
    std::vector<at::Tensor> all;
    std::unique_ptr<torch::optim::AdamW> adam;

    torch::optim::AdamWParamState *state(const at::Tensor &p) const
    {
        auto &st = adam->state();
        const auto it = st.find(c10::guts::to_string(p.unsafeGetTensorImpl()));
        return it == st.end() ? nullptr : static_cast<torch::optim::AdamWParamState *>(it->second.get());
    }
};

Optimiser::Optimiser(const std::map<std::string, at::Tensor> &params, const OptimiserOptions &options,
                     const ParamGroupFn &rule)
    : m_impl(std::make_unique<Impl>()), m_options(options)
{
    std::map<ParamGroupRule, std::vector<std::string>> byRule;
    for (const auto &[name, t] : params) {
        if (!t.requires_grad())
            throw InferenceError("optimiser: parameter '" + name + "' does not require grad");
        byRule[rule(name, t)].push_back(name);
    }
    std::vector<torch::optim::OptimizerParamGroup> groups;
    for (const auto &[r, names] : byRule) {
        std::vector<at::Tensor> ts;
        for (const std::string &n : names)
            ts.push_back(params.at(n));
        auto o = std::make_unique<torch::optim::AdamWOptions>(options.lr * r.lrScale);
        o->betas(std::make_tuple(options.beta1, options.beta2)).eps(options.eps).weight_decay(r.decay ? options.weightDecay : 0.0);
        groups.emplace_back(ts, std::move(o));
        m_impl->rules.push_back(r);
        m_impl->names.push_back(names);
    }
    m_impl->params = params;
    for (const auto &kv : params)
        m_impl->all.push_back(kv.second);
    torch::optim::AdamWOptions defaults(options.lr);
    defaults.betas(std::make_tuple(options.beta1, options.beta2)).eps(options.eps).weight_decay(options.weightDecay);
    m_impl->adam = std::make_unique<torch::optim::AdamW>(groups, defaults);
}

Optimiser::~Optimiser() = default;

double Optimiser::step(const std::function<at::Tensor()> &lossFn)
{
    m_impl->adam->zero_grad();
    const at::Tensor loss = lossFn();
    if (loss.defined())
        loss.backward();
    const bool stepNow = m_reducer ? m_reducer(m_impl->all, loss.defined()) : loss.defined();
    if (!stepNow)
        return std::numeric_limits<double>::quiet_NaN();
    m_lastNorm = m_options.clipNorm > 0 ? torch::nn::utils::clip_grad_norm_(m_impl->all, m_options.clipNorm)
                                        : torch::nn::utils::clip_grad_norm_(m_impl->all, std::numeric_limits<double>::max());
    const double factor = currentLrFactor();
    auto &groups = m_impl->adam->param_groups();
    for (std::size_t g = 0; g < groups.size(); ++g)
        static_cast<torch::optim::AdamWOptions &>(groups[g].options()).lr(m_options.lr * m_impl->rules[g].lrScale * factor);
    m_impl->adam->step();
    ++m_step;
    return loss.defined() ? loss.item<double>() : std::numeric_limits<double>::quiet_NaN();
}

void Optimiser::setGradientReducer(std::function<bool(const std::vector<at::Tensor> &, bool)> reducer)
{
    m_reducer = std::move(reducer);
}

const std::vector<at::Tensor> &Optimiser::parameters() const { return m_impl->all; }

std::map<ParamGroupRule, std::vector<std::string>> Optimiser::groups() const
{
    std::map<ParamGroupRule, std::vector<std::string>> out;
    for (std::size_t g = 0; g < m_impl->rules.size(); ++g)
        out[m_impl->rules[g]] = m_impl->names[g];
    return out;
}

std::vector<double> Optimiser::groupLearningRates() const
{
    std::vector<double> lrs;
    for (const auto &g : m_impl->adam->param_groups())
        lrs.push_back(static_cast<const torch::optim::AdamWOptions &>(g.options()).lr());
    return lrs;
}

void Optimiser::save(const std::string &path) const
{
    writeAdamWState(path, *m_impl->adam, m_impl->params, m_step, "folio.adamw");
}

void Optimiser::load(const std::string &path)
{
    m_step = readAdamWState(path, *m_impl->adam, m_impl->params);
}

} // namespace folio::inference::detail
