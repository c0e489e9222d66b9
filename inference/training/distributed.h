#pragma once
// Data-parallel training across processes and machines (torch-free facade): which rank this
// process is, how many there are, and where rank 0 listens. The trainers (tagger, QS) read it
// from their configs; the process group itself is in detail/processgroup.h (LibTorch c10d, Gloo
// backend, TCP rendezvous at `master`).
//
// Semantics, the same for every trainer: every rank starts from rank 0's weights (broadcast);
// each global batch is split into `worldSize` shards (item k of a batch goes to rank k % W), each
// rank computes its shard's mean loss and gradients, and the gradients are averaged over the ranks
// that had a non-empty shard before clipping and the AdamW update — so every rank takes the same
// step. That equals one process accumulating the shards' gradients and dividing by their count
// (TrainConfig::gradientShards = W reproduces it without a process group). Only rank 0 evaluates
// on dev (its score is broadcast, so early stopping agrees) and writes checkpoints and resume
// state. A rank that dies ends the others' next collective with an error (or the timeout).
#include <string>

namespace folio::inference {

struct DistributedConfig
{
    int rank = 0;
    int worldSize = 1;
    std::string master;        // "host:port" of rank 0's rendezvous (TCPStore)
    int timeoutSeconds = 120;  // a collective that waits longer than this fails the job
    bool enabled() const { return worldSize > 1; }
    bool writes() const { return rank == 0; } // checkpoints, resume state, dev evaluation
};

// "host:port" → host and port; false (and a message) for anything else.
bool parseMasterAddress(const std::string &master, std::string *host, int *port, std::string *error);

} // namespace folio::inference
