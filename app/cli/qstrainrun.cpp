#include "app/cli/qstrainrun.h"

#include "app/cli/commands.h"

#include <atomic>
#include <csignal>
#include <iostream>

namespace folio::cli {

namespace {

std::atomic<bool> g_cancel{false};

} // namespace

inference::QsTrainResult runQsTraining(const std::string &commandName, const std::vector<inference::QsTrainExample> &train,
                                       const std::vector<inference::QsTrainExample> &dev, const inference::QsTrainOptions &options,
                                       const std::string &outDir, long logEvery)
{
    g_cancel = false;
    std::signal(SIGINT, [](int) { g_cancel = true; });
    const inference::QsTrainResult r = inference::trainQsModel(
        train, dev, options,
        [&commandName, logEvery](const inference::QsTrainProgress &p) {
            if (p.devLoss >= 0 || p.step % logEvery == 0)
                std::cerr << commandName << ": epoch " << p.epoch << "/" << p.epochs << " step " << p.step << "/" << p.totalSteps
                          << " loss " << p.loss << (p.devLoss >= 0 ? " dev loss " + std::to_string(p.devLoss) : std::string())
                          << " tokens/s " << int(p.tokensPerSecond) << " eta " << int(p.etaSeconds) << "s" << std::endl;
        },
        &g_cancel);
    std::signal(SIGINT, SIG_DFL);
    if (!r.ok)
        throw CliError(outDir + ": " + r.error);
    return r;
}

} // namespace folio::cli
