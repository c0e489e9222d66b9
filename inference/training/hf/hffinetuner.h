#pragma once
// Fine-tuning a Hugging Face token classifier (LayoutLMv3 with its image patches, LiLT) as the
// Hugging Face Trainer does (issue 46; detail/hfoptim.h for the step's arithmetic), on Folio's own
// forward passes (the registry's models, rebuilt on the trainable tensors for each step, under
// autograd), and writing the result back as a Hugging Face folder. Torch-free facade; no exception
// leaves it.
//
// The parameters keep the reference's names ("layoutlmv3.encoder.layer.0.attention.self.query.weight",
// "classifier.weight", ...): a base checkpoint saved without the model prefix gets it, so the folder
// written loads with AutoModelForTokenClassification.from_pretrained.

#include "inference/checkpoint/tensor.h"
#include "inference/models/modelrunner.h"
#include "inference/training/distributed.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace folio::inference {

struct HfFineTuneOptions
{
    double lr = 5e-5;
    double weightDecay = 0.0;
    double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    double maxGradNorm = 1.0;
    long warmupSteps = 0;
    long totalSteps = 1;
    // Dropout as config.json asks (hidden_dropout_prob, attention_probs_dropout_prob,
    // classifier_dropout) in every training forward; each shard's masks drawn from a generator
    // seeded by (seed, step, shard index over the ranks), so a resumed run and `--nproc` ranks
    // draw what one uninterrupted process draws.
    std::uint64_t seed = 42;
};

struct HfStepResult
{
    bool ok = false;
    std::string error;
    double loss = 0;      // mean over the batch's labelled positions (shards: the mean of their means)
    double gradNorm = 0;  // total L2 norm before clipping
    double lr = 0;        // the learning rate this step used
};

class HfFineTuner
{
public:
    HfFineTuner();
    ~HfFineTuner();
    HfFineTuner(HfFineTuner &&) noexcept;
    HfFineTuner &operator=(HfFineTuner &&) noexcept;

    // A checkpoint folder: config.json (model_type layoutlmv3, lilt, layoutlmv2 or markuplm) and model.safetensors /
    // pytorch_model.bin, with or without a token-classification head. False + *error naming the
    // file and the problem; this object is then unchanged.
    bool load(const std::string &dir, std::string *error);
    bool isLoaded() const;
    std::string modelType() const;
    std::vector<std::string> labels() const; // id2label order; empty when the folder has no head
    bool hasHead() const;

    // The data's label set. The same labels keep the head (in another order: its output rows
    // reordered to follow); otherwise a new head
    // is made as the reference initialises one (weights N(0, initializer_range) from `seed`, biases
    // 0; LayoutLMv3 with 10 or more labels: classifier.dense + classifier.out_proj) and config's
    // id2label / label2id follow. *newHead says which. Resets the optimiser.
    bool setLabels(const std::vector<std::string> &labels, std::uint64_t seed, bool *newHead, std::string *error);

    // (Re)creates the optimiser (its moments and step count start afresh).
    void setOptions(const HfFineTuneOptions &options);
    long steps() const;

    // One Trainer step on `batch` (input_ids, attention_mask, bbox, labels [B, T] int64 with -100
    // where no label, and pixel_values [B, 3, S, S] for LayoutLMv3): forward with autograd, loss,
    // backward, clipping, AdamW with this step's learning rate, schedule advance.
    HfStepResult step(const TensorMap &batch);
    // Data-parallel arithmetic in one process: each shard's mean loss backpropagated and the
    // gradients averaged over the shards that have a labelled position (what `--nproc` ranks do).
    HfStepResult step(const std::vector<TensorMap> &shards);

    // Data-parallel training (../distributed.h semantics): joins the c10d / Gloo group (waits for
    // every rank) and takes rank 0's weights; call after setLabels(). From then on every step()
    // averages the gradients over the ranks that had a labelled position before clipping (a rank
    // may pass no shard: it still takes part), so every rank takes the same step; HfStepResult::loss
    // is the mean over those ranks. False + *error when the rendezvous fails.
    bool setDistributed(const DistributedConfig &config, std::string *error);
    bool isDistributed() const;
    // The sum of `value` over the ranks (a collective every rank must call); `value` without a group.
    double sumOverRanks(double value);

    // With keep on, lastGradients() holds every gradient of the last step before clipping, and
    // parametersWithoutGradient() the parameters that got none.
    void setKeepGradients(bool keep);
    const TensorMap &lastGradients() const;
    std::vector<std::string> parametersWithoutGradient() const;
    std::vector<std::string> noDecayParameters() const; // the optimiser's no-weight-decay group, sorted

    // Parameters fine-tuning keeps fixed as the reference does (requires_grad off: a LayoutLMv2
    // backbone's FrozenBN buffers and its FREEZE_AT stages, hfarchitectures.h), sorted.
    std::vector<std::string> frozenParameters() const;
    // The input that takes the page image: "pixel_values", "image" (LayoutLMv2, uint8 BGR) or "".
    std::string imageInputName() const;
    TensorMap parameters() const; // the current weights by reference name
    // Forward without autograd (logits [B, T, C], last_hidden_state).
    RunResult forward(const TensorMap &inputs) const;

    // Writes a Hugging Face folder: config.json (architectures, id2label / label2id),
    // model.safetensors (reference names, metadata format "pt"), the tokenizer and preprocessor
    // files of `initDir` copied, and README.md = `modelCard` when not empty. Files are written
    // beside and renamed into place. False + *error naming the file.
    bool saveFolder(const std::string &outDir, const std::string &initDir, const std::string &modelCard,
                    std::string *error) const;
    // Resume state: the optimiser's moments and step count.
    bool saveOptimiserState(const std::string &path, std::string *error) const;
    bool loadOptimiserState(const std::string &path, std::string *error);

    // "LayoutLMv3ForTokenClassification" / "LiltForTokenClassification" /
    // "LayoutLMv2ForTokenClassification" for a model type ("" otherwise).
    static std::string tokenClassificationArchitecture(const std::string &modelType);
    // The types fine-tuned on pages (layoutlmv3, lilt, layoutlmv2 / LayoutXLM); load() also takes
    // markuplm, whose steps no page pipeline feeds yet (hfarchitectures.h).
    static std::vector<std::string> supportedModelTypes();
    // The tokenizer / preprocessor files saveFolder() copies when present.
    static std::vector<std::string> processorFiles();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace folio::inference
