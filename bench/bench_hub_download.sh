#!/bin/sh
# Hub download throughput (issue 46): `folio-cli hub download` against `curl` fetching the same files
# from the same Hub-shaped server on 127.0.0.1 (tests/pipeline/hubserver.py), alternated run by run
# in one script. The repo is the tiny LayoutLMv3 parity checkpoint plus, when SIZE_MB > 0, one large
# LFS file (onnx/model.onnx, random bytes: an export Folio does not read, fetched all the same) so
# that the transfer dominates; SIZE_MB = 0 is the small-file case (7 files, 0.5 MB: the fixed costs).
#   curl:   one `curl -L` per file on its resolve URL (the 302 to /cdn/SHA256 followed), into a fresh folder
#   folio:  `folio-cli hub download ORG/NAME` into a fresh HF_HOME: the file list, a HEAD per file, the
#           bytes streamed to blobs/ETAG.incomplete with sha256 computed on the way, renamed and linked,
#           then the snapshot described (info --checkpoint's check). Since 8 Dec this runs in
#           folio-cli-front (no LibTorch)
#   curl+sha256: curl as above, then `openssl dgst -sha256` over the files (folio's check, with the
#           same library, after the transfer)
#   engine: the same command run by folio-cli-engine directly: LibTorch loaded first, as every
#           `hub` command was before 8 Dec (the old fixed cost, measured in the same run)
# Per side: min and median wall time, throughput at the min, and the median CPU time (user + sys of
# the process and its threads, getrusage): on this shared 2-core box the wall time follows the load,
# the CPU time much less. Also `folio-cli hub list` on an empty cache (folio-cli's fixed cost).
# Usage: bench/bench_hub_download.sh BUILD_DIR [SIZE_MB=1024] [N=5]
set -eu
BUILD=$(cd "${1:?build dir}" && pwd); SIZE_MB=${2:-1024}; N=${3:-5}
SRC=$(cd "$(dirname "$0")/.." && pwd)
FIXTURE=$SRC/../shared/fixtures/parity-next/layoutlmv3_pipeline/checkpoint
WORK=$(mktemp -d /tmp/folio-hub-bench-XXXXXX)
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
[ "$SIZE_MB" -gt 0 ] && head -c $((SIZE_MB * 1024 * 1024)) /dev/urandom > "$WORK/big.bin"
python3 - "$WORK" "$FIXTURE" <<'PY'
import json, os, sys
work, fixture = sys.argv[1], sys.argv[2]
files = {n: os.path.join(fixture, n) for n in sorted(os.listdir(fixture))}
if os.path.exists(os.path.join(work, "big.bin")):
    files["onnx/model.onnx"] = os.path.join(work, "big.bin")
sha = "0123456789abcdef0123456789abcdef01234567"
json.dump({"repos": {"bench/tiny-plus-big": {"sha": sha, "refs": {"main": sha}, "files": files}}},
          open(os.path.join(work, "hub.json"), "w"))
PY
/usr/bin/python3 "$SRC/tests/pipeline/hubserver.py" "$WORK/hub.json" > "$WORK/port" &
SERVER=$!
while ! grep -q PORT "$WORK/port" 2>/dev/null; do sleep 0.1; done
PORT=$(cut -d' ' -f2 "$WORK/port")
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); file: ${SIZE_MB} MB + the tiny checkpoint"
python3 - "$BUILD/bin" "$PORT" "$WORK" "$N" <<'PY'
import os, resource, shutil, statistics, subprocess, sys, time, urllib.request, json
bindir, port, work, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
endpoint = "http://127.0.0.1:%s" % port
repo = "bench/tiny-plus-big"
listing = json.load(urllib.request.urlopen(endpoint + "/api/models/%s/revision/main" % repo))
names = [s["rfilename"] for s in listing["siblings"]]
total = sum(os.path.getsize(json.load(open(os.path.join(work, "hub.json")))["repos"][repo]["files"][f]) for f in names)

def timed(commands, env=None):
    """Wall and CPU seconds (user + sys of the children) of running `commands` one after the other."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    for c in commands:
        subprocess.run(c, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

def curl_run():
    out = os.path.join(work, "curl-out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    return timed([["curl", "-sfL", "--create-dirs", "-o", os.path.join(out, f), "%s/%s/resolve/main/%s" % (endpoint, repo, f)] for f in names])

def curl_sha_run():
    """curl, then openssl dgst -sha256 over what it fetched: the same check folio makes, done after the transfer."""
    wall, cpu = curl_run()
    out = os.path.join(work, "curl-out")
    w2, c2 = timed([["openssl", "dgst", "-sha256"] + [os.path.join(out, f) for f in names]])
    return wall + w2, cpu + c2

def hub_run(program):
    home = os.path.join(work, "hf-home")
    shutil.rmtree(home, ignore_errors=True)
    env = dict(os.environ, HF_HOME=home, HF_ENDPOINT=endpoint)
    env.pop("HF_HUB_CACHE", None); env.pop("HF_TOKEN", None)
    return timed([[os.path.join(bindir, program), "-q", "hub", "download", repo]], env)

def fixed_cost():
    env = dict(os.environ, HF_HOME=os.path.join(work, "hf-empty"))
    return timed([[os.path.join(bindir, "folio-cli"), "hub", "list"]], env)[0]

sides = {"curl": curl_run, "curl+sha256": curl_sha_run, "folio": lambda: hub_run("folio-cli"), "engine": lambda: hub_run("folio-cli-engine")}
for run in sides.values():
    run()  # warm the page cache and the server's hashes
times = {side: [] for side in sides}
order = list(sides)
for i in range(n):
    for side in (order if i % 2 == 0 else order[::-1]):
        times[side].append(sides[side]())
start = min(fixed_cost() for _ in range(3))
print("| side | min wall s | median wall s | MB/s (min wall) | median CPU s |")
print("|---|---|---|---|---|")
for side in sides:
    wall = [w for w, _ in times[side]]
    cpu = [c for _, c in times[side]]
    print("| %s | %.3f | %.3f | %.0f | %.3f |" % (side, min(wall), statistics.median(wall), total / 1e6 / min(wall), statistics.median(cpu)))
mins = {side: min(w for w, _ in times[side]) for side in sides}
meds = {side: statistics.median(w for w, _ in times[side]) for side in sides}
cpus = {side: statistics.median(c for _, c in times[side]) for side in sides}
print("folio / curl throughput: %.2f (min wall), %.2f (median wall), CPU curl / folio %.2f; folio / (curl+sha256): %.2f (min wall), "
      "%.2f (median wall); engine (LibTorch loaded) / curl: %.2f (min wall); folio-cli hub list, empty cache (min of 3): %.3f s; "
      "%d bytes in %d files"
      % (mins["curl"] / mins["folio"], meds["curl"] / meds["folio"], cpus["curl"] / cpus["folio"], mins["curl+sha256"] / mins["folio"],
         meds["curl+sha256"] / meds["folio"], mins["curl"] / mins["engine"], start, total, len(names)))
PY
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
