#pragma once
// Data-parallel training from the command line (inference/training/distributed.h):
//   --nproc N                       N ranks on this machine (this command, re-run N times)
//   --rank R --world-size W --master host:port   one rank of a job across machines
#include "inference/training/distributed.h"

namespace CLI {
class App;
}

namespace folio::cli {

struct RankOptions
{
    int nproc = 1;
    inference::DistributedConfig distributed;
};

void addRankOptions(CLI::App *cmd, RankOptions *options);

// With --nproc N > 1: starts N copies of this folio-cli command line as ranks 0..N-1 on
// 127.0.0.1 (a free port), forwards rank 0's output and every rank's messages, and waits. When a
// rank fails or dies, the others are stopped and a CliError names it; Ctrl-C stops them all
// (exit 3). Returns true when it ran the job (the caller then returns), false with --nproc 1.
// Throws CliError for inconsistent options (--nproc with --rank, a bad --master, ...).
bool runLocalRanks(const RankOptions &options);

} // namespace folio::cli
