#!/usr/bin/env bash
# Times the read commands on a large catalog (see build-catalog.py): median wall time of 5 runs and
# the largest RSS, whole process. Usage: scripts/bench/catalog-timing.sh CATALOG [BEATTAG]
set -euo pipefail
catalog=$1
beattag=${2:-.build/release/beattag}
run() {
  local label=$1; shift
  local walls=() rss=0
  for _ in 1 2 3 4 5; do
    local out
    /usr/bin/time -o /tmp/beattag-timing.$$ -f "%e %M" "$beattag" "$@" --catalog "$catalog" > /dev/null 2>&1 || true
    out=$(tail -1 /tmp/beattag-timing.$$)
    walls+=("${out% *}")
    local r=${out#* }
    (( r > rss )) && rss=$r
  done
  local median
  median=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n 3p)
  rm -f /tmp/beattag-timing.$$
  printf '%-40s median %6.0f ms   max RSS %4d MB\n' "$label" "$(echo "$median * 1000" | bc)" $((rss / 1024))
}
run "match --spm 175 --limit 25" match --spm 175 --limit 25
run "list --limit 50" list --limit 50
run "untagged" untagged
run "stats" stats
