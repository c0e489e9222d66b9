#!/bin/sh
# Batch across machines (issue 35): pages/s of `folio-cli ocr` workers sharing one batch through a
# PostgreSQL project's queue (--project URL --queue NAME), with 1 and 2 worker processes, against
# the plain in-process batch of the same pages (the baseline), all in one script run on one
# private PostgreSQL server (initdb + pg_ctl in a temporary folder, unix socket, fsync on).
# Input: N copies of the bundled sample form (a 150-dpi scanned form, ~200 words).
# Prints pages/s and the ratios: queue overhead (1 queue worker / plain batch) and the speed-up of
# a second worker (2 workers / 1 worker). Workers on one machine share its cores: on a 2-core box
# the second worker's gain is bounded by what the first leaves idle.
# Usage: bench/bench_queue.sh BUILD_DIR [N=8]
set -eu
BUILD=${1:?build dir}; N=${2:-8}
SRC=$(cd "$(dirname "$0")/.." && pwd)
CLI="$BUILD/bin/folio-cli"
PGBIN=${FOLIO_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
WORK=$(mktemp -d /tmp/folio-queue-bench-XXXXXX)
chmod 711 "$WORK"
mkdir "$WORK/pg" "$WORK/scans"
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
plain() { # the baseline: one in-process batch, no project
    s=$(now); "$CLI" -q ocr "$WORK/scans" --out "$WORK/plain.jsonl" > /dev/null; e=$(now)
    [ "$(wc -l < "$WORK/plain.jsonl")" -eq "$N" ] || { echo "plain: missing lines" >&2; exit 1; }
    echo "$e - $s" | bc -l
}
queued() { # workers queue-name -> seconds from enqueue to the last worker's exit
    s=$(now)
    "$CLI" -q ocr --project "$URL" --queue "$2" --enqueue-only "$WORK/scans"
    w=0; pids=""
    while [ $w -lt "$1" ]; do
        "$CLI" -q ocr --project "$URL" --queue "$2" --out "$WORK/$2.$w.jsonl" > /dev/null & pids="$pids $!"
        w=$((w+1))
    done
    for p in $pids; do wait "$p"; done
    e=$(now)
    [ "$(cat "$WORK/$2".*.jsonl | wc -l)" -eq "$N" ] || { echo "$2: not every page once" >&2; exit 1; }
    echo "$e - $s" | bc -l
}
plain > /dev/null # warm the page cache and the traineddata
TP=$(plain); T1=$(queued 1 q1); T2=$(queued 2 q2)
"$CLI" -q project queue status --project "$URL" --queue q2 | python3 -c '
import json, sys
q = json.load(sys.stdin)["queues"][0]
print("q2 status: done %d of %d; per worker: %s" % (q["done"], q["total"], ", ".join(str(w["done"]) for w in q["workers"])))'
python3 - "$N" "$TP" "$T1" "$T2" <<'PY'
import sys
n, tp, t1, t2 = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
print(f"plain batch {n / tp:5.2f} pages/s  queue 1 worker {n / t1:5.2f} pages/s  queue 2 workers {n / t2:5.2f} pages/s")
print(f"queue overhead (1 worker / plain): {tp / t1:.2f}x   second worker (2 / 1): {t1 / t2:.2f}x")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
