#!/usr/bin/env bash
# Stops the one-node Slurm of scripts/slurm/start-local-cluster.sh: cancels the jobs still on it,
# then ends slurmd, slurmctld and munged by the pids in their pid files (each only if that pid is
# still the daemon it names; nothing is killed by name). The state folder stays (logs included);
# remove it yourself when done.
#
# Usage: scripts/slurm/stop-local-cluster.sh
#   BAILAB_SLURM_STATE  the state folder given to the start script (default: $TMPDIR/bailab-slurm)
set -euo pipefail

state=${BAILAB_SLURM_STATE:-${TMPDIR:-/tmp}/bailab-slurm}
[[ -d "$state" ]] || { echo "stop-local-cluster: no state folder $state: nothing to stop" >&2; exit 0; }

# The pid in FILE if that process is alive and runs the program NAME.
live_pid() {
    local file=$1 name=$2 pid
    [[ -s "$file" ]] || return 1
    pid=$(tr -dc 0-9 <"$file")
    [[ -n "$pid" && -r "/proc/$pid/comm" ]] || return 1
    [[ $(cat "/proc/$pid/comm") == "$name" ]] || return 1
    echo "$pid"
}

# Jobs left on this cluster would go on running without it: cancel them while slurmctld is up.
if [[ -f "$state/slurm.conf" ]] && live_pid "$state/slurmctld.pid" slurmctld >/dev/null; then
    export SLURM_CONF=$state/slurm.conf
    mapfile -t jobs < <(squeue -h -o %A 2>/dev/null || true)
    if ((${#jobs[@]})); then
        scancel "${jobs[@]}" 2>/dev/null || true
        for _ in $(seq 30); do
            [[ -z $(squeue -h -t running,completing -o %A 2>/dev/null || true) ]] && break
            sleep 1
        done
    fi
fi

status=0
for daemon in slurmd slurmctld munged; do
    file=$state/$daemon.pid
    if ! pid=$(live_pid "$file" "$daemon"); then
        rm -f "$file"
        continue
    fi
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
        [[ -d "/proc/$pid" ]] || break
        sleep 0.1
    done
    if [[ -d "/proc/$pid" ]]; then
        echo "stop-local-cluster: $daemon ($pid) still running after 10 s: SIGKILL" >&2
        kill -KILL "$pid" 2>/dev/null || status=1
    fi
    rm -f "$file"
    echo "stop-local-cluster: stopped $daemon ($pid)" >&2
done
exit "$status"
