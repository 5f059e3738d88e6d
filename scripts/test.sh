#!/usr/bin/env bash
# Runs the test suite (installs the system libraries first if they are missing). CI runs this too.
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests also check results with independent tools: mpv plays exported playlists, ffmpeg/ffprobe
# read written tags and audio packets, mutagen (python3-mutagen) reads MP4 and ASF tags, aubio finds the
# clicks of a rendered run; headless Chromium (with chromium-driver and a font to render text) uses the
# review page as a person would.
BEATTAG_EXTRA_PACKAGES="mpv ffmpeg aubio-tools python3-mutagen chromium chromium-driver fonts-liberation" source scripts/bootstrap.sh
# The suite is XCTest; skipping the empty Swift Testing pass keeps the last line the real count.
swift test --disable-swift-testing "$@"
