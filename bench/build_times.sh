#!/usr/bin/env bash
# Clean-build and no-op-rebuild times of the whole tree, with and without ccache's warm cache.
# Baseline in the same run: the clean build with a cold (disabled) ccache.
# Usage: bench/build_times.sh [build-dir]   (run on an otherwise idle machine)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-/tmp/folio-build-bench}"
jobs=$(nproc)
timeit() { local s=$(date +%s.%N); "$@" >/dev/null; echo "$(date +%s.%N) - $s" | bc; }

rm -rf "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cold=$(CCACHE_DISABLE=1 timeit cmake --build "$build" -j "$jobs")
noop=$(timeit cmake --build "$build" -j "$jobs")
# Warm ccache: fill it once, then time a clean rebuild that hits it.
rm -rf "$build"; cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$jobs" >/dev/null
rm -rf "$build"; cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
warm=$(timeit cmake --build "$build" -j "$jobs")
printf 'cores=%s clean(cold ccache)=%.1fs no-op=%.2fs clean(warm ccache)=%.1fs warm/cold=%.2f\n' \
  "$jobs" "$cold" "$noop" "$warm" "$(echo "$warm / $cold" | bc -l)"
