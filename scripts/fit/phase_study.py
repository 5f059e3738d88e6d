#!/usr/bin/env python3
"""Offline study of the phase model (BeatPhase): which features and how much real music to fit on,
judged on generated songs left out and on real clips left out one at a time.

    PYTHON=/usr/bin/python3 $PYTHON scripts/fit/phase_study.py --train T.jsonl ... --check C.jsonl ... \
        [--real R.jsonl ...] [--drop NAME[,NAME...] ...] [--real-weight 0 5 20]

T, C and R are `beattag bench --training-data` outputs (their `phase` samples: the features of the
tracked beats and whether moving them half a beat makes the beat F better). Each --drop set (and
"none") is fitted as `tempo_models.py phase --uniform --trees` fits (a `Blend`, l2 0.3) on the train
samples plus the real ones at each --real-weight, and reports: on the check samples, decisions
right; on the real samples, decisions right when each clip is left out of the fit (leave one out),
the shifts found of those that need one, and the false shifts; and where the real files hold
`phaseAnnotated` samples (the same features read on the annotated beats and on their half-beats),
how many annotated grids the model keeps and how many half-beat grids it moves: the evidence
itself, apart from where the tracker put the beats (read by the model fitted with every real clip
at that weight: at a weight above 0, on clips whose tracked samples it was fitted on). The
numbers choose nothing by themselves: a change still has to hold on fresh seeds and real clips that were not read here
(docs/benchmark.md, "Why the phase model moves right grids on real blues").
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tempo_models as tm  # noqa: E402


def load(paths, kind="phase"):
    """The `kind` samples of several files (`tempo_models.load_samples`, which checks each file's
    feature names), stacked; every file must name the same features."""
    parts = [tm.load_samples(path, kind) for path in paths]
    names = parts[0][4]
    for path, part in zip(paths, parts):
        if part[4] != names:
            sys.exit(f"phase_study: {path} names other features (collected by another build?)")
    return np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts]), names


def probability(model, X):
    logistic, trees = model.parts(X)
    return 1 / (1 + np.exp(-(logistic + trees) / 2))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--check", nargs="+", required=True)
    ap.add_argument("--real", nargs="*", default=[])
    ap.add_argument("--drop", nargs="*", default=[], help="comma-separated feature names to leave out, one set per value")
    ap.add_argument("--real-weight", nargs="*", type=float, default=[0.0])
    args = ap.parse_args()

    Xt, yt, names = load(args.train)
    Xc, yc, check_names = load(args.check)
    if check_names != names:
        sys.exit("phase_study: the check samples name other features than the train samples")
    empty = (np.zeros((0, len(names))), np.zeros(0), names)
    Xr, yr, real_names = load(args.real) if args.real else empty
    if real_names != names:
        sys.exit("phase_study: the real samples name other features than the train samples")
    annotated = [path for path in args.real if any(r.get("kind") == "phaseAnnotated" for r in tm.load_jsonl(path))]
    Xa, ya, annotated_names = load(annotated, "phaseAnnotated") if annotated else empty
    if annotated_names != names:
        sys.exit("phase_study: the real files' phaseAnnotated samples name other features than the train samples")
    print(f"train {len(yt)} samples ({int(yt.sum())} shifts), check {len(yc)} ({int(yc.sum())}), real {len(yr)} ({int(yr.sum())})")
    for drop in [""] + args.drop:
        gone = {n for n in drop.split(",") if n}
        unknown = gone - set(names)
        if unknown:
            sys.exit(f"phase_study: no feature named {', '.join(sorted(unknown))}")
        keep = [i for i, n in enumerate(names) if n not in gone]
        for weight in args.real_weight:
            def fit(X, y, w):
                return tm.Blend(X[:, keep], y, w, 0.3)
            X = np.vstack([Xt, Xr])
            y = np.concatenate([yt, yr])
            w = np.concatenate([np.ones(len(yt)), np.full(len(yr), weight)])
            model = fit(X, y, w)
            check = probability(model, Xc[:, keep]) >= 0.5
            line = f"drop {drop or 'none':34s} real weight {weight:4g}: check {int((check == (yc == 1)).sum())}/{len(yc)}"
            if len(ya):
                moved = probability(model, Xa[:, keep]) >= 0.5
                line += (f"; annotated grids kept {int((~moved & (ya == 0)).sum())}/{int((ya == 0).sum())},"
                         f" half-beat grids moved {int((moved & (ya == 1)).sum())}/{int(ya.sum())}")
            if len(yr):
                left_out = np.zeros(len(yr), dtype=bool)
                for i in range(len(yr)):
                    rest = np.arange(len(yr)) != i
                    model = fit(np.vstack([Xt, Xr[rest]]), np.concatenate([yt, yr[rest]]),
                                np.concatenate([np.ones(len(yt)), np.full(rest.sum(), weight)]))
                    left_out[i] = probability(model, Xr[i:i + 1, keep])[0] >= 0.5
                line += (f"; real, each left out: {int((left_out == (yr == 1)).sum())}/{len(yr)}"
                         f" (shifts found {int((left_out & (yr == 1)).sum())}/{int(yr.sum())},"
                         f" false shifts {int((left_out & (yr == 0)).sum())})")
            print(line, flush=True)


if __name__ == "__main__":
    main()
