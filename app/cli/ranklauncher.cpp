// folio-cli's data-parallel launcher (ranklauncher.h).
#include "app/cli/ranklauncher.h"
#include "app/cli/commands.h"

#include <CLI/CLI.hpp>

#include <QCoreApplication>
#include <QProcess>
#include <QThread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <vector>

namespace folio::cli {

namespace {

// A TCP port nobody listens on now (the kernel's pick for port 0). Another program could take it
// before rank 0 binds it; the rendezvous then fails with a clear message.
int freeLocalPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        throw CliError("--nproc: cannot open a socket to find a free port");
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0 &&
                    ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) == 0;
    ::close(fd);
    if (!ok)
        throw CliError("--nproc: cannot find a free local port");
    return ntohs(addr.sin_port);
}

// This command line without --nproc (and its value).
QStringList argumentsWithoutNproc()
{
    const QStringList all = QCoreApplication::arguments().mid(1);
    QStringList out;
    for (int i = 0; i < all.size(); ++i) {
        if (all[i] == QLatin1String("--nproc")) {
            ++i;
            continue;
        }
        if (all[i].startsWith(QLatin1String("--nproc=")))
            continue;
        out << all[i];
    }
    return out;
}

} // namespace

void addRankOptions(CLI::App *cmd, RankOptions *options)
{
    cmd->add_option("--nproc", options->nproc, "Data-parallel training with N processes on this machine")->check(CLI::Range(1, 64));
    cmd->add_option("--rank", options->distributed.rank, "This process's rank (0 = the one that writes checkpoints)")
        ->check(CLI::Range(0, 4095));
    cmd->add_option("--world-size", options->distributed.worldSize, "Processes in the job, across machines")->check(CLI::Range(1, 4096));
    cmd->add_option("--master", options->distributed.master, "host:port where rank 0 meets the others");
    cmd->add_option("--dist-timeout", options->distributed.timeoutSeconds, "Seconds a collective may wait for the other ranks")
        ->check(CLI::Range(1, 86400));
}

bool runLocalRanks(const RankOptions &options)
{
    const inference::DistributedConfig &d = options.distributed;
    if (d.worldSize > 1) {
        if (options.nproc > 1)
            throw CliError("--nproc starts its own ranks: give either --nproc or --rank/--world-size/--master", ExitUsage);
        if (d.rank >= d.worldSize)
            throw CliError("--rank " + std::to_string(d.rank) + " is not below --world-size " + std::to_string(d.worldSize), ExitUsage);
        std::string host, error;
        int port = 0;
        if (!inference::parseMasterAddress(d.master, &host, &port, &error))
            throw CliError(error, ExitUsage);
        return false;
    }
    if (options.nproc <= 1)
        return false;
    const int port = freeLocalPort();
    const QStringList base = argumentsWithoutNproc();
    std::vector<std::unique_ptr<QProcess>> ranks;
    for (int r = 0; r < options.nproc; ++r) {
        auto p = std::make_unique<QProcess>();
        QStringList args;
        if (r > 0)
            args << QStringLiteral("-q"); // rank 0 reports progress for the job
        args << base << QStringLiteral("--rank") << QString::number(r) << QStringLiteral("--world-size")
             << QString::number(options.nproc) << QStringLiteral("--master") << QStringLiteral("127.0.0.1:%1").arg(port);
        if (r == 0)
            p->setProcessChannelMode(QProcess::ForwardedChannels);
        else {
            p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
            p->setStandardOutputFile(QProcess::nullDevice());
        }
        p->start(QCoreApplication::applicationFilePath(), args);
        if (!p->waitForStarted(30000))
            throw CliError("--nproc: cannot start rank " + std::to_string(r) + ": " + p->errorString().toStdString());
        if (!quiet())
            std::fprintf(stderr, "rank %d: pid %lld\n", r, static_cast<long long>(p->processId()));
        ranks.push_back(std::move(p));
    }
    std::fflush(stderr);
    const CancelScope scope;
    std::string failure;
    for (;;) {
        int running = 0;
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            QProcess &p = *ranks[r];
            if (p.state() != QProcess::NotRunning) {
                p.waitForFinished(20);
                if (p.state() != QProcess::NotRunning) {
                    ++running;
                    continue;
                }
            }
            if (failure.empty() && (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0))
                failure = "rank " + std::to_string(r) +
                          (p.exitStatus() != QProcess::NormalExit ? std::string(" was killed or crashed")
                                                                   : " ended with exit code " + std::to_string(p.exitCode()));
        }
        if (running == 0)
            break;
        if (!failure.empty() || cancelRequested())
            for (auto &p : ranks)
                if (p->state() != QProcess::NotRunning)
                    p->kill();
        QThread::msleep(50);
    }
    if (cancelRequested())
        throw CliError("training cancelled: every rank was stopped", ExitCancelled);
    if (!failure.empty())
        throw CliError("data-parallel training failed: " + failure + "; the other ranks were stopped");
    return true;
}

} // namespace folio::cli
