#!/usr/bin/env bash
# Round-trip cost per decision of outside agents (`exec:`) on this machine, against the built-in
# `first`: builds the release binary and the Rust example agent, times each agent with
# `bailab bench --agent` on one thread (Tiến Lên south and Tứ Sắc classic, four seats) and writes
# a CSV, with the part of the round trip spent building and writing the decide message. The
# program's start and handshake are not timed; figures are never asserted anywhere.
#
# The Rust agent is also timed with bailab and the agent pinned to one core (`taskset -c 0`, when
# taskset exists): each wakes the other on the core it is already on, instead of waking a
# sleeping one.
#
# Usage: scripts/exec-bench.sh [CSV]        (default results/exec-bench.csv)
#   DECISIONS=20000 decisions per agent (the bash agent gets a tenth of them: it is slow).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-results/exec-bench.csv}
decisions=${DECISIONS:-20000}

cargo build --release --quiet --bin bailab --example first-agent

cpu=$(grep -m1 -E '^model name[[:space:]]*:' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
machine="$(nproc 2>/dev/null || echo '?') cores $(uname -m) ${cpu:-unknown cpu}"
agents=(
    first
    "exec:target/release/examples/first-agent"
    "exec:python3 examples/agents/first.py"
    "exec:bash examples/agents/first.sh"
)

mkdir -p "$(dirname "$out")"
echo "game,variant,agent,decisions,us_per_decision,decisions_per_s,load_1min,machine" >"$out"
for table in "tienlen south" "tusac classic"; do
    read -r game variant <<<"$table"
    runs=("${agents[@]}")
    command -v taskset >/dev/null && runs+=("pinned ${agents[1]}")
    for run in "${runs[@]}"; do
        agent=${run#pinned }
        pin=()
        label=$agent
        if [[ $run == pinned* ]]; then
            pin=(taskset -c 0)
            label="$agent (taskset -c 0)"
        fi
        n=$decisions
        [[ $agent == *first.sh ]] && n=$((decisions / 10))
        load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '')
        lines=$("${pin[@]}" target/release/bailab bench --game "$game" --variant "$variant" \
            --agent "$agent" --agent-decisions "$n")
        row=$(grep 'µs/decision$' <<<"$lines")
        us=$(sed -E 's|.* ([0-9.]+) µs/decision$|\1|' <<<"$row")
        per_s=$(sed -E 's|.* ([0-9]+) decisions/s .*|\1|' <<<"$row")
        echo "$row${pin[*]:+ (${pin[*]})}"
        echo "$game,$variant,\"$label\",$n,$us,$per_s,$load,\"$machine\"" >>"$out"
        # Of an exec round trip, the part spent building and writing the decide message.
        if [[ $run == exec:*first-agent ]]; then
            row=$(grep 'µs/message$' <<<"$lines")
            us=$(sed -E 's|.* ([0-9.]+) µs/message$|\1|' <<<"$row")
            per_s=$(sed -E 's|.* ([0-9]+) messages/s .*|\1|' <<<"$row")
            echo "$row"
            echo "$game,$variant,\"(the decide message alone)\",$n,$us,$per_s,$load,\"$machine\"" >>"$out"
        fi
    done
done
echo "wrote $out"
