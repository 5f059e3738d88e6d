#!/usr/bin/env python3
"""Re-encodes annotated corpora into the formats FFmpeg decodes for beattag (and one lossless
control that libsndfile decodes), one folder per variant:

  aac-m4a      AAC 160 kb/s in .m4a (FFmpeg's encoder: 1024 samples of priming, declared by an edit list)
  alac-m4a     Apple Lossless in .m4a
  aac-mp4      AAC 128 kb/s in .mp4
  wma          WMA v2 128 kb/s in .wma (ASF: no field for the encoder's priming)
  itunes-m4a   AAC with iTunes' 2112 samples of priming, declared only by the iTunSMPB tag (no edit list)
  opus         Opus 96 kb/s as ffmpeg writes it (pages stamped ahead of their samples, which libsndfile
               1.2.0 read by dropping packets: beattag decodes Opus with FFmpeg)
  flac-shifted the control: lossless FLAC of the original without its first 50 samples (about 1 ms),
               decoded by libsndfile. Whatever moves between the original and this copy is the
               analysis's own sensitivity, not a decoder's: the yardstick for the lossy variants.

Each folder gets truth.csv (the original's rows, the file renamed, plus an `original` column with the
source file's absolute path) and the .beats files, so `beattag bench --corpus OUT/aac-m4a` scores the
copies and compares them with their originals. Needs the ffmpeg command-line tool; writes outside the
repository.

  python3 scripts/bench/encode-corpus.py OUT ../shared/corpus-dev [../shared/corpus-real-dev ...] [--only VARIANT]...
"""
import argparse
import csv
import os
import shutil
import struct
import subprocess

VARIANTS = {
    "aac-m4a": (".m4a", ["-c:a", "aac", "-b:a", "160k"]),
    "alac-m4a": (".m4a", ["-c:a", "alac"]),
    "aac-mp4": (".mp4", ["-c:a", "aac", "-b:a", "128k"]),
    "wma": (".wma", ["-c:a", "wmav2", "-b:a", "128k"]),
    "itunes-m4a": (".m4a", ["-c:a", "aac", "-b:a", "160k", "-use_editlist", "0", "-af", "adelay=delays=1088S:all=1"]),
    "opus": (".opus", ["-c:a", "libopus", "-b:a", "96k"]),
    "flac-shifted": (".flac", ["-c:a", "flac", "-sample_fmt", "s32", "-af", "atrim=start_sample=50"]),
}
ITUNES_PRIMING = 2112  # FFmpeg's encoder primes 1024; the adelay above adds the other 1088.


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", *args], check=True)


def decoded_frames(path):
    out = subprocess.run(["ffmpeg", "-loglevel", "error", "-i", path, "-f", "s16le", "-ac", "1", "-"],
                         check=True, capture_output=True).stdout
    return len(out) // 2


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def add_itunsmpb(path, frames):
    """Adds ----:com.apple.iTunes:iTunSMPB to moov/udta/meta/ilst; moov must be the file's last box."""
    data = bytearray(open(path, "rb").read())

    def find(start, end, names):
        at = start
        while at + 8 <= end:
            size, kind = struct.unpack(">I4s", data[at:at + 8])
            if size < 8:
                break
            if kind == names[0]:
                if len(names) == 1:
                    return [(at, size)]
                body = at + 8 + (4 if kind == b"meta" else 0)
                rest = find(body, at + size, names[1:])
                if rest:
                    return [(at, size)] + rest
            at += size
        return None

    chain = find(0, len(data), [b"moov", b"udta", b"meta", b"ilst"])
    assert chain and chain[0][0] + chain[0][1] == len(data), "moov must be last, with udta/meta/ilst"
    packets = (ITUNES_PRIMING + frames + 1023) // 1024
    value = " 00000000 %08X %08X %016X" % (ITUNES_PRIMING, packets * 1024 - ITUNES_PRIMING - frames, frames)
    item = box(b"----", box(b"mean", b"\0\0\0\0com.apple.iTunes") + box(b"name", b"\0\0\0\0iTunSMPB")
               + box(b"data", struct.pack(">II", 1, 0) + value.encode()))
    at, size = chain[-1]
    data[at + size:at + size] = item
    for start, length in chain:
        struct.pack_into(">I", data, start, length + len(item))
    open(path, "wb").write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", help="folder to write one subfolder per variant into")
    parser.add_argument("corpora", nargs="+", help="annotated corpus folders (truth.csv, .beats)")
    parser.add_argument("--only", action="append", choices=list(VARIANTS), help="make only this variant (repeatable)")
    args = parser.parse_args()
    out, corpora, only = args.out, args.corpora, args.only or []
    for variant, (ext, codec) in VARIANTS.items():
        if only and variant not in only:
            continue
        folder = os.path.join(out, variant)
        os.makedirs(folder, exist_ok=True)
        rows_out, header_out = [], None
        for corpus in corpora:
            corpus = os.path.abspath(corpus)
            with open(os.path.join(corpus, "truth.csv"), newline="") as f:
                rows = list(csv.DictReader(f))
            for row in rows:
                source = os.path.join(corpus, row["file"])
                stem = os.path.splitext(row["file"])[0].replace("/", "__")
                name = f"{os.path.basename(corpus)}__{stem}{ext}"
                target = os.path.join(folder, name)
                ffmpeg("-i", source, "-vn", *codec, "-metadata", f"title={stem}", "-fflags", "+bitexact", target)
                if variant == "itunes-m4a":
                    add_itunsmpb(target, decoded_frames(source))
                if os.path.exists(source + ".beats"):
                    shutil.copyfile(source + ".beats", target + ".beats")
                new = dict(row, file=name, original=source)
                new.setdefault("style", os.path.basename(corpus))
                rows_out.append(new)
                header_out = header_out or list(new.keys())
                for key in new:
                    if key not in header_out:
                        header_out.append(key)
        with open(os.path.join(folder, "truth.csv"), "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=header_out, restval="")
            writer.writeheader()
            writer.writerows(rows_out)
        print(f"{folder}: {len(rows_out)} files")


if __name__ == "__main__":
    main()
