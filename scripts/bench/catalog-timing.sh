#!/usr/bin/env bash
# Times the read commands on a large catalog (see build-catalog.py): median wall time of N runs
# (default 11, nanosecond clock) and the RSS, whole process, including its start-up.
# Usage: scripts/bench/catalog-timing.sh CATALOG [BEATTAG] [RUNS]
# Catalogs: build-catalog.py's library shape and its --shape dense (issue 38).
set -euo pipefail
catalog=$1
beattag=${2:-.build/release/beattag}
runs=${3:-11}
stats=$(mktemp)
trap 'rm -f "$stats"' EXIT
run() {
  local label=$1; shift
  local walls=() rss
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    "$beattag" "$@" --catalog "$catalog" > /dev/null 2>&1 || true
    end=$(date +%s%N)
    walls+=($(( (end - start) / 1000 )))
  done
  # RSS from one more run under /usr/bin/time (kept out of the timed runs: it adds its own start-up).
  /usr/bin/time -o "$stats" -f "%M" "$beattag" "$@" --catalog "$catalog" > /dev/null 2>&1 || true
  rss=$(tail -1 "$stats")
  local median
  median=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
  printf '%-32s median %6.1f ms   RSS %4d MB\n' "$label" "$(echo "scale=1; $median / 1000" | bc)" $((rss / 1024))
}
# Start-up alone (no catalog): what every command pays before it reads anything.
start=$(date +%s%N); for _ in $(seq "$runs"); do "$beattag" --version > /dev/null; done; end=$(date +%s%N)
printf '%-32s mean   %6.1f ms\n' "beattag --version (start-up)" "$(echo "scale=1; ($end - $start) / $runs / 1000000" | bc)"
run "match --spm 120 --limit 25" match --spm 120 --limit 25
run "match --spm 175 --limit 25" match --spm 175 --limit 25
run "match --spm 190 --limit 25" match --spm 190 --limit 25
run "list --limit 50" list --limit 50
run "untagged" untagged
run "stats" stats
