#!/bin/sh
# The shift study of BENCHMARKS.md (issue 48) per tagger architecture: how often a word's label
# changes when its box moves right by 10 / 50 / 200 page pixels on FUNSD test, beside the same
# moves with the 1-D and 2-D relative-bias families switched off (bench/bench_explain part 2).
#
# Models: the shipped funsd-layout, and taggers of the "layoutlmv2" (SASAM-style unscaled bucketed
# 1-D + 2-D biases) and "ernie" (ERNIE-Layout disentangled attention) architectures trained here
# by `folio-cli train --arch A` on FUNSD TRAIN only (its dev split, carved from train, picks the
# epoch; test is never seen) at a small budget: EPOCHS (default 6) epochs, seed 13, protocol word
# order, the shipped funsd-layout tokenizer. A model folder already in WORK is reused. Each model's
# FUNSD test F1 (folio-cli eval --split test) is printed beside it. Everything runs at nice 10.
#
# Usage: bench/bench_shift_study.sh BUILD_DIR WORK_DIR [PAGES=50] [EVERY=10] [EPOCHS=6] [THREADS=2]
# Output: WORK_DIR/shift.jsonl (one JSON line per model x setting x shift, with the load average).
set -eu
BUILD=${1:?build dir}; WORK=${2:?work dir}; PAGES=${3:-50}; EVERY=${4:-10}; EPOCHS=${5:-6}; THREADS=${6:-2}
CLI="$BUILD/bin/folio-cli"
BENCH="$BUILD/bench/bench_explain"
[ -x "$BENCH" ] || BENCH="$BUILD/bin/bench_explain"
SRC=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$WORK"
load() { cut -d' ' -f1-3 /proc/loadavg; }
for ARCH in layoutlmv2 ernie; do
    OUT="$WORK/tagger-$ARCH"
    if [ ! -f "$OUT/model.safetensors" ]; then
        echo "train $ARCH: $EPOCHS epochs, start $(date -u +%T), load $(load)"
        nice -n 10 "$CLI" -q train --arch "$ARCH" --out "$OUT" --epochs "$EPOCHS" --seed 13 --threads "$THREADS" \
            --order annotation --tokenizer "$SRC/resources/models/funsd-layout" > "$WORK/train-$ARCH.json"
    fi
    if [ ! -f "$WORK/eval-$ARCH.json" ]; then
        nice -n 10 "$CLI" -q eval --checkpoint "$OUT" --split test --order annotation --threads "$THREADS" > "$WORK/eval-$ARCH.json"
    fi
    echo "$ARCH: trained $(python3 -c "import json,sys; t=json.load(open(sys.argv[1])); print(round(t['seconds']), 's, best dev F1', round(t['best_dev_f1'], 3), 'at epoch', t['best_epoch'])" "$WORK/train-$ARCH.json"), test F1 $(python3 -c "import json,sys; e=json.load(open(sys.argv[1])); print(e.get('micro', e).get('f1', e.get('f1')))" "$WORK/eval-$ARCH.json")"
done
: > "$WORK/shift.jsonl"
for M in "funsd-layout:$SRC/resources/models/funsd-layout" "tagger-layoutlmv2:$WORK/tagger-layoutlmv2" "tagger-ernie:$WORK/tagger-ernie"; do
    NAME=${M%%:*}; DIR=${M#*:}
    echo "shift $NAME: start $(date -u +%T), load $(load)"
    nice -n 10 "$BENCH" --no-cost --model "$DIR" --name "$NAME" --pages "$PAGES" --every "$EVERY" > "$WORK/shift-$NAME.txt"
    L=$(load)
    grep '^{' "$WORK/shift-$NAME.txt" | sed "s/}\$/, \"load_average_after\": \"$L\"}/" >> "$WORK/shift.jsonl"
    grep -v '^{' "$WORK/shift-$NAME.txt"
    echo "shift $NAME: end $(date -u +%T), load $L"
done
