#pragma once
// The training loop behind fineTuneHfTokenClassifier (pipeline/hffinetuning.h), for any data that
// comes as windows of one model: the layout models' page windows there, MarkupLM's node windows in
// pipeline/markuplmtraining.h. The checkpoint is loaded (or <out>/last when resuming), the label
// set given (a new head when it differs), the Trainer's step (inference/training/hf/hffinetuner.h:
// AdamW with its decay groups, the linear schedule, clipping) taken over shuffled batches, progress
// with ETA per step, the dev score per epoch, the best epoch written as a Hugging Face folder with a
// model card, the state kept in <out>/last after every epoch and at a cancel (removed at the end).
// Blocking; no exception leaves it.

#include "inference/checkpoint/tensor.h"
#include "pipeline/hffinetuning.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace folio::inference {
class HfFineTuner;
}

namespace folio::pipeline {

struct HfTrainingData
{
    std::size_t trainWindows = 0, devWindows = 0;
    int pagesWithoutImage = 0;
    std::string note; // said once before training ("" for none)
    // The model batch of these train windows (indices below trainWindows; one shard of a step).
    std::function<inference::TensorMap(const std::vector<std::size_t> &windows)> batch;
    // The dev score of the model as it is now, in [0, 1] (called only with dev windows, on the rank that writes).
    std::function<double(const inference::HfFineTuner &tuner)> devScore;
    // The score's name in the progress lines and the model card, and how it is computed (the card).
    std::string metric = "dev entity F1";
    std::string metricNote = "seqeval semantics, micro average, words labelled from their first sub-token";
    // A later epoch with the same dev score replaces the kept one (a score that saturates on a small
    // dev set: the later epoch has trained more). Off: the first best epoch is kept.
    bool laterEpochWinsTies = false;
};

// `prepare` runs once the checkpoint is loaded and its labels set (throwing InferenceError refuses
// the run with its message). At least one train window.
HfFineTuneOutcome runHfFineTuning(const HfFineTuneConfig &cfg,
                                  const std::function<HfTrainingData(const inference::HfFineTuner &tuner)> &prepare,
                                  const std::function<void(const HfFineTuneProgress &)> &progress, std::atomic<bool> *cancel);

} // namespace folio::pipeline
