#!/usr/bin/env bash
# One command: install what is missing, build, and open Folio on the bundled sample document with
# the bundled model. Without a display it renders offscreen and saves a screenshot instead.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" folio folio-cli
build="${FOLIO_BUILD_DIR:-$root/build}"
sample="${1:-$root/resources/samples/sample-form.png}"
model="$root/resources/models/funsd-layout-reading" # trained on reading-order words, as OCR gives them
args=("$sample")
[ -d "$model" ] && args+=(--model "$model")
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  shot="$build/folio-quickstart.png"
  echo "run: no display found; rendering offscreen and saving a screenshot to $shot" >&2
  QT_QPA_PLATFORM=offscreen exec "$build/bin/folio" "${args[@]}" --screenshot "$shot"
fi
exec "$build/bin/folio" "${args[@]}"
