#!/usr/bin/env bash
# Time to first byte of the review page's API on a large catalog (issue 37), whole server, curl's
# time_starttransfer, median of 11: the queue page, library searches and pages, and the first
# audio bytes of a track (a FLAC and an MP3 sent as they are; a WMA decoded to FLAC on first
# request, then from the copy). Three rows of a copy of the catalog are pointed at real 4-minute
# files made here with ffmpeg. Prints the server's RSS at the end.
#
#   python3 scripts/bench/build-catalog.py /tmp/seed.sqlite /tmp/big.sqlite --tracks 100000
#   bash scripts/bench/review-timing.sh /tmp/big.sqlite [.build/release/beattag]
set -euo pipefail
catalog=$1
beattag=${2:-.build/release/beattag}
work=$(mktemp -d)
trap 'kill -INT $server 2>/dev/null || true; rm -rf "$work"' EXIT
cp "$catalog" "$work/c.sqlite"
# 4 minutes of a real clip, looped, in three formats.
clip=$(ls ../shared/corpus-real-dev/*.ogg | head -1)
ffmpeg -v error -stream_loop -1 -i "$clip" -t 240 -ar 44100 -ac 2 "$work/long.flac"
ffmpeg -v error -i "$work/long.flac" -b:a 192k "$work/long.mp3"
ffmpeg -v error -i "$work/long.flac" -c:a wmav2 -b:a 192k "$work/long.wma"
sqlite3 "$work/c.sqlite" "UPDATE track SET path='$work/long.flac', format='flac', state='analysed' WHERE id=1;
  UPDATE track SET path='$work/long.mp3', format='mp3', state='analysed' WHERE id=2;
  UPDATE track SET path='$work/long.wma', format='wmav2', state='analysed' WHERE id=3;"

"$beattag" review --catalog "$work/c.sqlite" > "$work/url" 2>/dev/null &
server=$!
for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.1; done
url=$(head -1 "$work/url")
base=${url%%/\?*}
token=${url##*token=}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ttfb() {  # label, path, [extra curl args]
  local label=$1 path=$2; shift 2
  local times=()
  for _ in $(seq 11); do
    times+=("$(curl -s -o /dev/null -w '%{time_starttransfer}' -H "X-Beattag-Token: $token" "$@" "$base$path")")
  done
  printf '%-44s %6.1f ms\n' "$label" "$(printf '%s\n' "${times[@]}" | median | awk '{print $1 * 1000}')"
}
first() {  # the very first request (a transcode happens once)
  printf '%-44s %6.1f ms\n' "$1" "$(curl -s -o /dev/null -w '%{time_starttransfer}' -H "X-Beattag-Token: $token" -H 'Range: bytes=0-65535' "$base$2" | awk '{print $1 * 1000}')"
}
echo "catalog: $(sqlite3 "$work/c.sqlite" 'SELECT count(*) FROM track') tracks; $("$beattag" --version)"
ttfb "GET /api/queue?limit=50 (queue page)" "/api/queue?limit=50"
ttfb "GET /api/session (queue count)" "/api/session"
ttfb "library: search 'artist 4242'" "/api/tracks?q=artist%204242&limit=50"
ttfb "library: search 'song' sorted by artist" "/api/tracks?q=song&sort=artist&limit=50"
ttfb "library: 160-180 BPM, by BPM" "/api/tracks?min=160&max=180&sort=bpm&limit=50"
ttfb "library: page at offset 99,950 by path" "/api/tracks?sort=path&offset=99950&limit=50"
ttfb "GET /api/tracks/ID (with beats)" "/api/tracks/5000"
ttfb "GET /api/stats (histogram)" "/api/stats"
first "audio: FLAC, first request" "/api/tracks/1/audio"
ttfb "audio: FLAC, first 64 KiB" "/api/tracks/1/audio" -H 'Range: bytes=0-65535'
ttfb "audio: MP3, first 64 KiB" "/api/tracks/2/audio" -H 'Range: bytes=0-65535'
first "audio: WMA, first request (decoded to FLAC)" "/api/tracks/3/audio"
ttfb "audio: WMA, first 64 KiB (from the copy)" "/api/tracks/3/audio" -H 'Range: bytes=0-65535'
grep -E 'VmRSS|VmHWM' "/proc/$server/status" | tr -s ' \t' ' '
