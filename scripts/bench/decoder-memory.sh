#!/usr/bin/env bash
# Decoder memory against track length: loops one corpus clip to 1, 10 and 30 minutes in AAC, ALAC,
# WMA (FFmpeg) and FLAC (libsndfile, for comparison), then decodes each file alone in its own process
# (`beattag bench --decode`) and prints the decoder's peak memory growth and the process's maximum RSS.
# Flat means the 30-minute file needs no more than the 1-minute one.
#   bash scripts/bench/decoder-memory.sh [OUT_DIR] [SOURCE_CLIP]   (release build, needs ffmpeg)
set -euo pipefail
out=${1:-/tmp/beattag-decoder-memory}
src=${2:-../shared/corpus-dev/clip_001.mp3}
beattag=${BEATTAG:-.build/release/beattag}
mkdir -p "$out"
printf '%-18s %-6s %8s %10s %12s %14s\n' file codec minutes "×realtime" "decoder MB" "process MB"
for minutes in 1 10 30; do
  for variant in "aac m4a -c:a aac -b:a 160k" "alac m4a -c:a alac" "wma wma -c:a wmav2 -b:a 128k" "flac flac -c:a flac"; do
    set -- $variant; name=$1; ext=$2; shift 2
    file="$out/$name-${minutes}min.$ext"
    [ -f "$file" ] || ffmpeg -loglevel error -y -stream_loop -1 -i "$src" -t $((minutes * 60)) "$@" "$file"
    row=$(/usr/bin/time -f '%M' -o "$out/rss" "$beattag" bench --decode "$file" --json \
      | python3 -c 'import json,sys; r=json.load(sys.stdin)[0]; print(r["format"], "%.0f" % r["realtime"], "%.1f" % (r.get("peakGrowthMB") or 0))')
    set -- $row
    printf '%-18s %-6s %8s %10s %12s %14.1f\n' "$(basename "$file")" "$1" "$minutes" "$2" "$3" "$(echo "$(cat "$out/rss") / 1024" | bc -l)"
  done
done
