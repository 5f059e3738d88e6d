#!/usr/bin/env python3
"""Is any clip of one real-recordings corpus the same audio as a clip of another?

    python3 scripts/realset/overlap.py data/real-recordings/spcup-fit data/real-recordings/spcup-holdout \
        --against data/real-recordings/fit data/real-recordings/holdout

Two sets built from different sources can share a recording (a team of the SP Cup may have taken
a GTZAN clip): the copy in a fit set would then be fitted on while its twin is read as unseen. Each
clip's onset envelope (rises of the log level, 100 frames a second, from the first 30 s decoded by
ffmpeg at 8 kHz mono) is cross-correlated with every clip of the other folders at every lag where
they overlap by at least --min-overlap seconds, normalised by the energy of the overlapping parts;
the largest value is printed for the closest pairs. The same recording, resampled and cut a few
seconds later, or a 15 s piece of it, scores above 0.9; different recordings score 0.1-0.4.

Exit status: 0 when no pair reaches --threshold (default 0.6), 1 when one does (the pairs are
listed), 2 when a folder holds no audio or a file cannot be decoded. Needs numpy and ffmpeg.
"""
import argparse
import glob
import os
import subprocess
import sys

import numpy as np

RATE, HOP = 8000, 80


def envelope(path):
    try:
        raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-ac", "1", "-ar", str(RATE), "-t", "30", "-f", "f32le", "-"],
                             capture_output=True, check=True).stdout
    except FileNotFoundError:
        fail("ffmpeg is not installed (apt-get install ffmpeg)")
    except subprocess.CalledProcessError as e:
        fail(f"cannot decode {path}: {e.stderr.decode(errors='replace').strip().splitlines()[-1:] or ['ffmpeg failed']}")
    x = np.frombuffer(raw, dtype=np.float32)
    n = len(x) // HOP
    level = np.log(np.sqrt((x[:n * HOP].reshape(n, HOP) ** 2).mean(axis=1) + 1e-12))
    rise = np.maximum(np.diff(level), 0)
    if len(rise) < 2 or rise.std() == 0:
        fail(f"{path} holds no sound to compare")
    return (rise - rise.mean()) / rise.std()


def fail(message):
    print(f"overlap: {message}", file=sys.stderr)
    sys.exit(2)


def clips(folders):
    out = {}
    for folder in folders:
        if not os.path.isdir(folder):
            fail(f"no folder {folder}")
        for path in sorted(glob.glob(os.path.join(folder, "*"))):
            if os.path.splitext(path)[1] in (".wav", ".au", ".flac", ".mp3", ".ogg"):
                out[path] = envelope(path)
    return out


def similarity(a, b, min_overlap):
    """The largest correlation of `a` and `b` over the lags where they overlap by `min_overlap`
    frames or more, each normalised by the energy of the two overlapping parts."""
    na, nb = len(a), len(b)
    n = 1 << (na + nb).bit_length()  # no circular wrap
    c = np.fft.irfft(np.fft.rfft(a, n) * np.conj(np.fft.rfft(b, n)), n)
    ea, eb = np.concatenate([[0], np.cumsum(a * a)]), np.concatenate([[0], np.cumsum(b * b)])
    k = np.arange(-(nb - 1), na)  # lag: a[i + k] against b[i]
    start_a, start_b = np.maximum(k, 0), np.maximum(-k, 0)
    length = np.minimum(na - start_a, nb - start_b)
    energy = (ea[start_a + length] - ea[start_a]) * (eb[start_b + length] - eb[start_b])
    usable = (length >= min_overlap) & (energy > 0)
    if not usable.any():
        return 0.0
    return float(np.max(c[k[usable] % n] / np.sqrt(energy[usable])))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", help="corpus folders whose clips are checked")
    ap.add_argument("--against", nargs="+", required=True, help="corpus folders they must not share a recording with")
    ap.add_argument("--threshold", type=float, default=0.6, help="score from which two clips count as one recording")
    ap.add_argument("--min-overlap", type=float, default=10, help="seconds two clips must overlap at a lag for it to count")
    ap.add_argument("--show", type=int, default=5, help="how many of the closest pairs to print")
    args = ap.parse_args()
    ours, theirs = clips(args.folders), clips(args.against)
    if not ours or not theirs:
        fail("no audio in " + ("the folders" if not ours else "--against"))
    frames = int(args.min_overlap * RATE / HOP)
    pairs = sorted(((max((similarity(a, b, frames), q) for q, b in theirs.items()), p) for p, a in ours.items()), reverse=True)
    print(f"{len(ours)} clips against {len(theirs)}; closest pairs:")
    for (score, q), p in pairs[:args.show]:
        print(f"  {score:.3f}  {os.path.relpath(p)}  {os.path.relpath(q)}")
    same = [x for x in pairs if x[0][0] >= args.threshold]
    if same:
        for (score, q), p in same[args.show:]:
            print(f"  {score:.3f}  {os.path.relpath(p)}  {os.path.relpath(q)}")
        print(f"{len(same)} clips at or above {args.threshold}: the same recording in two sets", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
