#!/usr/bin/env bash
# Builds the Debian package: scripts/package.sh [output folder]  ->  <folder>/folio_<version>_<arch>.deb
# (default folder: the build dir). Install it with: sudo apt-get install ./folio_<version>_<arch>.deb
# Uses the Release build in ./build (FOLIO_BUILD_DIR), building what is missing first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FOLIO_BUILD_DIR:-$root/build}"
out="${1:-$build}"
command -v dpkg-shlibdeps >/dev/null || { echo "package: dpkg-shlibdeps is missing (apt-get install dpkg-dev)" >&2; exit 1; }
FOLIO_BUILD_DIR="$build" "$root/scripts/build.sh" folio-cli folio-ocr-worker folio-spm-train \
  $(grep -q 'FOLIO_BUILD_GUI:BOOL=OFF' "$build/CMakeCache.txt" 2>/dev/null || echo folio folio-websnapshot)
mkdir -p "$out"
cpack --config "$build/CPackConfig.cmake" -B "$out" >&2
rm -rf "$out/_CPack_Packages"
deb="$(ls -t "$out"/folio_*.deb | head -1)"
echo "package: $deb" >&2
echo "$deb"
