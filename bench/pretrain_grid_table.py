"""Markdown table of bench_pretrain_grid.sh's runs: FUNSD test entity F1 (and dev F1) per start
(scratch / pretrained) and word order, mean +- sd over the seeds, and the per-seed values.
Run folders are <start>-<order>-s<seed> with <name>-test.json beside them."""
import glob
import json
import os
import re
import statistics
import sys

def collect_runs(out):
    """{(start, order): [(seed, best dev F1, test F1), ...]} over OUT's runs with a non-empty test JSON."""
    runs = {}
    for test in sorted(glob.glob(os.path.join(out, "*-test.json"))):
        name = os.path.basename(test)[: -len("-test.json")]
        m = re.fullmatch(r"(\w+)-(reading|annotation|layout)-s(\d+)", name)
        if not m or os.path.getsize(test) == 0:
            continue
        with open(os.path.join(out, name, "folio.json")) as f:
            dev = json.load(f)["best_dev_f1"]
        with open(test) as f:
            f1 = json.load(f)["f1"]
        runs.setdefault((m.group(1), m.group(2)), []).append((int(m.group(3)), dev, f1))
    return runs


def stats(values):
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"{100 * statistics.mean(values):.1f} ± {100 * sd:.1f}"


def main():
    runs = collect_runs(sys.argv[1])
    print("| start | word order | seeds | dev F1 | **test F1** | test F1 per seed |")
    print("|---|---|---|---|---|---|")
    for (start, order), values in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        values.sort()
        per_seed = ", ".join(f"s{s}: {100 * f1:.1f}" for s, _, f1 in values)
        print(f"| {start} | {order} | {len(values)} | {stats([d for _, d, _ in values])} | "
              f"**{stats([f for _, _, f in values])}** | {per_seed} |")


if __name__ == "__main__":
    main()
