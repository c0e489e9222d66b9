#!/usr/bin/env python3
"""Dynamic int8 against float32 for the Hugging Face architectures (issue 35), at base size.

Usage: nice -n 10 /usr/bin/python3 bench/hfarch_int8.py HF_SRC [--bench-bin build/bench/bench_hfarch]
       [--repeats 5] [--threads 1] [--archs "lilt layoutlmv2 markuplm"] (layoutlmv3 too)

Each architecture's random base-size folder (768 / 12 layers / 12 heads, 512 tokens) and input are
written by bench/hfarch_reference.py (HF_SRC as there: transformers v4.36's src/transformers; its own
one-pair reference timing is discarded here). One bench_hfarch process then holds the float32 model and
a dynamic-int8 copy (`int8`, `run8`) and alternates their forwards, pair by pair (order swapped every
pair), min of REPEATS each; the outputs are compared (max |int8 - fp32| relative to max |fp32|, mean
|d|; the argmax per token where the output is logits). No trained weights: agreement is with float32, not an F1. JSON lines to
bench/results/hfarch-int8.jsonl and stdout.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SRC, "bench"))
from hfarch_reference import read_safetensors  # noqa: E402  (the same reader the forward benchmark uses)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("hf_src")
    ap.add_argument("--bench-bin", default=os.path.join(SRC, "build/bench/bench_hfarch"))
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--archs", default="lilt layoutlmv2 markuplm")
    a = ap.parse_args()
    if not os.access(a.bench_bin, os.X_OK):
        sys.exit(f"hfarch_int8.py: {a.bench_bin} not built (ninja -C build bench_hfarch)")
    results = os.path.join(SRC, "bench/results/hfarch-int8.jsonl")
    os.makedirs(os.path.dirname(results), exist_ok=True)
    env = dict(os.environ, OMP_WAIT_POLICY="PASSIVE", OMP_NUM_THREADS=str(a.threads),
               MKL_NUM_THREADS=str(a.threads), OPENBLAS_NUM_THREADS=str(a.threads))
    with tempfile.TemporaryDirectory(prefix="hfarch-int8.") as work, open(results, "w") as sink:
        for arch in a.archs.split():
            made = subprocess.run([sys.executable, os.path.join(SRC, "bench/hfarch_reference.py"), "--hf-src", a.hf_src,
                                   "--arch", arch, "--bench-bin", a.bench_bin, "--work", work, "--repeats", "1",
                                   "--threads", str(a.threads)], env=env, stdout=subprocess.PIPE, text=True)
            if made.returncode != 0:
                sys.exit(f"hfarch_int8.py: hfarch_reference.py failed for {arch}")
            compared = json.loads(made.stdout.strip().splitlines()[-1])["compared"]
            folder = os.path.join(work, arch)
            p = subprocess.Popen([a.bench_bin, folder, os.path.join(folder, "inputs.safetensors"), str(a.threads)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

            def ask(line):
                p.stdin.write(line + "\n")
                p.stdin.flush()
                reply = p.stdout.readline().strip()
                if not reply or reply.startswith("error"):
                    sys.exit(f"bench_hfarch ({arch}): " + (reply or "no reply"))
                return reply

            if not p.stdout.readline().startswith("ready"):
                sys.exit(f"bench_hfarch ({arch}): did not load")
            ask("int8")
            fp32_t, int8_t = [], []
            ask("run"), ask("run8")  # warm-up pair
            for i in range(a.repeats):
                order = ["run", "run8"] if i % 2 == 0 else ["run8", "run"]
                for cmd in order:
                    (fp32_t if cmd == "run" else int8_t).append(float(ask(cmd).split()[1]))
            ask("run")
            ask("save " + os.path.join(folder, "fp32.safetensors"))
            ask("run8")
            ask("save " + os.path.join(folder, "int8.safetensors"))
            p.stdin.write("quit\n")
            p.stdin.close()
            p.wait()
            x = read_safetensors(os.path.join(folder, "fp32.safetensors"))[compared]
            y = read_safetensors(os.path.join(folder, "int8.safetensors"))[compared]
            d = np.abs(x - y)
            row = {"arch": arch, "threads": a.threads, "repeats": a.repeats, "compared": compared,
                   "fp32_min_s": min(fp32_t), "int8_min_s": min(int8_t), "int8_over_fp32": min(int8_t) / min(fp32_t),
                   "fp32_s": fp32_t, "int8_s": int8_t, "max_abs_delta": float(d.max()),
                   "relative_max_delta": float(d.max() / np.abs(x).max()), "mean_abs_delta": float(d.mean()),
                   "mean_abs_fp32": float(np.abs(x).mean()), "load_avg": os.getloadavg()}
            if compared == "logits":  # per-token argmax agreement (random head: near ties are common)
                row["argmax_same"] = float((x.argmax(-1) == y.argmax(-1)).mean())
            print(json.dumps(row), flush=True)
            sink.write(json.dumps(row) + "\n")
            sink.flush()


if __name__ == "__main__":
    main()
