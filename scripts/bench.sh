#!/usr/bin/env bash
# Speed of bailab on this machine: prints the machine, builds the release binary, runs `bailab bench`.
#
# Usage: scripts/bench.sh [BENCH ARGS...]
#   e.g. scripts/bench.sh
#        scripts/bench.sh --deals 50000 --hands 50000     # quicker
# Extra arguments go to `bailab bench` unchanged (see `bailab bench --help`).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

cpu_model() {
    local model=""
    if [[ -r /proc/cpuinfo ]]; then
        model=$(grep -m1 -E '^(model name|Model|cpu model)[[:space:]]*:' /proc/cpuinfo | cut -d: -f2- || true)
    fi
    if [[ -z "${model// /}" ]] && command -v sysctl >/dev/null 2>&1; then
        model=$(sysctl -n machdep.cpu.brand_string 2>/dev/null || true)
    fi
    model="${model#"${model%%[![:space:]]*}"}" # strip leading blanks
    echo "${model:-unknown}"
}

cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo "?")
echo "machine:   $(uname -srm)"
echo "cpu:       $(cpu_model)"
echo "nproc:     ${cores}"
echo "toolchain: $(rustc --version 2>/dev/null || echo 'rustc not found')"
echo "commit:    $(git rev-parse --short HEAD 2>/dev/null || echo '-')$(git diff --quiet HEAD 2>/dev/null || echo ' (with local changes)')"
echo

cargo build --release --quiet
exec target/release/bailab bench "$@"
