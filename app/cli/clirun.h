#pragma once
// The part of folio-cli's main() that both of its programs share (clirun.cpp): the Qt application,
// the CLI11 root with -q/--quiet and --version, parsing and the exit codes of commands.h.
//
// folio-cli is two executables (issue 35: start time):
//  - folio-cli (front_main.cpp) registers the commands that need no model (doc, dom, ocr, project,
//    import, export, extract-score) and links no LibTorch: `folio-cli --version` or `project list`
//    starts in tens of milliseconds instead of the ~0.6 s LibTorch's ~290 libraries and operator
//    registration take;
//  - folio-cli-engine (main.cpp) registers every command. The front re-executes it, with the same
//    arguments, for any command it does not have (and for --help and a missing command), before
//    anything is parsed; the engine sets the OpenMP wait policy at load (inference/openmpenv.h).

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
