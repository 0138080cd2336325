#!/bin/bash
# Submits the merge of a Slurm job array of bailab shards (scripts/slurm-shards.sh): a one-task
# batch job (this script again, run by bash) with --dependency=afterok:JOBID, so it starts only
# when every array task has succeeded, and then runs
#   bailab merge OUTPUT/shard-0-of-N ... OUTPUT/shard-(N-1)-of-N --output OUTPUT
# Prints the merge's job id.
#
# Usage (from the crate folder, the same folder the array was submitted from):
#   scripts/slurm-merge.sh JOBID[,JOBID...] EXPERIMENT.toml [OUTPUT_DIR]
#   e.g. N=8
#        jobid=$(sbatch --parsable --array=0-$((N - 1)) --export=ALL,N=$N \
#                scripts/slurm-shards.sh experiments/default.toml)
#        N=$N scripts/slurm-merge.sh "$jobid" experiments/default.toml
#
#   JOBID       the array's job id; several, comma-separated, when tasks were resubmitted
#   N           the number of shards (default 8, as in slurm-shards.sh)
#   OUTPUT_DIR  default results/<experiment file name without .toml>: the merge reads
#               OUTPUT_DIR/shard-K-of-N for every K and writes OUTPUT_DIR
#   AFTER       the dependency type (default afterok). If a task was cancelled or failed,
#               afterok on its array can never be satisfied (the merge stays pending with
#               DependencyNeverSatisfied): scancel that merge, resubmit the task, and submit the
#               merge again with AFTER=afterany and both job ids (README, "Beyond one machine");
#               a shard that is still unfinished then makes the merge fail naming its deals.
#   BAILAB      the binary (default: bailab on PATH, else target/release/bailab)
#   SBATCH      the sbatch command (default sbatch)
set -euo pipefail

# In the batch job: scripts/slurm-merge.sh --job N OUTPUT_DIR BAILAB
if [[ "${1:-}" == --job ]]; then
    [[ $# -eq 4 ]] || { echo "error: --job N OUTPUT_DIR BAILAB" >&2; exit 2; }
    n=$2 output=$3 bailab=$4
    shards=()
    for ((k = 0; k < n; k++)); do
        shards+=("$output/shard-$k-of-$n")
    done
    echo "$(date -Is) $(hostname): merging $n shards into $output"
    # The shard folders, listed explicitly: a missing or unfinished one makes the merge fail
    # naming its deals.
    "$bailab" merge "${shards[@]}" --output "$output"
    echo "$(date -Is) merged: $output"
    exit 0
fi

[[ $# -ge 2 && $# -le 3 ]] || { sed -n '2,/^set -euo/p' "$0" | grep '^#' >&2; exit 2; }
jobids=$1
experiment=$2
output=${3:-results/$(basename "$experiment" .toml)}
N=${N:-8}
AFTER=${AFTER:-afterok}
[[ "$jobids" =~ ^[0-9]+(,[0-9]+)*$ ]] ||
    { echo "error: JOBID must be job numbers separated by commas, not '$jobids'" >&2; exit 2; }
[[ "$N" =~ ^[1-9][0-9]*$ ]] || { echo "error: N must be a positive integer, not '$N'" >&2; exit 2; }
[[ "$AFTER" =~ ^(afterok|afterany)$ ]] || { echo "error: AFTER must be afterok or afterany, not '$AFTER'" >&2; exit 2; }
BAILAB=${BAILAB:-$(command -v bailab || echo target/release/bailab)}
[[ -x "$BAILAB" ]] || { echo "error: no bailab binary at $BAILAB (cargo build --release, or set BAILAB)" >&2; exit 2; }

${SBATCH:-sbatch} --parsable --job-name=bailab-merge --dependency="$AFTER:${jobids//,/:}" \
    --ntasks=1 --cpus-per-task=1 --time=00:15:00 --output="slurm-%x-%j.out" --open-mode=append \
    "$0" --job "$N" "$output" "$BAILAB"
