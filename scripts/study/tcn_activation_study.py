#!/usr/bin/env python3
"""Offline study: does a small temporal convolutional network (TCN; Davies & Böck 2019, Böck,
Davies & Knees 2019) on beattag's band levels give a beat activation that tracks real recordings
better than version 47's (a logistic regression on per-frame hand features, `fit_activation`)?

Input per frame (computable per track in Swift): the 25 quarter-octave band levels L of
frontend.py, each band minus its mean over the clip, all divided by one standard deviation over the
clip (`standardise`), plus the positive first difference of that (a per-band flux): 50 channels.
Network (`TCN`, configurations in CONFIGS, MACs per frame printed and checked against the 6,000
budget): a front convolution (kernel 3) to C channels, ELU, then one residual layer per dilation
(1, 2, 4, ..., 128; non-causal, zero padded): h += dropout(ELU(conv_dilated(h))), either a full
C->C convolution (kernel 3) or a separable one (depthwise kernel 5, then 1x1), and a 1x1 output
with a sigmoid. Targets: 1 on the frame nearest each annotated beat, 0.5 on its two neighbours
(label widening), 0 elsewhere; binary cross-entropy.
Training: random 1,000-frame crops (about 10 s), batches of 16, Adam at a constant rate and an
exponential moving average of the weights (what is evaluated: a run stopped at step S is the same
as one trained for S steps, so the inner validation can choose S from checkpoints). Augmented per
crop: time stretch of the level sequence by 0.85-1.15 (linear resampling of frames, beats scaled),
a random smooth spectral gain (+-10 dB overall, +-6 dB tilt, +-3 dB wobble; applied to the linear
magnitudes (exp(L) - 1) / 100 and re-logged), Gaussian noise (sd 0.03 on the standardised levels).
Crops are drawn so that each kind of source weighs the same: the generated songs (sets named gen*),
the synthesized corpus-dev (dev), and the real recordings (every other set, clip by clip).

Scoring (as context_activation_study.py): each test clip tracked at its annotated period
(`track_fast`, tightness 400) on the TCN activation alone ("tcn/learned") and on
norm(body(L) + activation) as version 47 tracks ("tcn/mean"); the activation is post-processed
as version 47's (norm(detrend(p))). Version 47's baseline (`fit_activation`, lr, same folds, same
tracker) is fitted and scored in the same run ("base/lr/..."). Beat F +-70 ms, first 5 s skipped.
"margin": the activation's mean on annotated beats minus on their midpoints (`phase_margin`).

  S="--sets gtzan=data/real-recordings/fit spcup=data/real-recordings/spcup-fit \\
     dev=/work/shared/corpus-dev realdev=/work/shared/corpus-real-dev \\
     gen=/work/devcorpus11/tune gen11h=/work/devcorpus11/holdout \\
     gen12=/work/exp/gen12/tune gen12h=/work/exp/gen12/holdout"
  F="--fold gtzan=gen,gen11h,dev,realdev,spcup --fold spcup=gen,gen11h,dev,realdev,gtzan \\
     --fold dev=gen,gen11h,realdev,gtzan,spcup --fresh gen12,gen12h"
  # 1. inner validation: per fold, 20% of each training set held out; each config trained on the
  #    rest; beat F on the held-out clips every --eval-every steps
  python3 scripts/study/tcn_activation_study.py $S $F --inner k3c12,sep16 --steps 1500 --out inner.json
  # 2. final: per fold, the config and step count its own inner validation chose, trained on all
  #    its training clips with seeds 0,1,2; the fold's test set (and --fresh under the first fold)
  python3 scripts/study/tcn_activation_study.py $S $F --final inner.json --seeds 0,1,2 --out final.json
  python3 scripts/study/tcn_activation_study.py $S $F --ensemble --out final.json   # + the seeds' mean
  python3 scripts/study/tcn_activation_study.py --report final.json
  # diagnostics: the ceiling (big32, not shippable), fixed config and steps; real crops drawn 3x as often
  python3 scripts/study/tcn_activation_study.py $S --fold gtzan=… --fold spcup=… --fresh gen12,gen12h \
      --final fixed --config big32 --steps 1500 --seeds 0 --out ceiling.json
  python3 scripts/study/tcn_activation_study.py $S --fold gtzan=… --fold spcup=… --fresh gen12,gen12h \
      --final inner.json --kind-weights real=3 --tag +real3 --seeds 0 --out probe_real3.json

Models are saved beside --out (NAME.models/). Needs numpy, scikit-learn and torch (CPU); keep it
single-threaded: OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 (torch is set to one
thread here). Cached levels in $BEATTAG_STUDY_CACHE (frontend.py).
"""
import argparse, json, os, sys, time
import numpy as np
from frontend import FPS, T0, parse_sets
from activation_study import body, detrend, norm, beat_f, fit_activation, activation
from context_activation_study import load, track_fast, phase_margin

BUDGET = 6000
DILATIONS = (1, 2, 4, 8, 16, 32, 64, 128)
CONFIGS = {
    # full dilated convolutions, kernel 3, 12 channels, receptive field 513 frames (5.1 s)
    "k3c12": dict(C=12, k=3, sep=False, dil=DILATIONS, front_k=3),
    # separable (depthwise kernel 5 + pointwise), 16 channels, receptive field 1,023 frames (10.2 s)
    "sep16": dict(C=16, k=5, sep=True, dil=DILATIONS, front_k=3),
    # not shippable: a look at the ceiling (about 4 x the budget)
    "big32": dict(C=32, k=5, sep=True, dil=DILATIONS + (256,), front_k=3),
}
CROP = 1000
BATCH = 16


def torch_setup():
    import torch
    torch.set_num_threads(1)
    return torch


def standardise(L):
    """Band levels minus each band's clip mean, over the clip's one standard deviation; plus the
    positive first difference: (frames, 50)."""
    Z = L - L.mean(0, keepdims=True)
    Z = Z / max(1e-6, float(Z.std()))
    return Z


def inputs(Z):
    D = np.maximum(0, np.diff(Z, axis=0, prepend=Z[:1]))
    return np.concatenate([Z, D], axis=1).astype(np.float32)


def build(cfg):
    torch = torch_setup()
    nn = torch.nn; F = torch.nn.functional

    class TCN(nn.Module):
        def __init__(s, cin=50, C=12, k=3, sep=False, dil=DILATIONS, front_k=3, dropout=0.1):
            super().__init__()
            s.front = nn.Conv1d(cin, C, front_k, padding=front_k // 2)
            s.layers = nn.ModuleList()
            for d in dil:
                if sep:
                    s.layers.append(nn.Sequential(nn.Conv1d(C, C, k, padding=d * (k // 2), dilation=d, groups=C),
                                                  nn.Conv1d(C, C, 1)))
                else:
                    s.layers.append(nn.Conv1d(C, C, k, padding=d * (k // 2), dilation=d))
            s.out = nn.Conv1d(C, 1, 1)
            s.drop = nn.Dropout(dropout)

        def forward(s, x):  # x: (batch, 50, frames) -> logits (batch, frames)
            h = s.drop(F.elu(s.front(x)))
            for layer in s.layers:
                h = h + s.drop(F.elu(layer(h)))
            return s.out(h)[:, 0]

    return TCN(**cfg)


def macs(cfg, cin=50):
    C, k = cfg["C"], cfg["k"]
    per_layer = (C * k + C * C) if cfg["sep"] else C * C * k
    return cin * C * cfg["front_k"] + len(cfg["dil"]) * per_layer + C


def receptive_field(cfg):
    return cfg["front_k"] + sum((cfg["k"] - 1) * d for d in cfg["dil"])


KINDS = ("generated", "synth", "real")


def kind(setname):
    return "generated" if setname.startswith("gen") else "synth" if setname == "dev" else "real"


class Sampler:
    """Random augmented crops, each kind of source (generated, synth, real) drawn equally often."""

    def __init__(self, clips, rng, augment=True, weights=None):
        self.rng = rng; self.augment = augment
        self.by_kind = {}
        for c in clips:
            self.by_kind.setdefault(kind(c[0]), []).append(c)
        self.kinds = sorted(self.by_kind)
        w = np.array([(weights or {}).get(k, 1.0) for k in self.kinds])
        self.p = w / w.sum()
        self.lin = {(c[0], c[1]): np.expm1(c[4].astype(np.float64)) / 100 for c in clips}  # linear magnitudes
        nb = clips[0][4].shape[1]
        self.z = np.linspace(-1, 1, nb)

    def crop(self):
        rng = self.rng
        if np.allclose(self.p, self.p[0]):  # (the draw of the main runs, kept for reproducibility)
            pool = self.by_kind[self.kinds[rng.integers(len(self.kinds))]]
        else:
            pool = self.by_kind[self.kinds[rng.choice(len(self.kinds), p=self.p)]]
        s, f, bpm, _, L, beats = pool[rng.integers(len(pool))]
        if self.augment:
            db = (rng.uniform(-10, 10) + rng.uniform(-6, 6) * self.z
                  + sum(rng.uniform(-3, 3) * np.cos(np.pi * j * (self.z + 1) / 2 + rng.uniform(0, 2 * np.pi))
                        for j in (1, 2)))
            L = np.log1p(100 * self.lin[(s, f)] * 10 ** (db / 20))
            r = rng.uniform(0.85, 1.15)
        else:
            r = 1.0
        Z = standardise(L)
        n = len(Z)
        T = min(CROP, int((n - 1) / r))
        span = T * r
        start = rng.uniform(0, max(0.0, n - 1 - span))
        pos = start + r * np.arange(T)
        i0 = np.floor(pos).astype(int); w = (pos - i0)[:, None]
        i1 = np.minimum(i0 + 1, n - 1)
        Zc = (1 - w) * Z[i0] + w * Z[i1]
        if self.augment:
            Zc = Zc + rng.normal(0, 0.03, Zc.shape)
        x = inputs(Zc)
        y = np.zeros(T, np.float32)
        fb = np.round(((beats - T0) * FPS - start) / r).astype(int)
        for d, v in ((-1, 0.5), (1, 0.5), (0, 1.0)):
            g = fb + d
            g = g[(g >= 0) & (g < T)]
            y[g] = np.maximum(y[g], v)
        return x, y

    def batch(self, size=BATCH):
        X = np.zeros((size, 50, CROP), np.float32); Y = np.zeros((size, CROP), np.float32)
        M = np.zeros((size, CROP), np.float32)
        for b in range(size):
            x, y = self.crop()
            X[b, :, :len(x)] = x.T; Y[b, :len(y)] = y; M[b, :len(y)] = 1
        return X, Y, M


def predict(model, L):
    torch = torch_setup()
    with torch.no_grad():
        x = torch.from_numpy(inputs(standardise(L)).T[None].copy())
        return torch.sigmoid(model(x))[0].numpy().astype(np.float64)


def tcn_activation(model, L):
    """Post-processed as version 47's activation: norm(detrend(p))."""
    return norm(detrend(predict(model, L)))


def score_clips(act_fn, clips):
    learned, mean, margin = {}, {}, {}
    for s, f, bpm, _, L, beats in clips:
        period = 60.0 / bpm * FPS
        a = act_fn(L)
        learned[f] = beat_f(track_fast(a, period), beats)
        mean[f] = beat_f(track_fast(norm(body(L) + a), period), beats)
        margin[f] = phase_margin(a, beats)
    return learned, mean, margin


def kind_mean(clips, scores):
    """Mean over kinds of source of each kind's mean (the inner validation's measure)."""
    per = {}
    for c in clips:
        per.setdefault(kind(c[0]), []).append(scores[c[1]])
    return float(np.mean([np.mean(v) for v in per.values()])), {k: float(np.mean(v)) for k, v in per.items()}


def train(cfg, clips, steps, seed, val=None, eval_every=250, lr=2e-3, log="", weights=None):
    """Train for `steps`; with `val` clips, evaluate the averaged weights every eval_every steps.
    Returns (model with averaged weights, history)."""
    torch = torch_setup()
    import copy
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed + 1000)
    model = build(cfg)
    ema = copy.deepcopy(model); ema.eval()
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    sampler = Sampler(clips, rng, weights=weights)
    history = []; t0 = time.time(); run_loss = 0.0
    for step in range(1, steps + 1):
        model.train()
        X, Y, M = sampler.batch()
        X, Y, M = map(torch.from_numpy, (X, Y, M))
        loss = (torch.nn.functional.binary_cross_entropy_with_logits(model(X), Y, reduction="none") * M).sum() / M.sum()
        opt.zero_grad(); loss.backward(); opt.step()
        decay = min(0.998, (1 + step) / (10 + step))
        with torch.no_grad():
            for pe, pm in zip(ema.parameters(), model.parameters()):
                pe.mul_(decay).add_(pm, alpha=1 - decay)
        lv = loss.item(); run_loss = 0.98 * run_loss + 0.02 * lv if step > 1 else lv
        if step % eval_every == 0 or step == steps:
            h = {"step": step, "train_loss": run_loss, "seconds": time.time() - t0}
            if val:
                learned, mean, margin = score_clips(lambda L: tcn_activation(ema, L), val)
                h["val_mean"], h["val_mean_kinds"] = kind_mean(val, mean)
                h["val_learned"], h["val_learned_kinds"] = kind_mean(val, learned)
                h["val_margin"] = float(np.mean(list(margin.values())))
                h["val_loss"] = val_loss(ema, val)
            history.append(h)
            print(f"{log} step {step} loss {run_loss:.4f} {time.time() - t0:.0f}s"
                  + (f"  val loss {h['val_loss']:.4f} F mean {h['val_mean']:.3f} learned {h['val_learned']:.3f} "
                     f"margin {h['val_margin']:+.2f}  " + " ".join(f"{k} {v:.3f}" for k, v in h['val_mean_kinds'].items())
                     if val else ""), flush=True)
    return ema, history


def val_loss(model, clips):
    """Frame BCE against the widened targets, each kind weighing the same."""
    per = {}
    for s, f, bpm, _, L, beats in clips:
        p = np.clip(predict(model, L), 1e-6, 1 - 1e-6)
        y = np.zeros(len(L))
        fb = np.round((beats - T0) * FPS).astype(int)
        for d, v in ((-1, 0.5), (1, 0.5), (0, 1.0)):
            g = fb + d; g = g[(g >= 0) & (g < len(L))]; y[g] = np.maximum(y[g], v)
        per.setdefault(kind(s), []).append(float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()))
    return float(np.mean([np.mean(v) for v in per.values()]))


def inner_split(clips, seed=0):
    """20% of each set's clips held out (at least one), the same for every config."""
    rng = np.random.default_rng(seed)
    by = {}
    for c in clips:
        by.setdefault(c[0], []).append(c)
    tr, va = [], []
    for s, cs in by.items():
        idx = rng.permutation(len(cs)); k = max(1, int(round(0.2 * len(cs))))
        va += [cs[i] for i in idx[:k]]; tr += [cs[i] for i in idx[k:]]
    return tr, va


def kind_weights(args):
    return {k: float(v) for k, _, v in (w.partition("=") for w in args.kind_weights.split(",") if w)}


def parse_folds(specs):
    return [(t, tr.split(",")) for t, _, tr in (s.partition("=") for s in specs)]


def run_inner(args, sets):
    out = json.load(open(args.out)) if os.path.exists(args.out) else {}
    for test, train_sets in parse_folds(args.fold):
        clips = load(sets, train_sets)
        tr, va = inner_split(clips)
        for name in args.inner.split(","):
            cfg = CONFIGS[name]
            key = f"{test}/{name}"
            if key in out:
                continue
            print(f"[inner {test}] {name}: {len(tr)} train / {len(va)} val clips, {macs(cfg)} MACs/frame", flush=True)
            _, hist = train(cfg, tr, args.steps, 0, val=va, eval_every=args.eval_every, lr=args.lr, log=f"[inner {test} {name}]")
            out[key] = {"config": name, "macs": macs(cfg), "history": hist}
            json.dump(out, open(args.out, "w"), indent=1)
    choose(out, verbose=True)


def choose(inner, verbose=False, shippable_only=True):
    """Per fold: the (config, step) with the best held-out beat F of the mean-tracked curve (each
    kind of source weighing the same), among shippable configs."""
    best = {}
    for key, r in inner.items():
        test, name = key.split("/")
        if shippable_only and macs(CONFIGS[name]) > BUDGET:
            continue
        for h in r["history"]:
            cand = (h["val_mean"], -h["step"], name)
            if test not in best or cand > best[test][0]:
                best[test] = (cand, name, h["step"])
    if verbose:
        for test, (c, name, step) in best.items():
            print(f"fold {test}: chose {name} at {step} steps (inner val F mean-tracked {c[0]:.3f})")
    return {t: (name, step) for t, (c, name, step) in best.items()}


def run_final(args, sets):
    torch = torch_setup()
    choice = choose(json.load(open(args.final)), verbose=True) if args.final != "fixed" else None
    out = json.load(open(args.out)) if os.path.exists(args.out) else {}
    mdir = os.path.splitext(args.out)[0] + ".models"; os.makedirs(mdir, exist_ok=True)
    seeds = [int(s) for s in args.seeds.split(",")]
    fresh = args.fresh.split(",") if args.fresh else []
    for i, (test, train_sets) in enumerate(parse_folds(args.fold)):
        if args.config:
            name, steps = args.config, args.steps
        else:
            name, steps = choice[test]
        cfg = CONFIGS[name]
        clips = load(sets, train_sets)
        tests = [test] + (fresh if i == 0 else [])
        test_clips = {t: load(sets, [t]) for t in tests}
        if "base/lr/mean" not in out.get(test, {}):
            t0 = time.time()
            m = fit_activation(clips, "lr")
            for t in tests:
                res = out.setdefault(t, {})
                res["body"] = {c[1]: beat_f(track_fast(body(c[4]), 60.0 / c[2] * FPS), c[5]) for c in test_clips[t]}
                l, mn, mg = score_clips(lambda L: activation(m, L), test_clips[t])
                res["base/lr/learned"], res["base/lr/mean"], res["base/lr/margin"] = l, mn, mg
                print(f"[{t} <- {','.join(train_sets)}] base/lr: learned {np.mean(list(l.values())):.3f} "
                      f"mean {np.mean(list(mn.values())):.3f}  ({time.time() - t0:.0f}s)", flush=True)
            json.dump(out, open(args.out, "w"), indent=1)
        for seed in seeds:
            if args.steps_override:
                steps = args.steps_override
            key = f"tcn.{name}{args.tag}@{seed}"
            if key + "/mean" in out[test]:
                continue
            t0 = time.time()
            model, hist = train(cfg, clips, steps, seed, eval_every=max(steps // 4, 1), lr=args.lr,
                                log=f"[final {test} {name} seed {seed}]", weights=kind_weights(args))
            torch.save(model.state_dict(), os.path.join(mdir, f"{test}.{name}.seed{seed}.pt"))
            t1 = time.time()
            for t in tests:
                l, mn, mg = score_clips(lambda L: tcn_activation(model, L), test_clips[t])
                res = out[t]
                res[key + "/learned"], res[key + "/mean"], res[key + "/margin"] = l, mn, mg
                res.setdefault("_meta", {})[key] = {"config": name, "steps": steps, "macs": macs(cfg),
                                                    "params": int(sum(p.numel() for p in model.parameters())),
                                                    "train_seconds": t1 - t0, "train_sets": train_sets}
                b = np.mean(list(res["base/lr/mean"].values()))
                print(f"[{t}] {key}: learned {np.mean(list(l.values())):.3f} mean {np.mean(list(mn.values())):.3f} "
                      f"(base {b:.3f})  train {t1 - t0:.0f}s", flush=True)
            json.dump(out, open(args.out, "w"), indent=1)
    report([args.out])


def run_ensemble(args, sets):
    """A diagnostic, not shippable (its cost is the sum of its members'): the mean probability of
    each fold's seeds' saved models, scored like one model ("tcnens.NAME/...")."""
    torch = torch_setup()
    out = json.load(open(args.out))
    mdir = os.path.splitext(args.out)[0] + ".models"
    fresh = args.fresh.split(",") if args.fresh else []
    for i, (test, train_sets) in enumerate(parse_folds(args.fold)):
        metas = {k: v for k, v in out[test]["_meta"].items()}
        for name in sorted({v["config"] for v in metas.values()}):
            models = []
            for key, v in metas.items():
                if v["config"] != name:
                    continue
                seed = int(key.split("@")[1])
                m = build(CONFIGS[name]); m.load_state_dict(torch.load(os.path.join(mdir, f"{test}.{name}.seed{seed}.pt")))
                m.eval(); models.append(m)
            act = lambda L: norm(detrend(np.mean([predict(m, L) for m in models], axis=0)))
            for t in [test] + (fresh if i == 0 else []):
                l, mn, mg = score_clips(act, load(sets, [t]))
                key = f"tcnens{len(models)}.{name}"
                out[t][key + "/learned"], out[t][key + "/mean"], out[t][key + "/margin"] = l, mn, mg
                print(f"[{t}] {key}: learned {np.mean(list(l.values())):.3f} mean {np.mean(list(mn.values())):.3f}", flush=True)
    json.dump(out, open(args.out, "w"), indent=1)


def report(paths, ref="base/lr/mean", moved=0.1):
    """Per test set: each curve's beat F, mean over seeds [range], clips below 0.3, difference to
    the baseline, clips up / down by more than `moved` (per seed, then averaged), and margins."""
    import re
    merged = {}
    for p in paths:
        for test, res in json.load(open(p)).items():
            for key, r in res.items():
                if key.startswith("_"):
                    continue
                m = re.match(r"(.*)@(\d+)/(\w+)$", key)
                if m:
                    base, seed, what = m.group(1), m.group(2), m.group(3)
                elif "/" in key:
                    (base, what), seed = key.rsplit("/", 1), "-"
                else:
                    base, seed, what = key, "-", ""
                merged.setdefault(test, {}).setdefault((base, what), {})[seed] = r
    summary = {}
    for test, res in merged.items():
        refr = res[tuple(ref.rsplit("/", 1))]["-"]
        print(f"\n{test} (n={len(refr)}): beat F mean over seeds [range], <0.3, vs {ref}, clips up/down by > {moved} (per seed)")
        for (base, what), by_seed in sorted(res.items()):
            vals = [np.mean(list(r.values())) for r in by_seed.values()]
            label = f"{base}/{what}" if what else base
            if what == "margin":
                neg = np.mean([sum(v < 0 for v in r.values()) for r in by_seed.values()])
                print(f"  {label:24s} seeds {len(vals)}  beat-minus-'and' {np.mean(vals):+.3f} "
                      f"[{min(vals):+.3f} {max(vals):+.3f}]  negative on {neg:.1f} clips")
                summary.setdefault(test, {})[label] = {"mean": float(np.mean(vals)), "min": float(min(vals)), "max": float(max(vals))}
                continue
            low = np.mean([sum(v < 0.3 for v in r.values()) for r in by_seed.values()])
            up = np.mean([sum(r[f] - refr[f] > moved for f in refr) for r in by_seed.values()])
            down = np.mean([sum(r[f] - refr[f] < -moved for f in refr) for r in by_seed.values()])
            print(f"  {label:24s} seeds {len(vals)}  {np.mean(vals):.3f} [{min(vals):.3f}-{max(vals):.3f}]  <0.3: {low:4.1f}  "
                  f"{np.mean(vals) - np.mean(list(refr.values())):+.3f}  up {up:.1f} down {down:.1f}")
            summary.setdefault(test, {})[label] = {"mean": float(np.mean(vals)), "min": float(min(vals)), "max": float(max(vals)),
                                                   "diff": float(np.mean(vals) - np.mean(list(refr.values()))),
                                                   "up": float(up), "down": float(down), "below_0.3": float(low)}
    return summary


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--sets", nargs="+", metavar="NAME=FOLDER")
    a.add_argument("--fold", action="append", metavar="TEST=TRAIN,TRAIN")
    a.add_argument("--fresh", default="", help="sets never trained on, scored under the first fold's models")
    a.add_argument("--inner", help="comma-separated configs to compare on each fold's inner validation")
    a.add_argument("--final", help="an --inner JSON (each fold's choice), or 'fixed' with --config and --steps")
    a.add_argument("--config", help="config for every fold (overrides the inner choice)")
    a.add_argument("--steps", type=int, default=2000)
    a.add_argument("--eval-every", type=int, default=250)
    a.add_argument("--lr", type=float, default=2e-3)
    a.add_argument("--seeds", default="0,1,2")
    a.add_argument("--kind-weights", default="", help="e.g. real=3: how often each kind of source is drawn (default 1 each)")
    a.add_argument("--steps-override", type=int, default=0, help="with --final JSON: train this many steps instead")
    a.add_argument("--tag", default="", help="appended to the result keys (tcn.NAME+TAG@SEED)")
    a.add_argument("--out")
    a.add_argument("--report", nargs="+", metavar="JSON")
    a.add_argument("--ensemble", action="store_true", help="score the mean of each fold's saved seeds into --out")
    a.add_argument("--macs", action="store_true", help="print each config's size and cost, and exit")
    args = a.parse_args()
    if args.macs or args.report:
        for name, cfg in CONFIGS.items():
            params = sum(p.numel() for p in build(cfg).parameters())
            print(f"{name}: {params} params, {macs(cfg)} MACs/frame, receptive field {receptive_field(cfg)} frames"
                  f" ({receptive_field(cfg) / FPS:.1f} s){'' if macs(cfg) <= BUDGET else '  NOT SHIPPABLE'}")
        if args.report:
            s = report(args.report)
            json.dump(s, open(os.path.splitext(args.report[0])[0] + ".summary.json", "w"), indent=1)
        return
    sets = parse_sets(args.sets)
    if args.inner:
        run_inner(args, sets)
    elif args.ensemble:
        run_ensemble(args, sets)
    elif args.final:
        run_final(args, sets)


if __name__ == "__main__":
    main()
