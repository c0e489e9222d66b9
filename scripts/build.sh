#!/usr/bin/env bash
# Configures and builds Folio (Release) into ./build. Usage: scripts/build.sh [ninja targets...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FOLIO_BUILD_DIR:-$root/build}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
jobs="${FOLIO_JOBS:-$(nproc)}"
start=$(date +%s)
cmake --build "$build" -j "$jobs" ${1:+--target "$@"}
echo "build: done in $(( $(date +%s) - start )) s ($build)" >&2
