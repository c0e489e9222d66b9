#!/usr/bin/env bash
# Reproduces resources/models/product-fields: WebFormer product-field extractor (price, sku, gtin,
# mpn, brand as spans; structured-data candidates in the input) trained on all 140 pages of the Zyte
# product extraction benchmark (../shared/data/product-extraction-benchmark, MIT; the HTML pages
# belong to their sites), then the price and sku rankers (price-ranker.json, sku-ranker.json: linear
# models choosing the value among the candidates of the page text, each with the rule it learned for
# combining with structured data) on the same pages, with their site-grouped 5-fold cross-validation
# in ranker-cv.json. About 6 minutes on 2 cores.
#   scripts/train-product-model.sh [OUT_DIR]          (default: resources/models/product-fields)
# Environment: BUILD (default ./build), FOLIO_SHARED_DIR (default ../shared), THREADS (default 2).
# The cross-validated scores of this recipe come from the same command with --folds 5
# (see BENCHMARKS.md, "Product fields on the Zyte benchmark").
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
SHARED="${FOLIO_SHARED_DIR:-$ROOT/../shared}"
DATA="$SHARED/data/product-extraction-benchmark/dataset"
OUT="${1:-$ROOT/resources/models/product-fields}"
[ -f "$DATA/ground-truth.json" ] || { echo "train-product-model.sh: $DATA/ground-truth.json not found" >&2; exit 1; }
[ -x "$BUILD/bin/folio-cli" ] || { echo "train-product-model.sh: build folio-cli first ($BUILD/bin/folio-cli)" >&2; exit 1; }
export OMP_NUM_THREADS="${THREADS:-2}"
"$BUILD/bin/folio-cli" train-product --data "$DATA" --out "$OUT" --folds 0 --variants full \
    --epochs 6 --max-text 1024 --hidden 128 --layers 2 --heads 4 --intermediate 512 --vocab-size 6000 \
    --lr 1e-3 --seed 1 --threads "${THREADS:-2}"
"$BUILD/bin/folio-cli" train-rankers --data "$DATA" --out "$OUT" --folds 5
rm -rf "$OUT/ranker-predictions"
