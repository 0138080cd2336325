#!/usr/bin/env bash
# The ISMCTS strength curve: ISMCTS at 100, 300, 1000 and 3000 iterations against three greedy
# agents (experiments/ismcts-strength-N.toml: the unlimited tree, depth=off, the spec's default
# when the curve was measured), and the time per decision of each (bailab bench's row of the same
# settings, one thread). Writes results/ismcts-strength.csv:
#   iters, deals, games, mean_diff, mean_diff_lo95, mean_diff_hi95, ms_per_decision
# where mean_diff is ISMCTS's paired per-deal mean payout minus greedy's.
#
# Usage: scripts/ismcts-strength.sh        (about 10 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/bailab
iters=(100 300 1000 3000)
out=results/ismcts-strength.csv
bench=$("$bin" bench --game tusac --variant classic --deals 1 --hands 1 --searches 200 --ismcts-iters "$(IFS=,; echo "${iters[*]}")")
echo "iters,deals,games,mean_diff,mean_diff_lo95,mean_diff_hi95,ms_per_decision" > "$out.tmp"
for n in "${iters[@]}"; do
  "$bin" run "experiments/ismcts-strength-$n.toml" --quiet
  summary="results/ismcts-strength/iters-$n/summary.csv"
  ms=$(awk -v n="$n" 'index($0, "ismcts iters="n",rollout=greedy,root=sweep,deviate=2.5,depth=off ") {
    for (i = 2; i <= NF; i++) if ($i == "ms/decision") print $(i - 1)
  }' <<<"$bench")
  python3 - "$summary" "$n" "$ms" >> "$out.tmp" <<'PY'
import csv, sys
path, n, ms = sys.argv[1:]
rows = list(csv.DictReader(open(path)))
agent = next(r for r in rows if r["kind"] == "agent" and r["agent"].startswith("ismcts"))
pair = next(r for r in rows if r["kind"] == "pair")
sign = 1 if pair["agent"].startswith("ismcts") else -1
lo, hi = float(pair["mean_diff_lo95"]), float(pair["mean_diff_hi95"])
if sign < 0:
    lo, hi = -hi, -lo
games = agent.get("seat_games", agent.get("games"))  # seat-games (older summaries: games)
print(f'{n},{pair["deals"]},{games},{sign * float(pair["mean_diff"]):.6f},{lo:.6f},{hi:.6f},{ms}')
PY
done
mv "$out.tmp" "$out"
cat "$out"
