#!/usr/bin/env bash
# Runs the cargo-fuzz targets of fuzz/ (docs/fuzzing.md) for SECONDS each and prints, per
# target, the executions, executions per second, the CPU seconds used (user + system; less than
# SECONDS when the machine is shared), coverage (libFuzzer's `cov:` edges and `ft:` features)
# and whether it crashed.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     # default: 60 s, every target (cargo fuzz list)
#   scripts/fuzz.sh 20                        # every target for 20 s (the brief run meant for CI)
#   scripts/fuzz.sh 600 record engine_tusac   # two targets, ten minutes each
#
# Installs cargo-fuzz (pinned) when it is missing. Builds on the stable toolchain: with
# `--sanitizer none` cargo-fuzz passes only stable compiler flags (coverage instrumentation), so
# no nightly is needed. Each target starts from its committed seeds in fuzz/corpus/TARGET/ and
# writes the inputs it finds to fuzz/found/TARGET/ (ignored by git); a crash or hang (an input
# over 10 s) leaves its input in fuzz/artifacts/TARGET/. Minimise one with
#   cargo fuzz tmin --sanitizer none TARGET fuzz/artifacts/TARGET/crash-...
# and replay it with `cargo fuzz run --sanitizer none TARGET FILE`.
# Runs as many targets at once as the machine has cores (FUZZ_JOBS=N to change it).
# Exits non-zero if any target crashed or hung.
set -euo pipefail

CARGO_FUZZ_VERSION=0.13.1
cd "$(dirname "$0")/.."

seconds=60
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
    seconds=$1
    shift
fi

if ! cargo fuzz --version 2>/dev/null | grep -q " $CARGO_FUZZ_VERSION\$"; then
    cargo install cargo-fuzz --locked --version "$CARGO_FUZZ_VERSION"
fi

flags=(--sanitizer none)
if [[ $# -gt 0 ]]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo fuzz list)
fi

parallel=${FUZZ_JOBS:-$(nproc)}
if ! [[ $parallel =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz.sh: FUZZ_JOBS=$parallel is not a whole number of targets at once (1 or more)" >&2
    exit 2
fi
declare -A given=()
for t in "${targets[@]}"; do
    if [[ -n ${given[$t]:-} ]]; then
        echo "fuzz.sh: target $t is named twice (its runs would share one log)" >&2
        exit 2
    fi
    given[$t]=1
done

build_start=$SECONDS
cargo fuzz build "${flags[@]}" 2>&1 | tail -n 3 ||
    { echo "fuzz.sh: the build failed" >&2; exit 1; }
echo "build: $((SECONDS - build_start)) s"

# Runs one target for $seconds and writes its summary line to fuzz/found/TARGET.line and its
# exit status to fuzz/found/TARGET.status (never fails itself, so that `wait` reports nothing).
run_target() {
    local t=$1 log="fuzz/found/$1.log" status=0 user sys cpu execs rate cov result
    mkdir -p "fuzz/found/$t" "fuzz/artifacts/$t"
    # CPU seconds of the run (user + system), beside its wall-clock bound.
    TIMEFORMAT='%U %S'
    { time cargo fuzz run "${flags[@]}" "$t" "fuzz/found/$t" "fuzz/corpus/$t" -- \
        -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
        -artifact_prefix="fuzz/artifacts/$t/" >"$log" 2>&1; } 2>"$log.cpu" || status=$?
    read -r user sys <"$log.cpu" || true
    cpu=$(awk -v u="${user:-0}" -v s="${sys:-0}" 'BEGIN { printf "%.0f", u + s }')
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1 || true)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1 || true)
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1 || true)
    if [[ $status -ne 0 ]]; then
        result="CRASH (exit $status; log $log)"
        grep -E 'panicked|ERROR|Test unit written|SUMMARY' "$log" | head -n 8 >&2 || true
    else
        result=ok
    fi
    printf '%-16s %9s execs %7s exec/s %5s cpu-s  %-22s %s\n' "$t" "${execs:-?}" \
        "${rate:-?}" "$cpu" "${cov:-cov: ?}" "$result" | tee "fuzz/found/$t.line"
    echo "$status $cpu" >"fuzz/found/$t.status"
}

# One target per core at a time (FUZZ_JOBS to change it): each libFuzzer run is one process on
# one core, so the CPU seconds per target stay those of a run alone on an idle machine.
for t in "${targets[@]}"; do
    rm -f "fuzz/found/$t.line" "fuzz/found/$t.status"
    while [[ $(jobs -rp | wc -l) -ge $parallel ]]; do
        wait -n || true
    done
    run_target "$t" &
done
wait

failed=()
summary=()
cpu_total=0
for t in "${targets[@]}"; do
    if [[ -r "fuzz/found/$t.status" ]]; then
        read -r status cpu <"fuzz/found/$t.status"
        summary+=("$(cat "fuzz/found/$t.line")")
    else
        status=1 cpu=0
        summary+=("$(printf '%-16s no result: its run stopped before its summary' "$t")")
    fi
    cpu_total=$((cpu_total + cpu))
    [[ $status -eq 0 ]] || failed+=("$t")
done

echo
echo "fuzz.sh: $seconds s per target, $parallel at a time, $cpu_total CPU seconds in all"
printf '%s\n' "${summary[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz.sh: crashed: ${failed[*]}" >&2
    exit 1
fi
