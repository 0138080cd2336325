#!/usr/bin/env bash
# Submits the merge of a Slurm job array of bailab shards (scripts/slurm-shards.sh): a one-task job
# with --dependency=afterok:JOBID, so it starts only when every array task has succeeded (if one
# fails, the merge never runs: Slurm marks it DependencyNeverSatisfied; cancel it and resubmit the
# failed task with sbatch --array=K).
#
# Usage (from the crate folder, the same folder the array was submitted from):
#   scripts/slurm-merge.sh JOBID EXPERIMENT.toml [OUTPUT_DIR]
#   e.g. N=8
#        jobid=$(sbatch --parsable --array=0-$((N - 1)) --export=ALL,N=$N \
#                scripts/slurm-shards.sh experiments/default.toml)
#        N=$N scripts/slurm-merge.sh "$jobid" experiments/default.toml
#
#   N           the number of shards (default 8, as in slurm-shards.sh)
#   OUTPUT_DIR  default results/<experiment file name without .toml>: the merge reads
#               OUTPUT_DIR/shard-K-of-N for every K and writes OUTPUT_DIR
#   BAILAB      the binary (default: bailab on PATH, else target/release/bailab)
#   SBATCH      the sbatch command (default sbatch)
set -euo pipefail

[[ $# -ge 2 && $# -le 3 ]] || { sed -n '2,/^set -euo/p' "$0" | grep '^#' >&2; exit 2; }
jobid=$1
experiment=$2
output=${3:-results/$(basename "$experiment" .toml)}
N=${N:-8}
[[ "$jobid" =~ ^[0-9]+$ ]] || { echo "error: JOBID must be a job number, not '$jobid'" >&2; exit 2; }
[[ "$N" =~ ^[1-9][0-9]*$ ]] || { echo "error: N must be a positive integer, not '$N'" >&2; exit 2; }
BAILAB=${BAILAB:-$(command -v bailab || echo target/release/bailab)}

# The shard folders, listed explicitly: a missing one makes the merge fail naming its deals.
merge=$(printf '%q ' "$BAILAB" merge)
for ((k = 0; k < N; k++)); do
    merge+=$(printf '%q ' "$output/shard-$k-of-$N")
done
merge+=$(printf -- '--output %q' "$output")

${SBATCH:-sbatch} --parsable --job-name=bailab-merge --dependency="afterok:$jobid" \
    --ntasks=1 --cpus-per-task=1 --time=00:15:00 --output="slurm-%x-%j.out" \
    --wrap="set -euo pipefail; $merge"
