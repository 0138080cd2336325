#!/usr/bin/env bash
# How often each Chắn scoring factor (§8.1) occurs among the wins of an experiment: runs it with
# game records into a temporary folder, reads each win's forced `win` event (its action text lists
# the factors, e.g. `win Chiu Tom; points 6, ga 0, S 6`) and writes a CSV of factor, wins with it
# and share of wins, beside the experiment's summary.
#
# Usage: scripts/chan-factors.sh [EXPERIMENT.toml] [OUT.csv]
#   default: experiments/chan-greedy-factors.toml → results/chan-greedy-factors/factors.csv
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exp=${1:-experiments/chan-greedy-factors.toml}
out=${2:-results/chan-greedy-factors/factors.csv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cargo build --release --quiet
./target/release/bailab run "$exp" --output "$tmp/run" --records --force -q
mkdir -p "$(dirname "$out")"
for f in summary.csv tally.json meta.json; do cp "$tmp/run/$f" "$(dirname "$out")/$f"; done
grep -o '"action":"win [^;"]*;' "$tmp/run/records.jsonl" |
    sed 's/^"action":"win //; s/;$//' |
    awk '{ wins++; for (i = 1; i <= NF; i++) n[$i]++ }
         END {
             for (f in n) printf "%s,%d,%.6f\n", f, n[f], n[f] / wins
             printf "all_wins,%d,1.000000\n", wins
         }' | sort -t, -k2,2nr -k1,1 > "$out.body"
{ echo "factor,wins_with_factor,share_of_wins"; cat "$out.body"; } > "$out.tmp"
rm "$out.body"
mv "$out.tmp" "$out"
cat "$out"
