#!/usr/bin/env bash
# Collects the training samples and fits the family, octave and confidence models (docs/tempo.md).
# Training set of the family, octave and phase models: the development corpus's tune split (seed 1),
# a second generated corpus (seed 2, both splits) and ../shared/corpus-dev. The confidence is
# calibrated on songs those models never saw (the seed-3 tune split), so that it learns how far
# their outputs can be trusted out of sample. Held out, never fitted: seed-1 holdout, seed-3 holdout.
#   bash scripts/fit/refit.sh [DEVCORPUS_SEED1] [DEVCORPUS_SEED2] [DEVCORPUS_SEED3]
# Generate the corpora first:
#   python3 scripts/devcorpus/generate.py /work/devcorpus
#   python3 scripts/devcorpus/generate.py /work/devcorpus2 --seed 2
#   python3 scripts/devcorpus/generate.py /work/devcorpus3 --seed 3
# It prints the weights as Swift literals. Paste FamilyDecision and OctaveDecision, rebuild and run
# it again (the phase and confidence samples depend on the tempo the first two choose), then paste
# BeatPhase and ConfidenceEvidence, and bump AnalysisResult.currentVersion.
set -euo pipefail
cd "$(dirname "$0")/../.."
seed1=${1:-/work/devcorpus}
seed2=${2:-/work/devcorpus2}
seed3=${3:-/work/devcorpus3}
work=$(mktemp -d)
swift build -c release --product beattag >&2
beattag=.build/release/beattag
train=("$seed1/tune" "$seed2/tune" "$seed2/holdout" ../shared/corpus-dev)
for i in "${!train[@]}"; do
  "$beattag" bench --corpus "${train[$i]}" --training-data "$work/train-$i.jsonl" --json > "$work/bench-$i.json"
  # Songs of different corpora share file names: prefix them so that leave-one-song-out stays per song.
  sed "s#\"file\":\"#\"file\":\"$i/#" "$work/train-$i.jsonl" >> "$work/train.jsonl"
done
"$beattag" bench --corpus "$seed3/tune" --json > "$work/calibration.json"
"$beattag" bench --corpus "$seed1/holdout" --training-data "$work/holdout.jsonl" --json > "$work/holdout.json"
echo "== FamilyDecision"; python3 scripts/fit/tempo_models.py family "$work/train.jsonl" --check "$work/holdout.jsonl" --l2 0.3
echo "== OctaveDecision"; python3 scripts/fit/tempo_models.py octave "$work/train.jsonl" --check "$work/holdout.jsonl" --l2 10
echo "== BeatPhase"; python3 scripts/fit/tempo_models.py phase "$work/train.jsonl" --check "$work/holdout.jsonl" --l2 0.3 --uniform
echo "== ConfidenceEvidence"; python3 scripts/fit/tempo_models.py confidence "$work/calibration.json" --check "$work/holdout.json" --l2 1
echo "samples kept in $work"
