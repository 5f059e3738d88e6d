#!/usr/bin/env python3
"""Build the real-recordings development set (issue 36) into a git-ignored folder.

Audio never enters git. This script reads four named repository snapshots that `fetch`
brings to /work/.mirror (or --mirror DIR): GTZAN clips (commercial recordings, 30 s,
research use only) and the GTZAN-Rhythm tempo and beat annotations (Marchand & Peeters),
and the IEEE Signal Processing Cup 2017 excerpts with their beat annotations (about 30 s,
no licence stated, distributed for the competition), and writes four bench corpora:

  <out>/fit/            GTZAN clips you may fit and tune on
  <out>/holdout/        GTZAN clips you never fit or tune on: read them only to report
  <out>/spcup-fit/      SP Cup open and challenge excerpts: fit and tune on them
  <out>/spcup-holdout/  SP Cup closed excerpts: read them only to report

Each has truth.csv (file, bpm, style, source, split) and <file>.beats, as `beattag bench`
reads them.

Which clips, and the split, follow one published partition, not a choice made here:
the fault-filtered, artist-disjoint GTZAN partition of Kereliuk, Sturm & Larsen (2015,
"Deep learning and music adversaries"; the lists torchaudio and MindSpore ship).
 - Clips it leaves out (repeated, distorted or mislabelled, Sturm 2013) are left out.
 - beattag is measured on clips 00000-00009 of every genre and on their artists. The
   partition never puts one artist in two parts, so a genre's part that holds any of its
   clips 00000-00009 is left out whole; clips of the other parts are by other artists.
 - holdout = the partition's "test" part; fit = its "train" and "valid" parts.
The SP Cup excerpts follow the Cup's own partition (SPCUP_PARTS below).
"""
import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import wave

SNAPSHOTS = {
    "annotations": ("TempoBeatDownbeat/gtzan_tempo_beat", "fd9cafdebb6426fee41c3718791be61306323dd7"),
    # blues and jazz 00000-00099, the original 22.05 kHz .au files
    "bluesjazz": ("wangyongpenga/music_reg", "a8341809537f1e43654c3ac41b71364f64afcd47"),
    # six clips per genre, resampled to 16 kHz mono WAV
    "genres16k": ("mattciff5/genre-to-fmri", "87f8b83ff80e4fbc928c18061d7951d0133bf134"),
    # IEEE Signal Processing Cup 2017 (real-time beat tracking): excerpts of about 30 s, 44.1 kHz mono WAV,
    # beat times (s) per excerpt; open and closed by the organisers, challenge by the teams
    "spcup": ("CreedG/PulseBox-Beat-Tracking", "8c1a2aa0ce89dc630890f1965ca0cbd444299c79"),
}

# The SP Cup's own partition: the open excerpts were given out to develop on, the closed ones were
# kept back to judge the entries, the challenge excerpts came from the teams. The closed ones are
# the part never fitted on. Left out by name: challenge_004 (its spectrum stops at 11 kHz, as a
# 22.05 kHz source's would: GTZAN is one, and its clips 00000-00009 are off limits); by rule,
# excerpts with fewer than 8 annotated beats (challenge_012 has none) or beats past their end.
SPCUP_PARTS = {"open": "spcup-fit", "challenge": "spcup-fit", "closed": "spcup-holdout"}
SPCUP_LEFT_OUT = {"challenge_004": "band-limited at 11 kHz"}
SPCUP_ANNOTATIONS = "Closed_And_Challenge_Annotations_Updated/"  # the updated closed annotations win

# Kereliuk, Sturm & Larsen (2015) fault-filtered partition, clip numbers per genre.
PARTITION = {
    "test": {
        "blues": "12-28 61-72 98-99", "classical": "11-29 34-41 49 77-79",
        "country": "30-40 43-44 46-48 50-51 53-64",
        "disco": "1 21 58 62-66 69 76-88 91-94 96-97 99",
        "hiphop": "0 26-27 30 40 43-45 51-54 62-75 99", "jazz": "73-99",
        "metal": "12-15 22-23 25-33 38-39 67 70 73-75 78 83 85 87-88",
        "pop": "0-1 13-14 43 63-66 69-79 82 88-96",
        "reggae": "34-40 46-48 52-53 64-68 71 79 82-84 87-90", "rock": "10-15 27-37 39-48 86-90",
    },
    "train": {
        "blues": "29-49 73-97", "classical": "30-33 43-48 50-67 80-99", "country": "19-26 28-29 65-99",
        "disco": "5 15-20 22-37 39-45 47 49 53-54 56-57 59 61 70 73-74 89",
        "hiphop": "2-25 28-29 31-38 41-42 55-61 77-80", "jazz": "0-1 11-24 41 47-72",
        "metal": "2-3 5 21 24 35 46-57 59-66 69 71-72 79-80 84 86 89-99",
        "pop": "2-9 11-12 16-20 23-29 31-36 38-42 44 46 49-50 80 97-99",
        "reggae": "0-2 4 6 9 11-12 14-32 42-45 49-51 54-60 63 69", "rock": "0-9 16-26 57-70 91-99",
    },
    "valid": {
        "blues": "0-11 50-60", "classical": "0-10 68-76", "country": "0-7 9-18 27 41-42 45 49",
        "disco": "0 2-4 6-14 46 48 52 67-68 72 75 90 95", "hiphop": "81-98", "jazz": "2-10 25-32",
        "metal": "0-1 6-11 16-20 36-37 68 76-77 81-82", "pop": "10 53 55 58-62 81 83-86",
        "reggae": "61-62 70 72 74 76-78 85 92-99", "rock": "38 49-56 71-85",
    },
}


def numbers(spec):
    out = set()
    for part in spec.split():
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def part_of(genre, number):
    for part, genres in PARTITION.items():
        if number in numbers(genres[genre]):
            return part
    return None  # left out by the partition (a known fault)


def eligible_part(genre, number):
    """The clip's part, or None when the clip or its artist is off limits."""
    if number < 10:
        return None
    part = part_of(genre, number)
    if part is None:
        return None
    measured = {part_of(genre, n) for n in range(10)}
    return None if part in measured else part


class Snapshot:
    def __init__(self, mirror, repo, commit):
        self.git_dir = os.path.join(mirror, repo.replace("/", "+"), "repo")
        if os.path.isdir(os.path.join(self.git_dir, ".git")):  # some snapshots arrive as repo/.git
            self.git_dir = os.path.join(self.git_dir, ".git")
        self.repo, self.commit = repo, commit
        if not os.path.isdir(self.git_dir):
            sys.exit(f"error: no snapshot of {repo} in {mirror}: bring it with `fetch github:{repo}`")
        if subprocess.run(["git", "--git-dir", self.git_dir, "cat-file", "-e", commit + "^{commit}"],
                          capture_output=True).returncode != 0:
            sys.exit(f"error: the snapshot of {repo} lacks commit {commit[:12]}")

    def paths(self):
        out = subprocess.run(["git", "--git-dir", self.git_dir, "ls-tree", "-r", "--name-only", self.commit],
                             capture_output=True, text=True, check=True).stdout
        return out.splitlines()

    def read(self, path):
        return subprocess.run(["git", "--git-dir", self.git_dir, "show", f"{self.commit}:{path}"],
                              capture_output=True, check=True).stdout


def audio_seconds(path):
    if path.endswith(".wav"):
        with wave.open(path) as w:
            return w.getnframes() / w.getframerate()
    with open(path, "rb") as f:  # Sun .au: big-endian header
        head = f.read(24)
        size = os.path.getsize(path)
    if head[:4] != b".snd":
        raise ValueError("not an .au file")
    offset, _, encoding, rate, channels = (int.from_bytes(head[i:i + 4], "big") for i in range(4, 24, 4))
    width = {2: 1, 3: 2, 4: 3, 5: 4, 6: 4, 7: 8}[encoding]
    return (size - offset) / (width * channels * rate)


def cut_short(path, last_beat):
    """Whether the audio ends before its last annotated beat: a copy cut short, not the original."""
    return last_beat > audio_seconds(path) + 0.05


def leave_out(skipped, why):
    skipped[why] = skipped.get(why, 0) + 1


def spcup_rows(snap, out, skipped):
    """The SP Cup 2017 excerpts with their beats, into spcup-fit and spcup-holdout (each folder
    written afresh: an excerpt left out since an earlier run does not linger). Their tempo is 60
    over the median interval of the annotated beats. As for the GTZAN clips, an excerpt whose
    annotation runs past the end of its audio (a copy cut short) is left out."""
    rows = {"spcup-fit": [], "spcup-holdout": []}
    wavs, names = {}, sorted(snap.paths())
    for path in names:  # sorted: each closed excerpt is there twice, the same audio; the first wins
        stem = os.path.splitext(os.path.basename(path))[0]
        if path.endswith(".wav") and stem.split("_")[0] in SPCUP_PARTS:
            wavs.setdefault(stem, path)
    names = set(names)
    staging = {split: os.path.join(out, split + ".part") for split in rows}
    for folder in staging.values():
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)

    for stem, path in sorted(wavs.items()):
        if stem in SPCUP_LEFT_OUT:
            leave_out(skipped, "SP Cup: " + SPCUP_LEFT_OUT[stem])
            continue
        annotation = next((p for p in (SPCUP_ANNOTATIONS + stem + ".txt", os.path.splitext(path)[0] + ".txt") if p in names), None)
        beats = sorted({float(x) for x in snap.read(annotation).decode().split()}) if annotation else []
        if len(beats) < 8:
            leave_out(skipped, "SP Cup: fewer than 8 beats annotated")
            continue
        split = SPCUP_PARTS[stem.split("_")[0]]
        file = f"spcup.{stem}.wav"
        target = os.path.join(staging[split], file)
        with open(target, "wb") as f:
            f.write(snap.read(path))
        if cut_short(target, beats[-1]):
            os.remove(target)
            leave_out(skipped, "SP Cup: shorter than its annotation")
            continue
        with open(target + ".beats", "w") as f:
            f.writelines(f"{b:.6f}\n" for b in beats)
        bpm = 60 / statistics.median(b - a for a, b in zip(beats, beats[1:]))
        rows[split].append({"file": file, "bpm": f"{bpm:.3f}", "style": "spcup-" + stem.split("_")[0],
                            "source": f"{snap.repo}@{snap.commit[:12]}:{path} + {annotation} (44.1 kHz)",
                            "split": f"{split} (SP Cup {stem.split('_')[0]})"})
    for split, folder in staging.items():
        write_truth(folder, rows[split])
        shutil.rmtree(os.path.join(out, split), ignore_errors=True)
        os.rename(folder, os.path.join(out, split))
    return rows


def write_truth(folder, items):
    """truth.csv, written whole or not at all."""
    target = os.path.join(folder, "truth.csv")
    with open(target + ".part", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["file", "bpm", "style", "source", "split"])
        w.writeheader()
        w.writerows(items)
    os.replace(target + ".part", target)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirror", default=os.environ.get("MIRROR", "/work/.mirror"))
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "..", "data", "real-recordings"))
    args = ap.parse_args()

    snaps = {k: Snapshot(args.mirror, *v) for k, v in SNAPSHOTS.items()}
    sources = {}  # (genre, number) -> (snapshot key, path); the original 22.05 kHz copy wins
    for key in ("genres16k", "bluesjazz"):
        for path in snaps[key].paths():
            name = os.path.basename(path)
            parts = name.split(".")
            if len(parts) == 3 and parts[2] in ("au", "wav") and parts[1].isdigit() and \
                    (path.startswith("data/genres/") or path.startswith("genres_original/")):
                sources[(parts[0], int(parts[1]))] = (key, path)

    rows = {"fit": [], "holdout": []}
    skipped = {}
    for (genre, number), (key, path) in sorted(sources.items()):
        part = eligible_part(genre, number)
        if part is None:
            leave_out(skipped, "off limits or a known fault")
            continue
        split = "holdout" if part == "test" else "fit"
        stem = f"gtzan_{genre}_{number:05d}"
        ann = snaps["annotations"]
        beats_text = ann.read(f"beats/{stem}.beats").decode()
        bpm = float(ann.read(f"tempo/{stem}.bpm").decode().split()[0])
        folder = os.path.join(args.out, split)
        os.makedirs(folder, exist_ok=True)
        ext = os.path.splitext(path)[1]
        file = f"{genre}.{number:05d}{ext}"
        target = os.path.join(folder, file)
        with open(target + ".part", "wb") as f:
            f.write(snaps[key].read(path))
        os.replace(target + ".part", target)
        beats = [line.split() for line in beats_text.splitlines() if line.strip()]
        # An original clip runs 30 s from t = 0; a cut copy would not hold the annotated beats.
        if audio_seconds(target) < 29.5 or cut_short(target, float(beats[-1][0])):
            os.remove(target)
            leave_out(skipped, "shorter than its annotation")
            continue
        with open(target + ".beats", "w") as f:
            for b in beats:
                f.write(f"{float(b[0]):.6f}\t{b[1]}\n" if len(b) > 1 else f"{float(b[0]):.6f}\n")
        rate = "22.05 kHz" if key == "bluesjazz" else "16 kHz"
        rows[split].append({"file": file, "bpm": f"{bpm:.3f}", "style": genre,
                            "source": f"{SNAPSHOTS[key][0]}@{SNAPSHOTS[key][1][:12]}:{path} ({rate})",
                            "split": f"{split} (Kereliuk {part})"})

    for split, items in rows.items():
        os.makedirs(os.path.join(args.out, split), exist_ok=True)
        write_truth(os.path.join(args.out, split), items)
    rows.update(spcup_rows(snaps["spcup"], args.out, skipped))
    for split, items in rows.items():
        folder = os.path.join(args.out, split)
        styles = {}
        for r in items:
            styles[r["style"]] = styles.get(r["style"], 0) + 1
        print(f"{split}: {len(items)} clips in {os.path.relpath(folder)} "
              f"({', '.join(f'{k} {v}' for k, v in sorted(styles.items()))})")
    for why, n in sorted(skipped.items()):
        print(f"left out: {n} ({why})")


if __name__ == "__main__":
    main()
