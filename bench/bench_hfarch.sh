#!/bin/sh
# Users' own checkpoints (issue 32) and the LayoutLMv3 forward (issue 35): Folio's forward of LiLT, LayoutLMv2 (text + layout), LayoutLMv3 (text + layout) and MarkupLM
# at base size (768 / 12 layers / 12 heads, 512 tokens, random weights saved once as safetensors)
# against the reference Python implementation — Hugging Face transformers v4.36's modeling files,
# unchanged, with thin shims (bench/hfarch_reference.py says which) — on the same weights and input:
# paired runs alternating in order, minimum of REPS each, the same thread count on both sides
# (torch.set_num_threads / bench_hfarch's configureThreads), OMP_WAIT_POLICY=PASSIVE for both,
# reference in eval() under no_grad. Outputs compared (max |Δ|), times as ratios reference / Folio.
#
# Usage: nice -n 10 sh bench/bench_hfarch.sh HF_SRC [BENCH_BIN=build/bench/bench_hfarch] [REPS=5] [THREADS=1] [ARCHS="lilt layoutlmv2 layoutlmv3 markuplm"] [int8]
#   int8: Folio's dynamic-int8 copy of each model (bench_hfarch int8 / run8) as a third side of every round.
#   HF_SRC: a transformers checkout's src/transformers at v4.36 (commit 815ea8e8a23a85482225d371f7218cacc3e99e5b
#   or tag v4.36.2: `git clone https://github.com/huggingface/transformers; git -C transformers checkout v4.36.2`).
#   Nothing is downloaded here. Needs /usr/bin/python3 with torch and numpy (no transformers package).
# Raw JSON lines go to bench/results/hfarch.jsonl, the table to stdout; then the GEMM floor of the
# forwards and the sgemm peak in the same environment (bench/hfarch_gemm_floor.py) to
# bench/results/hfarch-gemm.jsonl. OPENBLAS_CORETYPE, where set, is passed to both sides as it is.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
HF=${1:?"usage: bench_hfarch.sh HF_SRC [BENCH_BIN] [REPS] [THREADS] [ARCHS]"}
BIN=${2:-$SRC/build/bench/bench_hfarch}; REPS=${3:-5}; THREADS=${4:-1}; ARCHS=${5:-"lilt layoutlmv2 layoutlmv3 markuplm"}; INT8=${6:-}
[ -x "$BIN" ] || { echo "bench_hfarch.sh: $BIN not built (ninja -C build bench_hfarch)" >&2; exit 1; }
WORK=$(mktemp -d /tmp/hfarch.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
CORES=$(nproc --all)
export OMP_WAIT_POLICY=PASSIVE OMP_NUM_THREADS=$THREADS MKL_NUM_THREADS=$THREADS OPENBLAS_NUM_THREADS=$THREADS
OUT=$SRC/bench/results/hfarch.jsonl
mkdir -p "$SRC/bench/results"
: > "$OUT"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $CORES cores; $THREADS thread(s); min of $REPS alternated pairs; OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-(unset)}"
for A in $ARCHS; do
    /usr/bin/python3 "$SRC/bench/hfarch_reference.py" --hf-src "$HF" --arch "$A" --bench-bin "$BIN" \
        --work "$WORK" --repeats "$REPS" --threads "$THREADS" ${INT8:+--int8} >> "$OUT"
    rm -rf "${WORK:?}/$A"
done
/usr/bin/python3 - "$OUT" <<'PY'
import json, sys
print("| architecture | params (M) | tokens | reference min (s) | Folio min (s) | reference / Folio | compared | max abs diff | load avg (1 min) |")
print("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(f"| {r['arch']} | {r['params_m']} | {r['tokens']} | {r['reference_min_s']:.3f} | {r['folio_min_s']:.3f} | "
          f"{r['speedup']:.2f}x | {r['compared']} | {r['max_abs_delta']:.1e} | {r['load_avg'][0]:.2f} |")
    if r.get("folio_int8_min_s"):
        print(f"| {r['arch']}, Folio --int8 | | | | {r['folio_int8_min_s']:.3f} | {r['speedup_int8']:.2f}x | {r['compared']} | "
              f"{r['int8_max_abs_delta']:.1e} (max abs {r['max_abs_reference']:.1f}) | |")
PY
/usr/bin/python3 "$SRC/bench/hfarch_gemm_floor.py" "$REPS" "$THREADS" | tee "$SRC/bench/results/hfarch-gemm.jsonl"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
