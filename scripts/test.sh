#!/usr/bin/env bash
# Runs the test suite (installs the system libraries first if they are missing). CI runs this too.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
# The suite is XCTest; skipping the empty Swift Testing pass keeps the last line the real count.
swift test --disable-swift-testing "$@"
