#!/bin/bash
# Drafter salience trained on more than QMSum (issue 31): which training data gives the drafter
# that wins on validation, scored beside the lead baseline in the same runs.
#
#   bench/qs_salience_sources.sh OUT_DIR
#
# 1. Six drafters from `qs train-drafter` (training splits only; the question templates are QMSum
#    train's in all of them, so only the 12 salience weights differ): QMSum (= the shipped recipe),
#    QMSum + FairytaleQA + CL-SciSumm, the same with --balance (each source weighs the same),
#    QMSum + FairytaleQA --balance, FairytaleQA alone, and QMSum --within-section / all three
#    --within-section (weights fitted to rank sentences within their section).
# 2. Validation: `qs eval` on QMSum val (35 meetings: ROUGE, question BLEU, hierarchy F1 beside lead
#    and oracle shape) and on FairytaleQA val (23 stories: each section's summary against its
#    answers, its question against its reference questions, qs check's counts, beside lead).
# 3. Test, for the shipped drafter and the all-sources one: QMSum test and FairytaleQA test, and
#    FairytaleQA test with --questions neural (the shipped qs-questions writer).
# Prints one line per run; the JSON of each is kept in OUT_DIR. About 2 minutes on 2 cores.
set -eu
OUT=${1:?output folder}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CLI=${FOLIO_CLI:-$ROOT/build/bin/folio-cli}
D=${FOLIO_SHARED_DIR:-$ROOT/../shared}/data
mkdir -p "$OUT"
train() { name=$1; shift; nice -n 10 "$CLI" qs train-drafter "$@" --out "$OUT/$name" > "$OUT/$name.train.json"; }
train qmsum --data "$D/qmsum"
train all --data "$D/qmsum" --data "$D/fairytaleqa" --data "$D/cl-scisumm"
train all-balanced --data "$D/qmsum" --data "$D/fairytaleqa" --data "$D/cl-scisumm" --balance
train qmsum-ftqa-balanced --data "$D/qmsum" --data "$D/fairytaleqa" --balance
train ftqa --data "$D/fairytaleqa" --init "$OUT/qmsum"
train qmsum-within --data "$D/qmsum" --within-section
train all-within --data "$D/qmsum" --data "$D/fairytaleqa" --data "$D/cl-scisumm" --within-section
row() { # name split data [options]
  name=$1 split=$2 data=$3; shift 3
  nice -n 10 "$CLI" -q qs eval --data "$D/$data" --split "$split" --drafter "$OUT/$name" "$@" > "$OUT/eval-$data-$split-$name$*.json"
  python3 - "$OUT/eval-$data-$split-$name$*.json" "$name $data $split $*" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); d = j["drafter"]; l = j["lead"]
f = lambda s: "R1 %.2f R2 %.2f RLsum %.2f BLEU %.2f" % (s["rouge1"], s["rouge2"], s["rougeLsum"], s["question_bleu4"])
extra = " F1 %.2f (lead %.2f)" % (d["hierarchy_f1"], l["hierarchy_f1"]) if "hierarchy_f1" in d else \
        " items %d / sections %d, supported %d/%d, grounded %d/%d, dup %d" % (d["items"], j["sections"], d["supported_sentences"],
        d["summary_sentences"], d["questions_grounded"], d["question_count"], d["duplicate_questions"])
print("%-40s drafter %s%s | lead %s" % (sys.argv[2], f(d), extra, f(l)))
PY
}
for n in qmsum all all-balanced qmsum-ftqa-balanced ftqa qmsum-within all-within; do
  row $n val qmsum
  row $n val fairytaleqa
done
for n in qmsum all; do
  row $n test qmsum
  row $n test fairytaleqa
done
row qmsum test fairytaleqa --questions neural
