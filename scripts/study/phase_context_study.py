#!/usr/bin/env python3
"""Offline study: can a frame-level model with a bar of context tell the beat from the "and"
where the clip-level phase model (`BeatPhase`) cannot carry from generated songs to real ones?

For a frame t and the annotated period T, the features are, at t + k*T/2 for k = -4..4 (two beats
either side), the four band novelties (their maximum within +-2 frames), the summed level change
across the frame and the level. Two ways to fit it (every --train set weighing the same):
  annotated: the annotated beats (1) against their midpoints (0);
  tracked (--tracked): the beats of two grids per clip, tracked at the annotated tempo on the
      version-47 curve: the natural one, and one forced off the annotated beats (the curve zeroed
      within a quarter period of each), each beat labelled by its phase on the annotated grid
      (1 within 0.15 beats of a beat, 0 within 0.15 of a midpoint, else left out). These are the
      grids a decision meets: the tracker sits on strong onsets either way.
The decision on a test clip's tracked grid: shift half a beat when the model's mean log-odds on
the midpoints exceeds its mean on the tracked beats by MARGIN. Printed per test set: beat F never
shifting, with the best of the two phases (oracle), the grids half a beat off ("anti"), and per
margin the beat F with the decision, the anti grids it put right (+) and the right grids it broke (-).

  python3 scripts/study/phase_context_study.py --sets gen=… gtzan=… spcup=… \\
      --train gen,gtzan --test spcup [--model lr|hgb] [--tracked] [--list]
"""
import numpy as np
from frontend import FPS, T0, parse_sets, load
from activation_study import (GI, GROUPS, arguments, band_novelty, beat_f, fit_activation, shift,
                              track, tracking_curve)


def frame_rows(L):
    """Per onset frame: the four band novelties' maximum within +-2 frames, the level change and the level."""
    G = band_novelty(L)
    M = np.max(np.stack([shift(G, k) for k in range(-2, 3)]), axis=0)
    Lg = np.stack([L[:, g].mean(1) for g in GI], axis=1)
    n = len(L); c = np.concatenate([np.zeros((1, GROUPS)), np.cumsum(Lg, axis=0)]); i = np.arange(n); w = 12
    a0 = np.minimum(n, i + 1); a1 = np.minimum(n, i + 1 + w); b0 = np.maximum(0, i - w); b1 = i
    change = (c[a1] - c[a0]) / np.maximum(1, a1 - a0)[:, None] - (c[b1] - c[b0]) / np.maximum(1, b1 - b0)[:, None]
    level = Lg.mean(1, keepdims=True)
    return np.concatenate([M, np.abs(change).sum(1, keepdims=True), level - np.median(level)], axis=1)


def context(rows, times, period):
    """The rows at t + k*period/2, k = -4..4, side by side (zeros outside the clip)."""
    frames = (np.asarray(times) - T0) * FPS
    out = []
    for k in range(-4, 5):
        idx = np.round(frames + k * period / 2).astype(int)
        ok = (idx >= 0) & (idx < len(rows))
        r = np.zeros((len(frames), rows.shape[1])); r[ok] = rows[idx[ok]]
        out.append(r)
    return np.concatenate(out, axis=1)


def phase_labels(times, beats):
    """1 within 0.15 beats of an annotated beat, 0 within 0.15 of a midpoint, -1 otherwise."""
    out = []
    for t in times:
        j = np.searchsorted(beats, t)
        if j == 0 or j >= len(beats):
            out.append(-1); continue
        ph = (t - beats[j - 1]) / (beats[j] - beats[j - 1])
        out.append(1 if (ph < 0.15 or ph > 0.85) else 0 if abs(ph - 0.5) < 0.15 else -1)
    return np.array(out)


def samples(clips, act=None):
    per_set = {}
    for c in clips:
        per_set[c[0]] = per_set.get(c[0], 0) + 1
    X, Y, W = [], [], []
    for s, _, bpm, _, L, beats in clips:
        rows = frame_rows(L); period = 60.0 / bpm * FPS
        inside = lambda g: g[(g > 1) & (g < len(L) / FPS - 1)]
        if act is None:
            b = inside(beats)
            if len(b) < 4:
                continue
            grids = [(b, np.ones(len(b))), ((b[:-1] + b[1:]) / 2, np.zeros(len(b) - 1))]
        else:
            curve = tracking_curve(act, L); forced = curve.copy()
            for b in beats:
                f = int(round((b - T0) * FPS)); r = int(period / 4)
                forced[max(0, f - r):f + r + 1] = 0
            grids = []
            for g in (track(curve, period), track(forced, period)):
                g = inside(g); y = phase_labels(g, beats); keep = y >= 0
                if keep.sum() >= 4:
                    grids.append((g[keep], y[keep]))
        count = sum(len(g) for g, _ in grids)
        for g, y in grids:
            X.append(context(rows, g, period)); Y.append(y); W.append(np.full(len(g), 1.0 / per_set[s] / count))
    X = np.concatenate(X); Y = np.concatenate(Y); W = np.concatenate(W)
    return X, Y, W / W.mean()


def fit(X, Y, W, model):
    if model == "lr":
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
        m = make_pipeline(StandardScaler(), LogisticRegression(max_iter=3000, C=0.1))
        return m.fit(X, Y, logisticregression__sample_weight=W)
    from sklearn.ensemble import HistGradientBoostingClassifier
    return HistGradientBoostingClassifier(max_iter=200, max_depth=3, learning_rate=0.05, random_state=0).fit(X, Y, sample_weight=W)


def log_odds(m, X):
    p = np.clip(m.predict_proba(X)[:, 1], 1e-4, 1 - 1e-4)
    return np.log(p / (1 - p))


def main():
    a = arguments("A bar-context beat-or-'and' model as a phase decision on tracked grids.")
    a.add_argument("--tracked", action="store_true", help="fit on tracked grids (natural and forced off the beat)")
    args = a.parse_args()
    sets = parse_sets(args.sets)
    train = load(sets, args.train.split(","))
    act = fit_activation(train, "lr")
    m = fit(*samples(train, act if args.tracked else None), args.model)
    from sklearn.metrics import roc_auc_score
    for s in args.test.split(","):
        clips = load(sets, [s])
        X, Y, _ = samples(clips)
        rows = []
        for _, f, bpm, _, L, beats in clips:
            period = 60.0 / bpm * FPS
            tb = track(tracking_curve(act, L), period)
            if len(tb) < 8:
                continue
            mids = (tb[:-1] + tb[1:]) / 2
            fr = frame_rows(L)
            d = log_odds(m, context(fr, mids, period)).mean() - log_odds(m, context(fr, tb[:-1], period)).mean()
            shifted = np.concatenate([mids, [tb[-1] + (tb[-1] - tb[-2]) / 2]])
            rows.append((f, beat_f(tb, beats), beat_f(shifted, beats), d))
        R = np.array([r[1:] for r in rows])
        line = (f"{s}: annotated-grid frame AUC {roc_auc_score(Y, m.predict_proba(X)[:, 1]):.3f}; n={len(R)} never {R[:, 0].mean():.3f} "
                f"oracle {np.maximum(R[:, 0], R[:, 1]).mean():.3f} anti {int(np.sum(R[:, 1] > R[:, 0] + .5))}")
        for margin in (0, 0.5, 1, 2):
            move = R[:, 2] > margin
            dec = np.where(move, R[:, 1], R[:, 0])
            line += (f" | margin {margin:g}: {dec.mean():.3f} +{int(np.sum(move & (R[:, 1] > R[:, 0] + .5)))}"
                     f"-{int(np.sum(move & (R[:, 0] > R[:, 1] + .5)))}")
        print(line)
        if args.list:
            for f, f0, f1, d in rows:
                print(f"  {f:40s} F {f0:.2f} shifted {f1:.2f} log-odds difference {d:+.2f}")


if __name__ == "__main__":
    main()
