#!/usr/bin/env bash
# Analysis memory against track length: loops one corpus clip to 3, 10, 45 and 90 minutes (FLAC),
# analyses each file in its own process (`beattag analyze`) and prints the process's maximum RSS.
# A track longer than the analysis window (8 minutes, `TrackAnalyzer.defaultWindow`) is analysed
# window by window, so flat means the 90-minute file needs no more than the 10-minute one.
#   bash scripts/bench/analysis-memory.sh [OUT_DIR] [SOURCE_CLIP]   (release build, needs ffmpeg)
set -euo pipefail
out=${1:-/tmp/beattag-analysis-memory}
src=${2:-../shared/corpus-dev/clip_009.flac}
beattag=${BEATTAG:-.build/release/beattag}
mkdir -p "$out"
printf '%8s %12s %10s  %s\n' minutes "process MB" seconds result
for minutes in 3 10 45 90; do
  file="$out/loop-${minutes}min.flac"
  [ -f "$file" ] || ffmpeg -loglevel error -y -stream_loop -1 -i "$src" -t $((minutes * 60)) -c:a flac "$file"
  result=$(/usr/bin/time -f '%M %e' -o "$out/rss" "$beattag" analyze "$file" | sed 's/  */ /g; s/ [^ ]*$//')
  read -r kb seconds < "$out/rss"
  printf '%8s %12.1f %10s %s\n' "$minutes" "$(echo "$kb / 1024" | bc -l)" "$seconds" "$result"
done
