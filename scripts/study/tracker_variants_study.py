#!/usr/bin/env python3
"""Offline study: variants of the tracker and its curve on real music (stop 49, not kept).

  python3 scripts/study/tracker_variants_study.py --sets gen=… gen2=… gtzan=… spcup=… \\
      --train gen,gtzan --test spcup

For each test clip, on the version-47 curve (body + activation fitted on --train), beat F of:
  - the tracker given the annotated period scaled by 0.98 … 1.02 (how much a period error costs),
    and the same followed by a search of ±3% around it for the best score per second;
  - the tracker following a local period (the curve's autocorrelation over ±4 s every second,
    within ±6% or ±3% of the annotated period, median of three) instead of one period;
  - the body curve, the activation, their mean, and the one of the three that repeats most at
    the beat against its half and three halves (`beatness`), with the best of the three (oracle);
and the AUC with which the activation's and the body curve's balance between the two parities
of the beats tracked at twice the period (the octave decision's view) separates a beat from its
half. Numbers in docs/benchmark.md ("Measured in stop 49").
"""
import numpy as np
from frontend import FPS, T0, parse_sets, load
from activation_study import (activation, arguments, beat_f, body, fit_activation, frame_features, norm,
                              track)


def score_per_second(curve, beats, period, tightness=400.0):
    frames = np.round((beats - T0) * FPS).astype(int)
    frames = frames[(frames >= 0) & (frames < len(curve))]
    penalty = tightness * np.log(np.diff(frames) / period) ** 2 if len(frames) > 1 else np.zeros(1)
    return (curve[frames].sum() - penalty.sum()) / (len(curve) / FPS)


def searched(curve, period):
    options = [period * (1 + k) for k in np.arange(-0.03, 0.0301, 0.005)]
    tracks = [track(curve, p) for p in options]
    return max(zip(tracks, options), key=lambda tp: score_per_second(curve, *tp))[0]


def local_periods(curve, period, half=4.0, step=1.0, span=0.06):
    n = len(curve); hw = int(half * FPS); centres = list(range(0, n, int(step * FPS)))
    lags = np.linspace(period * (1 - span), period * (1 + span), 25)
    x = curve - curve.mean(); found = []
    for c in centres:
        seg = x[max(0, c - hw):min(n, c + hw)]

        def acf(lag):
            k = int(np.floor(lag)); f = lag - k
            if k + 1 >= len(seg) or k < 1:
                return 0.0
            return (1 - f) * np.dot(seg[:-k], seg[k:]) / (len(seg) - k) + f * np.dot(seg[:-(k + 1)], seg[k + 1:]) / (len(seg) - k - 1)
        found.append(lags[int(np.argmax([acf(l) + 0.5 * acf(2 * l) for l in lags]))])
    smooth = [np.median(found[max(0, i - 1):i + 2]) for i in range(len(found))]
    return np.interp(np.arange(n), centres, smooth)


def acf_at(x, lag):
    x = x - x.mean(); k = int(np.floor(lag)); f = lag - k
    v = lambda j: np.dot(x[:-j], x[j:]) / np.dot(x, x)
    return (1 - f) * v(k) + f * v(k + 1)


def beatness(x, period):
    return acf_at(x, period) + 0.5 * acf_at(x, 2 * period) - acf_at(x, 1.5 * period) - 0.5 * acf_at(x, 0.5 * period)


def parity_balance(curve, read, period):
    """The weaker parity's mean of `read` over the stronger's, on beats tracked at `period`."""
    frames = np.round((track(curve, period) - T0) * FPS).astype(int)
    frames = frames[(frames >= 0) & (frames < len(curve))]
    if len(frames) < 8:
        return None
    even, odd = read[frames[0::2]].mean(), read[frames[1::2]].mean()
    return min(even, odd) / (max(even, odd) + 1e-9)


def main():
    args = arguments(__doc__.split("\n")[0]).parse_args()
    sets = parse_sets(args.sets)
    m = fit_activation(load(sets, args.train.split(",")), args.model)
    from sklearn.metrics import roc_auc_score
    for s in args.test.split(","):
        r, labels, balances = {}, [], {"activation": [], "body": []}
        for _, f, bpm, _, L, beats in load(sets, [s]):
            period = 60.0 / bpm * FPS
            b, a = body(L), activation(m, L); mean = norm(b + a)
            for scale in (0.98, 0.99, 1.0, 1.01, 1.02):
                r.setdefault(f"period x{scale:g}", []).append(beat_f(track(mean, period * scale), beats))
                r.setdefault(f"x{scale:g} searched", []).append(beat_f(searched(mean, period * scale), beats))
            for span in (0.06, 0.03):
                r.setdefault(f"local period ±{span:g}", []).append(beat_f(track(mean, local_periods(mean, period, span=span)), beats))
            curves = [b, a, mean]
            fs = [beat_f(track(c, period), beats) for c in curves]
            for name, value in zip(("body", "activation", "mean"), fs):
                r.setdefault(name, []).append(value)
            r.setdefault("chosen by beatness", []).append(fs[int(np.argmax([beatness(c, period) for c in curves]))])
            r.setdefault("best of the three", []).append(max(fs))
            raw = m.predict_proba(frame_features(L))[:, 1]
            for faster_is_beat, p in ((0, period / 2), (1, period)):
                if p < 60 / 250 * FPS:
                    continue
                x, xb = parity_balance(mean, raw, p), parity_balance(mean, b, p)
                if x is not None:
                    labels.append(faster_is_beat); balances["activation"].append(x); balances["body"].append(xb)
        print(f"{s} (n={len(r['body'])}): " + ", ".join(f"{k} {np.mean(v):.3f}" for k, v in r.items()))
        print(f"  octave pairs {len(labels)}: parity balance AUC activation {roc_auc_score(labels, balances['activation']):.3f}, "
              f"body {roc_auc_score(labels, balances['body']):.3f}")


if __name__ == "__main__":
    main()
