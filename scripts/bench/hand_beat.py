#!/usr/bin/env python3
"""What one beat placed by hand does to the beat grid, per clip, from `bench --json --clips`.

    beattag bench --corpus CORPUS [--corpus …] --json --clips > report.json
    python3 scripts/bench/hand_beat.py report.json [...] [--list]

`bench` scores every clip twice: beat F as analysed, and beat F after one beat placed by hand
(`TempoMetrics.withOneHandBeat`: where the 8 annotated beats nearest the analysed beat a third of
the way in, where the review page plays from, sit on the analysed grid, given to `BeatAnchor` as
`beattag tag --beat-at` or the page's O would). This prints, per report and over all: mean beat F both ways, the clips read at the
right tempo (Acc1) and how many of them the analysis put off the beat (beat F below 0.5) before and
after, and the clips the hand beat moved by more than 0.05 either way. --list names them.
"""
import argparse
import json


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("reports", nargs="+")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    pooled, reports = [], 0
    for path in args.reports:
        with open(path) as f:
            # One report per line when `bench` was given several corpora; a `--pooled` report
            # names the same clips again and is skipped.
            for line in f:
                if not line.strip():
                    continue
                report = json.loads(line)
                if str(report.get("corpus", "")).endswith("corpora pooled"):
                    continue
                clips = [c for c in report["clips"] if c.get("fMeasure") is not None]
                pooled += clips
                reports += 1
                summarize(report.get("corpus", path), clips, args.list)
    if reports > 1:
        summarize("all", pooled, False)


def summarize(name, clips, listing):
    def mean(xs):
        return sum(xs) / len(xs) if xs else float("nan")
    right = [c for c in clips if (c.get("verdict") or "").startswith("ok")]
    off_before = [c for c in right if c["fMeasure"] < 0.5]
    off_after = [c for c in right if c["fMeasureHandBeat"] < 0.5]
    gained = [c for c in clips if c["fMeasureHandBeat"] > c["fMeasure"] + 0.05]
    lost = [c for c in clips if c["fMeasureHandBeat"] < c["fMeasure"] - 0.05]
    print(f"{name}: {len(clips)} clips, beat F {mean([c['fMeasure'] for c in clips]):.3f} -> "
          f"{mean([c['fMeasureHandBeat'] for c in clips]):.3f} with one hand-placed beat")
    print(f"  read at the right tempo {len(right)}: beat F {mean([c['fMeasure'] for c in right]):.3f} -> "
          f"{mean([c['fMeasureHandBeat'] for c in right]):.3f}; off the beat (F < 0.5) {len(off_before)} -> {len(off_after)}")
    print(f"  moved more than 0.05: {len(gained)} up, {len(lost)} down")
    if listing:
        for c in sorted(gained + lost, key=lambda c: c["fMeasureHandBeat"] - c["fMeasure"]):
            print(f"    {c['file']:32s} {c.get('verdict') or '-':8s} ref {c['reference']:6.1f} est {c.get('estimate') or 0:6.1f}"
                  f"  F {c['fMeasure']:.2f} -> {c['fMeasureHandBeat']:.2f}")


if __name__ == "__main__":
    main()
