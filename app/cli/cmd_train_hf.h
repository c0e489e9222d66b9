#pragma once
// `folio-cli train --init HFDIR`: fine-tuning a Hugging Face token classifier (cmd_train_hf.cpp),
// entered from cmd_train.cpp when --init names a LayoutLMv3 / LiLT folder (issue 46).

#include "inference/training/distributed.h"

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace folio::pipeline {
struct HfFineTuneConfig;
}

namespace folio::cli {

struct HfTrainRequest
{
    std::string initDir, outDir;
    std::vector<std::string> data; // the first is the target (its dev split picks the epoch); more only train
    std::string order = "annotation";
    int epochs = 3, batch = 2, threads = 2, maxSteps = 0, trainPages = 0;
    int maxPagesPerSite = 0; // MarkupLM on web data: the first pages of each SWDE site (product: the first pages)
    int maxTokens = 0;       // window length with specials (0: the model's)
    double lr = 5e-5, weightDecay = 0.0, warmup = 0.0;
    unsigned seed = 42;
    bool resume = false;
    inference::DistributedConfig distributed; // a rank of `--nproc` / `--rank --world-size --master`
    int gradientShards = 1;
    std::string command;
};

// The run's settings from the request: folders (--out must not be --init's), schedule, seed, resume,
// window length, data parallelism and the command line for the model card. Throws CliError.
pipeline::HfFineTuneConfig hfFineTuneConfig(const HfTrainRequest &request);

// Loads the data, fine-tunes, prints the result as JSON; throws CliError.
void runHfFineTune(const HfTrainRequest &request);
// The same for a MarkupLM folder on web pages (SWDE or the product benchmark; cmd_train_markuplm.cpp).
void runMarkupLMFineTune(const HfTrainRequest &request);

} // namespace folio::cli
