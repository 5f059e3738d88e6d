#!/usr/bin/env bash
# Installs beattag for your user (or under PREFIX): the release binary in PREFIX/bin, the man page
# in PREFIX/share/man/man1, shell completions for bash, zsh and fish. Installs missing libraries first.
# Usage: bash scripts/install.sh [PREFIX]   (default ~/.local)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-$HOME/.local}
source scripts/bootstrap.sh
swift build -c release --product beattag --static-swift-stdlib
binary=.build/release/beattag

install -Dm755 "$binary" "$prefix/bin/beattag"
# Man pages, written from the commands' own help by swift-argument-parser's generate-manual (the
# tool its plugin runs; built directly, since the plugin would build every product again).
manuals=$(mktemp -d)
trap 'rm -rf "$manuals"' EXIT
swift build -c release --product generate-manual
.build/release/generate-manual "$binary" --multi-page --output-directory "$manuals"
for page in "$manuals"/*.1; do install -Dm644 "$page" "$prefix/share/man/man1/$(basename "$page")"; done
"$binary" --generate-completion-script bash > "$manuals/beattag.bash"
"$binary" --generate-completion-script zsh > "$manuals/_beattag"
"$binary" --generate-completion-script fish > "$manuals/beattag.fish"
install -Dm644 "$manuals/beattag.bash" "$prefix/share/bash-completion/completions/beattag"
install -Dm644 "$manuals/_beattag" "$prefix/share/zsh/site-functions/_beattag"
install -Dm644 "$manuals/beattag.fish" "$prefix/share/fish/vendor_completions.d/beattag.fish"

echo "installed $prefix/bin/beattag, $(ls "$manuals"/*.1 | wc -l) man pages (man beattag) and completions for bash, zsh and fish"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "add $prefix/bin to your PATH, e.g. echo 'export PATH=\"$prefix/bin:\$PATH\"' >> ~/.bashrc" ;;
esac
