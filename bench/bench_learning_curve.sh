#!/bin/bash
# FUNSD test entity F1 against the number of labelled training pages (issue 16: what more labelled
# data would buy, as a curve). Every run trains from scratch with the same vocabulary and the same
# number of optimiser steps as the full recipe (40 epochs x 129 pages), so a run on N pages gets
# 40 x 129 / N epochs; the dev split (the seed-13 20 pages) and the test split are unchanged, and
# `--train-pages N` takes a fixed sample (a smaller N's pages are among a larger one's).
#
#   bench/bench_learning_curve.sh VOCAB_DIR OUT_DIR [SIZES="32 64"] [SEEDS="1 2 3"] [ORDER=reading] [JOBS=3]
#   python3 bench/pretrain_grid_table.py OUT_DIR      # rows pages<N>, mean +- sd over seeds
#
# VOCAB_DIR: a folder with spm.model (e.g. a `folio-cli pretrain` run's, to compare with
# bench_pretrain_grid.sh's scratch rows, which are the 129-page point). One thread per run, JOBS
# runs side by side. A run whose test JSON exists is skipped, so the script resumes.
set -u
VOCAB=${1:?vocabulary folder}
OUT=${2:?output folder}
SIZES=${3:-32 64}
SEEDS=${4:-1 2 3}
ORDER=${5:-reading}
JOBS=${6:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CLI=${FOLIO_CLI:-$ROOT/build/bin/folio-cli}
DATA=${FOLIO_SHARED_DIR:-$ROOT/../shared}/data/funsd/dataset
export OMP_WAIT_POLICY=PASSIVE CLI DATA VOCAB OUT ORDER
mkdir -p "$OUT"

one() {
    local pages=$1 seed=$2 name=pages$1-$ORDER-s$2
    [ -s "$OUT/$name-test.json" ] && return 0
    "$CLI" train --out "$OUT/$name" --data "$DATA" --order "$ORDER" --tokenizer "$VOCAB" --train-pages "$pages" \
        --epochs $(( (40 * 129 + pages - 1) / pages )) --seed "$seed" --threads 1 > "$OUT/$name.log" 2>&1 \
        || { echo "$name: training failed (see $OUT/$name.log)"; return 0; }
    "$CLI" eval --checkpoint "$OUT/$name" --data "$DATA" --split test --order "$ORDER" --threads 1 \
        > "$OUT/$name-test.json" 2> "$OUT/$name-eval.log" || echo "$name: evaluation failed"
}
export -f one
for seed in $SEEDS; do for pages in $SIZES; do echo "$pages $seed"; done; done | xargs -P "$JOBS" -L 1 bash -c 'one $0 $1'
