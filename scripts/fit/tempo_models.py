#!/usr/bin/env python3
"""Fits the eight small models of beattag's tempo and beat stages (run through scripts/fit/refit.sh).

  family      FamilyDecision: P(candidate holds the annotated tempo up to a power of two) per
              family candidate; a song's family is its best-scored candidate.
  octave      OctaveDecision: P(faster level is the beat) per octave pair.
  triple      TripleDecision: P(faster level is the beat) per pair a factor of three apart.
  hemiola     HemiolaDecision: P(faster level is the beat) per pair three to two apart.
  phase       BeatPhase: P(the half-beats, not the tracked beats, are the beat) per clip read at
              the right tempo.
  sixteenth   SixteenthShift: P(the beats moved a sixteenth (SixteenthShift.candidateMoves), later or earlier, are better)
              per move and clip read at the right tempo.
              (These six read the samples `beattag bench --training-data FILE` writes.)
              For them --trees (what the analysis uses: family and octave since version 16, phase
              since 19, triple since 22, hemiola since 30) fits the logistic regression and
              gradient-boosted shallow trees on the same features, whose log-odds the analysis
              averages (BlendedModel). Needs scikit-learn.
  confidence  ConfidenceEvidence: P(tempo within 4%) from the per-clip `confidenceFeatures` in
              `beattag bench --json` output.
  activation  BeatActivation: P(a beat falls on this onset frame), from the `activation` samples of
              several sources (NAME=FILE each: generated songs, real recordings' fit splits), every
              source weighted the same; reported leave-one-source-out.

Every model is written as Swift source, `MODELS[model]`'s `…+Generated.swift` file (or --swift
FILE), with the names of the features it was fitted on, read from the samples (the analysis's own
`featureNames`): on first use the analysis checks them against what its code computes, by name
(`FittedModel.load`). Without --trees, an L2-regularised logistic regression on standardised
features, folded back to raw features. Samples are weighted so that the songs have the tempo
shape of a real library (`TempoPrior.library`, which bench writes into its output as
`libraryShape`: the one definition), so the fitted tempo terms act as a prior for real music, not
for the corpus (--uniform: every sample alike, used for the phase and sixteenth). Never fit on a
held-out split: pass it with --check to see the held-out score.

Usage:
  python3 scripts/fit/tempo_models.py family|octave|triple|hemiola|phase|sixteenth TRAIN.jsonl [--check HOLDOUT.jsonl] [--l2 1.0] [--uniform] [--swift FILE.swift]
  python3 scripts/fit/tempo_models.py family|octave|triple|hemiola|phase TRAIN.jsonl --trees [--swift FILE.swift] [--check HOLDOUT.jsonl] [--l2 10] [--estimators 150]
  python3 scripts/fit/tempo_models.py confidence CALIBRATION_BENCH.json [--check HOLDOUT_BENCH.json] [--l2 1.0] [--swift FILE.swift]
  python3 scripts/fit/tempo_models.py activation NAME=SAMPLES.jsonl NAME=SAMPLES.jsonl ... [--l2 1.0] [--swift FILE.swift]
"""
import argparse
import json
import math
import sys

import numpy as np

# Where each model is written, and the Swift type it extends (`FittedModel.load` checks its feature
# names against that type's `featureNames`).
MODELS = {
    "family": ("FamilyDecision", "Sources/BeatTagKit/Analysis/Tempo/FamilyModel+Generated.swift"),
    "octave": ("OctaveDecision", "Sources/BeatTagKit/Analysis/Tempo/OctaveModel+Generated.swift"),
    "triple": ("TripleDecision", "Sources/BeatTagKit/Analysis/Tempo/TripleModel+Generated.swift"),
    "hemiola": ("HemiolaDecision", "Sources/BeatTagKit/Analysis/Tempo/HemiolaModel+Generated.swift"),
    "phase": ("BeatPhase", "Sources/BeatTagKit/Analysis/Beats/PhaseModel+Generated.swift"),
    "sixteenth": ("SixteenthShift", "Sources/BeatTagKit/Analysis/Beats/SixteenthModel+Generated.swift"),
    "confidence": ("ConfidenceEvidence", "Sources/BeatTagKit/Analysis/Tempo/ConfidenceModel+Generated.swift"),
    "activation": ("BeatActivation", "Sources/BeatTagKit/Analysis/Beats/BeatActivationModel+Generated.swift"),
}


def library_shape(rows):
    """TempoPrior.library as bench writes it (`libraryShape`: [upper bound or null, share] per
    range): the one definition, in Swift; never a copy here. All inputs must agree."""
    shapes = {json.dumps(r["libraryShape"]) for r in rows if "libraryShape" in r}
    if len(shapes) != 1:
        sys.exit(f"tempo_models: expected one libraryShape in the input, found {len(shapes)} (collect it with this build's bench)")
    return [(math.inf if up is None else up, share) for up, share in json.loads(shapes.pop())]


def library_weights(references, shape, songs=None):
    """Per-sample weights that give the songs the library's tempo shape. `songs` (one id per sample)
    makes every song count once, however many samples it has."""
    def bucket(bpm):
        return next(i for i, (up, _) in enumerate(shape) if bpm < up)
    songs = songs if songs is not None else list(range(len(references)))
    per_song = {}
    for s, r in zip(songs, references):
        per_song.setdefault(s, [r, 0])[1] += 1
    counts = np.zeros(len(shape))
    for r, _ in per_song.values():
        counts[bucket(r)] += 1
    n = len(per_song)
    w = np.array([shape[bucket(r)][1] / (counts[bucket(r)] / n) / per_song[s][1] for s, r in zip(songs, references)])
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


def swift_logistic(w, b):
    """A `LogisticModel` literal over `fittedFeatures`, indented as a static member's argument."""
    return ("LogisticModel(\n        features: fittedFeatures,\n        weights: [" + ", ".join(f"{x:.4f}" for x in w)
            + f"],\n        bias: {b:.4f})")


def swift_names(names):
    return ",\n".join("        " + ", ".join(f'"{n}"' for n in names[i:i + 6]) for i in range(0, len(names), 6))


def write_swift(model, names, logistic, nodes, summary, path=None):
    """Writes the model as `MODELS[model]`'s generated Swift file: the logistic regression, and with
    `nodes` the gradient-boosted trees averaged with it (BlendedModel), over the named features."""
    owner, default_path = MODELS[model]
    path = path or default_path
    assert len(names) == len(logistic[0]), f"{len(names)} feature names for {len(logistic[0])} weights"
    if nodes is not None:
        assert nodes["features"] == len(names), f"trees fitted on {nodes['features']} features, {len(names)} named"
        what = f"""    /// A logistic regression and {len(nodes["roots"])} gradient-boosted trees over `fittedFeatures`, averaged
    /// (see `BlendedModel` and docs/tempo.md).
    static let fitted = BlendedModel(logistic: {swift_logistic(*logistic)}, trees: trees)"""
    else:
        what = f"""    /// A logistic regression over `fittedFeatures` (docs/tempo.md).
    static let fitted = {swift_logistic(*logistic)}"""
    text = f"""// Generated by `python3 scripts/fit/tempo_models.py {model} …` (scripts/fit/refit.sh): do not edit by hand.
// {summary}

extension {owner} {{
{what}

    /// The features the model was fitted on, in order: `FittedModel.load` checks them against `featureNames`.
    static let fittedFeatures = [
{swift_names(names)}]
"""
    if nodes is not None:
        text += f"""
    private static let trees = BoostedTrees(
        features: fittedFeatures,
        bias: {nodes["bias"]!r},
        roots: [
{ints(nodes["roots"])}],
        feature: [
{ints(nodes["feature"])}],
        threshold: [
{floats(nodes["threshold"])}],
        left: [
{ints(nodes["left"])}],
        right: [
{ints(nodes["right"])}],
        value: [
{floats(nodes["value"])}])
"""
    with open(path, "w") as f:
        f.write(text + "}\n")
    print(f"wrote {path}")


def floats(xs):
    return ",\n".join("        " + ", ".join(repr(float(v)) for v in xs[i:i + 8]) for i in range(0, len(xs), 8))


def ints(xs):
    return ",\n".join("        " + ", ".join(str(v) for v in xs[i:i + 20]) for i in range(0, len(xs), 20))


def predict(w, b, X):
    return 1 / (1 + np.exp(-(X @ w + b)))


def load_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def load_samples(path, kind):
    """Features, labels (0/1), song of each sample, the annotated tempo of each sample's song, the
    feature names (the same for every sample, or the input mixes builds) and the library shape."""
    lines = load_jsonl(path)
    rows = [r for r in lines if r.get("kind") == kind]
    if not rows:
        sys.exit(f"tempo_models: no {kind} samples in {path}")
    names = {tuple(r["featureNames"]) for r in rows}
    if len(names) != 1:
        sys.exit(f"tempo_models: the {kind} samples in {path} name {len(names)} different feature lists (collected by different builds?)")
    X = np.array([r["features"] for r in rows], dtype=float)
    y = np.array([1.0 if r["label"] else 0.0 for r in rows])
    return X, y, [r["file"] for r in rows], [r["reference"] for r in rows], list(names.pop()), library_shape(lines)


def sample_weights(args, files, references, shape):
    """The library-shape weights (or ones with --uniform), times --weight PREFIX=W for the samples
    whose file starts with PREFIX (refit.sh prefixes each corpus's files with its index)."""
    w = np.ones(len(files)) if args.uniform else library_weights(references, shape, files)
    for spec in getattr(args, "weight", None) or []:
        prefix, _, factor = spec.partition("=")
        w = w * np.array([float(factor) if f.startswith(prefix) else 1.0 for f in files])
    return w


def top1(scores, labels, songs):
    """Songs whose best-scored sample is labelled right (for `family`: the song's chosen family)."""
    best = {}
    for i, s in enumerate(songs):
        if s not in best or scores[i] > scores[best[s]]:
            best[s] = i
    return int(sum(labels[i] for i in best.values()))


def confusion(p, y):
    """How many positives were found and how many negatives were called positive (at p >= 0.5)."""
    called = p >= 0.5
    return (f"positives found {int((called & (y == 1)).sum())}/{int(y.sum())}, "
            f"negatives called positive {int((called & (y == 0)).sum())}/{int((y == 0).sum())}")


def binary(args):
    X, y, files, references, names, shape = load_samples(args.samples, args.model)
    w = sample_weights(args, files, references, shape)
    mean, sd = standardise(X)
    Z = (X - mean) / sd
    # Leave one song out: all of a song's samples leave together. For `family` what counts is
    # whether the song's best-scored candidate is in the right family (top-1), else each sample.
    p = np.zeros(len(y))
    for f in sorted(set(files)):
        test = np.array([g == f for g in files])
        beta = fit_logistic(Z[~test], y[~test], w[~test], args.l2)
        p[test] = 1 / (1 + np.exp(-(np.hstack([Z[test], np.ones((test.sum(), 1))]) @ beta)))
    right = float(((p >= 0.5) == (y == 1)).sum())
    if args.model == "family":
        print(f"tune: leave-one-song-out top-1 {top1(p, y, files)}/{len(set(files))} songs; "
              f"songs with the right family among the candidates: {len(set(f for f, t in zip(files, y) if t))}")
    beta = fit_logistic(Z, y, w, args.l2)
    wf, bf = folded(beta, mean, sd)
    print(f"tune: {len(y)} {args.model} samples ({int(y.sum())} positive) from {len(set(files))} songs; leave-one-song-out {right:.0f}/{len(y)} "
          f"({100 * right / len(y):.1f}%): {confusion(p, y)}")
    print("standardised weights:", ", ".join(f"{n} {x:+.2f}" for n, x in zip(names, beta[:-1])))
    if args.check:
        Xc, yc, fc, _, check_names, _ = load_samples(args.check, args.model)
        assert check_names == names, "the check samples name other features"
        pc = predict(wf, bf, Xc)
        print(f"check: {int(((pc >= 0.5) == (yc == 1)).sum())}/{len(yc)} samples right: {confusion(pc, yc)}")
        if args.model == "family":
            print(f"check: top-1 {top1(pc, yc, fc)}/{len(set(fc))} songs")
    summary = (f"Training: {len(y)} {args.model} samples ({int(y.sum())} positive) from {len(set(files))} songs, L2 {args.l2}; "
               f"leave-one-song-out {right:.0f}/{len(y)} right.")
    write_swift(args.model, names, (wf, bf), None, summary, args.swift)


# The trees of `family|octave --trees`. Shallow trees and a small learning rate: chosen by 10-fold
# cross-validation over the training songs (songs kept whole), never on a held-out split.
# --estimators: more trees where the samples bear them (the octave model since version 40: 10-fold on
# its 1,035 pairs, 972 right with 150 trees, 984 with 300, 990 with 600; library-weighted error 4.7%,
# 3.9%, 3.5%).
TREE_PARAMS = dict(n_estimators=150, max_depth=3, learning_rate=0.05, min_samples_leaf=8, random_state=0)


def fit_trees(X, y, w, estimators=None):
    from sklearn.ensemble import GradientBoostingClassifier
    params = dict(TREE_PARAMS, **({"n_estimators": estimators} if estimators else {}))
    return GradientBoostingClassifier(**params).fit(X, y, sample_weight=w)


def tree_nodes(model, X):
    """The ensemble as flat node arrays (feature, threshold, left, right, value), every tree's
    leaves already scaled by the learning rate, and the starting log-odds (read off one sample of
    `X`: its decision function less what the trees add)."""
    feature, threshold, left, right, value, roots = [], [], [], [], [], []
    for estimator in model.estimators_[:, 0]:
        t = estimator.tree_
        base = len(feature)
        roots.append(base)
        for i in range(t.node_count):
            leaf = t.children_left[i] == -1
            feature.append(-1 if leaf else int(t.feature[i]))
            threshold.append(0.0 if leaf else float(t.threshold[i]))
            left.append(-1 if leaf else base + int(t.children_left[i]))
            right.append(-1 if leaf else base + int(t.children_right[i]))
            value.append(float(t.value[i].ravel()[0]) * model.learning_rate if leaf else 0.0)
    x = X[:1]
    init = float(model.decision_function(x)[0]) - sum(model.learning_rate * float(e.predict(x)[0]) for e in model.estimators_[:, 0])
    return dict(feature=feature, threshold=threshold, left=left, right=right, value=value, roots=roots, bias=init,
                features=int(model.n_features_in_))


def tree_logit(nodes, x):
    """What `BoostedTrees.logit` computes (sklearn's trees compare float32 features)."""
    total = nodes["bias"]
    for i in nodes["roots"]:
        while nodes["feature"][i] >= 0:
            i = nodes["left"][i] if np.float32(x[nodes["feature"][i]]) <= nodes["threshold"][i] else nodes["right"][i]
        total += nodes["value"][i]
    return total


class Blend:
    """What BlendedModel computes: the mean of the logistic regression's and the trees' log-odds.
    Trees alone fit the training generator best but are over-sure on music unlike it; the logistic
    alone cannot combine evidence (a half-time feel means "fast" only at some tempi); the mean was
    better calibrated than either on corpus-dev left out of the fit."""

    def __init__(self, X, y, w, l2, estimators=None):
        mean, sd = standardise(X)
        self.logistic = folded(fit_logistic((X - mean) / sd, y, w, l2), mean, sd)
        self.trees = fit_trees(X, y, w, estimators)

    def parts(self, X):
        return X @ self.logistic[0] + self.logistic[1], self.trees.decision_function(X)


def trees(args):
    from sklearn.model_selection import GroupKFold
    X, y, files, references, names, shape = load_samples(args.samples, args.model)
    w = sample_weights(args, files, references, shape)

    def right(z, labels, songs):
        """Family: songs whose best candidate is right. The others: samples on the right side of 0.5."""
        return int(((z >= 0) == (labels == 1)).sum()) if args.model != "family" else top1(z, labels, songs)
    unit = {"family": "songs (top-1)", "octave": "pairs", "triple": "pairs", "hemiola": "pairs", "phase": "clips"}.get(args.model, "samples")
    folds = np.zeros((3, len(y)))
    for train, test in GroupKFold(n_splits=10).split(X, y, files):
        a, b = Blend(X[train], y[train], w[train], args.l2, args.estimators).parts(X[test])
        folds[:, test] = [a, b, (a + b) / 2]
    scores = [right(z, y, files) for z in folds]
    total = len(y) if args.model != "family" else len(set(files))
    summary = (f"Training: {len(y)} {args.model} samples from {len(set(files))} songs; 10-fold (songs whole), {unit} right "
               f"of {total}: logistic {scores[0]}, trees {scores[1]}, their mean {scores[2]}.")
    print("tune: " + summary)
    blend = Blend(X, y, w, args.l2, args.estimators)
    nodes = tree_nodes(blend.trees, X)
    # The flat form must give what scikit-learn gives, or the Swift side would not be this model.
    drift = max(abs(tree_logit(nodes, x) - d) for x, d in zip(X, blend.trees.decision_function(X)))
    assert drift < 1e-9, f"flattened trees differ from the fitted ensemble by {drift}"
    if args.check:
        Xc, yc, fc, _, check_names, _ = load_samples(args.check, args.model)
        assert check_names == names, "the check samples name other features"
        a, b = blend.parts(Xc)
        got = [right(z, yc, fc) for z in (a, b, (a + b) / 2)]
        print(f"check: {unit} right of {len(yc) if args.model != 'family' else len(set(fc))}: "
              f"logistic {got[0]}, trees {got[1]}, their mean {got[2]}")
    write_swift(args.model, names, blend.logistic, nodes, summary, args.swift)
    print(f"  the logistic model and {len(nodes['roots'])} trees ({len(nodes['feature'])} nodes)")


def bench_reports(path):
    """The JSON reports `beattag bench --json` printed into `path`, one after another."""
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
    return reports


def confidence_rows(path):
    """(features, right within 4%, annotated tempo) per analysed clip, the feature names and the
    library shape: the features as the analysis computes them (`confidenceFeatures`), not a copy."""
    reports = bench_reports(path)
    names = {tuple(r["confidenceFeatureNames"]) for r in reports}
    if len(names) != 1:
        sys.exit(f"tempo_models: {path} holds {len(names)} confidence feature lists (reports of different builds?)")
    rows = [(c["confidenceFeatures"], abs(c["estimate"] / c["reference"] - 1) <= 0.04, c["reference"])
            for report in reports for c in report["clips"]
            if c.get("estimate") is not None and c.get("confidenceFeatures") is not None]
    return rows, list(names.pop()), library_shape(reports)


def confidence(args):
    rows, names, shape = confidence_rows(args.bench)
    X = np.array([r[0] for r in rows])
    y = np.array([1.0 if r[1] else 0.0 for r in rows])
    w = library_weights([r[2] for r in rows], shape)
    mean, sd = standardise(X)
    beta = fit_logistic((X - mean) / sd, y, w, args.l2)
    wf, bf = folded(beta, mean, sd)
    print(f"tune: {len(rows)} clips, {int(y.sum())} right")
    octave = names.index("octaveLogit")
    for name, path in [("tune", args.bench)] + ([("check", args.check)] if args.check else []):
        r, check_names, _ = confidence_rows(path)
        assert check_names == names, "the check reports name other features"
        # As ConfidenceEvidence.confidence: never above the octave's probability.
        p = np.minimum(predict(wf, bf, np.array([x[0] for x in r])), 1 / (1 + np.exp(-np.array([x[0][octave] for x in r]))))
        ok = np.array([x[1] for x in r])
        # The bins of ConfidenceReliability.edges.
        for lo, hi in [(0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 0.9), (0.9, 1.01)]:
            m = (p >= lo) & (p < hi)
            if m.any():
                print(f"  {name} conf {lo:.1f}-{min(hi, 1):.1f}: n={m.sum()} right={ok[m].mean():.2f}")
        trusted = p >= 0.8
        if trusted.any():
            print(f"  {name}: right at >= 0.8: {ok[trusted].mean():.3f} (n={trusted.sum()})")
    summary = f"Calibration: {len(rows)} clips ({int(y.sum())} right) of songs the other models never saw, L2 {args.l2}."
    write_swift("confidence", names, (wf, bf), None, summary, args.swift)


def activation(args):
    """One logistic regression over every source's frames, each source weighing the same in all (a
    real set of 55 clips as much as 240 generated songs), its positives and negatives as sampled.
    Reported per source when that source is left out of the fit: how the activation does on music
    of a kind it has not seen (the log-loss and the area under the ROC curve, threshold-free)."""
    sources = []
    for spec in args.sources:
        name, _, path = spec.partition("=")
        if not path:
            sys.exit(f"tempo_models: activation sources are NAME=FILE, not {spec!r}")
        X, y, files, _, names, _ = load_samples(path, "activation")
        sources.append((name, X, y, names))
    if len({tuple(s[3]) for s in sources}) != 1:
        sys.exit("tempo_models: the activation sources name different feature lists (collected by different builds?)")
    names = sources[0][3]

    def fit(parts):
        X = np.vstack([p[1] for p in parts])
        y = np.concatenate([p[2] for p in parts])
        w = np.concatenate([np.full(len(p[2]), 1.0 / len(p[2])) for p in parts])
        mean, sd = standardise(X)
        beta = fit_logistic((X - mean) / sd, y, w / w.mean(), args.l2)
        return folded(beta, mean, sd)

    def auc(p, y):
        from sklearn.metrics import roc_auc_score
        return roc_auc_score(y, p) if 0 < y.sum() < len(y) else float("nan")

    report = []
    for i, (name, X, y, _) in enumerate(sources if len(sources) > 1 else []):
        w, b = fit([s for j, s in enumerate(sources) if j != i])
        p = np.clip(predict(w, b, X), 1e-9, 1 - 1e-9)
        loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
        report.append(f"{name} AUC {auc(p, y):.3f}")
        print(f"{name} left out: {len(y)} frames ({int(y.sum())} on a beat), AUC {auc(p, y):.3f}, log-loss {loss:.3f}")
    w, b = fit(sources)
    total = sum(len(s[2]) for s in sources)
    summary = (f"Training: {total} frames of {len(sources)} sources ({', '.join(s[0] for s in sources)}), each weighing the same, "
               f"L2 {args.l2}" + (f"; each source left out: {', '.join(report)}." if report else "."))
    write_swift("activation", names, (w, b), None, summary, args.swift)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="model", required=True)
    for name in ["family", "octave", "triple", "hemiola", "phase", "sixteenth"]:
        o = sub.add_parser(name)
        o.add_argument("samples")
        o.add_argument("--check")
        o.add_argument("--l2", type=float, default=1.0)
        o.add_argument("--uniform", action="store_true", help="weight every sample alike (not to the library shape)")
        o.add_argument("--weight", action="append", metavar="PREFIX=W",
                       help="multiply the weight of the samples whose file starts with PREFIX by W (repeatable)")
        o.add_argument("--trees", action="store_true", help="the logistic regression and gradient-boosted trees, averaged")
        o.add_argument("--swift", help="write the model here instead of its place in Sources/ (MODELS)")
        o.add_argument("--estimators", type=int, help=f"with --trees: how many trees (default {TREE_PARAMS['n_estimators']})")
    c = sub.add_parser("confidence")
    c.add_argument("--swift", help="write the model here instead of its place in Sources/ (MODELS)")
    c.add_argument("bench")
    c.add_argument("--check")
    c.add_argument("--l2", type=float, default=1.0)
    a = sub.add_parser("activation")
    a.add_argument("sources", nargs="+", metavar="NAME=FILE")
    a.add_argument("--l2", type=float, default=1.0)
    a.add_argument("--swift", help="write the model here instead of its place in Sources/ (MODELS)")
    args = parser.parse_args()
    if args.model == "activation":
        activation(args)
    elif args.model == "confidence":
        confidence(args)
    elif getattr(args, "trees", False):
        trees(args)
    else:
        binary(args)


if __name__ == "__main__":
    sys.exit(main())
