#!/bin/bash
# HIBRIDS biases with and without (issue 31): the same small BART trained from scratch on QMSum with
# `qs train --hibrids none|encoder|decoder`, one seed per run, everything else identical (vocabulary:
# the shipped qmsum-qs spm.model; examples, epochs, batch, learning rate, model size, 1 thread). Every
# run is scored with `qs eval --no-drafter` on QMSum val (the arm is chosen on val) and test (reported).
#
#   bench/hibrids_ablation.sh OUT_DIR [ARMS="none encoder"] [SEEDS="1 2 3"] [JOBS=1]
#   python3 bench/hibrids_ablation_table.py OUT_DIR    # mean +- sd per metric per arm, val and test
#
# A run whose test JSON exists is skipped, so the script resumes. Runs go under `nice -n 10`.
set -u
OUT=${1:?output folder}
ARMS=${2:-none encoder}
SEEDS=${3:-1 2 3}
JOBS=${4:-1}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CLI=${FOLIO_CLI:-$ROOT/build/bin/folio-cli}
DATA=${FOLIO_SHARED_DIR:-$ROOT/../shared}/data/qmsum
VOCAB=$ROOT/resources/models/qmsum-qs/spm.model
# The budget: the first LIMIT training meetings (with their query examples), EPOCHS epochs of BATCH
# examples a step at peak learning rate LR, sources cut to MAX_SOURCE tokens. Defaults: budget B of
# BENCHMARKS.md; budget A is HIBRIDS_LIMIT=15 HIBRIDS_EPOCHS=3 HIBRIDS_BATCH=4 HIBRIDS_LR=1e-3 HIBRIDS_MAX_SOURCE=512.
LIMIT=${HIBRIDS_LIMIT:-30}
EPOCHS=${HIBRIDS_EPOCHS:-4}
BATCH=${HIBRIDS_BATCH:-2}
LR=${HIBRIDS_LR:-2e-3}
MAX_SOURCE=${HIBRIDS_MAX_SOURCE:-256}
TRAIN_ARGS="--limit $LIMIT --epochs $EPOCHS --batch $BATCH --lr $LR --d-model 128 --layers 2 --heads 4 --ffn 512 \
 --max-source $MAX_SOURCE --max-target 128 --threads 1 --vocab $VOCAB"
EVAL_ARGS="--no-drafter --threads 1 --beams 2"
export OMP_WAIT_POLICY=PASSIVE CLI DATA OUT TRAIN_ARGS EVAL_ARGS
mkdir -p "$OUT"
echo "train: $TRAIN_ARGS" > "$OUT/config.txt"
echo "eval: $EVAL_ARGS" >> "$OUT/config.txt"

one() {
    local arm=$1 seed=$2 name=$1-s$2
    [ -s "$OUT/$name-test.json" ] && return 0
    local t0=$(date +%s)
    nice -n 10 "$CLI" qs train --data "$DATA" --out "$OUT/$name" --hibrids "$arm" --seed "$seed" $TRAIN_ARGS \
        > "$OUT/$name-train.json" 2> "$OUT/$name-train.log" || { echo "$name: training failed (see $OUT/$name-train.log)"; return 0; }
    local t1=$(date +%s)
    for split in val test; do
        nice -n 10 "$CLI" qs eval --checkpoint "$OUT/$name" --data "$DATA" --split $split $EVAL_ARGS \
            > "$OUT/$name-$split.json.tmp" 2> "$OUT/$name-$split.log" && mv "$OUT/$name-$split.json.tmp" "$OUT/$name-$split.json" \
            || echo "$name: $split evaluation failed (see $OUT/$name-$split.log)"
    done
    echo "$name train_s $((t1 - t0)) eval_s $(( $(date +%s) - t1 ))" | tee -a "$OUT/times.txt"
}
export -f one
for seed in $SEEDS; do for arm in $ARMS; do echo "$arm $seed"; done; done | xargs -P "$JOBS" -L 1 bash -c 'one $0 $1'
