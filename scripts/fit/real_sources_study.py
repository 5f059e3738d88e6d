#!/usr/bin/env python3
"""Does a real source in the fit of a tempo model carry to the other real source? (issue 36)

Fits one of the tempo models as `refit.sh` does (`tempo_models.Blend`: the logistic regression
and gradient-boosted trees, library-shape weights) on the generated training samples alone, then
with one real fit set's samples added, weighing WEIGHT times the generated samples' total, and
reads the other real fit set (left out) and the generated check samples:

  python3 scripts/fit/real_sources_study.py octave --generated train.jsonl --check holdout.jsonl \\
      --real gtzan=gtz.jsonl spcup=spc.jsonl [--weights 0.5,1,2] [--estimators 600] [--l2 10]

The sample files are what `beattag bench --corpus C --training-data FILE` writes (refit.sh's
train.jsonl and holdout.jsonl; one file per real fit set, its file names prefixed so that they
differ from the generated ones). Printed: pairs right (family: songs whose best candidate is in
the right family), and for the pair models the library-weighted share.
"""
import argparse
import numpy as np
import tempo_models as tm


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("model", choices=["family", "octave", "triple", "hemiola"])
    a.add_argument("--generated", required=True)
    a.add_argument("--check", required=True)
    a.add_argument("--real", nargs=2, required=True, metavar="NAME=FILE")
    a.add_argument("--weights", default="0.5,1,2")
    a.add_argument("--estimators", type=int)
    a.add_argument("--l2", type=float, default=10)
    args = a.parse_args()
    estimators = args.estimators or (600 if args.model == "octave" else 150)

    def load(path):
        X, y, files, references, _, shape = tm.load_samples(path, args.model)
        return dict(X=X, y=y, files=files, w=tm.library_weights(references, shape, files))

    gen, check = load(args.generated), load(args.check)
    real = {n: load(p) for n, _, p in (s.partition("=") for s in args.real)}

    def right(blend, s):
        a_, t = blend.parts(s["X"]); z = (a_ + t) / 2
        if args.model == "family":
            return f"{tm.top1(z, s['y'], s['files'])}/{len(set(s['files']))}"
        ok = (z >= 0) == (s["y"] == 1)
        return f"{int(ok.sum())}/{len(ok)} ({(s['w'] * ok).sum() / s['w'].sum():.3f})"

    names = list(real)
    for weight in [0.0] + [float(x) for x in args.weights.split(",")]:
        for test in names:
            other = names[1 - names.index(test)]
            X, y, w = [gen["X"]], [gen["y"]], [gen["w"]]
            if weight:
                o = real[other]
                X.append(o["X"]); y.append(o["y"]); w.append(o["w"] / o["w"].sum() * gen["w"].sum() * weight)
            blend = tm.Blend(np.vstack(X), np.concatenate(y), np.concatenate(w), args.l2, estimators)
            fitted = f"generated + {other} at {weight:g}" if weight else "generated only"
            print(f"{args.model}, {fitted}: {test} {right(blend, real[test])}, generated check {right(blend, check)}")


if __name__ == "__main__":
    main()
