"""A Python mirror of beattag's onset front end, for offline studies of the beat stages.

Mono 11025 Hz (ffmpeg decodes), 512-point Hann window, hop 110, bins summed in 1/4-octave bands
from 100 Hz, log(1 + 100 x): what `OnsetEnvelope` computes before its flux. Not bit-identical to
the Swift code (another decoder and resampler), close enough to compare curves and trackers.

A set is NAME=FOLDER (a `beattag bench` corpus: truth.csv and <file>.beats). Each file's levels
and annotated beats are cached in $BEATTAG_STUDY_CACHE (default /tmp/beattag-study-cache)/NAME/.
  python3 scripts/study/frontend.py NAME=FOLDER ...   # fill the cache (about 1 s a clip)
"""
import os, sys, subprocess, numpy as np

SR = 11025
N = 512
HOP = 110
FPS = SR / HOP
T0 = (N / 2) / SR


def band_starts():
    bin_hz = SR / N
    starts = [1]
    edge = 100.0
    while True:
        b = int(round(edge / bin_hz))
        if b >= N // 2:
            break
        if b > starts[-1]:
            starts.append(b)
        edge *= 2 ** 0.25
    starts.append(N // 2 + 1)
    return starts


STARTS = band_starts()
CENTRES = [(STARTS[i] * SR / N) for i in range(len(STARTS) - 1)]


def decode(path):
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-ac", "1", "-ar", str(SR), "-f", "f32le", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(out, dtype=np.float32).astype(np.float64)


def levels(x):
    n = 1 + max(0, (len(x) - N) // HOP)
    idx = np.arange(N)[None, :] + HOP * np.arange(n)[:, None]
    idx = np.minimum(idx, len(x) - 1)
    w = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N) / N)
    frames = x[idx] * w
    mag = np.abs(np.fft.rfft(frames, axis=1))
    cs = np.concatenate([np.zeros((n, 1)), np.cumsum(mag, axis=1)], axis=1)
    bands = np.stack([cs[:, STARTS[i + 1]] - cs[:, STARTS[i]] for i in range(len(STARTS) - 1)], axis=1)
    return np.log1p(100 * bands).astype(np.float32)


def read_beats(path):
    beats = []
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        beats.append(float(line.split()[0]))
    return np.array(beats)


def cached(setname, folder, name):
    cdir = os.path.join(os.environ.get("BEATTAG_STUDY_CACHE", "/tmp/beattag-study-cache"), setname)
    os.makedirs(cdir, exist_ok=True)
    c = os.path.join(cdir, name + ".npz")
    if os.path.exists(c):
        d = np.load(c)
        return d["L"], d["beats"]
    L = levels(decode(os.path.join(folder, name)))
    beats = read_beats(os.path.join(folder, name + ".beats"))
    np.savez_compressed(c, L=L, beats=beats)
    return L, beats


def files(folder):
    import csv
    rows = list(csv.DictReader(open(os.path.join(folder, "truth.csv"))))
    return [(r["file"], float(r["bpm"]), r.get("style", "")) for r in rows]


def parse_sets(specs):
    """NAME=FOLDER arguments as a dict."""
    sets = {}
    for spec in specs:
        name, _, folder = spec.partition("=")
        if not folder or not os.path.isfile(os.path.join(folder, "truth.csv")):
            sys.exit(f"frontend: {spec}: expected NAME=FOLDER with FOLDER/truth.csv")
        sets[name] = folder
    return sets


def load(sets, names):
    """(set, file, bpm, style, levels, beats) of every clip of the named sets."""
    out = []
    for s in names:
        for f, bpm, style in files(sets[s]):
            L, beats = cached(s, sets[s], f)
            out.append((s, f, bpm, style, L, beats))
    return out


if __name__ == "__main__":
    sets = parse_sets(sys.argv[1:])
    for s, folder in sets.items():
        fl = files(folder)
        for f, _, _ in fl:
            cached(s, folder, f)
        print(s, len(fl), "files cached")
