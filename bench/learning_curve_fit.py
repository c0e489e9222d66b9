"""Fits FUNSD test entity F1 against log2(labelled training pages) over bench_learning_curve.sh's
runs (pages<N>-<order>-s<seed>) and the full-data runs of bench_pretrain_grid.sh (scratch-<order>-s<seed>,
129 pages), one point per run; prints the mean per size, the slope (F1 points per doubling of the
labelled pages) with its standard error, and where the fitted line reaches the target F1.
A straight line in log(pages) is the usual first-order description of such curves; it is an
extrapolation, not a measurement, beyond the largest size run.

    python3 bench/learning_curve_fit.py OUT_DIR [ORDER=reading] [TARGET=65] [FULL_PAGES=129]"""
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pretrain_grid_table import collect_runs  # noqa: E402

out = sys.argv[1]
order = sys.argv[2] if len(sys.argv) > 2 else "reading"
target = float(sys.argv[3]) if len(sys.argv) > 3 else 65.0
full_pages = int(sys.argv[4]) if len(sys.argv) > 4 else 129

points = {}
for (start, run_order), runs in sorted(collect_runs(out).items()):
    m = re.fullmatch(r"pages(\d+)|scratch", start)
    if run_order != order or not m:
        continue
    pages = int(m.group(1)) if m.group(1) else full_pages
    points.setdefault(pages, []).extend(100 * f1 for _, _, f1 in sorted(runs))

if len(points) < 2:
    sys.exit("need runs at two sizes at least")
print("| labelled pages | runs | test F1 (mean ± sd) | per run |")
print("|---|---|---|---|")
for pages in sorted(points):
    v = points[pages]
    sd = statistics.stdev(v) if len(v) > 1 else 0.0
    print(f"| {pages} | {len(v)} | {statistics.mean(v):.1f} ± {sd:.1f} | {', '.join(f'{x:.1f}' for x in v)} |")

xs = [math.log2(p) for p in points for _ in points[p]]
ys = [y for p in points for y in points[p]]
n = len(xs)
mx, my = statistics.mean(xs), statistics.mean(ys)
sxx = sum((x - mx) ** 2 for x in xs)
slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
intercept = my - slope * mx
residual = sum((y - intercept - slope * x) ** 2 for x, y in zip(xs, ys))
se = math.sqrt(residual / (n - 2) / sxx) if n > 2 else float("nan")
print()
print(f"fit over {n} runs: F1 = {intercept:.1f} + {slope:.2f} x log2(pages); "
      f"{slope:.2f} ± {se:.2f} points per doubling of the labelled pages")
if slope > 0:
    need = 2 ** ((target - intercept) / slope)
    lo = 2 ** ((target - intercept) / (slope + se)) if se == se else float("nan")
    hi = 2 ** ((target - intercept) / (slope - se)) if se == se and slope - se > 0 else float("inf")
    print(f"the line reaches {target:g} at about {need:.0f} labelled pages "
          f"(slope ± 1 se: {lo:.0f} to {hi:.0f}); {need / full_pages:.1f}x the {full_pages} used now")
