#!/usr/bin/env bash
# Brings up a one-node Slurm on this machine, for trying and testing the Slurm scripts
# (scripts/slurm-shards.sh, scripts/slurm-merge.sh, tests/slurm.rs): munged, slurmctld and slurmd
# started by hand as daemons, with no systemd, no cgroups and no accounting. Run it as root.
#
# Usage:
#   scripts/slurm/start-local-cluster.sh          # prints the line to export, e.g.
#   export SLURM_CONF=/tmp/bailab-slurm/slurm.conf
#   sinfo; sbatch ...; squeue ...
#   scripts/slurm/stop-local-cluster.sh           # stops exactly the daemons started here
#
#   BAILAB_SLURM_STATE  the state folder (default: $TMPDIR/bailab-slurm, TMPDIR defaulting to
#                       /tmp): slurm.conf, the munge key and socket, pid files, logs, spool.
#                       Never inside the repository.
#   BAILAB_SLURM_PORT   slurmctld's port (default 6817; slurmd listens on the next one)
#   BAILAB_SLURM_WAIT   seconds to wait for the node to become idle (default 60)
#
# Installs Debian's slurm-wlm and munge with apt-get when slurmctld, slurmd, munged or sinfo is
# missing. The node has the machine's real CPUs and memory (slurmd -C); scheduling is per CPU
# (select/cons_tres, CR_CPU), so a job asking for more CPUs than the node has is rejected at once.
# ReturnToService=2: a node set down comes back by itself once its slurmd registers again.
# Started twice with the same state folder, it stops the first cluster first.
set -euo pipefail

state=${BAILAB_SLURM_STATE:-${TMPDIR:-/tmp}/bailab-slurm}
port=${BAILAB_SLURM_PORT:-6817}
wait_secs=${BAILAB_SLURM_WAIT:-60}
here=$(cd "$(dirname "$0")" && pwd)

die() {
    echo "start-local-cluster: $*" >&2
    exit 1
}

[[ $(id -u) -eq 0 ]] || die "run it as root (slurmd starts jobs as their users)"
[[ "$port" =~ ^[0-9]+$ ]] && ((port > 0 && port < 65535)) || die "BAILAB_SLURM_PORT: not a port: $port"
[[ "$wait_secs" =~ ^[0-9]+$ ]] || die "BAILAB_SLURM_WAIT: not a number of seconds: $wait_secs"
state=$(mkdir -p "$state" && cd "$state" && pwd) || die "cannot create the state folder $state"
repo=$(cd "$here/../.." && pwd)
case "$state/" in
"$repo"/*) die "the state folder $state is inside the repository; choose another (BAILAB_SLURM_STATE)" ;;
esac

missing=()
for tool in munged slurmctld slurmd sinfo sbatch; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if ((${#missing[@]})); then
    echo "start-local-cluster: ${missing[*]} missing: installing slurm-wlm and munge" >&2
    command -v apt-get >/dev/null || die "no apt-get: install Slurm (slurmctld, slurmd, sinfo) and munge yourself"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || die "apt-get update failed"
    apt-get install -y -qq slurm-wlm munge >/dev/null || die "apt-get install slurm-wlm munge failed"
fi

# A cluster already started from this folder is stopped first (only its own pids).
if compgen -G "$state/*.pid" >/dev/null; then
    BAILAB_SLURM_STATE=$state "$here/stop-local-cluster.sh"
fi

mkdir -p "$state/munge" "$state/run" "$state/ctld" "$state/spool" "$state/log"
chmod 0755 "$state"       # munged wants every folder above its socket searchable by all
chmod 0700 "$state/munge" # the key: root only
chmod 0755 "$state/run"   # the socket: every user's jobs and commands
if [[ ! -s "$state/munge/munge.key" ]]; then
    dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
fi
chmod 0600 "$state/munge/munge.key"
socket=$state/run/munge.socket

node=$(hostname -s)
# The node's real hardware, as slurmd itself sees it (CPUs, sockets, cores, threads, memory).
hardware=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //')
[[ "$hardware" == *CPUs=* ]] || die "slurmd -C did not describe the node: $hardware"

cat >"$state/slurm.conf" <<EOF
# A one-node Slurm written by scripts/slurm/start-local-cluster.sh
ClusterName=bailab
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
EnforcePartLimits=ALL
KillWait=10
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
PlugStackConfig=$state/plugstack.conf
NodeName=$node NodeAddr=127.0.0.1 $hardware State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
: >"$state/plugstack.conf"
export SLURM_CONF=$state/slurm.conf

munged --socket="$socket" --key-file="$state/munge/munge.key" --pid-file="$state/munged.pid" \
    --log-file="$state/log/munged.log" --seed-file="$state/munge/munged.seed" \
    || die "munged did not start (see $state/log/munged.log)"
slurmctld -f "$state/slurm.conf" || die "slurmctld did not start (see $state/log/slurmctld.log)"
slurmd -f "$state/slurm.conf" -N "$node" || die "slurmd did not start (see $state/log/slurmd.log)"

# Idle: registered, up and free (sinfo's %t is "idle", without a * for not responding).
began=$SECONDS
until [[ $(sinfo -h -n "$node" -o %t 2>/dev/null) == idle ]]; do
    if ((SECONDS - began >= wait_secs)); then
        sinfo -N -l >&2 || true
        tail -n 5 "$state/log/slurmctld.log" "$state/log/slurmd.log" >&2 || true
        die "node $node not idle after $wait_secs s (logs in $state/log)"
    fi
    sleep 1
done
echo "start-local-cluster: node $node idle ($hardware) after $((SECONDS - began)) s; state in $state" >&2
echo "export SLURM_CONF=$state/slurm.conf"
