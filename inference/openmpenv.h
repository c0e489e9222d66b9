#pragma once
// OpenMP wait policy for processes that run LibTorch.
//
// LibTorch's intra-op threads (libgomp) spin while they wait; OpenBLAS's own pthreads then fight
// them for the same cores, and a LayoutLMv3-base forward on 2 cores takes 1.76 s instead of
// 1.03 s (BENCHMARKS.md, inference core). libgomp reads OMP_WAIT_POLICY once, when it is loaded —
// before main() — so setting it inside the process is too late: the process must start with it.
//
// Call first thing in main(): when OMP_WAIT_POLICY is unset it sets PASSIVE and re-executes the
// same program with the same arguments (once; on failure it simply carries on).
#include <cstdlib>
#include <unistd.h>

namespace folio::inference {

inline void ensurePassiveOpenMpWait(char **argv)
{
    if (std::getenv("OMP_WAIT_POLICY") || std::getenv("FOLIO_NO_REEXEC"))
        return;
    ::setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    ::execv("/proc/self/exe", argv);
}

} // namespace folio::inference
