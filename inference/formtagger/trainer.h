#pragma once
// Training of Folio's word-level layout token classifier ("folio-formtagger", the recipe in
// ../shared/recipes/funsd-from-scratch.md); prediction and evaluation: predictor.h. Torch-free
// facade: folio-cli and the GUI (from a worker thread) call these; no exception leaves train() —
// failures come back as messages.
//
// The model: word units (SentencePiece pieces of a word mean-pooled), LayoutLM-style absolute
// 2-D embeddings, neighbour-gap features, pre-LN transformer encoder with T5-bucketed 1-D and
// 2-D (x0 / y1) relative attention biases shared across layers, a linear BIO head, box jitter in
// training, constrained BIO Viterbi decoding. Variants: "full", "no-spatial-bias" (2-D relative
// biases ablated), "text" (no boxes at all).
//
// Checkpoint folder (Hugging Face layout): config.json, model.safetensors (HF-style names),
// spm.model (the tokenizer), folio.json (data, metrics, seed, command, history). `<dir>/last/`
// additionally holds optimizer.safetensors for --resume.

#include "inference/formtagger/taggerpage.h"
#include "inference/training/distributed.h"

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace folio::inference {

struct TrainConfig
{
    std::string variant = "full";          // full | no-spatial-bias | text
    // Structure-bias architecture (issue 12), recorded in config.json: "" (the variant alone),
    // layoutlmv3 | layoutlmv2 | ernie (variant full) or text (variant text); see TaggerConfig.
    std::string architecture;
    // How the training pages' words are ordered (annotation | reading | layout, "" unknown),
    // recorded in config.json as "word_order": a "layout" model gets every document serialised by
    // layout when it predicts (DocumentTagger, the attention view).
    std::string wordOrder;
    std::string outputDir;
    std::string tokenizerDir;              // folder with a tokenizer; empty: train SentencePiece on the train words
    // A pretrained encoder (folio-cli pretrain's output, pretrain.h): its sizes and vocabulary are
    // used and its weights (all but the classifier) start the training; empty: from scratch.
    std::string initDir;
    int vocabSize = 4000;
    int hidden = 256, layers = 4, heads = 4, intermediate = 1024;
    int maxPiecesPerWord = 8;
    int maxWords = 512;                    // window size in words (longer pages are windowed)
    int windowStride = 384;
    int epochs = 30;
    int batchSize = 8;
    double lr = 1e-3, biasLrScale = 10.0, weightDecay = 0.01, warmupFraction = 0.06, clipNorm = 1.0;
    double dropout = 0.1;
    bool jitter = true;
    int patience = 0;                      // early stopping: epochs without dev improvement (0 = off)
    // Polyak averaging (training/detail/weightaverage.h): > 0 keeps an exponential moving average of
    // the weights with this decay per step; dev scores, the best checkpoint and the shipped weights
    // are the average's. 0 = off (the weights of the best epoch).
    double emaDecay = 0;
    unsigned seed = 1;
    int threads = 2;
    bool resume = false;
    int maxSteps = 0;                      // stop after this many optimizer steps (tests); 0 = no limit
    // Data-parallel training (training/distributed.h): this process's rank in a process group, or,
    // without one, `gradientShards` > 1 splits each batch into that many shards in this process and
    // averages their gradients — the same arithmetic, for checking the process group against.
    DistributedConfig distributed;
    int gradientShards = 1;
    std::vector<std::string> labels = {"O", "B-HEADER", "I-HEADER", "B-QUESTION", "I-QUESTION", "B-ANSWER", "I-ANSWER"};
    std::string command;                   // recorded in folio.json
    std::string dataDescription;           // recorded in folio.json
};

struct TrainProgress
{
    int epoch = 0, epochs = 0;
    long step = 0, totalSteps = 0;
    double loss = 0;          // running mean over the epoch
    double devF1 = -1;        // last dev F1 (-1 before the first evaluation)
    double bestDevF1 = -1;
    double tokensPerSecond = 0;
    double etaSeconds = 0;
    std::string message;      // a line worth logging (epoch summaries)
};

struct TrainResult
{
    bool ok = false;
    bool cancelled = false;
    std::string error;
    int bestEpoch = 0;
    double bestDevF1 = 0;
    double seconds = 0;
    double tokensPerSecond = 0; // words (model units) and sub-tokens per second of training
    double piecesPerSecond = 0;
    long steps = 0;
    double finalLoss = 0;
};

using ProgressCallback = std::function<void(const TrainProgress &)>;

// Trains on `train`, selects the best epoch on `dev` (entity F1, Viterbi decode), writes the
// best checkpoint to config.outputDir. `cancel` (may be null) is polled between steps.
TrainResult train(const TrainConfig &config, const std::vector<TaggerPage> &trainPages,
                  const std::vector<TaggerPage> &devPages, const ProgressCallback &progress = {},
                  const std::atomic<bool> *cancel = nullptr);

// Makes a checkpoint shippable: weights stored as float16 (half the size; loaded back as float32)
// and the resume state (`last/`) removed. False + *error on failure.
bool compactCheckpoint(const std::string &checkpointDir, std::string *error);

// The recipe's dev split: Python random.seed(13) shuffle of the sorted page indices, first
// `devCount` as dev (MT19937 + random.shuffle's _randbelow, reproduced bit for bit).
void splitTrainDev(std::vector<TaggerPage> pages, std::vector<TaggerPage> *train, std::vector<TaggerPage> *dev,
                   unsigned seed = 13, int devCount = 20);

// `count` of the pages (all of them when count >= their number), drawn by splitTrainDev's shuffle
// with `seed`: for one page set, a smaller sample lies inside every larger one, so curves over the
// sample size add pages rather than swap them (`train --train-pages`, `pretrain --corpus-fraction`).
std::vector<TaggerPage> nestedSample(std::vector<TaggerPage> pages, int count, unsigned seed = 29);

} // namespace folio::inference
