#pragma once
// The commands folio-cli-front runs itself (front_main.cpp registers exactly these; clirun.cpp
// refuses to start the front when the two differ). The launcher (launcher_main.cpp) reads this list
// to choose between folio-cli-front and folio-cli-engine without loading either's libraries.
#include <cstring>

namespace folio::cli {

inline constexpr const char *kFrontCommands[] = {"doc", "dom", "ocr", "extract-score", "project", "import", "export", "hub"};

inline bool isFrontCommand(const char *name)
{
    for (const char *c : kFrontCommands)
        if (std::strcmp(c, name) == 0)
            return true;
    return false;
}

// True when the front should run this command line: it names a front command, or names none and
// only asks for --version. The root takes no option with a value, so the first argument that is
// not an option is the command; --help (the full list of commands), no command and anything unknown
// go to the engine.
inline bool frontRuns(int argc, char **argv)
{
    bool version = false;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (arg[0] != '-')
            return isFrontCommand(arg);
        if (std::strcmp(arg, "--version") == 0)
            version = true;
        else if (std::strcmp(arg, "-q") != 0 && std::strcmp(arg, "--quiet") != 0)
            return false;
    }
    return version;
}

} // namespace folio::cli
