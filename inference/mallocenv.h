#pragma once
// glibc malloc settings for processes that run LibTorch forwards (issue 32).
//
// A base-size forward at 512 tokens makes, in every layer, several fresh [H, T, T] float buffers
// (12.6 MB each at 12 heads) and [T, 3072] ones. With glibc's defaults each of them is an mmap of its
// own — or, once the dynamic threshold has risen, the top of the heap, which free() trims back to the
// system as soon as more than twice that is free — so a forward can fault the same pages in again.
// Measured (BENCHMARKS.md, issue 32): the first forwards after loading fault far less with these
// settings (LiLT 1131 / 0 / 1536 minor faults -> 366 / 0 / 0), the steady state had few faults either
// way, and the peak resident set of a forward does not grow; the 17 % page-fault share an earlier
// profile showed was mostly the loading, not every layer. Keeping such buffers in the heap and the
// heap's free top resident lets the next layer reuse the previous layer's pages.
//
// configureInferenceMalloc() sets M_MMAP_THRESHOLD to 64 MiB (buffers up to that size come from the
// heap; larger ones — the embedding tables, a whole checkpoint read — stay separate mappings that go back
// to the system when freed) and M_TRIM_THRESHOLD to 512 MiB (up to that much free heap top stays
// resident). The peak resident set is what the forward needs at once; only what is kept after it
// grows (up to the forward's own temporaries).
// Off: FOLIO_MALLOC_DEFAULTS=1, or a user's own MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_ or
// GLIBC_TUNABLES (kept as the user set them). Called from the executables' pre-init hook
// (FOLIO_PASSIVE_OPENMP_AT_LOAD, openmpenv.h), before any C++ initialiser allocates.
#include <cstdlib> // defines __GLIBC__ under glibc
#include <cstring>
#include <initializer_list>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace folio::inference {

inline constexpr long kInferenceMmapThreshold = 64L << 20;  // bytes
inline constexpr long kInferenceTrimThreshold = 512L << 20; // bytes

// A variable of `envp` (the pre-init hook's third argument: libc's getenv does not see the
// environment yet at that stage), or of the process environment when envp is null.
inline bool environmentHas(char **envp, const char *name)
{
    if (!envp) {
        const char *v = std::getenv(name);
        return v && *v;
    }
    const std::size_t n = std::strlen(name);
    for (char **e = envp; *e; ++e)
        if (std::strncmp(*e, name, n) == 0 && (*e)[n] == '=' && (*e)[n + 1] != '\0')
            return true;
    return false;
}

// True when the settings were applied (false: turned off by the environment, or not glibc).
inline bool configureInferenceMalloc(char **envp = nullptr)
{
#if defined(__GLIBC__)
    for (const char *name : {"FOLIO_MALLOC_DEFAULTS", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "GLIBC_TUNABLES"})
        if (environmentHas(envp, name))
            return false;
    const bool mmapSet = ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(kInferenceMmapThreshold)) == 1;
    const bool trimSet = ::mallopt(M_TRIM_THRESHOLD, static_cast<int>(kInferenceTrimThreshold)) == 1;
    return mmapSet && trimSet;
#else
    (void)envp;
    return false;
#endif
}

} // namespace folio::inference
