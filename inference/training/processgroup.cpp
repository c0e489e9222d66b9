// c10d process group for data-parallel training (detail/processgroup.h): a TCPStore rendezvous
// at rank 0's host:port and a Gloo process group over it.
#include "inference/training/detail/processgroup.h"

#include "inference/errors.h"

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>

namespace folio::inference {

bool parseMasterAddress(const std::string &master, std::string *host, int *port, std::string *error)
{
    const std::size_t colon = master.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 >= master.size()) {
        *error = "--master wants host:port, got \"" + master + "\"";
        return false;
    }
    int p = 0;
    for (std::size_t i = colon + 1; i < master.size(); ++i) {
        if (master[i] < '0' || master[i] > '9' || p > 65535) {
            *error = "--master: \"" + master.substr(colon + 1) + "\" is not a port number";
            return false;
        }
        p = p * 10 + (master[i] - '0');
    }
    if (p < 1 || p > 65535) {
        *error = "--master: port " + std::to_string(p) + " is outside 1..65535";
        return false;
    }
    *host = master.substr(0, colon);
    *port = p;
    return true;
}

namespace detail {

struct ProcessGroup::Impl
{
    c10::intrusive_ptr<c10d::TCPStore> store;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
};

namespace {

// Runs a collective and turns c10d's errors into a message naming this rank.
template <typename Fn>
void collective(int rank, const char *what, Fn &&fn)
{
    try {
        fn();
    } catch (const std::exception &e) {
        std::string message = e.what();
        if (message.size() > 400)
            message = message.substr(0, 400) + "...";
        throw InferenceError("distributed training, rank " + std::to_string(rank) + ": " + what +
                             " failed (a rank died or timed out?): " + message);
    }
}

} // namespace

ProcessGroup::ProcessGroup(const DistributedConfig &config) : m_config(config), m_impl(std::make_unique<Impl>())
{
    if (config.worldSize < 2 || config.rank < 0 || config.rank >= config.worldSize)
        throw InferenceError("distributed training: rank " + std::to_string(config.rank) + " of a world of " +
                             std::to_string(config.worldSize));
    std::string host, error;
    int port = 0;
    if (!parseMasterAddress(config.master, &host, &port, &error))
        throw InferenceError(error);
    const std::chrono::milliseconds timeout(std::int64_t(std::max(1, config.timeoutSeconds)) * 1000);
    collective(config.rank, "the rendezvous", [&] {
        c10d::TCPStoreOptions opts;
        opts.port = std::uint16_t(port);
        opts.isServer = config.rank == 0;
        opts.numWorkers = std::size_t(config.worldSize);
        opts.waitWorkers = true;
        opts.timeout = timeout;
        m_impl->store = c10::make_intrusive<c10d::TCPStore>(host, opts);
        auto options = c10d::ProcessGroupGloo::Options::create(timeout);
        const bool loopback = host == "127.0.0.1" || host == "localhost" || host == "::1";
        options->devices.push_back(loopback ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                                            : c10d::ProcessGroupGloo::createDefaultDevice());
        options->threads = 1;
        m_impl->group = c10::make_intrusive<c10d::ProcessGroupGloo>(m_impl->store, config.rank, config.worldSize, options);
    });
}

ProcessGroup::~ProcessGroup() = default;

void ProcessGroup::broadcastFromRankZero(const std::map<std::string, at::Tensor> &params)
{
    std::vector<at::Tensor> flat;
    for (const auto &kv : params)
        flat.push_back(kv.second.detach().reshape({-1}));
    at::Tensor buffer = at::cat(flat);
    std::vector<at::Tensor> ts{buffer};
    collective(rank(), "broadcasting the weights", [&] {
        c10d::BroadcastOptions o;
        o.rootRank = 0;
        m_impl->group->broadcast(ts, o)->wait();
    });
    at::NoGradGuard noGrad;
    std::int64_t offset = 0;
    for (const auto &kv : params) {
        const std::int64_t n = kv.second.numel();
        kv.second.copy_(buffer.narrow(0, offset, n).view(kv.second.sizes()));
        offset += n;
    }
}

bool ProcessGroup::averageGradients(const std::vector<at::Tensor> &params, bool haveLocal)
{
    std::vector<at::Tensor> flat;
    for (const at::Tensor &p : params) {
        const at::Tensor g = p.grad();
        flat.push_back(haveLocal && g.defined() ? g.reshape({-1}) : at::zeros({p.numel()}, p.options()));
    }
    flat.push_back(at::full({1}, haveLocal ? 1.0 : 0.0, params.empty() ? at::TensorOptions(at::kFloat) : params[0].options()));
    at::Tensor buffer = at::cat(flat);
    std::vector<at::Tensor> ts{buffer};
    collective(rank(), "averaging the gradients", [&] { m_impl->group->allreduce(ts)->wait(); });
    const double contributors = buffer[buffer.numel() - 1].item<double>();
    if (contributors < 0.5)
        return false;
    buffer.div_(contributors);
    at::NoGradGuard noGrad;
    std::int64_t offset = 0;
    for (const at::Tensor &p : params) {
        const std::int64_t n = p.numel();
        const at::Tensor avg = buffer.narrow(0, offset, n).view(p.sizes());
        if (p.grad().defined())
            p.mutable_grad().copy_(avg);
        else
            p.mutable_grad() = avg.clone();
        offset += n;
    }
    return true;
}

double ProcessGroup::sum(double value)
{
    std::vector<at::Tensor> ts{at::full({1}, value, at::TensorOptions(at::kDouble))};
    collective(rank(), "summing a value", [&] { m_impl->group->allreduce(ts)->wait(); });
    return ts[0].item<double>();
}

void ProcessGroup::barrier()
{
    collective(rank(), "the barrier", [&] { m_impl->group->barrier()->wait(); });
}

} // namespace detail
} // namespace folio::inference
