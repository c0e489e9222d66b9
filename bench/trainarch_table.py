"""Mean +- sd table (Markdown) of bench_trainarch_sweep.sh's JSON lines: test entity F1 per
architecture and word order over the seeds, parameters, training time. Baseline row: layoutlmv3."""
import json
import statistics
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
archs = ["layoutlmv3", "layoutlmv2", "ernie", "text"]
orders = ["annotation", "reading", "layout"]


def stats(values):
    if not values:
        return "—"
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"{100 * statistics.mean(values):.1f} ± {100 * sd:.1f} (n={len(values)})"


print("| `--arch` | test F1, protocol order | test F1, reading order (lines) | test F1, layout order (XY-cut) | parameters | train s / run (mean) | F1 / layoutlmv3 (protocol) |")
print("|---|---|---|---|---|---|---|")
base = [r["test_f1"] for r in rows if r["arch"] == "layoutlmv3" and r["order"] == "annotation"]
for arch in archs:
    mine = [r for r in rows if r["arch"] == arch]
    if not mine:
        continue
    per_order = [stats([r["test_f1"] for r in mine if r["order"] == o]) for o in orders]
    protocol = [r["test_f1"] for r in mine if r["order"] == "annotation"]
    ratio = f"{statistics.mean(protocol) / statistics.mean(base):.3f}" if protocol and base else "—"
    seconds = statistics.mean(r["train_seconds"] for r in mine)
    print(f"| {arch} | {per_order[0]} | {per_order[1]} | {per_order[2]} | {mine[0]['params']:,} | {seconds:.0f} | {ratio} |")
