#!/bin/sh
# Hub download throughput (issue 46): `folio-cli hub download` against `curl` fetching the same files
# from the same Hub-shaped server on 127.0.0.1 (tests/pipeline/hubserver.py), alternated run by run
# in one script. The repo is the tiny LayoutLMv3 parity checkpoint plus one large LFS file
# (onnx/model.onnx, random bytes, SIZE_MB: an export Folio does not read, fetched all the same) so that the transfer dominates.
#   curl:  one `curl -L` per file on its resolve URL (the 302 to /cdn/SHA256 followed), into a fresh folder
#   folio: `folio-cli hub download ORG/NAME` into a fresh HF_HOME: the file list, a HEAD per file, the
#          bytes streamed to blobs/ETAG.incomplete with sha256 computed on the way, renamed and linked,
#          then the snapshot described (info --checkpoint's check)
# Also measured: `folio-cli hub list` on an empty cache (the fixed cost of starting folio-cli-engine).
# Prints min and median wall time and throughput per side, and folio / curl throughput (min wall),
# also with folio-cli-engine's start taken off (the transfer, checks and cache writes alone).
# Usage: bench/bench_hub_download.sh BUILD_DIR [SIZE_MB=1024] [N=5]
set -eu
BUILD=$(cd "${1:?build dir}" && pwd); SIZE_MB=${2:-1024}; N=${3:-5}
SRC=$(cd "$(dirname "$0")/.." && pwd)
FIXTURE=$SRC/../shared/fixtures/parity-next/layoutlmv3_pipeline/checkpoint
WORK=$(mktemp -d /tmp/folio-hub-bench-XXXXXX)
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
head -c $((SIZE_MB * 1024 * 1024)) /dev/urandom > "$WORK/big.bin"
python3 - "$WORK" "$FIXTURE" <<'PY'
import json, os, sys
work, fixture = sys.argv[1], sys.argv[2]
files = {n: os.path.join(fixture, n) for n in sorted(os.listdir(fixture))}
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
python3 - "$BUILD/bin/folio-cli" "$PORT" "$WORK" "$N" <<'PY'
import os, shutil, statistics, subprocess, sys, time, urllib.request, json
cli, port, work, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
endpoint = "http://127.0.0.1:%s" % port
repo = "bench/tiny-plus-big"
listing = json.load(urllib.request.urlopen(endpoint + "/api/models/%s/revision/main" % repo))
names = [s["rfilename"] for s in listing["siblings"]]
total = sum(os.path.getsize(json.load(open(os.path.join(work, "hub.json")))["repos"][repo]["files"][f]) for f in names)

def curl_run():
    out = os.path.join(work, "curl-out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    t0 = time.perf_counter()
    for f in names:
        subprocess.run(["curl", "-sfL", "--create-dirs", "-o", os.path.join(out, f), "%s/%s/resolve/main/%s" % (endpoint, repo, f)], check=True)
    return time.perf_counter() - t0

def folio_run():
    home = os.path.join(work, "hf-home")
    shutil.rmtree(home, ignore_errors=True)
    env = dict(os.environ, HF_HOME=home, HF_ENDPOINT=endpoint)
    env.pop("HF_HUB_CACHE", None); env.pop("HF_TOKEN", None)
    t0 = time.perf_counter()
    subprocess.run([cli, "-q", "hub", "download", repo], env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0

def fixed_cost():
    home = os.path.join(work, "hf-empty")
    env = dict(os.environ, HF_HOME=home)
    t0 = time.perf_counter()
    subprocess.run([cli, "hub", "list"], env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0

curl_run(); folio_run()  # warm the page cache and the server's hashes
times = {"curl": [], "folio": []}
for i in range(n):
    for side in (("curl", "folio") if i % 2 == 0 else ("folio", "curl")):
        times[side].append(curl_run() if side == "curl" else folio_run())
start = min(fixed_cost() for _ in range(3))
print("| side | min wall s | median wall s | MB/s (min wall) |")
print("|---|---|---|---|")
for side in ("curl", "folio"):
    t = times[side]
    print("| %s | %.3f | %.3f | %.0f |" % (side, min(t), statistics.median(t), total / 1e6 / min(t)))
print("folio / curl throughput (min wall): %.2f; folio-cli-engine start (hub list, empty cache, min of 3): %.3f s; "
      "without that start: %.2f; %d bytes in %d files"
      % (min(times["curl"]) / min(times["folio"]), start, min(times["curl"]) / max(1e-3, min(times["folio"]) - start), total, len(names)))
PY
