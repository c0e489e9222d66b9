// folio-cli: the launcher (clirun.h). Loads nothing but libc (no std::string: --as-needed drops
// libstdc++) and only chooses: the model-free commands run in folio-cli-front, everything else in
// folio-cli-engine, both beside this program, with the same arguments (argv[0] kept: usage and
// messages still say folio-cli).
#include "app/cli/frontcommands.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <unistd.h>

int main(int argc, char **argv)
{
    char self[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        std::fprintf(stderr, "folio-cli: cannot find its own folder (/proc/self/exe): %s\n", std::strerror(errno));
        return 1;
    }
    self[n] = '\0';
    *std::strrchr(self, '/') = '\0';
    char program[PATH_MAX + 32];
    std::snprintf(program, sizeof program, "%s/%s", self, folio::cli::frontRuns(argc, argv) ? "folio-cli-front" : "folio-cli-engine");
    ::execv(program, argv);
    std::fprintf(stderr, "folio-cli: cannot start %s: %s\n", program, std::strerror(errno));
    return 1;
}
