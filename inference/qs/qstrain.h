#pragma once
// Training a small BART from scratch for question-summary hierarchies (issue 13). Torch-free facade
// over the shared toolkit (inference/training/detail: AdamW + warm-up/decay + clipping, checkpoint
// and folio.json writing, early stopping, resume, progress / ETA / cancel).
//
// Examples are token ids already: the source (its ids and its HIBRIDS section layout, used when the
// model is trained with HIBRIDS biases) and the target tokens (no start token, no EOS: the trainer appends EOS for the labels and prepends
// decoder_start_token_id for the decoder input). Each optimiser step sums the loss of `batch`
// examples (one forward each: no padding). Model selection: the epoch with the lowest mean dev
// loss (the last epoch without a dev set). The checkpoint is a Hugging Face-named BART
// (`model.*`), loadable by Seq2seqGenerator; `extraConfig` is merged into config.json (e.g. the
// "folio_qs" markers). Resume: `<out>/resume/` holds the last epoch's weights, optimiser state and
// counters; training continues after that epoch.

#include "inference/training/distributed.h"
#include "inference/qs/seq2seq.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace folio::inference {

struct QsTrainExample
{
    std::vector<std::int64_t> source; // encoder ids ([bos] ... [eos])
    std::vector<std::int64_t> target; // target tokens without start / EOS
    // HIBRIDS layout of the source (qslinearize.h HibridsSource): needed when options.hibrids is not
    // "none"; tokenToSection has one entry per source id.
    std::vector<std::int64_t> sectionParent, tokenToSection;
};

struct QsModelSize
{
    int dModel = 256, encoderLayers = 3, decoderLayers = 3, heads = 4, ffn = 1024;
    int vocab = 8000;            // embedding rows (every id used must be below)
    int maxSourcePositions = 512, maxTargetPositions = 256;
    int pad = 1, bos = 0, eos = 2, decoderStart = 2;
};

struct QsTrainOptions
{
    std::string outDir;
    QsModelSize size;
    int epochs = 4;
    int batch = 4;
    double lr = 5e-4;
    double warmupFraction = 0.05;
    std::uint64_t seed = 13;
    // HIBRIDS biases (MODELS.md §5.4-5.5) trained with the model: "none", "encoder" (a [600, heads]
    // table per encoder layer, `model.encoder.layers.N.self_attn.relative_hierarchical_bias.weight`)
    // or "decoder" (one [600, 1] table on the last decoder layer's cross-attention). Tables start at
    // N(0, 0.02) as in the reference, drawn after (and apart from) the other weights, so that the
    // same seed gives every variant the same base initialisation. Ignored on resume (the weights decide).
    std::string hibrids = "none";
    // Pointer-generator copy head (config.json "folio_copy_head"; detail/seq2seqmodel.h): the loss is
    // taken on the mixed vocabulary + copy distribution.
    bool copy = false;
    double timeBudgetSeconds = 0; // > 0: stop after the epoch that passes it
    bool resume = false;
    bool float16 = false;         // store the selected weights as float16
    std::string extraConfigJson = "{}"; // merged into config.json
    std::vector<std::string> copyFiles; // copied into the checkpoint (tokenizer files)
    // Data parallel (training/distributed.h): this process's rank, or `gradientShards` > 1 shards
    // of each batch in this process with their gradients averaged (the same arithmetic).
    DistributedConfig distributed;
    int gradientShards = 1;
};

struct QsTrainProgress
{
    int epoch = 0, epochs = 0;
    long step = 0, totalSteps = 0;
    double loss = 0, devLoss = -1; // devLoss: after an epoch, -1 otherwise
    double tokensPerSecond = 0, etaSeconds = 0;
};
using QsTrainCallback = std::function<void(const QsTrainProgress &)>;

struct QsTrainResult
{
    bool ok = false, cancelled = false;
    std::string error;
    int epochsRun = 0, bestEpoch = 0;
    double bestDevLoss = -1, lastTrainLoss = 0, seconds = 0;
    long steps = 0;
};

// Throws nothing. Needs at least one training example; ids outside the vocabulary are refused.
QsTrainResult trainQsModel(const std::vector<QsTrainExample> &train, const std::vector<QsTrainExample> &dev,
                           const QsTrainOptions &options, const QsTrainCallback &progress = {},
                           const std::atomic<bool> *cancel = nullptr);

} // namespace folio::inference
