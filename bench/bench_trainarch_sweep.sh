#!/bin/sh
# The same-budget comparison of the tagger's structure-bias architectures (issue 12): every
# architecture x seed x word order is trained with the same recipe, vocabulary (the shipped
# funsd-layout SentencePiece model), model size and epoch budget on FUNSD train-dev, the best dev
# epoch is kept, and FUNSD test entity F1 is measured in the order it was trained in. One JSON
# line per run goes to RESULTS (appended, so an interrupted sweep resumes: runs already there are
# skipped); bench/trainarch_table.py turns it into the mean +- sd table of BENCHMARKS.md.
# Usage: bench/bench_trainarch_sweep.sh BUILD_DIR RESULTS.jsonl [EPOCHS=6] [THREADS=2]
#        [SEEDS="13 42 7"] [ORDERS="annotation reading"] [ARCHS="layoutlmv3 layoutlmv2 ernie text"]
set -eu
BUILD=${1:?build dir}; RESULTS=${2:?results file}; EPOCHS=${3:-6}; THREADS=${4:-2}
SEEDS=${5:-13 42 7}; ORDERS=${6:-annotation reading}; ARCHS=${7:-layoutlmv3 layoutlmv2 ernie text}
CLI="$BUILD/bin/folio-cli"
SRC=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
touch "$RESULTS"
for ORDER in $ORDERS; do
for SEED in $SEEDS; do
for ARCH in $ARCHS; do
    if grep -q "\"arch\": \"$ARCH\", \"order\": \"$ORDER\", \"seed\": $SEED," "$RESULTS"; then continue; fi
    OUT="$WORK/$ARCH-$ORDER-$SEED"
    "$CLI" -q train --arch "$ARCH" --out "$OUT" --epochs "$EPOCHS" --seed "$SEED" --threads "$THREADS" \
        --order "$ORDER" --tokenizer "$SRC/resources/models/funsd-layout" > "$WORK/train.json"
    "$CLI" -q eval --checkpoint "$OUT" --split test --order "$ORDER" --threads "$THREADS" > "$WORK/eval.json"
    python3 - "$WORK/train.json" "$WORK/eval.json" "$OUT/model.safetensors" "$ARCH" "$ORDER" "$SEED" "$EPOCHS" >> "$RESULTS" <<'PY'
import json, struct, sys
t = json.load(open(sys.argv[1])); e = json.load(open(sys.argv[2]))
raw = open(sys.argv[3], "rb").read()
header = json.loads(raw[8:8 + struct.unpack("<Q", raw[:8])[0]])
params = 0
for name, v in header.items():
    if name != "__metadata__":
        n = 1
        for d in v["shape"]:
            n *= d
        params += n
f1 = e.get("micro", e).get("f1", e.get("f1"))
load = open("/proc/loadavg").read().split()[0]
print(json.dumps({"arch": sys.argv[4], "order": sys.argv[5], "seed": int(sys.argv[6]), "epochs": int(sys.argv[7]),
                  "test_f1": f1, "best_dev_f1": t["best_dev_f1"], "train_seconds": t["seconds"], "params": params,
                  "load_average": float(load)}, sort_keys=False))
PY
    tail -1 "$RESULTS"
    rm -rf "$OUT"
done; done; done
