// folio-cli: the headless face of Folio. Every subcommand works without a display.
#include "app/cli/commands.h"
#include "inference/openmpenv.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QGuiApplication>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

namespace folio::cli {

static bool s_quiet = false;
bool quiet() { return s_quiet; }
void setQuiet(bool q) { s_quiet = q; }

std::vector<std::string> splitCommaList(const std::string &list)
{
    std::vector<std::string> out;
    std::stringstream ss(list);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty())
            out.push_back(item);
    return out;
}

void writeJsonFile(const std::filesystem::path &path, const nlohmann::json &j)
{
    std::ofstream f(path);
    f << j.dump(2) << "\n";
    if (!f)
        throw CliError(path.string() + ": cannot write the file");
}

void reportProgress(const std::string &label, long done, long total)
{
    if (s_quiet)
        return;
    if (total > 0)
        std::fprintf(stderr, "%s: %ld/%ld (%ld%%)\n", label.c_str(), done, total, done * 100 / total);
    else
        std::fprintf(stderr, "%s: %ld\n", label.c_str(), done);
    std::fflush(stderr);
}

} // namespace folio::cli

// OMP_WAIT_POLICY=PASSIVE before libgomp initialises (inference/openmpenv.h): no re-exec at start.
FOLIO_PASSIVE_OPENMP_AT_LOAD();

int main(int argc, char **argv)
{
    folio::inference::ensurePassiveOpenMpWait(argv); // fallback: only re-executes when the pre-init hook did not run
    folio::cli::installCancelHandlers();             // Ctrl-C / SIGTERM: exit 3 (cancelled)
    // `attention` paints text into PNG/SVG, which needs a QGuiApplication (offscreen: no display).
    bool wantsGui = false;
    for (int i = 1; i < argc; ++i)
        wantsGui = wantsGui || std::string(argv[i]) == "attention";
    if (wantsGui && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    const std::unique_ptr<QCoreApplication> qapp(wantsGui ? new QGuiApplication(argc, argv) : new QCoreApplication(argc, argv));
    QCoreApplication::setApplicationName(QStringLiteral("folio-cli"));
    QCoreApplication::setOrganizationName(QStringLiteral("Folio"));

    CLI::App app{"folio-cli: structure-aware document extraction, headless.\n"
                 "Results go to stdout (JSON), progress and errors to stderr.\n"
                 "Exit codes: 0 ok, 1 failure (bad input), 2 usage, 3 cancelled."};
    app.require_subcommand(1);
    bool quietFlag = false;
    app.add_flag("-q,--quiet", quietFlag, "No progress output on stderr");
    for (int i = 1; i < argc; ++i) // applied before any subcommand callback runs
        if (std::string(argv[i]) == "-q" || std::string(argv[i]) == "--quiet")
            folio::cli::setQuiet(true);
    app.set_version_flag("--version", std::string(FOLIO_VERSION));

    folio::cli::registerInfoCommand(app);
    folio::cli::registerDocCommand(app);
    folio::cli::registerDomCommand(app);
    folio::cli::registerOcrCommand(app);
    folio::cli::registerTrainCommand(app);
    folio::cli::registerEvalCommand(app);
    folio::cli::registerTrainLinksCommand(app);
    folio::cli::registerPretrainCommand(app);
    folio::cli::registerQsCommand(app);
    folio::cli::registerPredictCommand(app);
    folio::cli::registerVocabCommand(app);
    folio::cli::registerRunCommand(app);
    folio::cli::registerExtractCommand(app);
    folio::cli::registerExtractScoreCommand(app);
    folio::cli::registerTrainRankersCommand(app);
    folio::cli::registerRankSwdeCommand(app);
    folio::cli::registerTrainProductCommand(app);
    folio::cli::registerTrainWebFormerCommand(app);
    folio::cli::registerProjectCommand(app);
    folio::cli::registerProjectFieldsCommand(app);
    folio::cli::registerProjectTeamCommand(app);
    folio::cli::registerProjectQueueCommand(app);
    folio::cli::registerImportCommand(app);
    folio::cli::registerExportCommand(app);
    folio::cli::registerAttentionCommand(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        app.exit(e);
        return folio::cli::ExitUsage;
    } catch (const folio::cli::CliError &e) {
        std::cerr << "folio-cli: " << e.what() << std::endl;
        return e.code();
    } catch (const std::exception &e) {
        std::cerr << "folio-cli: " << e.what() << std::endl;
        return folio::cli::ExitFailure;
    }
    return folio::cli::ExitOk;
}
