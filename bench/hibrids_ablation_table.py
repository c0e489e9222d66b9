#!/usr/bin/env python3
"""Table of bench/hibrids_ablation.sh: mean +- sd (sample, n-1) over seeds per metric per arm, val and test."""
import glob, json, os, statistics, sys

out = sys.argv[1]
METRICS = ["rouge1", "rouge2", "rougeLsum", "question_bleu4", "hierarchy_f1"]
runs = {}
for path in sorted(glob.glob(os.path.join(out, "*-s*-*.json"))):
    base = os.path.basename(path)[:-5]
    if base.endswith("-train"):
        continue
    name, split = base.rsplit("-", 1)
    arm, seed = name.rsplit("-s", 1)
    with open(path) as f:
        j = json.load(f)
    runs.setdefault((arm, split), {})[seed] = j["model"]
    train = os.path.join(out, name + "-train.json")
    if os.path.exists(train):
        with open(train) as f:
            runs[(arm, split)][seed]["_train"] = json.load(f)

def fmt(xs, digits=2):
    if not xs:
        return "-"
    if len(xs) == 1:
        return "%.*f" % (digits, xs[0])
    return "%.*f ± %.*f" % (digits, statistics.mean(xs), digits, statistics.stdev(xs))

keys = None
for (arm, split), seeds in sorted(runs.items(), key=lambda kv: (kv[0][1] != "val", kv[0][0])):
    first = next(iter(seeds.values()))
    if keys is None:
        keys = [k for k in METRICS if k in first] or [k for k, v in first.items() if isinstance(v, (int, float)) and k != "beams"]
        print("| split | arm | seeds | " + " | ".join(keys) + " | best dev loss | train s |")
        print("|---" * (len(keys) + 5) + "|")
    cols = [fmt([float(s[k]) for s in seeds.values() if k in s]) for k in keys]
    dev = fmt([float(s["_train"]["best_dev_loss"]) for s in seeds.values() if "_train" in s], 4)
    secs = fmt([float(s["_train"]["seconds"]) for s in seeds.values() if "_train" in s], 0)
    print("| %s | %s | %s | %s | %s | %s |" % (split, arm, ",".join(sorted(seeds)), " | ".join(cols), dev, secs))

# Paired by seed: arm minus "none" (same seed = same base initialisation and example order).
print()
print("| split | arm − none, paired by seed | " + " | ".join(keys or []) + " |")
print("|---" * (len(keys or []) + 2) + "|")
for (arm, split), seeds in sorted(runs.items(), key=lambda kv: (kv[0][1] != "val", kv[0][0])):
    base = runs.get(("none", split), {})
    if arm == "none" or not base:
        continue
    common = sorted(set(seeds) & set(base))
    cols = [fmt([float(seeds[s][k]) - float(base[s][k]) for s in common]) for k in keys]
    print("| %s | %s (seeds %s) | %s |" % (split, arm, ",".join(common), " | ".join(cols)))
