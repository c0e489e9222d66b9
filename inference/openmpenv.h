#pragma once
// OpenMP wait policy for processes that run LibTorch.
//
// LibTorch's intra-op threads (libgomp) spin while they wait; OpenBLAS's own pthreads then fight
// them for the same cores, and a LayoutLMv3-base forward on 2 cores takes 1.76 s instead of
// 1.03 s (BENCHMARKS.md, inference core). libgomp reads OMP_WAIT_POLICY once, in its ELF
// initialiser — before main() — so setting it inside main() is too late.
//
// FOLIO_PASSIVE_OPENMP_AT_LOAD() (once, at namespace scope in an executable's main.cpp) puts a
// function into the executable's .preinit_array: the dynamic loader runs those before the
// initialisers of any shared library, libgomp's included, so OMP_WAIT_POLICY=PASSIVE is in the
// environment when libgomp reads it, with no second exec (a user's own OMP_WAIT_POLICY is kept).
// Check: OMP_DISPLAY_ENV=true folio-cli --version prints libgomp's view of it.
// The same hook sets glibc's malloc thresholds for forwards first (mallocenv.h: configureInferenceMalloc;
// FOLIO_MALLOC_DEFAULTS=1 keeps glibc's defaults).
//
// ensurePassiveOpenMpWait(argv), first thing in main(), is the fallback for an executable without
// the pre-init hook: when OMP_WAIT_POLICY is still unset it sets PASSIVE and re-executes the same
// program with the same arguments (once; on failure it simply carries on). With the hook it only
// puts the variable back into the environment (libc resets it after the pre-init stage), for children.
#include "inference/mallocenv.h"

#include <cstdlib>
#include <unistd.h>

namespace folio::inference {

// True once the pre-init hook put PASSIVE into the environment libgomp reads.
inline bool &passiveOpenMpSetAtLoad()
{
    static bool set = false; // constant-initialised: safe before any initialiser has run
    return set;
}

inline void setPassiveOpenMpWaitIfUnset(int, char **, char **)
{
    if (std::getenv("OMP_WAIT_POLICY"))
        return;
    ::setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
    passiveOpenMpSetAtLoad() = true;
}

// The pre-init hook: malloc thresholds (mallocenv.h), then the OpenMP wait policy.
inline void setUpInferenceProcessAtLoad(int argc, char **argv, char **envp)
{
    configureInferenceMalloc(envp);
    setPassiveOpenMpWaitIfUnset(argc, argv, envp);
}

inline void ensurePassiveOpenMpWait(char **argv)
{
    if (passiveOpenMpSetAtLoad()) {
        // libc rebuilds the environment after the pre-init stage; set it again so that child
        // processes (batch workers, OCR workers) start with the same policy.
        ::setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
        return;
    }
    configureInferenceMalloc(); // no hook: the thresholds from here on
    if (std::getenv("OMP_WAIT_POLICY") || std::getenv("FOLIO_NO_REEXEC"))
        return;
    ::setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    ::execv("/proc/self/exe", argv);
}

} // namespace folio::inference

// Executables only (a shared library's .preinit_array is ignored by the loader).
#define FOLIO_PASSIVE_OPENMP_AT_LOAD()                                                                   \
    __attribute__((section(".preinit_array"), used)) static void (*const folioPassiveOpenMpAtLoad)(     \
        int, char **, char **) = &folio::inference::setUpInferenceProcessAtLoad
