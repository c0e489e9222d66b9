// folio-cli's shared main (clirun.h) and the small helpers every command uses (commands.h).
#include "app/cli/clirun.h"
#include "app/cli/commands.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QGuiApplication>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

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

namespace {

// True when this program should run the command line itself: it names a command registered here,
// or names none and only asks for --version. The root takes no option with a value, so the first
// argument that is not an option is the command.
bool handledHere(CLI::App &app, int argc, char **argv)
{
    bool version = false;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (arg[0] != '-') {
            for (const CLI::App *sub : app.get_subcommands([](CLI::App *) { return true; }))
                if (sub->check_name(arg))
                    return true;
            return false;
        }
        if (std::strcmp(arg, "--version") == 0)
            version = true;
        else if (std::strcmp(arg, "-q") != 0 && std::strcmp(arg, "--quiet") != 0)
            return false; // --help (the full list of commands) and anything unknown: the engine's answer
    }
    return version;
}

} // namespace

int runCli(int argc, char **argv, RegisterCommands registerCommands, ForeignCommand foreign)
{
    installCancelHandlers(); // Ctrl-C / SIGTERM: exit 3 (cancelled)
    // `attention` paints text into PNG/SVG, which needs a QGuiApplication (offscreen: no display).
    bool wantsGui = false;
    for (int i = 1; i < argc; ++i)
        wantsGui = wantsGui || std::string(argv[i]) == "attention";
    if (wantsGui && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    const std::vector<char *> originalArgv(argv, argv + argc + 1); // Qt may edit argv; `foreign` gets it whole
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
            setQuiet(true);
    app.set_version_flag("--version", std::string(FOLIO_VERSION));
    registerCommands(app);
    if (foreign && !handledHere(app, argc, argv))
        return foreign(const_cast<char **>(originalArgv.data()));

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
        return ExitUsage;
    } catch (const CliError &e) {
        std::cerr << "folio-cli: " << e.what() << std::endl;
        return e.code();
    } catch (const std::exception &e) {
        std::cerr << "folio-cli: " << e.what() << std::endl;
        return ExitFailure;
    }
    return ExitOk;
}

} // namespace folio::cli
