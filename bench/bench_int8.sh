#!/bin/sh
# Dynamic int8 quantization of the tagger's Linear layers (issue 35): `folio-cli eval` of the shipped
# folio-formtagger checkpoints on the FUNSD test split, float32 against --int8, in one script run:
# entity F1 of each, the F1 difference (points) and the evaluate time ratio int8 / fp32 (min of REPS
# runs each, alternated, 1 thread; the time is the predict pass over the split, model load excluded).
# The seq2seq part (PARTS containing "qs"): `folio-cli qs eval` of resources/models/qmsum-qs on the
# QMSum test split (QS_LIMIT meetings, 0 = all 35), float32 against --int8: ROUGE-1/2/Lsum, question
# BLEU, hierarchy F1 and their differences, and the generation time ratio (the model's own
# "seconds": generation only, baselines excluded; min of REPS, alternated, 1 thread), and the same for
# its CPU time ("cpu_seconds", std::clock: what another process's load moves least).
# The WebFormer part (PARTS containing "webformer"): `folio-cli extract --no-fallback --no-rankers` of
# resources/models/product-fields over the Zyte benchmark's 140 pages (the model's own answers, no
# structured-data fallback), float32 against --int8: price / sku F1 by `folio-cli extract-score`
# (the benchmark's scorer), agreement of the five model fields' values, and the time ratio of the
# whole extract run, wall and CPU time (min of REPS, alternated, 1 thread; model load included).
# Usage: nice -n 10 bench/bench_int8.sh [FOLIO_CLI=build/bin/folio-cli] [REPS=3] [MODELS="funsd-layout forms-en-de"]
#                                       [PARTS="tagger qs webformer"] [QS_LIMIT=0] [QMSUM=../shared/data/qmsum]
#                                       [ZYTE=../shared/data/product-extraction-benchmark/dataset]
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
CLI=${1:-$SRC/build/bin/folio-cli}; REPS=${2:-3}; MODELS=${3:-"funsd-layout forms-en-de"}
PARTS=${4:-"tagger qs webformer"}; QS_LIMIT=${5:-0}; QMSUM=${6:-$SRC/../shared/data/qmsum}
ZYTE=${7:-$SRC/../shared/data/product-extraction-benchmark/dataset}
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
c = {mode: min(x["model"].get("cpu_seconds", float("nan")) for x in r[mode]) for mode in r}
print(f"qmsum-qs       meetings {r['fp32'][0]['meetings']}  (fp32 -> int8, difference in points)")
for k in ("rouge1", "rouge2", "rougeLsum", "question_bleu4", "hierarchy_f1"):
    print(f"  {k:15s} {m['fp32'][k]:6.2f} -> {m['int8'][k]:6.2f}  {m['int8'][k] - m['fp32'][k]:+.2f}")
print(f"  generation time int8/fp32 {t['int8'] / t['fp32']:.3f}  (min of {reps}: fp32 {t['fp32']:.2f} s, int8 {t['int8']:.2f} s)")
print(f"  generation CPU time int8/fp32 {c['int8'] / c['fp32']:.3f}  (min of {reps}: fp32 {c['fp32']:.2f} s, int8 {c['int8']:.2f} s)")
PY
    ;;
esac
case " $PARTS " in *" webformer "*)
    python3 - "$CLI" "$REPS" "$ZYTE" "$SRC/resources/models/product-fields" "$WORK" <<'PY'
import json, os, resource, subprocess, sys, time
cli, reps, zyte, model, work = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
fields = ["price", "sku", "gtin", "mpn", "brand"]
seconds, cpu, preds = {"fp32": [], "int8": []}, {"fp32": [], "int8": []}, {}
for i in range(reps):
    for mode in ("fp32", "int8"):
        cmd = [cli, "-q", "extract", "--checkpoint", model, "--no-fallback", "--no-rankers", "--threads", "1",
               os.path.join(zyte, "html")] + (["--int8"] if mode == "int8" else [])
        t0, r0 = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds[mode].append(time.monotonic() - t0)
        cpu[mode].append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
        p = {}
        for line in out.splitlines():
            j = json.loads(line)
            key = os.path.basename(j["input"]).split(".")[0]
            f = j["result"]["fields"] if j.get("ok") else {}
            p[key] = {a: f[a]["value"] for a in fields + ["availability"] if a in f and f[a].get("value")}
        preds[mode] = p
        with open(f"{work}/zyte.{mode}.json", "w") as fh:
            json.dump(p, fh)
score = json.loads(subprocess.run([cli, "-q", "extract-score", "--truth", os.path.join(zyte, "ground-truth.json"),
                                   f"{work}/zyte.fp32.json", f"{work}/zyte.int8.json", "--bootstrap", "0"],
                                  check=True, capture_output=True, text=True).stdout)
pages = len(preds["fp32"])
print(f"product-fields pages {pages}  (model answers only: --no-fallback --no-rankers; F1 by extract-score)")
for a in ("price", "sku"):
    f, q = score["zyte.fp32"][a]["f1"], score["zyte.int8"][a]["f1"]
    print(f"  {a:6s} F1 fp32 {f:.3f}  int8 {q:.3f}  diff {q - f:+.3f}")
same = sum(preds["fp32"][k].get(a) == preds["int8"][k].get(a) for k in preds["fp32"] for a in fields)
found = sum(a in preds["fp32"][k] for k in preds["fp32"] for a in fields)
print(f"  values the same on {same} of {pages * len(fields)} page-fields ({found} answered by fp32)")
t = {m: min(v) for m, v in seconds.items()}
print(f"  extract time int8/fp32 {t['int8'] / t['fp32']:.3f}  (min of {reps}: fp32 {t['fp32']:.2f} s, int8 {t['int8']:.2f} s)")
c = {m: min(v) for m, v in cpu.items()}
print(f"  extract CPU time int8/fp32 {c['int8'] / c['fp32']:.3f}  (min of {reps}: fp32 {c['fp32']:.2f} s, int8 {c['int8']:.2f} s)")
PY
    ;;
esac
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
