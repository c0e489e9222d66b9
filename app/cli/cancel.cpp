// SIGINT/SIGTERM for folio-cli (see commands.h): inside a CancelScope a signal only raises a flag
// that the running work polls; outside one, or at a second signal, the process ends with exit 3.
#include "app/cli/commands.h"

#include <atomic>
#include <csignal>
#include <unistd.h>

namespace folio::cli {

namespace {

std::atomic<bool> s_requested{false};
std::atomic<int> s_scopes{0};

extern "C" void onCancelSignal(int)
{
    // Only async-signal-safe calls here: an atomic store or _exit.
    if (s_scopes.load() > 0 && !s_requested.exchange(true))
        return;
    _exit(ExitCancelled);
}

} // namespace

void installCancelHandlers()
{
    struct sigaction sa = {};
    sa.sa_handler = onCancelSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

bool cancelRequested() { return s_requested.load(); }

CancelScope::CancelScope()
{
    s_requested = false;
    ++s_scopes;
}

CancelScope::~CancelScope() { --s_scopes; }

} // namespace folio::cli
