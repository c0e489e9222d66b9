#pragma once
// Fine-tuning a user's Hugging Face token classifier (LayoutLMv3 with the page image, LiLT,
// LayoutLMv2 / LayoutXLM with its visual backbone as the reference trains it) on
// labelled pages, as `folio-cli train --init HFDIR` does (issue 46): the data's BIO label set (a new
// head when it differs from the checkpoint's), the word label on each word's first sub-token and
// -100 elsewhere (the reference's examples), sliding windows of whole words for pages longer than
// the model, the page image as pixel_values when the model has an image branch, the Hugging Face
// Trainer's step (inference/training/hf/hffinetuner.h), the dev entity F1 (seqeval semantics) per
// epoch, and the result written as a Hugging Face folder with a model card. Resumable: the state
// after every epoch and at a cancel is kept in <out>/last (removed when the run completes).
// Blocking; no exception leaves these functions.

#include "inference/checkpoint/tensor.h"
#include "inference/formtagger/taggerpage.h"
#include "inference/tokenizers/hflayouttokenizer.h"
#include "inference/training/distributed.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace folio::pipeline {

struct HfTrainPage
{
    inference::TaggerPage page; // words, 0-1000 boxes, BIO tags
    QString imagePath;          // the page image ("" when none: the model then runs without its image branch)
};

// One window of a page, encoded as the reference's tokenizer encodes it (no padding).
struct HfEncodedWindow
{
    int page = 0;                          // index into the pages given
    int firstOwnedWord = 0, endOwnedWord = 0; // the words this window labels (and predicts): [first, end)
    inference::LayoutTokens tokens;        // labels: -100 off the owned words' first sub-tokens
};

// Windows of whole words whose tokens fit `maxTokens` (specials included); a page that fits is one
// window, the reference's own call. A longer page gets overlapping windows (a quarter of each shared
// with the next); every word is owned (labelled, predicted) by exactly one window: the first that
// holds it. A word longer than a window gets one of its own (truncated). Tags not in `labels` throw
// InferenceError naming the page and the tag.
std::vector<HfEncodedWindow> hfPageWindows(const inference::HfLayoutTokenizer &tokenizer, const inference::TaggerPage &page,
                                           int pageIndex, const std::vector<std::string> &labels, int maxTokens);

// A padded batch of windows: input_ids, bbox, attention_mask, labels [B, T] and, when `pixels` has
// an entry per window, pixel_values [B, 3, S, S].
inference::TensorMap hfBatch(const std::vector<const HfEncodedWindow *> &windows, int padId,
                             const std::vector<const inference::Tensor *> &pixels = {});

struct HfFineTuneConfig
{
    QString initDir;                  // the Hugging Face folder to start from
    QString outDir;                   // the Hugging Face folder to write
    std::vector<std::string> labels;  // the data's tag set ("O", "B-X", "I-X", ...)
    int epochs = 3;
    int batchSize = 2;                // windows per step
    double lr = 5e-5, weightDecay = 0.0, warmupRatio = 0.0, maxGradNorm = 1.0;
    long maxSteps = 0;                // stop after this many steps (0: every epoch)
    std::uint64_t seed = 42;
    int maxTokens = 0;                // window length with specials (0: the tokenizer's, within the model's positions)
    bool resume = false;
    // Data parallel (inference/training/distributed.h): item k of each batch goes to rank k % W, the
    // ranks' gradients are averaged; only rank 0 evaluates on dev and writes. `gradientShards` > 1
    // does the same arithmetic in one process (the batch split k % N).
    inference::DistributedConfig distributed;
    int gradientShards = 1;
    std::string command;              // recorded in the model card
    std::string dataDescription;      // pages, split, licences: recorded in the model card
};

struct HfFineTuneProgress
{
    long step = 0, totalSteps = 0;
    int epoch = 0, epochs = 0;
    double loss = 0, lr = 0, etaSeconds = 0;
    std::string message; // an epoch's summary (dev F1) or a note; the numbers above otherwise
};

struct HfFineTuneOutcome
{
    bool ok = false, cancelled = false;
    QString error;
    bool newHead = false;
    int trainWindows = 0, devWindows = 0, pagesWithoutImage = 0;
    long steps = 0;
    double seconds = 0, finalLoss = 0;
    double bestDevF1 = -1; // -1: no dev pages
    int bestEpoch = 0;
    std::vector<double> devF1PerEpoch, lossPerEpoch;
};

// Trains and writes cfg.outDir (the best dev epoch; without dev pages the last). At least one train page.
HfFineTuneOutcome fineTuneHfTokenClassifier(const HfFineTuneConfig &cfg, const std::vector<HfTrainPage> &train,
                                            const std::vector<HfTrainPage> &dev,
                                            const std::function<void(const HfFineTuneProgress &)> &progress,
                                            std::atomic<bool> *cancel);

// True when `dir` holds a config.json whose model_type HfFineTuner fine-tunes (layoutlmv3, lilt,
// layoutlmv2 / LayoutXLM).
bool isHfFineTunableFolder(const QString &dir);
// The page image of a FUNSD page id under a FUNSD root (training_data or testing_data images), "" when none.
QString funsdPageImage(const QString &funsdRoot, const std::string &pageId);

} // namespace folio::pipeline
