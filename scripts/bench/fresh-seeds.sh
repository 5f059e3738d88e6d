#!/usr/bin/env bash
# Scores the release build on development corpora that nothing was fitted on or chosen by, pooled
# (docs/benchmark.md, "Fresh splits"). The seed-1 and seed-3 holdouts have been used to choose
# changes for many versions, so a change is judged on new seeds:
#   bash scripts/bench/fresh-seeds.sh 23 24
# Each missing corpus is generated first (about 8 min each on one core) into $FRESH_DIR
# (default /tmp/beattag-fresh/seedN). Once a seed has been used to fit or choose anything, it
# is no longer fresh: take new ones. Prints `bench --pooled`'s report over all their songs (Acc1
# overall, below 140, in 60-200; octave errors in 140-200; reliability; library-weighted match
# precision over the pool); each split's own report is kept in the file named at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -gt 0 ] || { echo "usage: $0 SEED [SEED ...]   (seeds never used before, e.g. 23 24)" >&2; exit 2; }
dir=${FRESH_DIR:-/tmp/beattag-fresh}
swift build -c release --product beattag >&2
corpora=()
for seed in "$@"; do
  corpus="$dir/seed$seed"
  if [ ! -f "$corpus/holdout/truth.csv" ] || [ ! -f "$corpus/tune/truth.csv" ]; then
    echo "generating seed $seed into $corpus" >&2
    python3 scripts/devcorpus/generate.py "$corpus" --seed "$seed" >&2
  fi
  corpora+=(--corpus "$corpus/holdout" --corpus "$corpus/tune")
done
report=$(mktemp --suffix=.txt)
.build/release/beattag bench --pooled "${corpora[@]}" > "$report"
sed -n '/ corpora pooled: /,$p' "$report"
echo "each split's report: $report"
