#!/usr/bin/env bash
# MarkupLM fine-tuned on the SWDE book subset (issue 46, BENCHMARKS.md): a random-initialised small
# MarkupLM (no pretrained weights can be downloaded here) made by bench/make_random_markuplm.py,
# fine-tuned with `folio-cli train --init` on the SWDE training pages, page-level F1 on the test
# pages (both decodings). Run at nice 10; the JSON summary and the model card land in $OUT.
#   bench/bench_markuplm_swde.sh [OUT] [extra train options...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="${1:-/tmp/markuplm-swde}"
shift || true
cli="${FOLIO_CLI:-$root/build/bin/folio-cli}"
rm -rf "$out"
mkdir -p "$out"
/usr/bin/python3 "$here/make_random_markuplm.py" "$out/init" --hidden 64 --layers 2 --heads 4 --intermediate 256 \
    --positions 258 --seed 1
uptime > "$out/load.txt"
/usr/bin/time -v nice -n 10 "$cli" train --init "$out/init" --data "$root/../shared/data/swde-book-subset" \
    --out "$out/model" --epochs 2 --batch 8 --lr 3e-3 --warmup 0.1 --threads 2 "$@" \
    > "$out/summary.json" 2> "$out/train.log"
uptime >> "$out/load.txt"
cat "$out/summary.json"
