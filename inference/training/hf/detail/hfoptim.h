#pragma once
// The Hugging Face Trainer's optimisation step for fine-tuning a checkpoint (transformers v4.36
// semantics, ../shared/fixtures/finetune/README.md): torch::optim::AdamW in two groups chosen by
// parameter name (no weight decay for names containing "bias" and for LayerNorm parameters),
// the linear schedule with warm-up whose first step has learning rate 0, global L2-norm
// clipping, and the token-classification cross-entropy with -100 ignored.
//
// Unlike detail/optimiser.h (Folio's own trainers: warm-up from lr/warmup, beta2 0.98) this
// follows the reference exactly, so a user's checkpoint fine-tuned here is the one Trainer.train()
// would give. A parameter that gets no gradient in a step is left untouched (no decay, no moment
// update), as torch.optim.AdamW leaves a parameter whose .grad is None.

#include "inference/detail/aten.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace folio::inference::detail {

struct HfOptimOptions
{
    double lr = 5e-5;
    double weightDecay = 0.0;
    double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    double maxGradNorm = 1.0; // <= 0: no clipping (the norm is still measured)
    long warmupSteps = 0;
    long totalSteps = 1;
};

// Trainer's decay rule by name: false for names containing "bias" and for the weight / bias of a
// LayerNorm module (last module name "LayerNorm", "layernorm", "layer_norm", "ln" or "norm", as
// LayoutLMv3's `layoutlmv3.norm`).
bool hfDecays(const std::string &name);

// get_linear_schedule_with_warmup's factor at step `step` (0-based): step / warmup during warm-up
// (so step 0 runs with learning rate 0), then (total - step) / (total - warmup), never below 0.
double hfLinearScheduleFactor(long step, long warmupSteps, long totalSteps);

// Mean cross-entropy of logits [B, T, C] against labels [B, T] (int64) over positions whose label
// is not -100 (the token classifiers' loss). Undefined when no position has a label.
at::Tensor tokenClassificationLoss(const at::Tensor &logits, const at::Tensor &labels);

// Dropout while HfFineTuner trains: the probabilities of the checkpoint's config
// (hidden_dropout_prob, attention_probs_dropout_prob, classifier_dropout), set for the current
// thread by a TrainingDropoutScope around the training forward and read by the forward passes that
// take part in fine-tuning (layoutlmv3.cpp, layoutencoder.cpp, lilt.cpp) at the reference's
// places. Zero outside a scope: inference and every other caller never drop anything.
struct TrainingDropout
{
    double hidden = 0.0;     // embeddings, attention output, FFN output
    double attention = 0.0;  // attention probabilities
    double classifier = 0.0; // before the token-classification head
    bool active() const { return hidden > 0 || attention > 0 || classifier > 0; }
};

inline TrainingDropout &currentTrainingDropout()
{
    thread_local TrainingDropout d;
    return d;
}

class TrainingDropoutScope
{
public:
    explicit TrainingDropoutScope(const TrainingDropout &d) : m_saved(currentTrainingDropout()) { currentTrainingDropout() = d; }
    ~TrainingDropoutScope() { currentTrainingDropout() = m_saved; }
    TrainingDropoutScope(const TrainingDropoutScope &) = delete;
    TrainingDropoutScope &operator=(const TrainingDropoutScope &) = delete;

private:
    TrainingDropout m_saved;
};

class HfAdamW
{
public:
    // `params`: leaf tensors with requires_grad, by reference name.
    HfAdamW(const std::map<std::string, at::Tensor> &params, const HfOptimOptions &options);
    ~HfAdamW();
    HfAdamW(const HfAdamW &) = delete;
    HfAdamW &operator=(const HfAdamW &) = delete;

    // After backward: the total L2 norm of every gradient (before clipping; parameters without a
    // gradient take no part), then the gradients scaled by min(1, max / (norm + 1e-6)).
    double clipGradients();
    // The AdamW update with this step's learning rate (base * schedule factor), then the step count
    // advances and every gradient is dropped. Returns the learning rate used.
    double step();
    void zeroGrad();

    long steps() const { return m_step; }
    double currentLr() const;
    const HfOptimOptions &options() const { return m_options; }
    std::vector<std::string> noDecayNames() const;
    const std::vector<at::Tensor> &parameters() const { return m_all; }

    // State file (safetensors): "m.<name>", "v.<name>" (float32), "step.<name>" (int64 [1]) and
    // "optimiser.step"; load() checks names and shapes and throws InferenceError naming the file.
    void save(const std::string &path) const;
    void load(const std::string &path);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
    HfOptimOptions m_options;
    std::vector<at::Tensor> m_all;
    long m_step = 0;
};

} // namespace folio::inference::detail
