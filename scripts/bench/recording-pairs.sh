#!/usr/bin/env bash
# Is one recording recognised across encodings, and never two recordings taken for one (issue 35)?
# Encodes every clip of a corpus (default ../shared/corpus-dev) as AAC 128k and Opus 96k beside its
# original, scans the lot, and counts, over every pair of files: copies of one clip put in one
# recording, and copies of two different clips put in one. Then the fingerprint's cost: seconds spent
# in Chromaprint per file (scan --json's printSeconds), and the scan's wall time with Chromaprint and
# with it hidden (BEATTAG_LIBCHROMAPRINT), both with --jobs 1.
# Usage: scripts/bench/recording-pairs.sh [CORPUS] [BEATTAG]
set -euo pipefail
corpus=${1:-../shared/corpus-dev}
beattag=${2:-.build/release/beattag}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib"
for f in "$corpus"/*.mp3 "$corpus"/*.ogg "$corpus"/*.flac "$corpus"/*.wav; do
  [ -e "$f" ] || continue
  stem=$(basename "${f%.*}")
  cp "$f" "$work/lib/"
  ffmpeg -v error -y -i "$f" -map 0:a -c:a aac -b:a 128k "$work/lib/$stem-aac.m4a"
  ffmpeg -v error -y -i "$f" -map 0:a -c:a libopus -b:a 96k "$work/lib/$stem-opus.opus"
done
timed() { /usr/bin/time -o "$work/t" -f "%e" "$@" > "$work/out.json" 2> /dev/null || true; cat "$work/t"; }
hidden=$(BEATTAG_LIBCHROMAPRINT=hidden.so timed "$beattag" scan "$work/lib" --jobs 1 --json --catalog "$work/without.sqlite")
with=$(timed "$beattag" scan "$work/lib" --jobs 1 --json --catalog "$work/c.sqlite")
python3 - "$work/c.sqlite" "$work/out.json" "$hidden" "$with" <<'PY'
import itertools, json, os, re, sqlite3, sys
db, summary, hidden, with_print = sys.argv[1], json.load(open(sys.argv[2])), float(sys.argv[3]), float(sys.argv[4])
rows = sqlite3.connect(db).execute("SELECT path, coalesce(recording, -id) FROM track WHERE state = 'analysed'").fetchall()
clip = lambda p: re.sub(r"-(aac|opus)$", "", os.path.splitext(os.path.basename(p))[0])
same = [(a, b) for a, b in itertools.combinations(rows, 2) if clip(a[0]) == clip(b[0])]
other = [(a, b) for a, b in itertools.combinations(rows, 2) if clip(a[0]) != clip(b[0])]
found = sum(a[1] == b[1] for a, b in same)
missed = sorted({os.path.basename(a[0]) + " / " + os.path.basename(b[0]) for a, b in same if a[1] != b[1]})
false = [(clip(a[0]), clip(b[0])) for a, b in other if a[1] == b[1]]
clips = len({clip(p) for p, _ in rows})
print(f"{len(rows)} files of {clips} clips analysed")
print(f"copies of one clip recognised as one recording: {found} of {len(same)} pairs" + (f"; missed: {missed}" if missed else ""))
print(f"files of two different clips taken for one recording: {len(false)} of {len(other)} pairs {sorted(set(false))[:10]}")
n = summary["analysed"]
print(f"fingerprint: {1000 * summary['printSeconds'] / max(1, n):.1f} ms per file (Chromaprint, {n} files)")
print(f"scan --jobs 1: {hidden:.1f} s without Chromaprint, {with_print:.1f} s with ({100 * (with_print / hidden - 1):+.1f}%)")
PY
