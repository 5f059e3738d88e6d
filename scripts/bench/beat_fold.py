#!/usr/bin/env python3
"""Where beattag's beats sit on an annotated corpus's beats, and what the music does there.

    python3 scripts/bench/beat_fold.py CORPUS [--clips NAME ...] [--beattag PATH] [--bins 16]

For each clip: the tempo (annotated and beattag's), the mean phase of beattag's beats on the
annotated grid (0 = on the annotated beat, 0.5 = on the "and"; R near 1 means they stay there,
near 0 that they wander), and three onset-strength profiles (bass < 200 Hz, mids to 2 kHz,
above) folded over two annotated beats, `bins` cells a beat: the first cell of each beat is the
annotated beat. A grid half a beat off shows as a phase near 0.5; a shuffle's "and" as strong
cells at two thirds of the beat. Reads the audio with ffmpeg, the beats with a scan of a WAV copy
into a temporary catalog (`beattag scan` does not read .au). Needs numpy.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

RATE, HOP, WINDOW = 22050, 110, 512
BANDS = {"bass": (30, 200), "mids": (200, 2000), "highs": (2000, 11000)}


def decode(path):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-ac", "1", "-ar", str(RATE), "-f", "f32le", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.float32)


def band_flux(x):
    """Half-wave rectified log-spectral flux per band, minus its 0.5 s moving average, timed at the
    centre of the later window (so an onset shows up to half a window, 12 ms, early)."""
    n = 1 + (len(x) - WINDOW) // HOP
    frames = x[np.arange(WINDOW)[None, :] + HOP * np.arange(n)[:, None]] * np.hanning(WINDOW)
    level = np.log1p(100 * np.abs(np.fft.rfft(frames, axis=1)))
    rise = np.maximum(0, np.diff(level, axis=0))
    hz = np.fft.rfftfreq(WINDOW, 1 / RATE)
    times = ((np.arange(n - 1) + 1) * HOP + WINDOW / 2) / RATE
    out = {}
    for name, (lo, hi) in BANDS.items():
        c = rise[:, (hz >= lo) & (hz < hi)].sum(1)
        out[name] = np.maximum(0, c - np.convolve(c, np.ones(100) / 100, "same"))
    return times, out


def fold(times, curve, beats, bins):
    """Mean of `curve` over two annotated beats, `bins` cells a beat, scaled to its maximum."""
    total, count = np.zeros(2 * bins), np.zeros(2 * bins)
    for a, b in zip(beats[:-2], beats[2:]):
        inside = (times >= a) & (times < b)
        cell = ((times[inside] - a) / (b - a) * 2 * bins).astype(int)
        np.add.at(total, cell, curve[inside])
        np.add.at(count, cell, 1)
    mean = total / np.maximum(count, 1)
    return mean / max(mean.max(), 1e-12)


def phase_on(estimated, annotated):
    """Circular mean phase of beats on the annotated grid, and its resultant length R."""
    annotated = np.asarray(annotated)
    phases = []
    for e in estimated:
        i = np.searchsorted(annotated, e)
        if 1 <= i < len(annotated):
            phases.append((e - annotated[i - 1]) / (annotated[i] - annotated[i - 1]))
    if not phases:
        return None, 0.0
    z = np.mean(np.exp(2j * np.pi * np.asarray(phases)))
    return (np.angle(z) / (2 * np.pi)) % 1, abs(z)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--clips", nargs="*", help="file names (or their stems) to show; all by default")
    ap.add_argument("--beattag", default=".build/release/beattag")
    ap.add_argument("--bins", type=int, default=16)
    args = ap.parse_args()

    with open(os.path.join(args.corpus, "truth.csv")) as f:
        truth = list(csv.DictReader(f))
    if args.clips:
        wanted = set(args.clips)
        truth = [r for r in truth if r["file"] in wanted or os.path.splitext(r["file"])[0] in wanted]
    if not truth:
        sys.exit("beat_fold: no clips to show")
    with tempfile.TemporaryDirectory() as tmp:
        audio = {}
        for r in truth:
            x = decode(os.path.join(args.corpus, r["file"]))
            audio[r["file"]] = x
            wav = os.path.join(tmp, "audio", r["file"] + ".wav")
            os.makedirs(os.path.dirname(wav), exist_ok=True)
            subprocess.run(["ffmpeg", "-v", "error", "-f", "f32le", "-ar", str(RATE), "-ac", "1", "-i", "-",
                            "-c:a", "pcm_s16le", wav], input=x.tobytes(), check=True)
        catalog = os.path.join(tmp, "catalog.sqlite")
        subprocess.run([args.beattag, "scan", os.path.join(tmp, "audio"), "--catalog", catalog],
                       capture_output=True, check=True)
        listed = json.loads(subprocess.run([args.beattag, "list", "--catalog", catalog, "--json", "--limit", "100000"],
                                           capture_output=True, check=True, text=True).stdout)
    tracks = {os.path.basename(t["path"])[:-4]: t for t in listed}
    shade = " .:-=+*#%@"
    for r in truth:
        annotated = [float(line.split()[0]) for line in open(os.path.join(args.corpus, r["file"] + ".beats")) if line.strip()]
        track = tracks.get(r["file"], {})
        beats = [b for b in track.get("beats") or [] if b > 5]
        phase, length = phase_on(beats, annotated)
        where = f"phase {phase:.2f} (R {length:.2f})" if phase is not None else "no beats"
        print(f"{r['file']}  annotated {float(r['bpm']):.1f}  beattag {track.get('bpm')}  {where}")
        times, flux = band_flux(audio[r["file"]])
        for name, curve in flux.items():
            cells = "".join(shade[min(9, int(v * 9.99))] for v in fold(times, curve, annotated, args.bins))
            print(f"   {name:5s} |{cells}|")


if __name__ == "__main__":
    main()
