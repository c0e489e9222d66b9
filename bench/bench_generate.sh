#!/bin/sh
# Seq2seq decoding against the reference generate() (issue 35): Folio's greedy and beam search
# (bench_generate) and Hugging Face transformers v4.36's generate(), run unchanged with thin shims
# (bench/hfgenerate_reference.py says which), on the same random BART-base weights (saved once as a
# safetensors Hugging Face folder) and the same 1024-token source: greedy with 64 new tokens, beam 4
# with no_repeat_ngram_size 3. Paired runs alternating in order, minimum of REPS each, the same
# thread count on both sides, OMP_WAIT_POLICY=PASSIVE for both; tokens compared. Also in the same
# run: the encoder alone on both sides and one thread's memory bandwidth, for the floor of a step.
#
# Usage: nice -n 10 sh bench/bench_generate.sh HF_SRC [BENCH_BIN=build/bench/bench_generate] [REPS=3] [THREADS=1] [SOURCE=1024] [NEW=64] [BEFORE_BIN]
#   BEFORE_BIN: a bench_generate built from an earlier commit, run as a third side of every round (before / after).
#   HF_SRC: a transformers checkout's src/transformers at v4.36 (commit 815ea8e8a23a85482225d371f7218cacc3e99e5b
#   or tag v4.36.2: `git clone https://github.com/huggingface/transformers; git -C transformers checkout v4.36.2`).
#   Nothing is downloaded here. Needs /usr/bin/python3 with torch and numpy (no transformers package).
# Raw JSON lines go to bench/results/hfgenerate.jsonl, the table to stdout.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
HF=${1:?"usage: bench_generate.sh HF_SRC [BENCH_BIN] [REPS] [THREADS] [SOURCE] [NEW]"}
BIN=${2:-$SRC/build/bench/bench_generate}; REPS=${3:-3}; THREADS=${4:-1}; SOURCE=${5:-1024}; NEW=${6:-64}; BEFORE=${7:-}
[ -x "$BIN" ] || { echo "bench_generate.sh: $BIN not built (ninja -C build bench_generate)" >&2; exit 1; }
WORK=$(mktemp -d /tmp/hfgenerate.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export OMP_WAIT_POLICY=PASSIVE OMP_NUM_THREADS=$THREADS MKL_NUM_THREADS=$THREADS OPENBLAS_NUM_THREADS=$THREADS
OUT=$SRC/bench/results/hfgenerate.jsonl
mkdir -p "$SRC/bench/results"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc --all) cores; $THREADS thread(s); min of $REPS alternated pairs"
/usr/bin/python3 "$SRC/bench/hfgenerate_reference.py" --hf-src "$HF" --bench-bin "$BIN" --work "$WORK" \
    --repeats "$REPS" --threads "$THREADS" --source "$SOURCE" --new "$NEW" ${BEFORE:+--before-bin "$BEFORE"} > "$OUT"
/usr/bin/python3 - "$OUT" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print("| search | source | new tokens | generate() min (s) | Folio min (s) | generate() / Folio | same tokens | sum log-prob ref / Folio | load avg (1 min) |")
print("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |")
for r in rows:
    name = "greedy" if r["beams"] == 1 else "beam %d, no-repeat %d-gram" % (r["beams"], r["ngram"])
    lp = "—" if r["reference_sum_logprobs"] is None else "%.5f / %.5f" % (r["reference_sum_logprobs"], r["folio_sum_logprobs"])
    print(f"| {name} | {r['source']} | {r['new_tokens']} | {r['reference_min_s']:.3f} | {r['folio_min_s']:.3f} | "
          f"{r['speedup']:.2f}x | {'yes' if r['same_tokens'] else 'NO'} | {lp} | {r['load_avg'][0]:.2f} |")
if rows[0].get("before_min_s"):
    print()
    print("| search | Folio before min (s) | Folio after min (s) | before / after | same tokens | score before | score after |")
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: |")
    for r in rows:
        name = "greedy" if r["beams"] == 1 else "beam %d, no-repeat %d-gram" % (r["beams"], r["ngram"])
        print(f"| {name} | {r['before_min_s']:.3f} | {r['folio_min_s']:.3f} | {r['before_min_s'] / r['folio_min_s']:.2f}x | "
              f"{'yes' if r['before_same_tokens'] else 'NO'} | {r['before_score']:.9g} | {r['folio_score']:.9g} |")
r = rows[0]
print()
print(f"Floor of a step: {r['step_bytes'] / 2**20:.0f} MiB read (decoder layers + LM head + cross K/V of the source) "
      f"at {r['bandwidth_gbs']:.1f} GB/s (one thread, copy) = {1000 * r['step_floor_s']:.1f} ms; "
      f"encoder alone: generate()'s model {r['encoder_reference_s']:.3f} s, Folio {r['encoder_folio_s']:.3f} s.")
for r in rows:
    floor = r["encoder_folio_s"] + r["new_tokens"] * r["step_floor_s"]
    best = r["reference_min_s"] / floor
    print(f"{'greedy' if r['beams'] == 1 else 'beam'}: Folio decoding after the encoder {r['folio_min_s'] - r['encoder_folio_s']:.3f} s "
          f"({1000 * (r['folio_min_s'] - r['encoder_folio_s']) / r['new_tokens']:.1f} ms/step), generate() "
          f"{r['reference_min_s'] - r['encoder_reference_s']:.3f} s ({1000 * (r['reference_min_s'] - r['encoder_reference_s']) / r['new_tokens']:.1f} ms/step); "
          f"bound: Folio encoder + {r['new_tokens']} x floor = {floor:.3f} s, i.e. at most {best:.2f}x generate()")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
