#!/usr/bin/env python3
"""Where each of beattag's beats falls on a clip's annotated grid, beat by beat.

    python3 scripts/bench/phase_trace.py [--beattag PATH] CORPUS FILE [FILE ...]

One line of symbols per clip, one symbol per tracked beat inside the annotations: `.` within 0.1
beats of an annotated beat, `o` within 0.1 of the midpoint between two ("and"), `-` early by
0.1-0.4 of a beat, `+` late by 0.1-0.4. A grid that slides shows as runs moving through
`.`, `+`, `o`, `-`; a grid half a beat off as `o` throughout. Reads `beattag analyze --json`
(default .build/release/beattag) and CORPUS/FILE.beats.
"""
import argparse
import json
import subprocess

import numpy as np


def symbol(phase):
    if phase < 0.1 or phase > 0.9:
        return "."
    if abs(phase - 0.5) < 0.1:
        return "o"
    return "-" if phase > 0.5 else "+"


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--beattag", default=".build/release/beattag")
    a.add_argument("corpus")
    a.add_argument("files", nargs="+")
    args = a.parse_args()
    for name in args.files:
        path = f"{args.corpus}/{name}"
        out = json.loads(subprocess.run([args.beattag, "analyze", "--json", path], capture_output=True, text=True,
                                        check=True).stdout.splitlines()[0])
        annotated = np.array([float(line.split()[0]) for line in open(path + ".beats") if line.strip()])
        marks = []
        for t in out.get("beats") or []:
            j = np.searchsorted(annotated, t)
            if 0 < j < len(annotated):
                marks.append(symbol((t - annotated[j - 1]) / (annotated[j] - annotated[j - 1])))
        print(f"{name}: beattag {out.get('bpm', 0):.1f} BPM, annotated {60 / np.median(np.diff(annotated)):.1f}")
        print("    " + "".join(marks))


if __name__ == "__main__":
    main()
