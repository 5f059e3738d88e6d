#!/usr/bin/env bash
# Quick start: install what is missing, build (release), scan the bundled fixtures into a
# temporary catalog, show the tracks you could run to at 175 steps per minute and render a short
# run at 170 (every beat on the clock).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh

# Static Swift runtime: the binary starts in ~8 ms instead of ~22 (most of a quick command like match).
swift build -c release --product beattag --static-swift-stdlib
beattag=.build/release/beattag
catalog=$(mktemp -d)/catalog.sqlite

echo "== beattag scan Fixtures/library --source user-owned"
echo "   (the fixtures include deliberately broken files: their one-line errors are expected)"
"$beattag" scan Fixtures/library --source user-owned --catalog "$catalog" || true
echo
echo "== beattag list"
"$beattag" list --catalog "$catalog"
echo
echo "== beattag match --spm 175"
"$beattag" match --spm 175 --catalog "$catalog"
echo
run=$(dirname "$catalog")/run-170.flac
echo "== beattag render --spm 170 --duration 30s -o $run"
"$beattag" render --spm 170 --duration 30s -o "$run" --catalog "$catalog"
echo
echo "catalog kept at $catalog; try: $beattag match --spm 165 --catalog $catalog, or play $run"
