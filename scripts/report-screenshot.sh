#!/usr/bin/env bash
# Takes a headless-Chromium screenshot of a page of `bailab report`, to look at it as a reader
# does. Installs Debian's chromium when it is missing (apt-get, as root); CI does not run this.
# Usage: scripts/report-screenshot.sh report.html /tmp/report.png [WIDTHxHEIGHT, default 1280x2400]
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 HTML PNG [WIDTHxHEIGHT]" >&2
  exit 2
fi
html=$1 png=$2 size=${3:-1280x2400}
[ -f "$html" ] || { echo "$html: no such file" >&2; exit 1; }
if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "chromium is not installed; as root: apt-get install -y chromium" >&2
    exit 1
  fi
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
mkdir -p "$(dirname "$png")"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --hide-scrollbars --user-data-dir="$profile" --screenshot="$(realpath -m "$png")" \
  --window-size="${size/x/,}" "file://$(realpath "$html")" >/dev/null 2>&1
echo "$png"
