#!/usr/bin/env python3
"""Paired bootstrap of Folio's product-field F1 against the published extractors.

Usage: product_paired_bootstrap.py PREDICTIONS.json [DATASET_DIR]

PREDICTIONS.json: Folio's {page: {field: value}} file, e.g. the
ranker-predictions/rankers+structured-data.json that `folio-cli train-rankers --folds 5`
writes (cross-validated predictions). DATASET_DIR defaults to
../shared/data/product-extraction-benchmark/dataset.

Each page counts as the benchmark's scorer counts it (document/structured/benchmarkscore.cpp):
a right value is a true positive, a wrong one a false positive, and a page with a gold value
and no right answer a false negative; prices compare as decimals, sku and availability as strings.
The script first checks that these per-page counts give the published F1 of every extractor
in dataset/metrics.json (so the resampling scores exactly what the benchmark scores), then
resamples the pages 10,000 times (seed 1) and reports Folio minus each extractor with its
95 % interval and the share of resamples in which Folio is ahead.
"""
import json
import random
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path

FIELDS = ("price", "sku", "availability")
EXTRACTORS = ("Diffbot", "Zyte", "extruct")
RESAMPLES = 10000


def as_decimal(value):
    try:
        return Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        return None


def page_counts(field, value, gold):
    """(tp, fp, fn) of one page for one field."""
    if field == "price":
        right = value is not None and bool(gold) and as_decimal(value) is not None and any(
            as_decimal(value) == as_decimal(g) for g in gold)
    else:
        right = value is not None and bool(gold) and value in gold
    return (int(right), int(value is not None and not right), int(bool(gold) and not right))


def f1(rows):
    tp = sum(r[0] for r in rows)
    fp = sum(r[1] for r in rows)
    fn = sum(r[2] for r in rows)
    if tp == 0:
        return 0.0
    p, r = tp / (tp + fp), tp / (tp + fn)
    return 2 * p * r / (p + r)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    predictions = json.loads(Path(sys.argv[1]).read_text())
    data = Path(sys.argv[2] if len(sys.argv) == 3 else "../shared/data/product-extraction-benchmark/dataset")
    gold = json.loads((data / "ground-truth.json").read_text())
    published = json.loads((data / "metrics.json").read_text())
    pages = sorted(gold)
    for field in FIELDS:
        folio = [page_counts(field, predictions.get(k, {}).get(field), gold[k].get(field)) for k in pages]
        print(f"{field}: Folio F1 {f1(folio):.3f} on {len(pages)} pages")
        for name in EXTRACTORS:
            output = json.loads((data / "output" / f"{name}.json").read_text())
            theirs = [page_counts(field, output.get(k, {}).get(field), gold[k].get(field)) for k in pages]
            expected = published[name][field]["f1"]
            if abs(f1(theirs) - expected) > 5e-4:
                sys.exit(f"{name} {field}: per-page counts give F1 {f1(theirs):.4f}, metrics.json says {expected:.4f}")
            rng = random.Random(1)
            diffs = []
            for _ in range(RESAMPLES):
                sample = [rng.randrange(len(pages)) for _ in pages]
                diffs.append(f1([folio[i] for i in sample]) - f1([theirs[i] for i in sample]))
            diffs.sort()
            ahead = sum(d > 0 for d in diffs) / RESAMPLES
            low, high = diffs[int(0.025 * RESAMPLES)], diffs[int(0.975 * RESAMPLES) - 1]
            print(f"  vs {name:8s} {expected:.3f}: difference {f1(folio) - expected:+.3f}, "
                  f"95% interval [{low:+.3f}, {high:+.3f}], Folio ahead in {100 * ahead:.0f}% of resamples")


if __name__ == "__main__":
    main()
