#!/bin/sh
# Same-budget comparison of the tagger architectures (issue 12): each trains with the same recipe,
# vocabulary (the shipped funsd-layout SentencePiece model), seed and epoch budget on FUNSD
# train-dev (protocol order), the best dev epoch is kept, and test entity F1 is measured.
# Baseline: the layoutlmv3 row (F1 and time ratios are against it).
# Usage: bench/bench_trainarch.sh BUILD_DIR [EPOCHS=8] [SEED=13] [THREADS=2] [ORDER=annotation]
set -eu
BUILD=${1:?build dir}; EPOCHS=${2:-8}; SEED=${3:-13}; THREADS=${4:-2}; ORDER=${5:-annotation}
CLI="$BUILD/bin/folio-cli"
OUT=$(mktemp -d)
SRC=$(cd "$(dirname "$0")/.." && pwd)
printf '%-11s %8s %8s %9s %8s %8s\n' arch test_F1 dev_F1 seconds F1/v3 time/v3
BASE_F1=""; BASE_T=""
for ARCH in layoutlmv3 layoutlmv2 ernie text; do
    "$CLI" -q train --arch "$ARCH" --out "$OUT/$ARCH" --epochs "$EPOCHS" --seed "$SEED" --threads "$THREADS" \
        --order "$ORDER" --tokenizer "$SRC/resources/models/funsd-layout" > "$OUT/$ARCH.train.json"
    "$CLI" -q eval --checkpoint "$OUT/$ARCH" --split test --order "$ORDER" --threads "$THREADS" > "$OUT/$ARCH.eval.json"
    python3 - "$OUT/$ARCH.train.json" "$OUT/$ARCH.eval.json" "$ARCH" "$BASE_F1" "$BASE_T" > "$OUT/row" <<'PY'
import json, sys
t = json.load(open(sys.argv[1])); e = json.load(open(sys.argv[2]))
f1 = e.get("micro", e).get("f1", e.get("f1"))
base_f1 = float(sys.argv[4]) if sys.argv[4] else f1
base_t = float(sys.argv[5]) if sys.argv[5] else t["seconds"]
print(f'{sys.argv[3]} {f1:.4f} {t["best_dev_f1"]:.4f} {t["seconds"]:.1f} {f1 / base_f1:.3f} {t["seconds"] / base_t:.3f} {f1} {t["seconds"]}')
PY
    cut -d' ' -f1-6 "$OUT/row" | awk '{printf "%-11s %8s %8s %9s %8s %8s\n", $1, $2, $3, $4, $5, $6}'
    if [ "$ARCH" = layoutlmv3 ]; then BASE_F1=$(awk '{print $(NF-1)}' "$OUT/row"); BASE_T=$(awk '{print $NF}' "$OUT/row"); fi
done
rm -rf "$OUT"
