#!/usr/bin/env python3
"""Time-stretches annotated corpora into the running range, for the octave question on real
recordings: the slow side of the corpus (a 98 BPM drum demo, an 87 BPM electro piece) played at
150-195 BPM must read at its new tempo, not at half of it. This is the development stand-in for
the measured set of real compositions re-rendered at 150-195 (issue 9): a stretch keeps the
sounds and moves only the tempo, where a re-render would also move note lengths and effects.

Every clip of every corpus is stretched to each of TARGETS (BPM) with Rubber Band (FFmpeg's
rubberband filter, crisp transients, pitch kept) and written as FLAC into OUT, with truth.csv
(the tempo the stretch makes, the original's group) and, where the original has beats, the beats
scaled by the same ratio. A clip whose stretch would exceed MAX_RATIO either way is skipped: a
piece at 87 BPM played at 195 is more than twice its speed, nothing like a real recording.
Needs the ffmpeg command-line tool with librubberband (Debian's has it); writes outside the
repository.

  python3 scripts/bench/stretch-corpus.py OUT ../shared/corpus-real-dev [more corpora ...]
  .build/release/beattag bench --clips --corpus OUT
"""
import argparse
import csv
import os
import subprocess

TARGETS = [150, 159, 168, 177, 186, 195]
MAX_RATIO = 2.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("corpora", nargs="+")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for corpus in args.corpora:
        with open(os.path.join(corpus, "truth.csv"), newline="") as f:
            for row in csv.DictReader(f):
                source = os.path.join(corpus, row["file"])
                bpm = float(row["bpm"])
                group = row.get("group") or row.get("style") or row["file"].split("__")[0]
                stem = os.path.splitext(row["file"])[0]
                beats_path = source + ".beats"
                beats = [float(line.split()[0]) for line in open(beats_path) if line.strip()] if os.path.exists(beats_path) else None
                for target in TARGETS:
                    ratio = target / bpm
                    if not 1 / MAX_RATIO <= ratio <= MAX_RATIO:
                        continue
                    name = f"{stem}_{target}.flac"
                    out = os.path.join(args.out, name)
                    if not os.path.exists(out):
                        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", source,
                                        "-af", f"rubberband=tempo={ratio:.6f}:transients=crisp",
                                        "-c:a", "flac", out + ".part.flac"], check=True)
                        os.replace(out + ".part.flac", out)
                    if beats is not None:
                        with open(out + ".beats", "w") as f:
                            f.writelines(f"{t / ratio:.4f}\n" for t in beats)
                    rows.append((name, target, group))
    with open(os.path.join(args.out, "truth.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["file", "bpm", "group"])
        w.writerows(rows)
    print(f"{len(rows)} clips in {args.out}")


if __name__ == "__main__":
    main()
