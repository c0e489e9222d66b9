// folio-cli-engine: every folio-cli command, LibTorch linked. The folio-cli front (front_main.cpp)
// runs the model-free commands itself and re-executes this program for the others (clirun.h).
#include "app/cli/clirun.h"
#include "app/cli/commands.h"
#include "inference/openmpenv.h"

#include <CLI/CLI.hpp>

namespace {

void registerAllCommands(CLI::App &app)
{
    using namespace folio::cli;
    registerInfoCommand(app);
    registerDocCommand(app);
    registerDomCommand(app);
    registerOcrCommand(app);
    registerTrainCommand(app);
    registerEvalCommand(app);
    registerTrainLinksCommand(app);
    registerPretrainCommand(app);
    registerQsCommand(app);
    registerPredictCommand(app);
    registerVocabCommand(app);
    registerRunCommand(app);
    registerExtractCommand(app);
    registerExtractScoreCommand(app);
    registerTrainRankersCommand(app);
    registerRankSwdeCommand(app);
    registerTrainProductCommand(app);
    registerTrainWebFormerCommand(app);
    registerProjectCommand(app);
    registerProjectFieldsCommand(app);
    registerProjectTeamCommand(app);
    registerProjectQueueCommand(app);
    registerImportCommand(app);
    registerExportCommand(app);
    registerAttentionCommand(app);
    registerExplainCommand(app);
    registerHubCommand(app);
    registerSimulateCommand(app);
}

} // namespace

// OMP_WAIT_POLICY=PASSIVE before libgomp initialises (inference/openmpenv.h): no re-exec at start.
FOLIO_PASSIVE_OPENMP_AT_LOAD();

int main(int argc, char **argv)
{
    folio::inference::ensurePassiveOpenMpWait(argv); // fallback: only re-executes when the pre-init hook did not run
    return folio::cli::runCli(argc, argv, registerAllCommands);
}
