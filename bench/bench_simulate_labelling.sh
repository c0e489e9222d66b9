#!/usr/bin/env bash
# Issue 47: what the labelling loop saves, measured with the simulated annotator.
# FUNSD training_data is the pool, FUNSD testing_data is held out (it only scores each model).
# Each run labels PAGES pages from no model, retraining every RETRAIN pages, in each of ORDERS;
# the baseline (the same pages labelled without any model) is counted in the same run
# (edits_without_model), so every ratio below is against the same pages.
#   PAGES=40 SEEDS=3 EPOCHS=20 ORDERS=uncertain,random bench/bench_simulate_labelling.sh
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${FOLIO_CLI:-build/bin/folio-cli}
DATA=${FUNSD:-../shared/data/funsd/dataset}
PAGES=${PAGES:-40}
SEEDS=${SEEDS:-1}
EPOCHS=${EPOCHS:-20}
RETRAIN=${RETRAIN:-5}
ORDERS=${ORDERS:-uncertain}
OUT=${OUT:-/tmp/folio-simulate}
mkdir -p "$OUT"
for seed in $(seq 1 "$SEEDS"); do
  nice -n 10 "$CLI" simulate-labelling --data "$DATA" --start none --order "$ORDERS" --retrain-every "$RETRAIN" \
    --pages "$PAGES" --epochs "$EPOCHS" --threads 1 --seed "$seed" \
    --out "$OUT/seed$seed.jsonl" --plot "$OUT/seed$seed.svg" >/dev/null
done
python3 - "$OUT" "$SEEDS" <<'PY'
import json, sys
out, seeds = sys.argv[1], int(sys.argv[2])
for seed in range(1, seeds + 1):
    rows = [json.loads(l) for l in open(f"{out}/seed{seed}.jsonl")]
    for order in sorted({r["order"] for r in rows}):
        pages = [r for r in rows if r.get("order") == order and not r.get("summary")]
        def block(a, b):
            ps = [p for p in pages if a <= p["page"] <= b]
            if not ps:
                return "-"
            e = sum(p["edits"] for p in ps); w = sum(p["words"] for p in ps); n = sum(p["edits_without_model"] for p in ps)
            ee = sum(p["entity_edits"] for p in ps); en = sum(p["entity_edits_without_model"] for p in ps)
            return f"all {e / w:.3f} vs {n / w:.3f} ({e / n:.2f}), entities {ee / w:.3f} vs {en / w:.3f} ({ee / en:.2f})"
        f1 = [f'{p["page"]}:{100 * p["test_f1"]:.1f}' for p in pages if "test_f1" in p]
        secs = [p["train_seconds"] for p in pages if p.get("retrained")]
        print(f"seed {seed} {order}: edits/word with vs without model (ratio) pages 1-10 {block(1, 10)}; "
              f"11-20 {block(11, 20)}; 21-40 {block(21, 40)}; test F1 after page {' '.join(f1)}; "
              f"retraining s {' '.join(f'{s:.0f}' for s in secs)}")
PY
