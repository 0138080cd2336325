#!/usr/bin/env bash
# The soak of docs/soak.md: `bailab soak` (random and greedy agents in every mix, the variants'
# rules and the games' rule samples, every contract checked on every game) at ten million games
# per table for the tables the hardening issue names, and one million at every other seat count.
#
#   scripts/soak.sh                    # results/soak.csv and results/soak-other-seats.csv
#   GAMES=100000 OTHER=10000 scripts/soak.sh /tmp/soak    # a quick one, into /tmp/soak/
#
# Each table's row (games, decisions, deeply checked games, faults, seconds, games/s) is written
# as soon as it is done; a fault prints its deal and the command that plays it again, and the
# script exits non-zero.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
dir=${1:-results}
games=${GAMES:-10000000}
other=${OTHER:-1000000}

cargo build --release --quiet --bin bailab
mkdir -p "$dir"
status=0
target/release/bailab soak --games "$games" --output "$dir/soak.csv" \
    tusac/classic/4 tusac/4sac/4 tusac/sisepai21/4 tusac/sisepai21/8 tusac/dirtyking26/4 \
    tienlen/south/2-4 chan/standard/2-5 || status=$?
target/release/bailab soak --games "$other" --output "$dir/soak-other-seats.csv" \
    tusac/classic/2-3 tusac/4sac/2-3 tusac/sisepai21/2-3 tusac/sisepai21/5-7 \
    tusac/dirtyking26/2-3 tusac/dirtyking26/5-8 || status=$?
exit $status
