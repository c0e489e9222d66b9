#!/bin/sh
# Dynamic int8 quantization of the tagger's Linear layers (issue 35): `folio-cli eval` of the shipped
# folio-formtagger checkpoints on the FUNSD test split, float32 against --int8, in one script run:
# entity F1 of each, the F1 difference (points) and the evaluate time ratio int8 / fp32 (min of REPS
# runs each, alternated, 1 thread; the time is the predict pass over the split, model load excluded).
# Usage: nice -n 10 bench/bench_int8.sh [FOLIO_CLI=build/bin/folio-cli] [REPS=3] [MODELS="funsd-layout forms-en-de"]
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
CLI=${1:-$SRC/build/bin/folio-cli}; REPS=${2:-3}; MODELS=${3:-"funsd-layout forms-en-de"}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; 1 thread; $REPS runs each, alternated"
for M in $MODELS; do
    i=0
    while [ $i -lt "$REPS" ]; do
        for MODE in fp32 int8; do
            FLAG=""; [ "$MODE" = int8 ] && FLAG="--int8"
            "$CLI" -q eval --checkpoint "$SRC/resources/models/$M" --split test --threads 1 $FLAG > "$WORK/$M.$MODE.$i.json"
        done
        i=$((i + 1))
    done
done
python3 - "$WORK" "$REPS" $MODELS <<'PY'
import json, sys
work, reps, models = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
for m in models:
    r = {mode: [json.load(open(f"{work}/{m}.{mode}.{i}.json")) for i in range(reps)] for mode in ("fp32", "int8")}
    f1 = {mode: r[mode][0]["micro"]["f1"] if "micro" in r[mode][0] else r[mode][0]["f1"] for mode in r}
    t = {mode: min(x["seconds"] for x in r[mode]) for mode in r}
    engine = r["int8"][0].get("int8")
    print(f"{m:14s} pages {r['fp32'][0]['pages']}  F1 fp32 {100 * f1['fp32']:.2f}  int8 ({engine}) {100 * f1['int8']:.2f}"
          f"  diff {100 * (f1['int8'] - f1['fp32']):+.2f} points  time int8/fp32 {t['int8'] / t['fp32']:.3f}"
          f"  (min of {reps}: fp32 {t['fp32']:.2f} s, int8 {t['int8']:.2f} s)")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
