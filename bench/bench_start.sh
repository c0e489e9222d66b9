#!/bin/sh
# folio-cli start time (issue 35): wall time of whole processes, min of N, for the launcher + front +
# engine of BUILD_DIR against a baseline single folio-cli (the one-binary program before the split,
# e.g. a copy of build/bin/folio-cli from before commit 81c9e27), alternated run by run in one script.
#   --version                          nothing but start and exit
#   dom resources/samples/product-page.html   a model-free command on a bundled sample (front only)
#   info                               a LibTorch command (the launcher re-executes folio-cli-engine)
# Prints, per command: min and median wall time, min user+sys CPU time, and new / baseline.
# Usage: bench/bench_start.sh BUILD_DIR BASELINE_FOLIO_CLI [N=10]
set -eu
BUILD=$(cd "${1:?build dir}" && pwd); BASE=${2:?baseline folio-cli}; N=${3:-10}
SRC=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/folio-start-bench-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# Private copies: a rebuild in BUILD during the run must not swap the programs under it.
mkdir "$WORK/new" "$WORK/base"
cp "$BUILD/bin/folio-cli" "$BUILD/bin/folio-cli-front" "$BUILD/bin/folio-cli-engine" "$WORK/new/"
cp "$BASE" "$WORK/base/folio-cli"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$WORK/base/folio-cli" "$WORK/new/folio-cli" "$N" "$SRC/resources/samples/product-page.html" <<'PY'
import os, resource, statistics, subprocess, sys, time
base, new, n, page = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
commands = [("--version", ["--version"]), ("dom sample page", ["dom", page]), ("info (LibTorch)", ["info"])]

def run(program, args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([program] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

print(f"| command | program | min wall s | median wall s | min user+sys s | new / baseline (min wall) |")
print(f"|---|---|---|---|---|---|")
for name, args in commands:
    times = {base: [], new: []}
    run(base, args); run(new, args)  # warm the page cache
    for i in range(n):
        for program in ((base, new) if i % 2 == 0 else (new, base)):
            times[program].append(run(program, args))
    mins = {p: min(w for w, _ in t) for p, t in times.items()}
    for program, label in ((base, "baseline (one binary)"), (new, "launcher + front / engine")):
        t = times[program]
        ratio = f"**{mins[new] / mins[base]:.2f}**" if program == new else "1"
        print(f"| {name} | {label} | {mins[program]:.3f} | {statistics.median(w for w, _ in t):.3f} | {min(c for _, c in t):.3f} | {ratio} |")
PY
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
