#!/usr/bin/env bash
# Installs the system libraries beattag builds against, if any are missing (Debian/Ubuntu).
set -euo pipefail

packages=(libsndfile1-dev libfftw3-dev libtag1-dev libtagc0-dev libsqlite3-dev libavformat-dev libavcodec-dev libswresample-dev
          librubberband-dev libebur128-dev libespeak-ng-dev espeak-ng-data libchromaprint1 pkg-config ${BEATTAG_EXTRA_PACKAGES:-})
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
    [ -x "$dir/swift" ] && export PATH="$dir:$PATH"
  done
fi
if ! command -v swift >/dev/null 2>&1; then
  echo "bootstrap: Swift 5.9 or newer is needed: install it from swift.org (or 'apt install swiftlang' on Debian 13+), then run this again" >&2
  exit 1
fi
