#!/usr/bin/env bash
# One command: install what is missing, build everything, run every test (GUI tests offscreen),
# and finish with the CTest summary. Usage: scripts/test.sh [ctest args, e.g. -L unit]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build="${FOLIO_BUILD_DIR:-$root/build}"
export QT_QPA_PLATFORM=offscreen QTWEBENGINE_DISABLE_SANDBOX=1
export FOLIO_NO_DIALOGS=1
cd "$build"
ctest --output-on-failure --timeout 900 "$@"
