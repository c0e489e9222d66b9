// folio-cli-front (clirun.h): runs the commands that need no model, without LibTorch in the
// process; the folio-cli launcher starts it for them. Any other command line re-executes
// folio-cli-engine (next to this program).
#include "app/cli/clirun.h"
#include "app/cli/commands.h"
#include "inference/openmpenv.h"

#include <CLI/CLI.hpp>

#include <QCoreApplication>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <unistd.h>

namespace {

// The model-free commands: exactly app/cli/frontcommands.h's list (the launcher's), checked at
// start. A command added here must not pull LibTorch in: tst_clifront checks the libraries.
void registerFrontCommands(CLI::App &app)
{
    using namespace folio::cli;
    registerDocCommand(app);
    registerDomCommand(app);
    registerOcrCommand(app);
    registerExtractScoreCommand(app);
    registerProjectCommand(app);
    registerProjectFieldsCommand(app);
    registerProjectTeamCommand(app);
    registerProjectQueueCommand(app);
    registerImportCommand(app);
    registerExportCommand(app);
    registerHubCommand(app); // cmd_hub.cpp built with FOLIO_CLI_FRONT: the engine describes what needs LibTorch
}

int runEngine(char **argv)
{
    const QByteArray engine = QFile::encodeName(QCoreApplication::applicationDirPath() + QStringLiteral("/folio-cli-engine"));
    ::execv(engine.constData(), argv); // argv[0] kept: usage and messages still say folio-cli
    std::cerr << "folio-cli: cannot start " << engine.constData() << ": " << std::strerror(errno) << std::endl;
    return folio::cli::ExitFailure;
}

} // namespace

// Tesseract's libgomp is loaded here too, and OCR workers inherit the policy; the engine keeps it.
FOLIO_PASSIVE_OPENMP_AT_LOAD();

int main(int argc, char **argv)
{
    folio::inference::ensurePassiveOpenMpWait(argv);
    return folio::cli::runCli(argc, argv, registerFrontCommands, runEngine);
}
