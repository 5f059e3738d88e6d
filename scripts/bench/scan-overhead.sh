#!/usr/bin/env bash
# Scan cost per file beyond decoding and analysis, and the time of an unchanged rescan (issue 11).
# Makes N distinct short clips (5 s, one sample changed per copy) from a fixture, then compares the
# CPU time of `beattag scan --jobs 1` with that of `beattag analyze` (decode + analysis only) on the
# same files, and times an unchanged rescan. Usage: scripts/bench/scan-overhead.sh [N] [BEATTAG]
set -euo pipefail
n=${1:-2000}
beattag=${2:-.build/release/beattag}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/clips" "$n" Fixtures/library/house-128.wav <<'PY'
import os, struct, sys, wave
out, n, source = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(out)
with wave.open(source) as w:
    params = w.getparams()
    frames = w.readframes(min(w.getnframes(), w.getframerate() * 5))
for i in range(n):
    data = bytearray(frames)
    struct.pack_into("<h", data, 2 * (1000 + i), i % 30000)  # distinct bytes, same music
    folder = os.path.join(out, f"album-{i // 100:03d}")
    os.makedirs(folder, exist_ok=True)
    with wave.open(os.path.join(folder, f"clip-{i:05d}.wav"), "wb") as w:
        w.setparams(params)
        w.writeframes(bytes(data))
PY
cpu() { /usr/bin/time -o "$work/t" -f "%U %S %e" "$@" > /dev/null 2>&1 || true; awk '{printf "%.2f %.2f", $1 + $2, $3}' "$work/t"; }
read -r scan_cpu scan_wall <<< "$(cpu "$beattag" scan "$work/clips" --jobs 1 --catalog "$work/c.sqlite")"
read -r analyze_cpu _ <<< "$(cpu bash -c "find '$work/clips' -name '*.wav' -print0 | xargs -0 '$beattag' analyze")"
read -r _ rescan_wall <<< "$(cpu "$beattag" scan "$work/clips" --catalog "$work/c.sqlite")"
awk -v n="$n" -v s="$scan_cpu" -v a="$analyze_cpu" -v w="$scan_wall" -v r="$rescan_wall" 'BEGIN {
  printf "first scan of %d clips of 5 s (1 job): %.1f s CPU, %.1f s wall\n", n, s, w
  printf "decode + analysis alone (analyze): %.1f s CPU\n", a
  printf "scan overhead per file: %.1f ms CPU\n", (s - a) * 1000 / n
  printf "unchanged rescan: %.2f s wall\n", r }'
