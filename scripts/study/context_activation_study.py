#!/usr/bin/env python3
"""Offline study: does a beat activation that sees several beats of context track better?

The tracker is given the annotated period P (frames), so a frame's features may be read at
tempo-relative offsets. For frame t, besides the current per-frame features (`frame_features` of
activation_study.py, what `BeatActivation` reads; variant "base"), the variants add:
  ctx:  the four band-group novelties (their maximum within +-2 frames, for timing tolerance)
        read at t +- P/2, t +- P, t +- 2P, t +- 4P (linear interpolation between frames), and
        per band two combs: the mean at t + kP (k = +-1..+-4, "the same pattern a beat away")
        and at t + (k + 1/2)P (k = -4..3, "is t the 'and' of a stronger pulse"), and the
        novelty at t minus the half comb.
  ctx3: ctx plus the offsets +-P/3, +-2P/3 (where a shuffle's off-beats fall).
  ctxr: ctx with the offsets as differences (t minus offset): a reparametrisation, same for lr.
  ctxc: the current features plus only the combs and their contrast.
  ctx2: a second stage: the first-stage activation (logistic regression on the current
        features, as version 47 ships it, fitted on the same training sets), at t and its
        maximum within +-2 frames at the ctx offsets, with the same combs, plus the current features.
  VARIANT+hard: also every frame within one of an annotated midpoint as a negative, at weight 3.
Fitted (lr; hgb; mlp: sklearn MLPClassifier 64-32, rows resampled by weight; mlp3: the mean of
three MLPs of seeds SEED..SEED+2) on beat frames (within one frame of an annotated beat) against a
quarter of the others, every set weighing the same (as `fit_activation`). Tracked as version 47
tracks: `track(norm(body(L) + activation), P, 400)` ("mean") and on the activation alone
("learned"); "margin" is the activation's mean on the annotated beats minus on their midpoints.
Beat F +-70 ms, the first 5 s skipped (activation_study's `beat_f`).

  python3 scripts/study/context_activation_study.py --sets gtzan=… spcup=… dev=… realdev=… gen=… \
      --fold gtzan=dev,realdev,gen,spcup --fold spcup=dev,realdev,gen,gtzan --fold dev=realdev,gen,gtzan,spcup \
      [--variants base,ctx,ctx2] [--models lr,hgb,mlp3] [--seed 0] [--out results.json] [--list 8]
  python3 scripts/study/context_activation_study.py --sets x=y --fold a=b --report results*.json

Clips without a .beats file are left out. Needs numpy and scikit-learn; keep it single-threaded
(OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1).
"""
import argparse, json, os, sys, time
import numpy as np
from frontend import FPS, parse_sets, files, cached
from activation_study import (band_novelty, beat_f, body, detrend, frame_features, labels, norm, shift,
                              track)

OFFSETS = (-4, -2, -1, -0.5, 0.5, 1, 2, 4)  # in periods
THIRDS = (-2 / 3, -1 / 3, 1 / 3, 2 / 3)  # where a shuffle's off-beats fall
BEAT_COMB = (-4, -3, -2, -1, 1, 2, 3, 4)
HALF_COMB = tuple(k + 0.5 for k in range(-4, 4))
NEGATIVES = 0.25


def load(sets, names):
    """frontend.load, leaving out clips without annotated beats."""
    out = []
    for s in names:
        for f, bpm, style in files(sets[s]):
            if not os.path.exists(os.path.join(sets[s], f + ".beats")):
                continue
            L, beats = cached(s, sets[s], f)
            out.append((s, f, bpm, style, L, beats))
    return out


def track_fast(novelty, period, tightness=400.0):
    """`track` for one period, vectorised over blocks of frames that cannot see each other
    (checked against `track` with --check-tracker): same beats, same tie-breaking."""
    n = len(novelty); p = float(period)
    lo_back = max(1, int(round(p * 0.5))); hi_back = max(lo_back + 1, int(round(p * 2)))
    d = np.arange(hi_back, lo_back - 1, -1)  # taus ascending = distances descending
    pen = tightness * np.log(d / p) ** 2
    score = np.zeros(n); back = -np.ones(n, dtype=int)
    for s in range(0, n, lo_back):
        t = np.arange(s, min(n, s + lo_back))
        taus = t[:, None] - d[None, :]
        ok = taus >= 0
        cand = np.where(ok, score[np.maximum(taus, 0)] - pen[None, :], -np.inf)
        k = np.argmax(cand, axis=1)
        best = cand[np.arange(len(t)), k]
        good = best > 0
        score[t] = novelty[t] + np.where(good, best, 0.0)
        back[t] = np.where(good, taus[np.arange(len(t)), k], -1)
    t = int(np.argmax(score)); out = []
    while t >= 0:
        out.append(t); t = back[t]
    from frontend import T0
    return np.array(out[::-1]) / FPS + T0


def wmax(X, r=2):
    return np.max(np.stack([shift(X, k) for k in range(-r, r + 1)]), axis=0)


def at(X, pos):
    """X (n x c) read at fractional frames pos (m,), linear interpolation, zero outside."""
    n = len(X); pos = np.asarray(pos, dtype=float)
    i0 = np.floor(pos).astype(int); w = (pos - i0)[:, None]
    def get(i):
        ok = (i >= 0) & (i < n)
        r = np.zeros((len(i), X.shape[1]), dtype=np.float64); r[ok] = X[i[ok]]
        return r
    return (1 - w) * get(i0) + w * get(i0 + 1)


def tempo_context(X, period, offsets=OFFSETS):
    """X's maximum within +-2 frames at t + o*P for o in offsets, and its beat and half combs."""
    M = wmax(X)
    t = np.arange(len(X), dtype=float)
    cols = [at(M, t + o * period) for o in offsets]
    beat = np.mean([at(M, t + o * period) for o in BEAT_COMB], axis=0)
    half = np.mean([at(M, t + o * period) for o in HALF_COMB], axis=0)
    return np.concatenate(cols + [beat, half, M - half], axis=1)


def features(variant, L, period, stage1=None):
    variant = variant.split("+")[0]
    base = frame_features(L)
    if variant == "base":
        return base
    if variant == "ctx":
        return np.concatenate([base, tempo_context(band_novelty(L), period)], axis=1).astype(np.float32)
    if variant == "ctxr":  # relative: the novelties at t minus at each offset, and the comb contrasts
        G = band_novelty(L); c = tempo_context(G, period); M = wmax(G); k = G.shape[1]
        rel = [M - c[:, i * k:(i + 1) * k] for i in range(len(OFFSETS))]
        return np.concatenate([base] + rel + [c[:, -3 * k:]], axis=1).astype(np.float32)
    if variant == "ctxc":  # the two combs and their contrast only
        c = tempo_context(band_novelty(L), period)
        return np.concatenate([base, c[:, -12:]], axis=1).astype(np.float32)
    if variant == "ctx3":
        c = tempo_context(band_novelty(L), period, OFFSETS + THIRDS)
        return np.concatenate([base, c], axis=1).astype(np.float32)
    if variant == "ctx2":
        a = stage1.predict_proba(base)[:, 1][:, None]
        return np.concatenate([base, a, tempo_context(a, period)], axis=1).astype(np.float32)
    raise ValueError(variant)


def make_model(kind, seed=0):
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    if kind == "lr":
        from sklearn.linear_model import LogisticRegression
        return make_pipeline(StandardScaler(), LogisticRegression(max_iter=3000, C=1.0))
    if kind == "hgb":
        from sklearn.ensemble import HistGradientBoostingClassifier
        return HistGradientBoostingClassifier(max_iter=200, max_depth=4, learning_rate=0.1, random_state=seed)
    if kind == "mlp":
        from sklearn.neural_network import MLPClassifier
        return make_pipeline(StandardScaler(), MLPClassifier(hidden_layer_sizes=(64, 32), alpha=1e-3, batch_size=512,
                                                             max_iter=30, early_stopping=True, random_state=seed))
    raise ValueError(kind)


class Ensemble:
    """The mean probability of several fits (mlp3: three MLPs of different seeds)."""
    def __init__(self, models):
        self.models = models

    def predict_proba(self, X):
        return np.mean([m.predict_proba(X) for m in self.models], axis=0)


def fit(kind, X, Y, W, seed=0):
    if kind == "mlp3":
        return Ensemble([fit("mlp", X, Y, W, seed + k) for k in range(3)])
    m = make_model(kind, seed)
    if kind == "lr":
        return m.fit(X, Y, logisticregression__sample_weight=W)
    if kind == "hgb":
        return m.fit(X, Y, sample_weight=W)
    # MLPClassifier takes no sample weights: resample rows in proportion to their weight
    rng = np.random.default_rng(seed)
    idx = rng.choice(len(X), size=len(X), p=W / W.sum())
    return m.fit(X[idx], Y[idx])


def training_rows(clips, variant, stage1=None, seed=0):
    """Beat frames against a quarter of the others, every set weighing the same (as fit_activation);
    the negatives drawn per clip from a fixed seed so every variant sees the same frames."""
    per_set = {}
    for c in clips:
        per_set[c[0]] = per_set.get(c[0], 0) + 1
    X, Y, W = [], [], []
    for s, f, bpm, _, L, beats in clips:
        period = 60.0 / bpm * FPS
        x = features(variant, L, period, stage1); y = labels(len(L), beats)
        rng = np.random.default_rng([seed, sum(map(ord, s + f))])
        keep = (y == 1) | (rng.random(len(y)) < NEGATIVES)
        w = np.ones(len(y))
        if variant.endswith("+hard"):
            # every frame within one of an annotated midpoint (the "and") too, at weight 3
            mid = labels(len(L), (beats[:-1] + beats[1:]) / 2) == 1
            keep |= mid; w[mid & (y == 0)] = 3.0
        X.append(x[keep]); Y.append(y[keep]); W.append(w[keep] / per_set[s])
    X = np.concatenate(X); Y = np.concatenate(Y); W = np.concatenate(W)
    return X, Y, W / W.mean()


def phase_margin(act, beats):
    """The activation's mean (its maximum within +-2 frames) on the annotated beats minus on their
    midpoints, beats after 5 s: how much the curve itself prefers the beat to the "and"."""
    from frontend import T0
    b = beats[beats >= 5.0]
    if len(b) < 3:
        return 0.0
    M = wmax(act[:, None])[:, 0]
    on = at(M[:, None], (b - T0) * FPS)[:, 0]
    off = at(M[:, None], ((b[:-1] + b[1:]) / 2 - T0) * FPS)[:, 0]
    return float(on.mean() - off.mean())


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--sets", nargs="+", required=True, metavar="NAME=FOLDER")
    a.add_argument("--fold", action="append", required=True, metavar="TEST=TRAIN,TRAIN",
                   help="a test set and the sets fitted on (repeatable)")
    a.add_argument("--variants", default="base,ctx,ctx2")
    a.add_argument("--models", default="lr,hgb")
    a.add_argument("--tightness", type=float, default=400.0)
    a.add_argument("--seed", type=int, default=0, help="negative sampling and model seed (keys get @SEED when not 0)")
    a.add_argument("--out", help="per-clip beat F as JSON")
    a.add_argument("--list", type=int, default=0, help="per test set, the N largest gains and losses against base/lr/mean")
    a.add_argument("--check-tracker", type=int, default=0, help="compare track_fast with track on N clips and exit")
    a.add_argument("--report", nargs="+", metavar="JSON", help="only summarise these --out files, seeds averaged")
    args = a.parse_args()
    if args.report:
        return report(args.report)
    sets = parse_sets(args.sets)
    if args.check_tracker:
        clips = load(sets, [next(iter(sets))])[:args.check_tracker]
        for _, f, bpm, _, L, beats in clips:
            c = body(L); p = 60.0 / bpm * FPS
            t0 = time.time(); x = track(c, p); t1 = time.time(); y = track_fast(c, p); t2 = time.time()
            print(f"{f}: same {len(x) == len(y) and np.allclose(x, y)}  {t1 - t0:.2f}s vs {t2 - t1:.3f}s")
        return
    results = json.load(open(args.out)) if args.out and os.path.exists(args.out) else {}
    for spec in args.fold:
        test, _, train = spec.partition("=")
        train_clips = load(sets, train.split(","))
        test_clips = load(sets, [test])
        stage1 = None
        if "ctx2" in args.variants.split(","):
            t0 = time.time()
            stage1 = fit("lr", *training_rows(train_clips, "base"))
            print(f"[{test}] stage 1 lr fitted in {time.time() - t0:.0f}s", flush=True)
        res = results.setdefault(test, {})
        res.setdefault("body", {f: beat_f(track_fast(body(L), 60.0 / bpm * FPS, args.tightness), beats)
                                for _, f, bpm, _, L, beats in test_clips})
        for variant in args.variants.split(","):
            X, Y, W = training_rows(train_clips, variant, stage1, args.seed)
            for kind in args.models.split(","):
                key = f"{variant}/{kind}" + (f"@{args.seed}" if args.seed else "")
                if key + "/mean" in res:
                    continue
                t0 = time.time()
                m = fit(kind, X, Y, W, args.seed)
                t1 = time.time()
                learned, mean, margin = {}, {}, {}
                for _, f, bpm, _, L, beats in test_clips:
                    period = 60.0 / bpm * FPS
                    act = norm(detrend(m.predict_proba(features(variant, L, period, stage1))[:, 1]))
                    learned[f] = beat_f(track_fast(act, period, args.tightness), beats)
                    mean[f] = beat_f(track_fast(norm(body(L) + act), period, args.tightness), beats)
                    margin[f] = phase_margin(act, beats)
                res[key + "/learned"] = learned; res[key + "/mean"] = mean; res[key + "/margin"] = margin
                print(f"[{test} <- {train}] {key:10s} rows {len(Y)} x {X.shape[1]}  fit {t1 - t0:.0f}s test {time.time() - t1:.0f}s  "
                      f"learned {np.mean(list(learned.values())):.3f} ({sum(v < 0.3 for v in learned.values())} < 0.3)  "
                      f"mean {np.mean(list(mean.values())):.3f} ({sum(v < 0.3 for v in mean.values())} < 0.3)", flush=True)
                if args.out:
                    json.dump(results, open(args.out, "w"), indent=1)
    summarize(results, args.list)


def summarize(results, n_list=0, ref="base/lr/mean"):
    for test, res in results.items():
        print(f"\n{test} (n={len(res['body'])}): mean beat F, clips below 0.3")
        for key, r in res.items():
            if key.endswith("/margin"):
                v = np.array(list(r.values()))
                print(f"  {key:20s} beat-minus-'and' activation {v.mean():+.3f}, negative on {int((v < 0).sum())} clips")
                continue
            v = np.array(list(r.values()))
            d = f"  {v.mean() - np.mean(list(res[ref].values())):+.3f} vs {ref}" if ref in res and key != ref else ""
            print(f"  {key:20s} {v.mean():.3f}  {int((v < 0.3).sum()):2d}{d}")
        if n_list and ref in res:
            for key in res:
                if key == ref or not (key.endswith("/mean") or key.endswith("/learned")):
                    continue
                diff = sorted(((res[key][f] - res[ref][f], f) for f in res[ref]), key=lambda x: x[0])
                up = [(d, f) for d, f in diff[::-1] if d > 0.05][:n_list]
                down = [(d, f) for d, f in diff if d < -0.05][:n_list]
                print(f"  {key} against {ref}: up {sum(d > .05 for d, _ in diff)}, down {sum(d < -.05 for d, _ in diff)}")
                print("    gains:  " + ", ".join(f"{f} {res[ref][f]:.2f}->{res[key][f]:.2f}" for d, f in up))
                print("    losses: " + ", ".join(f"{f} {res[ref][f]:.2f}->{res[key][f]:.2f}" for d, f in down))


def report(paths, ref="base/lr/mean"):
    """Mean beat F and clips below 0.3 per test set and key, averaged over the seeds found (the
    --out files of runs with different --seed), with the seeds' range and the paired difference
    against REF (clips up / down by more than 0.05, summed over seeds)."""
    merged = {}
    for p in paths:
        for test, res in json.load(open(p)).items():
            for key, r in res.items():
                if key.endswith("/margin"):
                    continue
                import re
                seed = re.search(r"@(\d+)", key)
                base = re.sub(r"@\d+", "", key)
                merged.setdefault(test, {}).setdefault(base, {})[seed.group(1) if seed else "0"] = r
    for test, res in merged.items():
        refr = res[ref]["0"]
        print(f"\n{test} (n={len(refr)}): beat F mean over seeds [range], below 0.3, vs {ref}: diff, clips up/down")
        for key, by_seed in res.items():
            m = [np.mean(list(r.values())) for r in by_seed.values()]
            low = [sum(v < 0.3 for v in r.values()) for r in by_seed.values()]
            up = sum(sum(r[f] - refr[f] > 0.05 for f in refr) for r in by_seed.values())
            down = sum(sum(r[f] - refr[f] < -0.05 for f in refr) for r in by_seed.values())
            rng = f"[{min(m):.3f}-{max(m):.3f}]" if len(m) > 1 else " " * 13
            print(f"  {key:18s} seeds {len(m)}  {np.mean(m):.3f} {rng}  <0.3: {np.mean(low):4.1f}  "
                  f"{np.mean(m) - np.mean(list(refr.values())):+.3f}  +{up}/-{down}")


if __name__ == "__main__":
    main()
