#!/usr/bin/env bash
# Issue 47 part (a): the labelling loop on German forms. XFUND-de train is the pool, XFUND-de val is
# held out (it only scores each model). Per seed: the shipped English-only FUNSD model kept fixed;
# the same model retrained every 5 pages (uncertainty and random order); no model, retrained every 5
# pages in uncertainty order. Each run also counts the same pages labelled without any model
# (edits_without_model), so every ratio is against the same pages.
#   SEEDS="1 2 3" PAGES=40 bench/bench_simulate_labelling_xfund.sh
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${FOLIO_CLI:-build/bin/folio-cli}
XFUND=${XFUND:-../shared/data/xfund-de}
START=${START:-resources/models/funsd-layout}
PAGES=${PAGES:-40}
OUT=${OUT:-/tmp/folio-simulate-xfund}
mkdir -p "$OUT"
run() { # name seed args...
  local name=$1 seed=$2; shift 2
  nice -n 19 "$CLI" simulate-labelling --data "$XFUND/de.train.json" --test "$XFUND/de.val.json" --pages "$PAGES" \
    --threads 1 --seed "$seed" --out "$OUT/$name-seed$seed.jsonl" --plot "$OUT/$name-seed$seed.svg" "$@" >/dev/null
}
for seed in ${SEEDS:-1}; do
  run fixed "$seed" --start "$START" --order random --retrain-every 0
  run retrain "$seed" --start "$START" --order uncertain,random --retrain-every 5 --epochs 20
  run none "$seed" --start none --order uncertain --retrain-every 5 --epochs 20
done
echo "JSON lines and plots in $OUT"
