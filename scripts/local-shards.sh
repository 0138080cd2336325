#!/usr/bin/env bash
# Runs an experiment as N shards in N local background processes, then merges them: the same
# flow as the Slurm job array (slurm-shards.sh) or the Kubernetes Indexed Job
# (k8s-indexed-job.yaml), on one machine. The merged summary.csv (and games.csv) is byte for byte
# what a single `bailab run` would have written.
#
# Usage: scripts/local-shards.sh EXPERIMENT.toml N [OUTPUT_DIR]
#   e.g. scripts/local-shards.sh experiments/default.toml 3 /tmp/default-sharded
#
#   OUTPUT_DIR  default results/<experiment file name without .toml>; shard K writes
#               OUTPUT_DIR/shard-K-of-N, the merge writes OUTPUT_DIR itself.
# Environment:
#   BAILAB      the binary (default: target/release/bailab, built with cargo if missing)
#   THREADS     worker threads per shard (default: cores / N, at least 1)
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' >&2; exit 2; }

[[ $# -ge 2 && $# -le 3 ]] || usage
experiment=$1
shards=$2
[[ -f "$experiment" ]] || { echo "error: no experiment file '$experiment'" >&2; exit 2; }
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "error: N must be a positive integer, not '$shards'" >&2; exit 2; }
output=${3:-results/$(basename "$experiment" .toml)}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -z "${BAILAB:-}" ]]; then
    BAILAB="$root/target/release/bailab"
    if [[ ! -x "$BAILAB" ]]; then
        (cd "$root" && cargo build --release --quiet)
    fi
fi
cores=$(nproc 2>/dev/null || echo 1)
threads=${THREADS:-$(( cores / shards > 0 ? cores / shards : 1 ))}

pids=()
kill_shards() {
    for pid in ${pids[@]+"${pids[@]}"}; do
        kill "$pid" 2>/dev/null || true
    done
}
trap 'kill_shards; exit 130' INT TERM

echo "running $experiment as $shards shard(s) of $threads thread(s) each into $output"
dirs=()
for ((k = 0; k < shards; k++)); do
    dir="$output/shard-$k-of-$shards"
    dirs+=("$dir")
    mkdir -p "$dir"
    "$BAILAB" run "$experiment" --shard "$k/$shards" --threads "$threads" --quiet \
        --output "$dir" 2>"$dir/stderr.log" &
    pids+=("$!")
done

failed=0
for k in "${!pids[@]}"; do
    if wait "${pids[$k]}"; then
        echo "shard $k/$shards done"
    else
        echo "shard $k/$shards failed (exit $?):" >&2
        sed 's/^/    /' "${dirs[$k]}/stderr.log" >&2
        failed=1
    fi
done
trap - INT TERM
if [[ $failed -ne 0 ]]; then
    echo "error: not merging, some shards failed" >&2
    exit 1
fi

"$BAILAB" merge "${dirs[@]}" --output "$output"
