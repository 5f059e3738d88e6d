#!/usr/bin/env python3
"""Reads a committed BlendedModel (`…Model+Generated.swift`, as tempo_models.py writes it) back and
scores samples with its two parts apart: how many samples of KIND each gets right (log-odds ≥ 0
for a positive label), the blend (their mean), and never calling a positive.

  python3 scripts/fit/model_parts.py Sources/BeatTagKit/Analysis/Beats/PhaseModel+Generated.swift \\
      phase SAMPLES.jsonl [--zero startHalf]

SAMPLES.jsonl: what `beattag bench --training-data` writes. --zero FEATURE: the blend once more
with that feature set to 0 in every sample.
"""
import argparse
import json
import re

import numpy as np


def numbers(source, name):
    found = re.search(name + r":\s*\[([^\]]*)\]", source, re.S)
    return [float(x) for x in found.group(1).replace("\n", " ").split(",") if x.strip()]


def load(path):
    source = open(path).read()
    trees = source[source.index("BoostedTrees("):]
    names = re.findall(r'"([^"]+)"', source[source.index("fittedFeatures = ["):source.index("]", source.index("fittedFeatures = ["))])
    return dict(
        names=names,
        weights=np.array(numbers(source, "weights")),
        bias=float(re.search(r"bias:\s*([-0-9.e]+)\),\s*trees", source).group(1)),
        trees_bias=float(re.search(r"bias:\s*([-0-9.e]+)", trees).group(1)),
        **{k: numbers(trees, k) for k in ("roots", "feature", "threshold", "left", "right", "value")})


def parts(m, x):
    """The logistic regression's and the trees' log-odds (what `BlendedModel` averages)."""
    logistic = float(m["weights"] @ x + m["bias"])
    total = m["trees_bias"]
    for root in m["roots"]:
        i = int(root)
        while m["feature"][i] >= 0:
            go_left = np.float32(x[int(m["feature"][i])]) <= m["threshold"][i]
            i = int(m["left"][i] if go_left else m["right"][i])
        total += m["value"][i]
    return logistic, total


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("model"); a.add_argument("kind"); a.add_argument("samples")
    a.add_argument("--zero", help="a feature set to 0 for one more blended reading")
    args = a.parse_args()
    m = load(args.model)
    rows = [r for r in map(json.loads, open(args.samples)) if r.get("kind") == args.kind]
    assert rows and rows[0]["featureNames"] == m["names"], "the samples name other features than the model"
    right = dict(never=0, logistic=0, trees=0, blend=0)
    if args.zero:
        right[f"blend without {args.zero}"] = 0
    for r in rows:
        x = np.array(r["features"], dtype=float); y = bool(r["label"])
        a_, t = parts(m, x)
        right["never"] += not y
        right["logistic"] += (a_ >= 0) == y
        right["trees"] += (t >= 0) == y
        right["blend"] += ((a_ + t) / 2 >= 0) == y
        if args.zero:
            x[m["names"].index(args.zero)] = 0
            a_, t = parts(m, x)
            right[f"blend without {args.zero}"] += ((a_ + t) / 2 >= 0) == y
    print(f"{len(rows)} {args.kind} samples ({sum(bool(r['label']) for r in rows)} positive): "
          + ", ".join(f"{k} {v}" for k, v in right.items()))


if __name__ == "__main__":
    main()
