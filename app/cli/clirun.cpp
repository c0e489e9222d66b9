// folio-cli's shared main (clirun.h) and the small helpers every command uses (commands.h).
#include "app/cli/clirun.h"
#include "app/cli/commands.h"
#include "app/cli/frontcommands.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QGuiApplication>

#include <algorithm>
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

// The front's registrations are the launcher's list (frontcommands.h); empty when they are.
std::string frontListMismatch(CLI::App &app)
{
    const auto subs = app.get_subcommands([](CLI::App *) { return true; });
    std::string mismatch;
    for (const CLI::App *sub : subs)
        if (!isFrontCommand(sub->get_name().c_str()))
            mismatch += " " + sub->get_name() + " (registered, not listed)";
    for (const char *name : kFrontCommands)
        if (std::none_of(subs.begin(), subs.end(), [name](const CLI::App *sub) { return sub->get_name() == name; }))
            mismatch += std::string(" ") + name + " (listed, not registered)";
    return mismatch;
}

} // namespace

int runCli(int argc, char **argv, RegisterCommands registerCommands, ForeignCommand foreign)
{
    installCancelHandlers(); // Ctrl-C / SIGTERM: exit 3 (cancelled)
    // `attention` paints text into PNG/SVG, which needs a QGuiApplication (offscreen: no display).
    bool wantsGui = false;
    for (int i = 1; i < argc; ++i)
        wantsGui = wantsGui || std::string(argv[i]) == "attention" || std::string(argv[i]) == "simulate-labelling"; // --plot x.png
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
    if (foreign) {
        if (const std::string mismatch = frontListMismatch(app); !mismatch.empty()) {
            std::cerr << "folio-cli: app/cli/frontcommands.h and the front's commands differ:" << mismatch << std::endl;
            return ExitFailure;
        }
        if (!frontRuns(argc, argv))
            return foreign(const_cast<char **>(originalArgv.data()));
    }

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
