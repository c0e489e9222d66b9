#pragma once
// Dropout while HfFineTuner trains (issue 46): the probabilities of the checkpoint's config
// (hidden_dropout_prob, attention_probs_dropout_prob, classifier_dropout), set for the current
// thread by a TrainingDropoutScope around the training forward and read by the forward passes that
// take part in fine-tuning (layoutlmv3.cpp, layoutencoder.cpp, lilt.cpp) at the reference's
// places. Zero outside a scope: inference and every other caller never drop anything.

namespace folio::inference::detail {

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

} // namespace folio::inference::detail
