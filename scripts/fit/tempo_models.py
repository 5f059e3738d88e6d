#!/usr/bin/env python3
"""Fits the four small models of beattag's tempo stage (run through scripts/fit/refit.sh).

  family      FamilyDecision: P(candidate holds the annotated tempo up to a power of two) per
              family candidate; a song's family is its best-scored candidate.
  octave      OctaveDecision: P(faster level is the beat) per octave pair.
  phase       BeatPhase: P(the half-beats, not the tracked beats, are the beat) per clip read at
              the right tempo.
              (These three read the samples `beattag bench --training-data FILE` writes.)
  confidence  ConfidenceEvidence: P(tempo within 4%) from the per-clip evidence in
              `beattag bench --json` output.

All four are L2-regularised logistic regressions on standardised features, printed folded back to
raw features as Swift literals to paste into the source. Samples are weighted so that the songs have
the tempo shape of a real library (TempoPrior.library in the Swift code), so the fitted tempo terms
act as a prior for real music, not for the corpus (--uniform: every sample alike, used for the
phase). Never fit on a held-out split: pass it with --check to see the held-out score.

Usage:
  python3 scripts/fit/tempo_models.py family|octave|phase TRAIN.jsonl [--check HOLDOUT.jsonl] [--l2 1.0] [--uniform]
  python3 scripts/fit/tempo_models.py confidence CALIBRATION_BENCH.json [--check HOLDOUT_BENCH.json] [--l2 1.0]
"""
import argparse
import json
import math
import sys

import numpy as np

# Mirrors TempoPrior.library: (upper bound, exclusive; share of a library).
LIBRARY_SHAPE = [(100, 0.25), (140, 0.55), (170, 0.15), (math.inf, 0.05)]


def bucket(bpm):
    return next(i for i, (up, _) in enumerate(LIBRARY_SHAPE) if bpm < up)


def library_weights(references, songs=None):
    """Per-sample weights that give the songs the library's tempo shape. `songs` (one id per sample)
    makes every song count once, however many samples it has."""
    songs = songs if songs is not None else list(range(len(references)))
    per_song = {}
    for s, r in zip(songs, references):
        per_song.setdefault(s, [r, 0])[1] += 1
    counts = np.zeros(len(LIBRARY_SHAPE))
    for r, _ in per_song.values():
        counts[bucket(r)] += 1
    n = len(per_song)
    w = np.array([LIBRARY_SHAPE[bucket(r)][1] / (counts[bucket(r)] / n) / per_song[s][1] for s, r in zip(songs, references)])
    return w / w.mean()


def fit_logistic(X, y, w, l2):
    """Weighted L2 logistic regression by Newton's method; X standardised, no penalty on the bias."""
    n, d = X.shape
    A = np.hstack([X, np.ones((n, 1))])
    beta = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0
    for _ in range(100):
        p = 1 / (1 + np.exp(-A @ beta))
        grad = A.T @ (w * (p - y)) + penalty * beta
        H = (A * (w * p * (1 - p))[:, None]).T @ A + np.diag(penalty + 1e-9)
        step = np.linalg.solve(H, grad)
        beta -= step
        if np.abs(step).max() < 1e-10:
            break
    return beta


def standardise(X):
    mean, sd = X.mean(axis=0), X.std(axis=0)
    sd[sd < 1e-9] = 1
    return mean, sd


def folded(beta, mean, sd):
    w = beta[:-1] / sd
    b = beta[-1] - float((beta[:-1] * mean / sd).sum())
    return w, b


def print_model(w, b):
    """The model as the Swift literal to paste (a `LogisticModel`)."""
    print("static let model = LogisticModel(")
    print("    weights: [" + ", ".join(f"{x:.4f}" for x in w) + "],")
    print(f"    bias: {b:.4f})")


def predict(w, b, X):
    return 1 / (1 + np.exp(-(X @ w + b)))


def load_jsonl(path, kind):
    with open(path) as f:
        return [r for r in (json.loads(line) for line in f if line.strip()) if r["kind"] == kind]


def binary(args):
    rows = load_jsonl(args.samples, args.model)
    X = np.array([r["features"] for r in rows], dtype=float)
    y = np.array([1.0 if r["label"] else 0.0 for r in rows])
    files = [r["file"] for r in rows]
    w = library_weights([r["reference"] for r in rows], files) if not args.uniform else np.ones(len(rows))
    mean, sd = standardise(X)
    Z = (X - mean) / sd
    # Leave one song out: all of a song's samples leave together. For `family` what counts is
    # whether the song's best-scored candidate is in the right family (top-1), else each sample.
    right = 0.0
    top1 = 0
    for f in sorted(set(files)):
        test = np.array([g == f for g in files])
        beta = fit_logistic(Z[~test], y[~test], w[~test], args.l2)
        p = 1 / (1 + np.exp(-(np.hstack([Z[test], np.ones((test.sum(), 1))]) @ beta)))
        right += float(((p >= 0.5) == (y[test] == 1)).sum())
        top1 += int(y[test][np.argmax(p)] == 1)
    if args.model == "family":
        print(f"tune: leave-one-song-out top-1 {top1}/{len(set(files))} songs; "
              f"songs with the right family among the candidates: {len(set(f for f, t in zip(files, y) if t))}")
    beta = fit_logistic(Z, y, w, args.l2)
    wf, bf = folded(beta, mean, sd)
    print(f"tune: {len(rows)} {args.model} samples ({int(y.sum())} positive) from {len(set(files))} songs; leave-one-song-out {right:.0f}/{len(rows)} "
          f"({100 * right / len(rows):.1f}%)")
    print("standardised weights:", ", ".join(f"{x:+.2f}" for x in beta[:-1]))
    if args.check:
        check = load_jsonl(args.check, args.model)
        Xc = np.array([r["features"] for r in check], dtype=float)
        yc = np.array([1 if r["label"] else 0 for r in check])
        pc = predict(wf, bf, Xc)
        print(f"check: {int(((pc >= 0.5) == (yc == 1)).sum())}/{len(check)} samples right")
        if args.model == "family":
            cf = [r["file"] for r in check]
            hits = sum(int(yc[[i for i, g in enumerate(cf) if g == f]][np.argmax(pc[[i for i, g in enumerate(cf) if g == f]])] == 1)
                       for f in set(cf))
            print(f"check: top-1 {hits}/{len(set(cf))} songs")
    print_model(wf, bf)


def confidence_rows(path):
    with open(path) as f:
        text = f.read()
    reports = []
    decoder = json.JSONDecoder()
    i = 0
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        obj, i = decoder.raw_decode(text, i)
        reports.append(obj)
    rows = []
    for report in reports:
        for c in report["clips"]:
            if c.get("estimate") is None or c.get("evidence") is None:
                continue
            e = c["evidence"]
            p = min(max(e["octaveProbability"], 1e-4), 1 - 1e-4)
            t = math.log2(e["bpm"] / 120)
            rows.append(([math.log(p / (1 - p)), min(e["clarity"], 6), e["familyMargin"], t, t * t],
                         abs(c["estimate"] / c["reference"] - 1) <= 0.04, c["reference"]))
    return rows


def confidence(args):
    rows = confidence_rows(args.bench)
    X = np.array([r[0] for r in rows])
    y = np.array([1.0 if r[1] else 0.0 for r in rows])
    w = library_weights([r[2] for r in rows])
    mean, sd = standardise(X)
    beta = fit_logistic((X - mean) / sd, y, w, args.l2)
    wf, bf = folded(beta, mean, sd)
    print(f"tune: {len(rows)} clips, {int(y.sum())} right")
    for name, path in [("tune", args.bench)] + ([("check", args.check)] if args.check else []):
        r = confidence_rows(path)
        # As ConfidenceEvidence.confidence: never above the octave's probability (features[0] is its log-odds).
        p = np.minimum(predict(wf, bf, np.array([x[0] for x in r])), 1 / (1 + np.exp(-np.array([x[0][0] for x in r]))))
        ok = np.array([x[1] for x in r])
        # The bins of ConfidenceReliability.edges.
        for lo, hi in [(0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 0.9), (0.9, 1.01)]:
            m = (p >= lo) & (p < hi)
            if m.any():
                print(f"  {name} conf {lo:.1f}-{min(hi, 1):.1f}: n={m.sum()} right={ok[m].mean():.2f}")
        trusted = p >= 0.8
        if trusted.any():
            print(f"  {name}: right at >= 0.8: {ok[trusted].mean():.3f} (n={trusted.sum()})")
    print_model(wf, bf)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="model", required=True)
    for name in ["family", "octave", "phase"]:
        o = sub.add_parser(name)
        o.add_argument("samples")
        o.add_argument("--check")
        o.add_argument("--l2", type=float, default=1.0)
        o.add_argument("--uniform", action="store_true", help="weight every sample alike (not to the library shape)")
    c = sub.add_parser("confidence")
    c.add_argument("bench")
    c.add_argument("--check")
    c.add_argument("--l2", type=float, default=1.0)
    args = parser.parse_args()
    confidence(args) if args.model == "confidence" else binary(args)


if __name__ == "__main__":
    sys.exit(main())
