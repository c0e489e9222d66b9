#pragma once
// The part of main() that folio-cli-front and folio-cli-engine share (clirun.cpp): the Qt application,
// the CLI11 root with -q/--quiet and --version, parsing and the exit codes of commands.h.
//
// folio-cli is three executables (issue 35: start time):
//  - folio-cli (launcher_main.cpp) loads only libc and re-executes, argv unchanged, one
//    of the two below, beside it, by the command's name (frontcommands.h);
//  - folio-cli-front (front_main.cpp) registers the commands that need no model (doc, dom, ocr,
//    project, import, export, extract-score) and links no LibTorch: `folio-cli --version` or
//    `project list` starts in tens of milliseconds instead of the ~0.6 s LibTorch's ~290 libraries
//    and operator registration take. Run directly with another command, it re-executes the engine;
//  - folio-cli-engine (main.cpp) registers every command and sets the OpenMP wait policy at load
//    (inference/openmpenv.h).

namespace CLI {
class App;
}

namespace folio::cli {

using RegisterCommands = void (*)(CLI::App &app);
// Called with the untouched argv when the command line names a command that `registerCommands`
// did not register (or none, or asks for the full --help); returns only on failure (an exit code).
using ForeignCommand = int (*)(char **argv);

// Builds the application and the root command, registers the commands, parses and runs.
// `foreign` null: every command line is parsed here (the engine).
int runCli(int argc, char **argv, RegisterCommands registerCommands, ForeignCommand foreign = nullptr);

} // namespace folio::cli
