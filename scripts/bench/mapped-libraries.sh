#!/usr/bin/env bash
# Counts the shared objects each command maps (issue 38): ldd's list for the binary, and for
# --version, list, match, scan of a FLAC folder and a short render, the objects the dynamic loader
# initialised (LD_DEBUG=files "calling init": linked ones and those opened with dlopen).
#   bash scripts/bench/mapped-libraries.sh [BINARY ...]     (default: .build/release/beattag)
# Needs a FLAC folder (FLAC_DIR, default: six corpus-dev clips converted into /tmp/beattag-flacs).
set -euo pipefail
cd "$(dirname "$0")/../.."
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=(.build/release/beattag)
flacs=${FLAC_DIR:-/tmp/beattag-flacs}
if [ ! -d "$flacs" ]; then
  mkdir -p "$flacs"
  for f in $(ls ../shared/corpus-dev/*.mp3 | head -6); do ffmpeg -loglevel error -y -i "$f" "$flacs/$(basename "${f%.*}").flac"; done
fi
count() { LD_DEBUG=files "$@" 2>&1 >/dev/null | grep -c "calling init:" || true; }
for binary in "${binaries[@]}"; do
  work=$(mktemp -d)
  catalog="$work/catalog.sqlite"
  echo "== $binary"
  echo "ldd: $(ldd "$binary" | wc -l)"
  echo "--version: $(count "$binary" --version)"
  echo "scan (FLAC): $(count "$binary" scan "$flacs" --catalog "$catalog" --source user-owned)"
  echo "list: $(count "$binary" list --catalog "$catalog")"
  echo "match: $(count "$binary" match --spm 170 --max-shift 20 --catalog "$catalog")"
  echo "render (30 s): $(count "$binary" render --spm 170 --max-shift 20 --duration 30s --seed 1 --allow-short -o "$work/run.flac" --catalog "$catalog")"
  rm -rf "$work"
done
