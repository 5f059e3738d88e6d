#!/usr/bin/env bash
# Runs the test suite (installs the system libraries first if they are missing). CI runs this too.
set -euo pipefail
cd "$(dirname "$0")/.."
# The project's code built with -O (Package.swift says why): the suite runs about four times faster.
export BEATTAG_OPTIMIZED_TESTS=1
# The tests also check results with independent tools: mpv plays exported playlists, ffmpeg/ffprobe
# read written tags and audio packets, mutagen (python3-mutagen) reads MP4 and ASF tags, aubio finds the
# clicks of a rendered run; headless Chromium (with chromium-driver and a font to render text) uses the
# review page as a person would.
BEATTAG_EXTRA_PACKAGES="mpv ffmpeg aubio-tools python3-mutagen chromium chromium-driver fonts-liberation" source scripts/bootstrap.sh
# Folder permissions mean nothing to root: where the suite runs as root (a CI container), the test
# that needs a folder its user cannot read runs first as nobody, if nobody can reach the build.
if [ "$(id -u)" = 0 ] && [ $# -eq 0 ] && command -v runuser > /dev/null; then
  swift build --build-tests
  # The absolute path: nobody must reach it from / (a clone inside a root-only folder, as `mktemp -d`
  # makes, is reachable relative to the current folder but not for Foundation, which crashed there).
  tests="$PWD/.build/debug/beattagPackageTests.xctest"
  if runuser -u nobody -- test -x "$tests"; then
    runuser -u nobody -- env HOME=/tmp "$tests" \
      BeatTagKitTests.CatalogSafetyTests/testTracksInAFolderThatCannotBeReadAreNotMarkedMissing
  else
    echo "test.sh: nobody cannot reach $tests; the unreadable-folder scan test is skipped as root" >&2
  fi
fi
# The suite is XCTest; skipping the empty Swift Testing pass keeps the last line the real count.
swift test --disable-swift-testing "$@"
