#!/usr/bin/env bash
# Layout tagger ("folio-formtagger") throughput on FUNSD, through folio-cli (the registry path):
#  - inference: `folio-cli eval --split test` on the 50 test pages with both shipped models
#    (tokenise + forward + Viterbi, one page per forward), pages/s and the entity F1;
#  - training: `folio-cli train` for FOLIO_BENCH_EPOCHS (2) epochs of the shipped recipe with the
#    shipped tokenizer (17 steps of 8 pages per epoch), words/s and sub-tokens/s of the steps.
# Baseline: the same commands' numbers at commit 3faba71 (the tagger's own attention stack and
# hand-written AdamW) as recorded in BENCHMARKS.md; building that commit again on the shared 2-core
# box is too slow, so the ratio is against the recorded numbers, with the load average printed.
#
#   bench/bench_tagger.sh            # FOLIO_BUILD_DIR (default ./build), FOLIO_THREADS (1)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FOLIO_BUILD_DIR:-$root/build}"
cli="$build/bin/folio-cli"
threads="${FOLIO_THREADS:-1}"
epochs="${FOLIO_BENCH_EPOCHS:-2}"
[ -x "$cli" ] || { echo "bench_tagger: $cli not built" >&2; exit 1; }
export OPENBLAS_NUM_THREADS="$threads"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
"$cli" eval --checkpoint "$root/resources/models/funsd-layout" --split test --threads "$threads" > "$tmp/a.json"
"$cli" eval --checkpoint "$root/resources/models/funsd-layout-reading" --split test --order reading \
  --threads "$threads" > "$tmp/r.json"
pa=$(field "$tmp/a.json" pages_per_second); pr=$(field "$tmp/r.json" pages_per_second)
printf 'inference funsd-layout (annotation order): F1 %.4f  %.1f pages/s  (3faba71: 39.7 pages/s at load ~2, ratio %.2f)\n' \
  "$(field "$tmp/a.json" f1)" "$pa" "$(python3 -c "print($pa / 39.7)")"
printf 'inference funsd-layout-reading (reading order): F1 %.4f  %.1f pages/s\n' "$(field "$tmp/r.json" f1)" "$pr"
"$cli" train --out "$tmp/ckpt" --variant full --tokenizer "$root/resources/models/funsd-layout" --epochs "$epochs" \
  --seed 1 --threads "$threads" --batch 8 --lr 1e-3 --bias-lr-scale 10 > "$tmp/t.json" 2> "$tmp/t.log"
python3 - "$tmp/ckpt/folio.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
w = f["train_words_per_second"]
print("training: %.0f words/s (%.0f sub-tokens/s) over %d epochs, %.1f s of steps  (3faba71 alone: ~2100 words/s, ratio %.2f)"
      % (w, f["train_pieces_per_second"], len(f["history"]), f["train_seconds"], w / 2100.0))
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
