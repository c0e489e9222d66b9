#!/bin/sh
# OCR benchmark: Folio (worker processes) vs the tesseract command, same images, same run.
# Usage: bench/bench_ocr.sh [BUILD_DIR] [REPS]    (needs bench_ocr built, and tesseract installed)
set -e
BUILD=${1:-build}
REPS=${2:-3}
echo "## speed (nproc=$(nproc))"
"$BUILD/bench/bench_ocr" speed "$REPS"
echo
echo "## accuracy"
"$BUILD/bench/bench_ocr" accuracy
