#!/usr/bin/env bash
# One Slurm job array task per shard of a bailab experiment: task K of N runs
#   bailab run EXPERIMENT --shard K/N --quiet --output OUTPUT/shard-K-of-N
# Merge the shards afterwards with scripts/slurm-merge.sh (a job that starts when every task of
# this array has succeeded).
#
# Usage (from the crate folder, on a shared file system; build first: cargo build --release):
#   N=8
#   jobid=$(sbatch --parsable --array=0-$((N - 1)) --export=ALL,N=$N \
#           scripts/slurm-shards.sh experiments/default.toml [OUTPUT_DIR])
#   N=$N scripts/slurm-merge.sh "$jobid" experiments/default.toml [OUTPUT_DIR]
#
#   N           the number of shards: give it whenever --array is not 0-(N-1) exactly; defaults
#               to the array's task count. The #SBATCH --array line below is only the default
#               (8 shards); `sbatch --array` overrides it. To rerun one failed shard K:
#               sbatch --array=K --export=ALL,N=$N scripts/slurm-shards.sh EXPERIMENT
#   OUTPUT_DIR  default results/<experiment file name without .toml>
#   BAILAB      the binary (default: bailab on PATH, else target/release/bailab)
#   THREADS     threads per task (default: the task's CPUs, SLURM_CPUS_PER_TASK)
#
#SBATCH --job-name=bailab-shard
#SBATCH --array=0-7
#SBATCH --cpus-per-task=4
#SBATCH --time=01:00:00
#SBATCH --output=slurm-%x-%A_%a.out
set -euo pipefail

[[ $# -ge 1 && $# -le 2 ]] || { sed -n '2,/^#SBATCH/p' "$0" | grep -v '^#SBATCH' >&2; exit 2; }
experiment=$1
output=${2:-results/$(basename "$experiment" .toml)}
: "${SLURM_ARRAY_TASK_ID:?not a Slurm array task: submit with sbatch --array=0-\$((N-1))}"
N=${N:-${SLURM_ARRAY_TASK_COUNT:-}}
[[ -n "$N" ]] || { echo "error: set N (the number of shards)" >&2; exit 2; }
k=$SLURM_ARRAY_TASK_ID
if ! [[ "$N" =~ ^[1-9][0-9]*$ && "$k" =~ ^[0-9]+$ ]] || ((k >= N)); then
    echo "error: task $k does not fit N=$N shards (use --array=0-\$((N-1)))" >&2
    exit 2
fi
BAILAB=${BAILAB:-$(command -v bailab || echo target/release/bailab)}
threads=()
if [[ -n "${THREADS:-${SLURM_CPUS_PER_TASK:-}}" ]]; then
    threads=(--threads "${THREADS:-$SLURM_CPUS_PER_TASK}")
fi

echo "$(date -Is) $(hostname): shard $k/$N of $experiment"
"$BAILAB" run "$experiment" --shard "$k/$N" ${threads[@]+"${threads[@]}"} --quiet \
    --output "$output/shard-$k-of-$N"
echo "$(date -Is) shard $k/$N done: $output/shard-$k-of-$N"
