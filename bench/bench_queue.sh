#!/bin/sh
# Batch across machines (issue 35): pages/s of `folio-cli ocr` workers sharing one batch through a
# PostgreSQL project's queue (--project URL --queue NAME), with 1 and 2 worker processes, against
# the plain in-process batch of the same pages (the baseline), all in one script run on one
# private PostgreSQL server (initdb + pg_ctl in a temporary folder, unix socket, fsync on).
# Input: N copies of the bundled sample form (a 150-dpi scanned form, ~200 words).
# Baselines in the same run: the plain batch (`ocr DIR --project P --jobs 1|2`, each into a fresh
# project database, so both store every document). Two rounds in opposite orders, the best time
# of each. Prints pages/s and the ratios: queue / plain with 1 and 2 workers, and what a second
# worker gives with each. Workers on one machine share its cores: on a 2-core box
# the second worker's gain is bounded by what the first leaves idle.
# Usage: bench/bench_queue.sh BUILD_DIR [N=8]
set -eu
BUILD=$(cd "${1:?build dir}" && pwd); N=${2:-8}
SRC=$(cd "$(dirname "$0")/.." && pwd)
PGBIN=${FOLIO_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
WORK=$(mktemp -d /tmp/folio-queue-bench-XXXXXX)
chmod 711 "$WORK"
mkdir "$WORK/pg" "$WORK/scans" "$WORK/bin"
# A private copy of the binaries: a rebuild in BUILD during the run must not swap them under it.
cp "$BUILD/bin/folio-cli" "$BUILD/bin/folio-ocr-worker" "$WORK/bin/"
CLI="$WORK/bin/folio-cli"
AS=""
if [ "$(id -u)" -eq 0 ]; then chown nobody "$WORK/pg"; AS="runuser -u nobody --"; fi
cleanup() { $AS "$PGBIN/pg_ctl" stop -D "$WORK/pg/data" -m fast > /dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT
$AS "$PGBIN/initdb" -D "$WORK/pg/data" -U folio -A trust -E UTF8 --locale=C > /dev/null
$AS "$PGBIN/pg_ctl" start -D "$WORK/pg/data" -w -l "$WORK/pg/server.log" -o "-k $WORK/pg -c listen_addresses=''" > /dev/null
"$PGBIN/psql" -h "$WORK/pg" -U folio -d postgres -X -q -c "CREATE DATABASE bench" > /dev/null
URL="postgresql://folio@/bench?host=$WORK/pg"
"$CLI" -q project create "$URL" > /dev/null
i=0; while [ $i -lt "$N" ]; do cp "$SRC/resources/samples/sample-form.png" "$WORK/scans/p$i.png"; i=$((i+1)); done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $N pages"

now() { date +%s.%N; }
fresh() { # a new, empty project database -> its URL (called in subshells: the name from the clock)
    DB=$(date +%s%N)
    "$PGBIN/psql" -h "$WORK/pg" -U folio -d postgres -X -q -c "CREATE DATABASE plain$DB" > /dev/null
    "$CLI" -q project create "postgresql://folio@/plain$DB?host=$WORK/pg" > /dev/null
    echo "postgresql://folio@/plain$DB?host=$WORK/pg"
}
plain() { # jobs -> seconds: the baseline, a plain batch storing each document in a fresh project
    P=$(fresh)
    s=$(now); "$CLI" -q ocr "$WORK/scans" --project "$P" --jobs "$1" --out "$WORK/plain.jsonl" > /dev/null; e=$(now)
    [ "$(wc -l < "$WORK/plain.jsonl")" -eq "$N" ] || { echo "plain: missing lines" >&2; exit 1; }
    echo "$e - $s" | bc -l
}
queued() { # workers queue-name -> seconds from the start to the last worker's exit
    # Every worker gets the same command line, inputs included (the first one fills the queue).
    s=$(now)
    w=0; pids=""
    while [ $w -lt "$1" ]; do
        "$CLI" -q ocr --project "$URL" --queue "$2" --out "$WORK/$2.$w.jsonl" "$WORK/scans" > /dev/null & pids="$pids $!"
        w=$((w+1))
    done
    for p in $pids; do wait "$p"; done
    e=$(now)
    [ "$(cat "$WORK/$2".*.jsonl | wc -l)" -eq "$N" ] || { echo "$2: not every page once" >&2; exit 1; }
    echo "$e - $s" | bc -l
}
min() { echo "if ($1 < $2) $1 else $2" | bc -l; }
plain 1 > /dev/null # warm the page cache and the traineddata
# Two rounds in opposite orders (the machine is shared: its load drifts); the best time of each.
P1a=$(plain 1); Q1a=$(queued 1 q1a); P2a=$(plain 2); Q2a=$(queued 2 q2a)
Q2b=$(queued 2 q2b); P2b=$(plain 2); Q1b=$(queued 1 q1b); P1b=$(plain 1)
echo "rounds (s): plain --jobs 1: $P1a $P1b; queue 1 worker: $Q1a $Q1b; plain --jobs 2: $P2a $P2b; queue 2 workers: $Q2a $Q2b"
P1=$(min "$P1a" "$P1b"); Q1=$(min "$Q1a" "$Q1b"); P2=$(min "$P2a" "$P2b"); Q2=$(min "$Q2a" "$Q2b")
"$CLI" -q project queue status --project "$URL" --queue q2a | python3 -c '
import json, sys
q = json.load(sys.stdin)["queues"][0]
print("q2a status: done %d of %d; per worker: %s" % (q["done"], q["total"], ", ".join(str(w["done"]) for w in q["workers"])))'
python3 - "$N" "$P1" "$Q1" "$P2" "$Q2" <<'PY'
import sys
n = int(sys.argv[1]); p1, q1, p2, q2 = map(float, sys.argv[2:6])
print(f"pages/s: plain --jobs 1 {n / p1:5.2f}  queue 1 worker {n / q1:5.2f}  plain --jobs 2 {n / p2:5.2f}  queue 2 workers {n / q2:5.2f}")
print(f"queue / plain, 1 worker: {p1 / q1:.2f}x   2 workers: {p2 / q2:.2f}x")
print(f"second worker: queue (2 / 1 workers) {q1 / q2:.2f}x   plain (--jobs 2 / --jobs 1) {p1 / p2:.2f}x")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
