#!/bin/bash
# Questions that the summary answers (issue 31): templates vs an answer-aware question generator
# with the pointer-generator copy head vs the same generator without it, same budget.
#
#   bench/qs_questions.sh OUT_DIR [TRAIN=1]
#
# 1. Training (skipped when OUT/copy and OUT/nocopy exist, or TRAIN=0): one SentencePiece vocabulary
#    (4000, on the training pairs), then both arms side by side under `nice -n 10`, 1 thread each,
#    identical except --copy: d_model 128, 2+2 layers, 4 heads, ffn 512, sources of 128 tokens
#    (answer <= a third, then evidence sentences), 1 epoch over FairytaleQA train + QMSum train
#    queries (9,643 pairs, 603 steps), batch 16, lr 1e-3 (linear decay over the 603 steps), seed 13,
#    weights stored as float16. STEPS (default 250, a multiple of 50: the log shows every 50th step) stops each arm with SIGINT once its log shows that
#    step (the trainer then saves the weights it has): the recorded run could not afford the whole
#    epoch on the shared 2-core machine; both arms get the same number of steps (+-1). STEPS=0: the
#    whole epoch.
# 2. Pairs (test splits): `qs eval-questions` — templates and both checkpoints in one run,
#    FairytaleQA (1,007) and QMSum (its test queries with evidence).
# 3. Documents (QMSum test, 35 meetings): `qs eval` with --questions templates and with
#    --questions neural for each checkpoint (the drafter's summaries are the same in all three).
set -u
OUT=${1:?output folder}
TRAIN=${2:-1}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CLI=${FOLIO_CLI:-$ROOT/build/bin/folio-cli}
SHARED=${FOLIO_SHARED_DIR:-$ROOT/../shared}
mkdir -p "$OUT"
ARGS="--fairytaleqa $SHARED/data/fairytaleqa --qmsum $SHARED/data/qmsum"
if [ "$TRAIN" = 1 ] && { [ ! -f "$OUT/copy/model.safetensors" ] || [ ! -f "$OUT/nocopy/model.safetensors" ]; }; then
  # The vocabulary alone (a 1-example run trains it), shared by both arms.
  nice -n 10 "$CLI" qs train-questions $ARGS --out "$OUT/vocabrun" --limit 1 --epochs 1 --dev 1 --threads 1 > /dev/null 2>&1
  cp "$OUT/vocabrun/spm.model" "$OUT/spm.model"
  STEPS=${STEPS:-250}
  declare -A PIDS
  for arm in copy nocopy; do
    flag=""; [ $arm = copy ] && flag="--copy"
    nice -n 10 "$CLI" qs train-questions $ARGS --out "$OUT/$arm" $flag --vocab "$OUT/spm.model" --epochs 1 \
      --max-source 128 --dev 200 --float16 --threads 1 > "$OUT/$arm.json" 2> "$OUT/$arm.log" &
    PIDS[$arm]=$!
  done
  if [ "$STEPS" -gt 0 ]; then
    for arm in copy nocopy; do
      ( while kill -0 ${PIDS[$arm]} 2>/dev/null; do
          if grep -q "step $STEPS/" "$OUT/$arm.log"; then kill -INT ${PIDS[$arm]}; break; fi
          sleep 2
        done ) &
    done
  fi
  wait
fi
nice -n 10 "$CLI" qs eval-questions $ARGS --checkpoint "$OUT/copy" --checkpoint "$OUT/nocopy" --split test --threads 1 \
  > "$OUT/pairs-test.json" 2> "$OUT/pairs-test.log" &
( nice -n 10 "$CLI" qs eval --data "$SHARED/data/qmsum" --split test --threads 1 --questions templates > "$OUT/qmsum-templates.json" 2>/dev/null
  for arm in copy nocopy; do
    nice -n 10 "$CLI" qs eval --data "$SHARED/data/qmsum" --split test --threads 1 --questions neural \
      --question-model "$OUT/$arm" > "$OUT/qmsum-$arm.json" 2>/dev/null
  done ) &
wait
python3 - "$OUT" <<'EOF'
import json, sys
out = sys.argv[1]
pairs = json.load(open(f"{out}/pairs-test.json"))
print("| data (test) | system | question BLEU-4 | key terms in evidence | empty | words | s |")
print("|---|---|---|---|---|---|---|")
for data in ("fairytaleqa", "qmsum"):
    for name, v in pairs[data].items():
        if isinstance(v, dict):
            label = "templates" if name == "templates" else ("neural, copy" if v.get("copy_head") else "neural, no copy")
            print(f"| {data} ({pairs[data]['examples']}) | {label} | {v['question_bleu4']:.2f} | {v['key_terms_in_evidence']:.1f} % | {v['empty']} | {v['mean_words']:.1f} | {v['seconds']:.0f} |")
print()
print("| QMSum test (35 meetings) | question BLEU-4 | questions grounded | duplicates | ROUGE-1 | s |")
print("|---|---|---|---|---|---|")
for arm, label in (("templates", "templates"), ("copy", "neural, copy"), ("nocopy", "neural, no copy")):
    j = json.load(open(f"{out}/qmsum-{arm}.json"))["drafter"]
    print(f"| {label} | {j['question_bleu4']:.2f} | {j['questions_grounded']} / {j['question_count']} | {j['duplicate_questions']} | {j['rouge1']:.2f} | |")
EOF
