// The Hugging Face Trainer's AdamW step, schedule, clipping and token-classification loss.
#include "inference/training/hf/detail/hfoptim.h"

#include "inference/training/detail/adamwstatefile.h"
#include "inference/errors.h"

#include <torch/types.h>
#include <torch/optim/adamw.h>
#include <torch/nn/utils/clip_grad.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace folio::inference::detail {

bool hfDecays(const std::string &name)
{
    if (name.find("bias") != std::string::npos)
        return false;
    // The module holding the parameter: the component before the last.
    const auto last = name.rfind('.');
    if (last == std::string::npos)
        return true;
    const auto prev = name.rfind('.', last - 1);
    std::string module = name.substr(prev == std::string::npos ? 0 : prev + 1, last - (prev == std::string::npos ? 0 : prev + 1));
    std::transform(module.begin(), module.end(), module.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    static const std::set<std::string> layerNorms{"layernorm", "layer_norm", "ln", "norm"};
    return layerNorms.count(module) == 0;
}

double hfLinearScheduleFactor(long step, long warmupSteps, long totalSteps)
{
    if (step < warmupSteps)
        return double(step) / double(std::max(1L, warmupSteps));
    return std::max(0.0, double(totalSteps - step) / double(std::max(1L, totalSteps - warmupSteps)));
}

at::Tensor tokenClassificationLoss(const at::Tensor &logits, const at::Tensor &labels)
{
    const auto c = logits.size(-1);
    const at::Tensor flat = labels.reshape({-1}).to(at::kLong);
    if ((flat != -100).sum().item<std::int64_t>() == 0)
        return {};
    // CrossEntropyLoss(ignore_index=-100, reduction='mean') on logits.view(-1, C), labels.view(-1).
    return at::cross_entropy_loss(logits.reshape({-1, c}), flat, {}, at::Reduction::Mean, -100);
}

struct HfAdamW::Impl
{
    std::map<std::string, at::Tensor> params;
    std::vector<std::string> noDecay;
    std::vector<bool> groupDecays; // per torch param group
    std::unique_ptr<torch::optim::AdamW> adam;

    torch::optim::AdamWParamState *state(const at::Tensor &p) const
    {
        auto &st = adam->state();
        const auto it = st.find(c10::guts::to_string(p.unsafeGetTensorImpl()));
        return it == st.end() ? nullptr : static_cast<torch::optim::AdamWParamState *>(it->second.get());
    }
};

HfAdamW::HfAdamW(const std::map<std::string, at::Tensor> &params, const HfOptimOptions &options)
    : m_impl(std::make_unique<Impl>()), m_options(options)
{
    std::vector<at::Tensor> decay, plain;
    for (const auto &[name, t] : params) {
        if (!t.requires_grad())
            throw InferenceError("optimiser: parameter '" + name + "' does not require grad");
        if (hfDecays(name)) {
            decay.push_back(t);
        } else {
            plain.push_back(t);
            m_impl->noDecay.push_back(name);
        }
        m_all.push_back(t);
    }
    m_impl->params = params;
    const double lr0 = options.lr * hfLinearScheduleFactor(0, options.warmupSteps, options.totalSteps);
    std::vector<torch::optim::OptimizerParamGroup> groups;
    auto group = [&](std::vector<at::Tensor> ts, double wd) {
        auto o = std::make_unique<torch::optim::AdamWOptions>(lr0);
        o->betas(std::make_tuple(options.beta1, options.beta2)).eps(options.eps).weight_decay(wd);
        groups.emplace_back(std::move(ts), std::move(o));
        m_impl->groupDecays.push_back(wd != 0.0);
    };
    if (!decay.empty())
        group(decay, options.weightDecay);
    if (!plain.empty())
        group(plain, 0.0);
    torch::optim::AdamWOptions defaults(lr0);
    defaults.betas(std::make_tuple(options.beta1, options.beta2)).eps(options.eps).weight_decay(options.weightDecay);
    m_impl->adam = std::make_unique<torch::optim::AdamW>(groups, defaults);
}

HfAdamW::~HfAdamW() = default;

double HfAdamW::clipGradients()
{
    std::vector<at::Tensor> withGrad;
    for (const at::Tensor &p : m_all)
        if (p.grad().defined())
            withGrad.push_back(p);
    if (withGrad.empty())
        return 0.0;
    const double maxNorm = m_options.maxGradNorm > 0 ? m_options.maxGradNorm : std::numeric_limits<double>::max();
    return torch::nn::utils::clip_grad_norm_(withGrad, maxNorm);
}

double HfAdamW::currentLr() const
{
    return m_options.lr * hfLinearScheduleFactor(m_step, m_options.warmupSteps, m_options.totalSteps);
}

namespace {

// torch::optim::AdamW's update of one parameter (v1.13, amsgrad off), fused into one pass over the
// parameter, its gradient and both moments instead of seven whole-tensor operations with two
// temporaries (exp_avg_sq.sqrt() and the denominator): per element the same float operations in
// the same order — p *= 1 - lr·wd; m = fma(g, 1 - β1, m·β1) (ATen's vectorised add with alpha);
// v = v·β2 + ((1 - β2)·g)·g (addcmul); p += (-lr / bc1 · m) / (sqrt(v) / sqrt(bc2) + eps)
// (addcdiv) — with the scalars rounded to float as ATen rounds them.
void fusedAdamWUpdate(at::Tensor &p, const at::Tensor &gradIn, at::Tensor &expAvg, at::Tensor &expAvgSq, double lr,
                      double weightDecay, double beta1, double beta2, double eps, std::int64_t step)
{
    const at::Tensor grad = gradIn.contiguous();
    TORCH_CHECK(p.is_contiguous() && expAvg.is_contiguous() && expAvgSq.is_contiguous() && p.scalar_type() == at::kFloat
                    && grad.scalar_type() == at::kFloat,
                "fused AdamW: float32 contiguous tensors expected");
    const bool decay = weightDecay != 0.0;
    const float decayFactor = static_cast<float>(1.0 - lr * weightDecay);
    const float b1 = static_cast<float>(beta1), c1 = static_cast<float>(1.0 - beta1);
    const float b2 = static_cast<float>(beta2), c2 = static_cast<float>(1.0 - beta2);
    const double bc1 = 1.0 - std::pow(beta1, double(step)), bc2 = 1.0 - std::pow(beta2, double(step));
    const float sqrtBc2 = static_cast<float>(std::sqrt(bc2));
    const float epsF = static_cast<float>(eps);
    const float negStep = static_cast<float>(-(lr / bc1));
    float *pp = p.data_ptr<float>();
    float *mp = expAvg.data_ptr<float>();
    float *vp = expAvgSq.data_ptr<float>();
    const float *gp = grad.data_ptr<float>();
    at::parallel_for(0, p.numel(), 1 << 15, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
            float w = pp[i];
            if (decay)
                w = w * decayFactor;
            const float g = gp[i];
            const float m = std::fma(g, c1, mp[i] * b1);
            const float v = vp[i] * b2 + (c2 * g) * g;
            const float denom = std::sqrt(v) / sqrtBc2 + epsF;
            pp[i] = w + (negStep * m) / denom;
            mp[i] = m;
            vp[i] = v;
        }
    });
}

} // namespace

double HfAdamW::step()
{
    const double lr = currentLr();
    at::NoGradGuard noGrad;
    auto &groups = m_impl->adam->param_groups();
    auto &states = m_impl->adam->state();
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        auto &options = static_cast<torch::optim::AdamWOptions &>(groups[gi].options());
        options.lr(lr);
        for (at::Tensor &p : groups[gi].params()) {
            if (!p.grad().defined())
                continue; // as torch.optim.AdamW: no gradient, no decay, no moment update
            const std::string key = c10::guts::to_string(p.unsafeGetTensorImpl());
            auto it = states.find(key);
            if (it == states.end()) {
                auto fresh = std::make_unique<torch::optim::AdamWParamState>();
                fresh->step(0);
                fresh->exp_avg(at::zeros_like(p, at::MemoryFormat::Contiguous));
                fresh->exp_avg_sq(at::zeros_like(p, at::MemoryFormat::Contiguous));
                it = states.emplace(key, std::move(fresh)).first;
            }
            auto &st = static_cast<torch::optim::AdamWParamState &>(*it->second);
            st.step(st.step() + 1);
            at::Tensor m = st.exp_avg(), v = st.exp_avg_sq();
            if (!m.is_contiguous() || !v.is_contiguous()) { // a loaded state is contiguous; be safe
                m = m.contiguous();
                v = v.contiguous();
                st.exp_avg(m);
                st.exp_avg_sq(v);
            }
            at::Tensor data = p.detach();
            fusedAdamWUpdate(data, p.grad(), m, v, lr, options.weight_decay(), std::get<0>(options.betas()),
                             std::get<1>(options.betas()), options.eps(), st.step());
        }
    }
    ++m_step;
    zeroGrad();
    return lr;
}

void HfAdamW::zeroGrad()
{
    for (at::Tensor &p : m_all)
        if (p.grad().defined())
            p.mutable_grad() = at::Tensor();
}

std::vector<std::string> HfAdamW::noDecayNames() const
{
    return m_impl->noDecay;
}

void HfAdamW::save(const std::string &path) const
{
    writeAdamWState(path, *m_impl->adam, m_impl->params, m_step, "folio.hf-adamw");
}

void HfAdamW::load(const std::string &path)
{
    m_step = readAdamWState(path, *m_impl->adam, m_impl->params, at::kFloat);
    const double lr = currentLr();
    for (auto &g : m_impl->adam->param_groups())
        static_cast<torch::optim::AdamWOptions &>(g.options()).lr(lr);
}

} // namespace folio::inference::detail
