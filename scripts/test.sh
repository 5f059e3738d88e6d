#!/usr/bin/env bash
# Runs the test suite (installs the system libraries first if they are missing). CI runs this too.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
swift test "$@"
