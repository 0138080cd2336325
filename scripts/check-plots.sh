#!/usr/bin/env bash
# Renders every SVG in the given folders (or files) to a PNG beside it (NAME.svg -> NAME.svg.png
# in $OUT, default /tmp/bailab-plots) with headless Chromium, so the charts can be looked at as a
# person sees them. Needs Debian's chromium (apt-get install -y chromium); CI does not run this.
# Usage: scripts/check-plots.sh results/tusac-rules-vs-greedy results/ismcts-strength.csv.svg ...
set -euo pipefail
out=${OUT:-/tmp/bailab-plots}
mkdir -p "$out"
svgs=()
for a in "$@"; do
  if [ -d "$a" ]; then
    for f in "$a"/*.svg; do [ -e "$f" ] && svgs+=("$f"); done
  else
    svgs+=("$a")
  fi
done
for f in "${svgs[@]}"; do
  w=$(sed -n 's/^<svg width="\([0-9]*\)" height="\([0-9]*\)".*/\1/p' "$f" | head -1)
  h=$(sed -n 's/^<svg width="\([0-9]*\)" height="\([0-9]*\)".*/\2/p' "$f" | head -1)
  name=$(echo "$f" | tr '/' '_')
  profile=$(mktemp -d)
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$profile" --screenshot="$out/$name.png" \
    --window-size="${w:-1000},${h:-700}" "file://$(realpath "$f")" >/dev/null 2>&1
  rm -rf "$profile"
  echo "$out/$name.png"
done
