#!/usr/bin/env python3
"""Offline study of the beat activation (docs/benchmark.md, "A learned beat activation"): how well
the dynamic-programming tracker follows the annotated beats when it reads the body novelty, a
learned beat probability, or their mean, each tracked at the clip's annotated tempo (so that
tempo errors stay out of it).

  python3 scripts/study/activation_study.py --sets gen=/work/devcorpus11/tune \\
      gtzan=data/real-recordings/fit spcup=data/real-recordings/spcup-fit \\
      --train gen,gtzan --test spcup [--model lr|hgb] [--tightness 100,400,800] [--list]

Prints beat F (+-70 ms, first 5 s skipped) per test set. The learned curve is fitted on the
--train sets (each set weighing the same) with the per-frame features the Swift analysis reads
(`BeatActivation`: four band groups' novelty at +-3 frames, their sum at +-4, 6, 8 frames, the
level change in eight groups across a spectrum frame, the level against the median). Needs numpy
and scikit-learn (PYTHON=/usr/bin/python3 on Debian).
"""
import argparse
import numpy as np
from frontend import FPS, T0, CENTRES, parse_sets, load

GROUPS = 8
GI = np.array_split(np.arange(len(CENTRES)), GROUPS)


def detrend(x, seconds=1.0):
    """x minus its centred moving average, floored at zero (`Novelty`)."""
    half = max(1, int(seconds * FPS / 2))
    c = np.concatenate([[0], np.cumsum(x)])
    i = np.arange(len(x))
    lo = np.maximum(0, i - half); hi = np.minimum(len(x), i + half + 1)
    return np.maximum(0, x - (c[hi] - c[lo]) / (hi - lo))


def norm(x):
    s = x.std()
    return x / s if s > 1e-9 else x


def flux(L):
    F = np.maximum(0, np.diff(L, axis=0, prepend=L[:1]))
    F[0] = 0
    return F


def body(L):
    """The body novelty: flux of the bands below 2 kHz."""
    sel = [i for i, c in enumerate(CENTRES) if c < 2000]
    return norm(detrend(flux(L)[:, sel].sum(1)))


def shift(x, k):
    """y[t] = x[t + k], zero outside."""
    y = np.zeros_like(x)
    if k > 0:
        y[:-k] = x[k:]
    elif k < 0:
        y[-k:] = x[:k]
    else:
        y[:] = x
    return y


def band_novelty(L):
    """The four band groups' novelty (kick < 200 Hz, snare < 1 kHz, mid < 2 kHz, high)."""
    F = flux(L)
    group = [0 if c < 200 else 1 if c < 1000 else 2 if c < 2000 else 3 for c in CENTRES]
    G = np.stack([F[:, [i for i, g in enumerate(group) if g == j]].sum(1) for j in range(4)], axis=1)
    return np.stack([norm(detrend(G[:, j])) for j in range(4)], axis=1)


def frame_features(L):
    G = band_novelty(L)
    cols = [shift(G, k) for k in range(-3, 4)]
    total = G.sum(1, keepdims=True)
    cols += [shift(total, k) for k in (-8, -6, -4, 4, 6, 8)]
    n = len(L); m = n // 4
    S = L[:4 * m].reshape(m, 4, -1).mean(1)  # spectrum frames (4 onset frames each)
    Sg = np.stack([S[:, g].mean(1) for g in GI], axis=1)
    c = np.concatenate([np.zeros((1, GROUPS)), np.cumsum(Sg, axis=0)])
    j = np.clip(np.round((np.arange(n) - 1.5) / 4).astype(int), 0, m - 1)
    w = 3
    a0 = np.minimum(m, j + 1); a1 = np.minimum(m, j + 1 + w)
    b0 = np.maximum(0, j - w); b1 = j
    change = (c[a1] - c[a0]) / np.maximum(1, a1 - a0)[:, None] - (c[b1] - c[b0]) / np.maximum(1, b1 - b0)[:, None]
    cols += [change, np.abs(change).sum(1, keepdims=True)]
    level = Sg.mean(1)[j][:, None]
    cols.append(level - np.median(level))
    return np.concatenate(cols, axis=1).astype(np.float32)


def labels(n, beats, radius=1):
    y = np.zeros(n, dtype=np.int8)
    for f in np.round((beats - T0) * FPS).astype(int):
        y[max(0, f - radius):max(0, min(n, f + radius + 1))] = 1
    return y


def track(novelty, period, tightness=400.0):
    """`BeatTracker.track` (without the sub-frame refinement): beat times in seconds. `period` in
    frames: one for the whole clip, as beattag tracks, or one per frame (a tempo that moves)."""
    n = len(novelty)
    periods = np.broadcast_to(np.asarray(period, dtype=float), (n,))
    score = np.zeros(n); back = -np.ones(n, dtype=int)
    for t in range(n):
        p = periods[t]
        lo_back = max(1, int(round(p * 0.5))); hi_back = max(lo_back + 1, int(round(p * 2)))
        lo, hi = max(0, t - hi_back), t - lo_back
        best, arg = 0.0, -1
        if hi >= lo:
            taus = np.arange(lo, hi + 1)
            candidate = score[taus] - tightness * np.log((t - taus) / p) ** 2
            k = int(np.argmax(candidate))
            if candidate[k] > best:
                best, arg = candidate[k], taus[k]
        score[t] = novelty[t] + best; back[t] = arg
    t = int(np.argmax(score)); out = []
    while t >= 0:
        out.append(t); t = back[t]
    return np.array(out[::-1]) / FPS + T0


def beat_f(est, ref, tol=0.07, skip=5.0):
    """F-measure as `beattag bench` scores it: +-70 ms, the first 5 s skipped, one match per beat."""
    est = est[est >= skip]; ref = ref[ref >= skip]
    if len(est) == 0 or len(ref) == 0:
        return 0.0
    used = np.zeros(len(est), bool); hit = 0
    for r in ref:
        d = np.abs(est - r); d[used] = 9
        k = int(np.argmin(d))
        if d[k] <= tol:
            used[k] = True; hit += 1
    if hit == 0:
        return 0.0
    p, rc = hit / len(est), hit / len(ref)
    return 2 * p * rc / (p + rc)


def fit_activation(clips, model="lr", negatives=0.25, seed=0):
    """A classifier of beat frames (within one frame of an annotated beat) against a quarter of the
    others, every set weighing the same."""
    rng = np.random.default_rng(seed)
    per_set = {}
    for c in clips:
        per_set[c[0]] = per_set.get(c[0], 0) + 1
    X, Y, W = [], [], []
    for s, _, _, _, L, beats in clips:
        x = frame_features(L); y = labels(len(L), beats)
        keep = (y == 1) | (rng.random(len(y)) < negatives)
        X.append(x[keep]); Y.append(y[keep]); W.append(np.full(keep.sum(), 1.0 / per_set[s]))
    X = np.concatenate(X); Y = np.concatenate(Y); W = np.concatenate(W); W /= W.mean()
    if model == "lr":
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
        m = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000, C=1.0))
        m.fit(X, Y, logisticregression__sample_weight=W)
    else:
        from sklearn.ensemble import HistGradientBoostingClassifier
        m = HistGradientBoostingClassifier(max_iter=200, max_depth=4, learning_rate=0.1, random_state=seed)
        m.fit(X, Y, sample_weight=W)
    return m


def activation(m, L):
    return norm(detrend(m.predict_proba(frame_features(L))[:, 1]))


def tracking_curve(m, L):
    """What version 47 tracks the final grid on: body novelty plus the activation, rescaled."""
    return norm(body(L) + activation(m, L))


def arguments(description):
    a = argparse.ArgumentParser(description=description)
    a.add_argument("--sets", nargs="+", required=True, metavar="NAME=FOLDER")
    a.add_argument("--train", required=True, help="comma-separated set names to fit on")
    a.add_argument("--test", required=True, help="comma-separated set names to read")
    a.add_argument("--model", choices=["lr", "hgb"], default="lr")
    a.add_argument("--list", action="store_true", help="one line per test clip")
    return a


def main():
    a = arguments("Beat F of the tracker on the body novelty, a learned activation and their mean.")
    a.add_argument("--tightness", default="400", help="comma-separated tracker tightness values (default 400)")
    args = a.parse_args()
    sets = parse_sets(args.sets)
    m = fit_activation(load(sets, args.train.split(",")), args.model)
    tightness = [float(t) for t in args.tightness.split(",")]
    for s in args.test.split(","):
        rows = []
        for _, f, bpm, _, L, beats in load(sets, [s]):
            period = 60.0 / bpm * FPS
            b, a_ = body(L), activation(m, L)
            curves = {"body": b, "learned": a_, "mean": norm(b + a_)}
            rows.append((f, {(k, t): beat_f(track(c, period, t), beats) for k, c in curves.items() for t in tightness}))
        for t in tightness:
            means = {k: np.mean([r[1][(k, t)] for r in rows]) for k in ("body", "learned", "mean")}
            low = {k: sum(r[1][(k, t)] < 0.3 for r in rows) for k in means}
            print(f"{s} (n={len(rows)}, tightness {t:g}): " + "  ".join(f"{k} {v:.3f}" for k, v in means.items())
                  + "   below 0.3: " + " ".join(str(low[k]) for k in means))
        if args.list:
            for f, r in rows:
                print(f"  {f:40s} " + " ".join(f"{r[(k, tightness[0])]:.2f}" for k in ("body", "learned", "mean")))


if __name__ == "__main__":
    main()
