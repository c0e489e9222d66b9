#!/usr/bin/env python3
"""The GEMM floor of one base-size forward (issue 32, run by bench/bench_hfarch.sh).

Every matrix product of a LiLT, a LayoutLMv2 and a LayoutLMv3 (text + layout) forward at 512 tokens, batch 1 —
linears as x @ W^T + b (addmm, a weight of its own for each of the 12 layers), attention as bmm — timed
back to back into preallocated outputs, minimum over REPS: the time the same BLAS needs for the forward's
products alone, with nothing around them. Plus two single products ([512x768]x[768x3072] and 2048^3) as
the sgemm peak of this process. One JSON line: GFLOP counted (2*m*k*n), floor seconds, GFLOP/s.
Usage: hfarch_gemm_floor.py [REPS=5] [THREADS=1]
"""
import json, os, sys, time

import torch

torch.set_num_threads(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
torch.manual_seed(0)
T, D, H, I, L = 512, 768, 12, 3072, 12
def linear(k, n):
    x = torch.randn(T, k); w = torch.randn(n, k); b = torch.randn(n); o = torch.empty(T, n)
    return (lambda: torch.addmm(b, x, w.t(), out=o)), 2 * T * k * n
def bmm(m, k, n):
    a = torch.randn(H, m, k); c = torch.randn(H, k, n); o = torch.empty(H, m, n)
    return (lambda: torch.bmm(a, c, out=o)), 2 * H * m * k * n
def layer(dl=None, inter_l=None):  # Folio's products: Q/K/V fused, then scores, context, output, FFN
    ops = [linear(D, 3 * D)]
    ops += [bmm(T, D // H, T), bmm(T, T, D // H), linear(D, D), linear(D, I), linear(I, D)]
    if dl:
        ops += [linear(dl, 3 * dl), bmm(T, dl // H, T), bmm(T, T, dl // H), linear(dl, dl), linear(dl, inter_l), linear(inter_l, dl)]
    return ops
archs = {"lilt": [op for _ in range(L) for op in layer(D // 4, I // 4)], "layoutlmv2": [op for _ in range(L) for op in layer()]}
archs["layoutlmv3"] = archs["layoutlmv2"] + [linear(D, 7)]  # text + layout: the same layers, plus the classifier
res = {"threads": torch.get_num_threads(), "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE", "(unset: OpenBLAS's own choice)")}
for name, ops in archs.items():
    flops = sum(f for _, f in ops)
    for fn, _ in ops: fn()
    best = 1e9
    for r in range(int(sys.argv[1]) if len(sys.argv) > 1 else 5):
        t0 = time.perf_counter()
        for fn, _ in ops: fn()
        best = min(best, time.perf_counter() - t0)
    res[name] = {"gemm_gflop": round(flops / 1e9, 1), "gemm_floor_s": round(best, 3), "gflops": round(flops / best / 1e9, 1)}
for name, (m, k, n) in {"512x768x3072": (512, 768, 3072), "2048^3": (2048, 2048, 2048)}.items():
    a = torch.randn(m, k); b = torch.randn(k, n); o = torch.empty(m, n); torch.mm(a, b, out=o)
    best = 1e9
    for r in range(20 if m == 512 else 5):
        t0 = time.perf_counter(); torch.mm(a, b, out=o); best = min(best, time.perf_counter() - t0)
    res["sgemm " + name] = round(2 * m * k * n / best / 1e9, 1)
res["load_avg"] = os.getloadavg()
print(json.dumps(res))
