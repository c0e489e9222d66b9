#!/bin/sh
# The shift study of BENCHMARKS.md (issue 48) per tagger architecture: how often a word's label
# changes when its box moves right by 10 / 50 / 200 page pixels on FUNSD test, beside the same
# moves with the 1-D and 2-D relative-bias families switched off (bench/bench_explain part 2).
#
# Models: the shipped funsd-layout, and taggers of the "layoutlmv2" (SASAM-style unscaled bucketed
# 1-D + 2-D biases) and "ernie" (ERNIE-Layout disentangled 1-D / x / y attention) architectures
# trained here by `folio-cli train --arch A` on FUNSD TRAIN only (its dev split, carved from train,
# picks the epoch; test is never trained on) at a small budget: EPOCHS epochs for layoutlmv2,
# ERNIE_EPOCHS for ernie (its disentangled attention costs ~3x per step), seed 13, protocol word
# order, the shipped funsd-layout tokenizer. A model folder already in WORK is reused. Each model's
# FUNSD test F1 (folio-cli eval --split test) is printed beside it.
#
# The study runs every model on the first PAGES test pages (every EVERY-th word); the ernie tagger,
# ~3x slower per forward, on the first ERNIE_PAGES only, and when ERNIE_PAGES < PAGES the other two
# also on those ERNIE_PAGES pages, so that the three compare on the same pages. Everything at nice 10.
#
# Usage: bench/bench_shift_study.sh BUILD_DIR WORK_DIR [PAGES=50] [ERNIE_PAGES=15] [EVERY=10]
#                                   [EPOCHS=6] [ERNIE_EPOCHS=3] [THREADS=2]
# Output: WORK_DIR/shift-<model>-<pages>.txt (bench_explain's table and JSON lines), the times and
# load averages on stdout.
set -eu
BUILD=${1:?build dir}; WORK=${2:?work dir}; PAGES=${3:-50}; ERNIE_PAGES=${4:-15}; EVERY=${5:-10}
EPOCHS=${6:-6}; ERNIE_EPOCHS=${7:-3}; THREADS=${8:-2}
CLI="$BUILD/bin/folio-cli"
BENCH="$BUILD/bench/bench_explain"
SRC=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$WORK"
load() { cut -d' ' -f1-3 /proc/loadavg; }
for ARCH in layoutlmv2 ernie; do
    OUT="$WORK/tagger-$ARCH"
    N=$EPOCHS
    [ "$ARCH" = ernie ] && N=$ERNIE_EPOCHS
    if [ ! -f "$OUT/model.safetensors" ]; then
        echo "train $ARCH: $N epochs, start $(date -u +%T), load $(load)"
        nice -n 10 "$CLI" -q train --arch "$ARCH" --out "$OUT" --epochs "$N" --seed 13 --threads "$THREADS" \
            --order annotation --tokenizer "$SRC/resources/models/funsd-layout" > "$WORK/train-$ARCH.json"
    fi
    if [ ! -s "$WORK/eval-$ARCH.json" ]; then
        nice -n 10 "$CLI" -q eval --checkpoint "$OUT" --split test --order annotation --threads "$THREADS" > "$WORK/eval-$ARCH.json"
    fi
    python3 - "$ARCH" "$WORK/train-$ARCH.json" "$WORK/eval-$ARCH.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[2])); e = json.load(open(sys.argv[3]))
print("%s: trained %.0f s, best dev F1 %.3f at epoch %d; FUNSD test F1 %.3f (%.2f pages/s)"
      % (sys.argv[1], t["seconds"], t["best_dev_f1"], t["best_epoch"], e.get("f1", 0), e.get("pages_per_second", 0)))
PY
done
run_shift() { # NAME DIR PAGES
    echo "shift $1 on $3 pages: start $(date -u +%T), load $(load)"
    S=$(date +%s)
    nice -n 10 "$BENCH" --no-cost --model "$2" --name "$1" --pages "$3" --every "$EVERY" > "$WORK/shift-$1-$3.txt"
    grep -v '^{' "$WORK/shift-$1-$3.txt"
    echo "shift $1 on $3 pages: $(( $(date +%s) - S )) s wall, end load $(load)"
}
run_shift funsd-layout "$SRC/resources/models/funsd-layout" "$PAGES"
run_shift tagger-layoutlmv2 "$WORK/tagger-layoutlmv2" "$PAGES"
run_shift tagger-ernie "$WORK/tagger-ernie" "$ERNIE_PAGES"
if [ "$ERNIE_PAGES" -lt "$PAGES" ]; then
    run_shift funsd-layout "$SRC/resources/models/funsd-layout" "$ERNIE_PAGES"
    run_shift tagger-layoutlmv2 "$WORK/tagger-layoutlmv2" "$ERNIE_PAGES"
fi
