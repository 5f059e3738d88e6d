#!/usr/bin/env bash
# Scores the release build on development corpora that nothing was fitted on or chosen by, pooled
# (docs/benchmark.md, "Fresh splits"). The seed-1 and seed-3 holdouts have been used to choose
# changes for many versions, so a change is judged on new seeds:
#   bash scripts/bench/fresh-seeds.sh 11 12 13 14
# Each missing corpus is generated first (about 8 min each on one core) into $FRESH_DIR
# (default /tmp/beattag-fresh/seedN). Once a seed has been used to fit or choose anything, it
# is no longer fresh: take new ones.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -gt 0 ] || { echo "usage: $0 SEED [SEED ...]   (seeds never used before, e.g. 11 12 13 14)" >&2; exit 2; }
dir=${FRESH_DIR:-/tmp/beattag-fresh}
swift build -c release --product beattag >&2
reports=$(mktemp)
trap 'rm -f "$reports"' EXIT
for seed in "$@"; do
  corpus="$dir/seed$seed"
  if [ ! -f "$corpus/holdout/truth.csv" ] || [ ! -f "$corpus/tune/truth.csv" ]; then
    echo "generating seed $seed into $corpus" >&2
    python3 scripts/devcorpus/generate.py "$corpus" --seed "$seed" >&2
  fi
  .build/release/beattag bench --json --clips --corpus "$corpus/holdout" --corpus "$corpus/tune" >> "$reports"
done
python3 - "$reports" "$#" <<'EOF'
import json, sys

clips = []
for line in open(sys.argv[1]):
    report = json.loads(line)
    clips += [dict(c, corpus=report['corpus']) for c in report['clips']]

# The bench's own verdict per clip (TempoVerdict): its tolerances are not restated here.
def right(c):
    return c.get('verdict') in ('ok', 'ok (4%)')

def share(subset):
    n = len(subset)
    return f"{sum(map(right, subset))}/{n} ({sum(map(right, subset)) / n:.1%})" if n else "-"

def octave_off(c):
    return c.get('verdict') == 'OCTAVE'

holdouts = [c for c in clips if c['corpus'].endswith('/holdout')]
fast = [c for c in clips if 140 <= c['reference'] <= 200]
trusted = [c for c in clips if (c.get('confidence') or 0) >= 0.8]
beats = [c['fMeasure'] for c in clips if c.get('fMeasure') is not None]
print(f"{len(clips)} songs from {sys.argv[2]} seeds")
print(f"Acc1 {share(clips)}; holdout splits {share(holdouts)}; below 140 BPM {share([c for c in clips if c['reference'] < 140])}")
print(f"octave errors 140-200 BPM: {sum(map(octave_off, fast))} of {len(fast)}")
print(f"right at confidence >= 0.8: {share(trusted)}")
print(f"beat F {sum(beats) / len(beats):.3f}" if beats else "beat F -")
EOF
