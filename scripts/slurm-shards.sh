#!/bin/bash
# One Slurm job array task per shard of a bailab experiment: task K of N runs
#   bailab run EXPERIMENT --shard K/N --continue --threads T --quiet --output OUTPUT/shard-K-of-N
# where --continue resumes the unfinished run of this same experiment and shard that the folder
# may hold (a task requeued after a node failure, preempted, cancelled and resubmitted) and starts
# afresh otherwise; the log then says "resuming the unfinished run in ... (X of Y deals done)".
# Merge the shards afterwards with scripts/slurm-merge.sh (a job that starts when every task of
# this array has succeeded). The commands for a normal run, a cancelled task, a node failure and
# a changed N are in the README, section "Beyond one machine".
#
# Usage (from the crate folder, on a shared file system; build first: cargo build --release):
#   N=8
#   jobid=$(sbatch --parsable --array=0-$((N - 1)) --export=ALL,N=$N \
#           scripts/slurm-shards.sh experiments/default.toml [OUTPUT_DIR])
#   N=$N scripts/slurm-merge.sh "$jobid" experiments/default.toml [OUTPUT_DIR]
#
#   N           the number of shards: give it whenever --array is not 0-(N-1) exactly; defaults
#               to the array's task count. The #SBATCH --array line below is only the default
#               (8 shards); `sbatch --array` overrides it.
#   OUTPUT_DIR  default results/<experiment file name without .toml>
#   BAILAB      the binary (default: bailab on PATH, else target/release/bailab)
#   THREADS     threads per task (default: the task's CPUs: SLURM_CPUS_PER_TASK, else the CPUs
#               Slurm allocated, SLURM_JOB_CPUS_PER_NODE). More CPUs per task: sbatch
#               --cpus-per-task=C (the default below is 1, which every node can satisfy; a value
#               above a node's CPUs is refused by sbatch or never starts).
#   The log, slurm-bailab-shard-<array job>_<task>.out in the submit folder, is appended to, so
#   a requeued task keeps the lines of its earlier runs.
#
#SBATCH --job-name=bailab-shard
#SBATCH --array=0-7
#SBATCH --cpus-per-task=1
#SBATCH --time=01:00:00
#SBATCH --output=slurm-%x-%A_%a.out
#SBATCH --open-mode=append
#SBATCH --requeue
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
[[ -f "$experiment" ]] || { echo "error: no experiment file $experiment (in $(pwd))" >&2; exit 2; }
BAILAB=${BAILAB:-$(command -v bailab || echo target/release/bailab)}
[[ -x "$BAILAB" ]] || { echo "error: no bailab binary at $BAILAB (cargo build --release, or set BAILAB)" >&2; exit 2; }
# SLURM_JOB_CPUS_PER_NODE is e.g. "2" or "2(x3)": the count before any "(".
cpus=${SLURM_JOB_CPUS_PER_NODE:-1}
threads=${THREADS:-${SLURM_CPUS_PER_TASK:-${cpus%%(*}}}
[[ "$threads" =~ ^[1-9][0-9]*$ ]] || { echo "error: THREADS must be a positive integer, not '$threads'" >&2; exit 2; }

dir=$output/shard-$k-of-$N
echo "$(date -Is) $(hostname): shard $k/$N of $experiment into $dir with --threads $threads" \
    "(job ${SLURM_JOB_ID:-?}, array ${SLURM_ARRAY_JOB_ID:-?}, start $((${SLURM_RESTART_COUNT:-0} + 1)))"
# scancel, a time limit or a node going down send SIGTERM to every process of the task: bailab
# then stops at the next deal, writes its checkpoint and exits with status 130. This shell must
# outlive it (Slurm kills what is left once the script ends): the no-op trap makes it wait for
# bailab first. bailab's own exit status is the task's.
trap ':' TERM INT HUP
status=0
"$BAILAB" run "$experiment" --shard "$k/$N" --continue --threads "$threads" --quiet \
    --output "$dir" || status=$?
if ((status == 0)); then
    echo "$(date -Is) shard $k/$N done: $dir"
else
    echo "$(date -Is) shard $k/$N stopped (exit status $status); resubmit the task to go on" >&2
fi
exit "$status"
