#pragma once
// A c10d process group (Gloo over TCP) for data-parallel training; see ../distributed.h for the
// semantics the trainers follow. Collectives block until every rank joins or the timeout passes,
// and throw InferenceError naming the rank on failure (a dead peer, a timeout).
#include "inference/detail/aten.h"
#include "inference/training/distributed.h"

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace folio::inference::detail {

class ProcessGroup
{
public:
    explicit ProcessGroup(const DistributedConfig &config); // rendezvous: waits for every rank
    ~ProcessGroup();
    ProcessGroup(const ProcessGroup &) = delete;
    ProcessGroup &operator=(const ProcessGroup &) = delete;

    int rank() const { return m_config.rank; }
    int worldSize() const { return m_config.worldSize; }

    // Every rank's tensors take rank 0's values (in name order; shapes must agree).
    void broadcastFromRankZero(const std::map<std::string, at::Tensor> &params);
    // Averages the gradients of `params` over the ranks with `haveLocal` (a rank without a shard
    // contributes nothing: its undefined or stale gradients are treated as zeros). Returns false
    // when no rank had gradients. One flat all-reduce per call.
    bool averageGradients(const std::vector<at::Tensor> &params, bool haveLocal);
    double sum(double value); // all-reduce of one number
    void barrier();

private:
    struct Impl;
    DistributedConfig m_config;
    std::unique_ptr<Impl> m_impl;
};

// A cancel every rank agrees on: true when `cancel` is set on any rank (an all-reduce, so every
// rank calls it at the same step), or without a group when it is set here.
inline bool cancelOnAnyRank(const std::atomic<bool> *cancel, ProcessGroup *group)
{
    const bool here = cancel && cancel->load();
    return group ? group->sum(here ? 1.0 : 0.0) > 0 : here;
}

} // namespace folio::inference::detail
