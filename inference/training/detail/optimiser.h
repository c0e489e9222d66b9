#pragma once
// The optimiser every Folio trainer uses (formtagger, WebFormer, next the seq2seq models):
// LibTorch's torch::optim::AdamW over named parameter groups, a warm-up + linear-decay learning
// rate, torch::nn::utils::clip_grad_norm_, and the optimiser state saved to / restored from a
// safetensors file exactly (first and second moments and the step count of every parameter).
//
// One β2 for every trainer: 0.98 (the FUNSD recipe's; the usual choice for short warm-up + decay
// schedules of small transformers: the second moment adapts within ~50 steps instead of ~1000).
// Torch is hidden behind a pimpl: this header needs only ATen.

#include "inference/detail/aten.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace folio::inference::detail {

struct OptimiserOptions
{
    double lr = 1e-3;
    double weightDecay = 0.01;   // decoupled (AdamW), only for groups with decay
    double beta1 = 0.9, beta2 = 0.98, eps = 1e-8;
    double clipNorm = 1.0;       // global L2 norm; <= 0: no clipping
    long totalSteps = 1;         // for the schedule
    long warmupSteps = 0;        // linear warm-up from lr/warmup to lr, then linear decay to 0
};

// How one parameter is optimised: weight decay or not, and a learning-rate factor.
struct ParamGroupRule
{
    bool decay = true;
    double lrScale = 1.0;
    bool operator<(const ParamGroupRule &o) const { return decay != o.decay ? decay < o.decay : lrScale < o.lrScale; }
};
using ParamGroupFn = std::function<ParamGroupRule(const std::string &name, const at::Tensor &tensor)>;

// The default rule: decay for tensors of two or more dimensions, none for biases / LayerNorm.
ParamGroupRule decayMatricesOnly(const std::string &name, const at::Tensor &tensor);

// Warm-up + linear decay factor of the base lr at optimiser step `step` (0-based):
// (step+1)/warmup during warm-up, then (total-step)/(total-warmup), never below 0.
double warmupLinearDecay(long step, long warmupSteps, long totalSteps);

class Optimiser
{
public:
    // `params`: the model's trainable tensors by name (requires_grad set); grouped by `rule`.
    Optimiser(const std::map<std::string, at::Tensor> &params, const OptimiserOptions &options,
              const ParamGroupFn &rule = decayMatricesOnly);
    ~Optimiser();
    Optimiser(const Optimiser &) = delete;
    Optimiser &operator=(const Optimiser &) = delete;

    // One training step: zero the gradients, loss = lossFn(), backward, clip, set each group's
    // lr for this step, AdamW update, step += 1. Returns the loss value (lossFn may return an
    // undefined tensor to skip the step: then nothing changes and NaN is returned).
    double step(const std::function<at::Tensor()> &lossFn);

    // Data-parallel training (../distributed.h): called after backward and before clipping with
    // whether this process had a loss; it averages the gradients over the processes and returns
    // whether any had one (false: the step is skipped everywhere). With a reducer, a step whose
    // lossFn returns an undefined tensor still takes part (its process contributes nothing).
    void setGradientReducer(std::function<bool(const std::vector<at::Tensor> &params, bool haveLocal)> reducer);
    // The trainable tensors in the optimiser's order.
    const std::vector<at::Tensor> &parameters() const;

    long steps() const { return m_step; }
    double currentLrFactor() const { return warmupLinearDecay(m_step, m_options.warmupSteps, m_options.totalSteps); }
    double lastGradNorm() const { return m_lastNorm; } // before clipping
    // Groups as built: rule -> parameter names.
    std::map<ParamGroupRule, std::vector<std::string>> groups() const;
    // Per group: the learning rate the last step used.
    std::vector<double> groupLearningRates() const;

    // State file (safetensors): "m.<name>", "v.<name>" (float32), "step.<name>" (int64 [1]) and
    // "optimiser.step" (int64 [1]). load() checks names and shapes against the parameters.
    void save(const std::string &path) const;
    void load(const std::string &path);

    struct Impl;

private:
    std::unique_ptr<Impl> m_impl;
    OptimiserOptions m_options;
    long m_step = 0;
    double m_lastNorm = 0;
    std::function<bool(const std::vector<at::Tensor> &, bool)> m_reducer;
};

} // namespace folio::inference::detail
