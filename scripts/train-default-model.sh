#!/usr/bin/env bash
# Trains Folio's default entity-labelling models (resources/models/funsd-layout, protocol word order,
# and resources/models/funsd-layout-reading, reading order) with the recipe of
# ../shared/recipes/funsd-from-scratch.md, evaluates it on the FUNSD test split, and (with
# --variants) trains the two comparison variants (2-D relative biases ablated; text only).
#
#   scripts/train-default-model.sh [--variants]
#
# Environment: FOLIO_BUILD_DIR (default ./build; folio-cli must be built), FOLIO_THREADS (1: faster than
# 2 on a busy 2-core box, and bit-reproducible), FOLIO_EPOCHS (40, the shipped model), FOLIO_LINK_EPOCHS (50, the
# reading model's link head), FOLIO_VARIANT_EPOCHS
# (30, as the comparison table in BENCHMARKS.md), FOLIO_SEED (1), FOLIO_VARIANTS_DIR
# (default $FOLIO_BUILD_DIR/funsd-variants).
# The test split is evaluated once per model, after training; it plays no part in selection.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FOLIO_BUILD_DIR:-$root/build}"
cli="$build/bin/folio-cli"
threads="${FOLIO_THREADS:-1}"
epochs="${FOLIO_EPOCHS:-40}"
variant_epochs="${FOLIO_VARIANT_EPOCHS:-30}"
seed="${FOLIO_SEED:-1}"
out="$root/resources/models/funsd-layout"
[ -x "$cli" ] || { echo "train-default-model: $cli not built (scripts/build.sh folio-cli)" >&2; exit 1; }
export OPENBLAS_NUM_THREADS="$threads"

train_one() { # variant outdir [extra args]
  local variant="$1" dir="$2"; shift 2
  rm -rf "$dir"
  "$cli" train --out "$dir" --variant "$variant" --epochs "$epochs" --seed "$seed" --threads "$threads" \
    --vocab-size 4000 --batch 8 --lr 1e-3 --bias-lr-scale 10 "$@" > "$dir.train.json"
  "$cli" eval --checkpoint "$dir" --split test --threads "$threads" > "$dir.test.json"
  echo "$variant: $(python3 -c 'import json,sys; print("test F1 %.4f" % json.load(open(sys.argv[1]))["f1"])' "$dir.test.json" 2>/dev/null || cat "$dir.test.json")" >&2
}

mkdir -p "$(dirname "$out")"
train_one full "$out" --ship
mv "$out.train.json" "$out/train-result.json"
mv "$out.test.json" "$out/test-metrics.json"

# The same recipe on words in reading order (what OCR gives), for scans.
reading="$out-reading"
rm -rf "$reading"
"$cli" train --out "$reading" --order reading --variant full --tokenizer "$out" --epochs "$epochs" --seed "$seed" \
  --threads "$threads" --batch 8 --lr 1e-3 --bias-lr-scale 10 --ship > "$reading.train.json"
mv "$reading.train.json" "$reading/train-result.json"
# Its key -> value link head (frozen encoder; FUNSD train links, epoch and threshold chosen on dev).
"$cli" train-links --checkpoint "$reading" --order reading --epochs "${FOLIO_LINK_EPOCHS:-150}" --seed "$seed" \
  --threads "$threads" > "$reading/link-train-result.json"
"$cli" eval --checkpoint "$reading" --split test --order reading --links --threads "$threads" > "$reading/test-metrics.json"

if [ "${1:-}" = "--variants" ]; then
  vdir="${FOLIO_VARIANTS_DIR:-$build/funsd-variants}"
  mkdir -p "$vdir"
  epochs="$variant_epochs"
  train_one full "$vdir/full"
  train_one no-spatial-bias "$vdir/no-spatial-bias"
  train_one text "$vdir/text"
fi
