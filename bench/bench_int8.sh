#!/bin/sh
# Dynamic int8 quantization of the tagger's Linear layers (issue 35): `folio-cli eval` of the shipped
# folio-formtagger checkpoints on the FUNSD test split, float32 against --int8, in one script run:
# entity F1 of each, the F1 difference (points) and the evaluate time ratio int8 / fp32 (min of REPS
# runs each, alternated, 1 thread; the time is the predict pass over the split, model load excluded).
# The seq2seq part (PARTS containing "qs"): `folio-cli qs eval` of resources/models/qmsum-qs on the
# QMSum test split (QS_LIMIT meetings, 0 = all 35), float32 against --int8: ROUGE-1/2/Lsum, question
# BLEU, hierarchy F1 and their differences, and the generation time ratio (the model's own
# "seconds": generation only, baselines excluded; min of REPS, alternated, 1 thread).
# Usage: nice -n 10 bench/bench_int8.sh [FOLIO_CLI=build/bin/folio-cli] [REPS=3] [MODELS="funsd-layout forms-en-de"]
#                                       [PARTS="tagger qs"] [QS_LIMIT=0] [QMSUM=../shared/data/qmsum]
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
CLI=${1:-$SRC/build/bin/folio-cli}; REPS=${2:-3}; MODELS=${3:-"funsd-layout forms-en-de"}
PARTS=${4:-"tagger qs"}; QS_LIMIT=${5:-0}; QMSUM=${6:-$SRC/../shared/data/qmsum}
case " $PARTS " in *" tagger "*) ;; *) MODELS="" ;; esac
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; 1 thread; $REPS runs each, alternated"
for M in $MODELS; do
    i=0
    while [ $i -lt "$REPS" ]; do
        for MODE in fp32 int8; do
            FLAG=""; [ "$MODE" = int8 ] && FLAG="--int8"
            "$CLI" -q eval --checkpoint "$SRC/resources/models/$M" --split test --threads 1 $FLAG > "$WORK/$M.$MODE.$i.json"
        done
        i=$((i + 1))
    done
done
python3 - "$WORK" "$REPS" $MODELS <<'PY'
import json, sys
work, reps, models = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
for m in models:
    r = {mode: [json.load(open(f"{work}/{m}.{mode}.{i}.json")) for i in range(reps)] for mode in ("fp32", "int8")}
    f1 = {mode: r[mode][0]["micro"]["f1"] if "micro" in r[mode][0] else r[mode][0]["f1"] for mode in r}
    t = {mode: min(x["seconds"] for x in r[mode]) for mode in r}
    engine = r["int8"][0].get("int8")
    print(f"{m:14s} pages {r['fp32'][0]['pages']}  F1 fp32 {100 * f1['fp32']:.2f}  int8 ({engine}) {100 * f1['int8']:.2f}"
          f"  diff {100 * (f1['int8'] - f1['fp32']):+.2f} points  time int8/fp32 {t['int8'] / t['fp32']:.3f}"
          f"  (min of {reps}: fp32 {t['fp32']:.2f} s, int8 {t['int8']:.2f} s)")
PY
case " $PARTS " in *" qs "*)
    LIMIT=""; [ "$QS_LIMIT" -gt 0 ] && LIMIT="--limit $QS_LIMIT"
    i=0
    while [ $i -lt "$REPS" ]; do
        for MODE in fp32 int8; do
            FLAG=""; [ "$MODE" = int8 ] && FLAG="--int8"
            "$CLI" -q qs eval --checkpoint "$SRC/resources/models/qmsum-qs" --data "$QMSUM" --split test --no-drafter \
                --threads 1 $LIMIT $FLAG > "$WORK/qs.$MODE.$i.json"
        done
        i=$((i + 1))
    done
    python3 - "$WORK" "$REPS" <<'PY'
import json, sys
work, reps = sys.argv[1], int(sys.argv[2])
r = {mode: [json.load(open(f"{work}/qs.{mode}.{i}.json")) for i in range(reps)] for mode in ("fp32", "int8")}
m = {mode: r[mode][0]["model"] for mode in r}
t = {mode: min(x["model"]["seconds"] for x in r[mode]) for mode in r}
print(f"qmsum-qs       meetings {r['fp32'][0]['meetings']}  (fp32 -> int8, difference in points)")
for k in ("rouge1", "rouge2", "rougeLsum", "question_bleu4", "hierarchy_f1"):
    print(f"  {k:15s} {m['fp32'][k]:6.2f} -> {m['int8'][k]:6.2f}  {m['int8'][k] - m['fp32'][k]:+.2f}")
print(f"  generation time int8/fp32 {t['int8'] / t['fp32']:.3f}  (min of {reps}: fp32 {t['fp32']:.2f} s, int8 {t['int8']:.2f} s)")
PY
    ;;
esac
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
