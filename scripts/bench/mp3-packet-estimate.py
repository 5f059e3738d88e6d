#!/usr/bin/env python3
"""How many frames did a damaged packet of a raw MP3 stream hold? (RawStreamPackets, docs/decoding.md)

FFmpeg's parser hands the bytes from a damaged frame header to the next intact one to the decoder
as one packet. This simulates that on undamaged encodes, from ffprobe's packet list: a stretch of
0.3, 1, 3 or 8 KB wiped at 300 random places per file; the merged packet is the frame the stretch
starts in and every frame whose header lies inside it. Each estimator turns the packet's bytes into
frames (at least one); printed: the mean absolute error in frames and how often it is exact.

  python3 scripts/bench/mp3-packet-estimate.py OUT ../shared/corpus-real-dev

encodes the first four songs of the folder as VBR MP3 (-q:a 2, and -q:a 6 for the first two) into
OUT, and one as 128 kb/s CBR. Needs ffmpeg and ffprobe.
"""
import os
import random
import statistics
import subprocess
import sys

WINDOW = 64  # RawStreamPackets.remembered


def packets(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_packets", "-of", "csv=p=0",
                          "-show_entries", "packet=size,pos", path], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        fields = line.split(",")
        try:
            rows.append((int(fields[0]), int(fields[1])))
        except (ValueError, IndexError):
            pass  # side data lines
    return rows


def estimators(previous, so_far):
    return {
        "one frame a packet": None,
        "median of the last 15": sorted(previous[-15:])[len(previous[-15:]) // 2],
        "mean of the last 15": sum(previous[-15:]) / len(previous[-15:]),
        "mean of the last %d (shipped)" % WINDOW: sum(previous[-WINDOW:]) / len(previous[-WINDOW:]),
        "mean of all so far": so_far,
    }


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out, songs_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    songs = sorted(os.path.join(songs_dir, f) for f in os.listdir(songs_dir)
                   if f.rsplit(".", 1)[-1] in ("ogg", "flac", "wav", "mp3"))[:4]
    files = []
    for i, song in enumerate(songs):
        for quality in (["2", "6"] if i < 2 else ["2"]):
            path = os.path.join(out, "song%d-q%s.mp3" % (i + 1, quality))
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", song, "-map", "0:a", "-c:a", "libmp3lame", "-q:a", quality, path], check=True)
            files.append(path)
    cbr = os.path.join(out, "song1-cbr128.mp3")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", songs[0], "-map", "0:a", "-c:a", "libmp3lame", "-b:a", "128k", cbr], check=True)
    files.append(cbr)

    rng = random.Random(1)
    pooled = {}
    for path in files:
        rows = packets(path)
        sizes = [r[0] for r in rows]
        starts = [r[1] for r in rows]
        errors = {}
        for _ in range(300):
            wiped = rng.choice([300, 1000, 3000, 8000])
            at = rng.randrange(starts[100], starts[-100])
            first = max(j for j in range(len(starts)) if starts[j] <= at)
            end = first + 1
            while end < len(starts) and starts[end] < at + wiped:
                end += 1
            held, size = end - first, sum(sizes[first:end])
            previous = sizes[max(0, first - WINDOW):first]
            for name, usual in estimators(previous, sum(sizes[:first]) / first).items():
                guess = 1 if usual is None else max(1, round(size / usual))
                errors.setdefault(name, []).append(guess - held)
        print(os.path.basename(path) + ": " + "; ".join(
            "%s %.2f" % (name, statistics.mean(abs(e) for e in v)) for name, v in errors.items()))
        for name, v in errors.items():
            pooled.setdefault(name, []).extend(v)
    print("all files:")
    for name, v in pooled.items():
        print("  %-28s mean |error| %.2f frames, exact %d%%" % (
            name, statistics.mean(abs(e) for e in v), round(100 * sum(1 for e in v if e == 0) / len(v))))


if __name__ == "__main__":
    main()
