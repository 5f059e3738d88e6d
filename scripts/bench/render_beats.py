#!/usr/bin/env python3
"""How far a rendered run's music sits from its clock, judged by the sources' annotated beats.

    beattag render --spm 170 --duration 3m --seed 1 --json -o run.flac > run.json
    python3 scripts/bench/render_beats.py [--annotations DIR ...] run.json [...]

Each track of the timeline (`render --json`) maps source seconds to mix seconds through its
beatMap. The track's annotated beats (`<file>.beats` beside it, or in an --annotations folder) are
mapped the same way, and their distance to the nearest clock beat is what a listener hears as a
track off the clock (a flam against the click or the other track in a crossfade). One line per
track (median, 95th percentile and largest distance in ms), one per run over all tracks. Tracks
without annotations are named and skipped. Only for runs at one cadence (no workout plans).
"""
import argparse
import json
import os

import numpy as np


def annotations(path, folders):
    for candidate in [path + ".beats"] + [os.path.join(d, os.path.basename(path) + ".beats") for d in folders]:
        if os.path.exists(candidate):
            return np.array([float(l.split()[0]) for l in open(candidate) if l.strip() and not l.startswith("#")])
    return None


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("timelines", nargs="+")
    a.add_argument("--annotations", action="append", default=[], metavar="DIR")
    args = a.parse_args()
    for path in args.timelines:
        timeline = json.load(open(path))
        period = 60 / timeline["spm"]
        print(f"{path}: {timeline['spm']:g} SPM, {timeline['durationSeconds']:.1f} s")
        every = []
        for track in timeline["tracks"]:
            name = os.path.basename(track["path"])
            beats = annotations(track["path"], args.annotations)
            if beats is None:
                print(f"  {name}: no annotations")
                continue
            source, mix = np.array(track["beatMap"]).T
            inside = beats[(beats >= source[0] - 1e-6) & (beats <= source[-1] + 1e-6)]
            mapped = np.interp(inside, source, mix)
            off = np.abs(mapped / period - np.round(mapped / period)) * period * 1000
            every += list(off)
            print(f"  {name:24s} {track['startSeconds']:7.1f}–{track['endSeconds']:6.1f} s  beats {len(off):3d}  "
                  f"median {np.median(off):5.1f} ms  95th {np.percentile(off, 95):5.1f}  max {off.max():6.1f}")
        if every:
            every = np.array(every)
            print(f"  all {len(every)} beats: median {np.median(every):.1f} ms, 95th {np.percentile(every, 95):.1f}, "
                  f"max {every.max():.1f}, over 20 ms {np.mean(every > 20):.1%}")


if __name__ == "__main__":
    main()
