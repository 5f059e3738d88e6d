#!/usr/bin/env bash
# Analysis memory against track length: loops one corpus clip to 3, 10, 45 and 90 minutes (FLAC),
# decodes and analyses each file in its own process (`beattag bench --analyze`) and prints the
# analysis's peak memory growth and the process's maximum RSS. A track longer than the analysis
# window (8 minutes, `TrackAnalyzer.defaultWindow`) is analysed window by window, so flat means the
# 90-minute file needs no more than the 10-minute one.
#   bash scripts/bench/analysis-memory.sh [OUT_DIR] [SOURCE_CLIP]   (release build, needs ffmpeg)
set -euo pipefail
out=${1:-/tmp/beattag-analysis-memory}
src=${2:-../shared/corpus-dev/clip_009.flac}
beattag=${BEATTAG:-.build/release/beattag}
mkdir -p "$out"
printf '%8s %10s %12s %14s %8s %7s\n' minutes "×realtime" "growth MB" "process MB" BPM beats
for minutes in 3 10 45 90; do
  file="$out/loop-${minutes}min.flac"
  [ -f "$file" ] || ffmpeg -loglevel error -y -stream_loop -1 -i "$src" -t $((minutes * 60)) -c:a flac "$file"
  row=$(/usr/bin/time -f '%M' -o "$out/rss" "$beattag" bench --analyze "$file" --json \
    | python3 -c 'import json,sys; r=json.load(sys.stdin)[0]; print("%.0f" % r["realtime"], "%.1f" % (r.get("peakGrowthMB") or 0), "%.1f" % r["bpm"], r["beats"])')
  set -- $row
  printf '%8s %10s %12s %14.1f %8s %7s\n' "$minutes" "$1" "$2" "$(echo "$(cat "$out/rss") / 1024" | bc -l)" "$3" "$4"
done
