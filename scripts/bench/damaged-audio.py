#!/usr/bin/env python3
"""Where do the beats of a damaged MP3 or FLAC go? (docs/decoding.md, "Damaged MP3 frames")

Builds damaged files into OUT and compares each one's beats after the damage with the undamaged
file's, for every beattag binary named (e.g. the build before a change and after it):

  - a 40-s kick at 162 BPM (0.37 s a beat, a tick on the "and") as a 128 kb/s CBR MP3, with
    250 bytes flipped half-way, 4 KB zeroed half-way and just after the next frame header, and
    4 KB of random bytes half-way; the same kick as FLAC with 300 bytes flipped at 30% and 60%,
    and 4 KB zeroed half-way;
  - songs of the given folders (e.g. ../shared/corpus-real-dev) as VBR MP3 (-q:a 2, and -q:a 6
    for the first two), 3 KB zeroed at 45%.

  python3 scripts/bench/damaged-audio.py OUT OLD/beattag NEW/beattag --songs ../shared/corpus-real-dev

A binary is also run without FFmpeg (BEATTAG_LIBAVFORMAT=/nonexistent) with --without-ffmpeg.
The undamaged file is read by the last binary named. Needs ffmpeg.
"""
import argparse
import json
import math
import os
import random
import statistics
import struct
import subprocess
import sys
import wave

RATE, SECONDS, PERIOD = 44100, 40.0, 0.37


def write_kicks(path):
    frames = bytearray()
    for i in range(int(SECONDS * RATE)):
        t = i / RATE
        beat = math.fmod(t, PERIOD)
        off = math.fmod(t + PERIOD / 2, PERIOD)
        v = 0.7 * math.sin(2 * math.pi * 70 * beat) * math.exp(-40 * beat) \
            + 0.15 * math.sin(2 * math.pi * 3000 * off) * math.exp(-400 * off)
        frames += struct.pack("<h", int(max(-1, min(1, v)) * 32767))
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(bytes(frames))


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True)


def damaged_copy(src, dst, at, count, kind):
    data = bytearray(open(src, "rb").read())
    if kind == "flip":
        for place in (at if isinstance(at, list) else [at]):
            for k in range(place, place + count):
                data[k] ^= 0x5A
    elif kind == "zero":
        data[at:at + count] = bytes(count)
    else:
        rng = random.Random(3)
        data[at:at + count] = bytes(rng.randrange(256) for _ in range(count))
    open(dst, "wb").write(data)


def next_header(data, start):
    """The first MPEG audio frame sync at or after start."""
    for k in range(start, len(data) - 1):
        if data[k] == 0xFF and data[k + 1] & 0xE0 == 0xE0:
            return k
    return start


def analyse(binary, path, without_ffmpeg=False):
    env = dict(os.environ)
    if without_ffmpeg:
        env["BEATTAG_LIBAVFORMAT"] = "/nonexistent"
    out = subprocess.run([binary, "analyze", "--json", path], capture_output=True, text=True, env=env).stdout
    return json.loads(out.splitlines()[0])


def compare(reference, damaged, after):
    beats = [b for b in damaged.get("beats", []) if after < b < damaged.get("duration", 0) - 1]
    offsets = [min((b - r for r in reference), key=abs) for b in beats]
    if not offsets:
        return "no beats after the damage"
    within = sum(1 for o in offsets if abs(o) <= 0.010)
    return "%d of %d within 10 ms, median %+.0f ms" % (within, len(offsets), 1000 * statistics.median(offsets))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--songs", action="append", default=[], help="a folder of songs (the first four are used)")
    parser.add_argument("--without-ffmpeg", action="store_true", help="also run the last binary without FFmpeg")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    cases = []  # (name, undamaged, damaged, seconds after which to compare)

    wav = os.path.join(args.out, "kicks.wav")
    write_kicks(wav)
    kick = os.path.join(args.out, "kicks.mp3")
    ffmpeg("-i", wav, "-c:a", "libmp3lame", "-b:a", "128k", kick)
    size = os.path.getsize(kick)
    half = size // 2
    after_header = next_header(open(kick, "rb").read(), half) + 10
    for name, at, count, kind in [("250 bytes flipped", half, 250, "flip"), ("4 KB zeroed", half, 4096, "zero"),
                                  ("4 KB zeroed after a header", after_header, 4096, "zero"),
                                  ("4 KB random", half, 4096, "random")]:
        path = os.path.join(args.out, "kicks-%s.mp3" % name.replace(" ", "-"))
        damaged_copy(kick, path, at, count, kind)
        cases.append(("kick, " + name, kick, path, SECONDS / 2 + 0.5))
    flac = os.path.join(args.out, "kicks.flac")
    ffmpeg("-i", wav, "-c:a", "flac", flac)
    size = os.path.getsize(flac)
    for name, at, count, kind in [("300 bytes flipped twice", [int(size * 0.3), int(size * 0.6)], 300, "flip"),
                                  ("4 KB zeroed", size // 2, 4096, "zero")]:
        path = os.path.join(args.out, "kicks-%s.flac" % name.replace(" ", "-"))
        damaged_copy(flac, path, at, count, kind)
        cases.append(("FLAC kick, " + name, flac, path, SECONDS * 0.6 + 1.5))

    songs = sorted(os.path.join(d, f) for d in args.songs for f in os.listdir(d)
                   if f.rsplit(".", 1)[-1] in ("ogg", "flac", "wav", "mp3"))[:4]
    for i, song in enumerate(songs):
        for quality in (["2", "6"] if i < 2 else ["2"]):
            whole = os.path.join(args.out, "song%d-q%s.mp3" % (i + 1, quality))
            ffmpeg("-i", song, "-map", "0:a", "-c:a", "libmp3lame", "-q:a", quality, whole)
            path = whole.replace(".mp3", "-damaged.mp3")
            damaged_copy(whole, path, int(os.path.getsize(whole) * 0.45), 3000, "zero")
            cases.append(("%s, VBR -q:a %s" % (os.path.basename(song), quality), whole, path, None))

    runs = [(b, False) for b in args.binaries] + ([(args.binaries[-1], True)] if args.without_ffmpeg else [])
    for name, whole, damaged, after in cases:
        reference = analyse(args.binaries[-1], whole)
        print(name)
        for binary, without in runs:
            result = analyse(binary, damaged, without)
            start = after if after is not None else 0.46 * reference["duration"]
            label = binary + (" (no FFmpeg)" if without else "")
            print("  %s: %s; %s; %s" % (label, compare(reference["beats"], result, start),
                                         result.get("decoder", "-"), result.get("warning") or result.get("error") or "nothing said"))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
