#!/bin/sh
# Batch throughput (issue 17): `folio-cli predict` and `folio-cli ocr` over the same folder of scans
# with --jobs 1 and --jobs 2 in one script run, pages/s, the speed-up, the serial fraction it
# implies (Karp-Flatt: f = (1/S - 1/p) / (1 - 1/p)) and Amdahl's projection for 4/8/16 workers.
# Input: N copies of the bundled sample form (a 150-dpi scanned form, ~200 words).
# Usage: bench/bench_batch.sh BUILD_DIR [N=8]
set -eu
BUILD=${1:?build dir}; N=${2:-8}
SRC=$(cd "$(dirname "$0")/.." && pwd)
CLI="$BUILD/bin/folio-cli"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/scans"
i=0; while [ $i -lt "$N" ]; do cp "$SRC/resources/samples/sample-form.png" "$WORK/scans/p$i.png"; i=$((i+1)); done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $N pages"
run() { # command jobs -> seconds
    s=$(date +%s.%N)
    "$CLI" -q "$1" $2 "$WORK/scans" --out "$WORK/out.jsonl" --jobs "$3" > /dev/null
    e=$(date +%s.%N)
    [ "$(wc -l < "$WORK/out.jsonl")" -eq "$N" ] || { echo "missing lines" >&2; exit 1; }
    echo "$e - $s" | bc -l
}
for CMD in ocr predict; do
    EXTRA=""; [ "$CMD" = predict ] && EXTRA="--checkpoint $SRC/resources/models/funsd-layout"
    run "$CMD" "$EXTRA" 1 > /dev/null # warm the page cache
    T1=$(run "$CMD" "$EXTRA" 1); T2=$(run "$CMD" "$EXTRA" 2)
    python3 - "$CMD" "$N" "$T1" "$T2" <<'PY'
import sys
cmd, n, t1, t2 = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
s = t1 / t2
f = (1 / s - 1 / 2) / (1 - 1 / 2)
proj = " ".join(f"{p}:{1 / (f + (1 - f) / p):.2f}x" for p in (4, 8, 16))
print(f"{cmd:8s} jobs1 {n / t1:6.2f} pages/s  jobs2 {n / t2:6.2f} pages/s  speed-up {s:.2f}x  serial fraction {f:.2f}  Amdahl {proj}")
PY
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
