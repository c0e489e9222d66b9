#!/bin/bash
# FUNSD fine-tuning with and without a pretrained encoder, over seeds and word orders (issue 16).
# Every run uses the pretraining run's SentencePiece vocabulary, so "scratch" differs from
# "pretrained" only by the weights it starts from. Two runs go side by side (1 thread each).
#
#   bench/bench_pretrain_grid.sh PRETRAINED_DIR OUT_DIR [SEEDS="1 2 3"] [ORDERS="reading annotation"] [LANES="scratch pretrained"]
#   python3 bench/pretrain_grid_table.py OUT_DIR
#
# PRETRAINED_DIR: `folio-cli pretrain --out` (its spm.model is the vocabulary of both lanes).
# Each run: OUT_DIR/<lane>-<order>-s<seed>/ (the checkpoint, folio.json with the dev score),
# <name>.log, and <name>-test.json (`folio-cli eval --split test`, evaluated once). A run whose
# test JSON exists is skipped, so the script resumes. LANES picks the starts to run ("pretrained"
# alone for a further pretraining run whose scratch lane exists already, e.g. a corpus-size curve).
set -u
PRETRAINED=${1:?pretrained checkpoint folder}
OUT=${2:?output folder}
SEEDS=${3:-1 2 3}
ORDERS=${4:-reading annotation}
LANES=${5:-scratch pretrained}
for kind in $LANES; do
    case $kind in scratch|pretrained) ;; *) echo "unknown lane: $kind (scratch, pretrained)"; exit 2 ;; esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CLI=${FOLIO_CLI:-$ROOT/build/bin/folio-cli}
DATA=${FOLIO_SHARED_DIR:-$ROOT/../shared}/data/funsd/dataset
export OMP_WAIT_POLICY=PASSIVE
mkdir -p "$OUT/vocab"
cp "$PRETRAINED/spm.model" "$OUT/vocab/spm.model"

lane() {
    local kind=$1 start
    if [ "$kind" = scratch ]; then start=(--tokenizer "$OUT/vocab"); else start=(--init "$PRETRAINED"); fi
    for order in $ORDERS; do
        for seed in $SEEDS; do
            local name=$kind-$order-s$seed
            [ -s "$OUT/$name-test.json" ] && continue
            "$CLI" train --out "$OUT/$name" --data "$DATA" --order "$order" "${start[@]}" --epochs 40 \
                --seed "$seed" --threads 1 > "$OUT/$name.log" 2>&1 || { echo "$name: training failed (see $OUT/$name.log)"; continue; }
            "$CLI" eval --checkpoint "$OUT/$name" --data "$DATA" --split test --order "$order" --threads 1 \
                > "$OUT/$name-test.json" 2> "$OUT/$name-eval.log" || echo "$name: evaluation failed"
        done
    done
}

for kind in $LANES; do lane "$kind" & done
wait
