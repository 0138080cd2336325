"""Evaluate a Python policy against bailab's greedy agent, with a paired interval.

    python3 examples/python-policy.py [--deals N] [--threads T]

The policy scores each legal action's feature vector (`view.action_features()`) with a weight
vector and takes the best: a linear policy whose weights a learner would fit (here they are
fixed by hand, so this trains nothing; `learn()` below marks where training plugs in). It plays
Tiến Lên at four seats against `greedy`, through the runner of `bailab run`: the same seeded
deals, every deal replayed with the agents rotated through the seats, and the paired difference
of mean payouts with its 95% interval.
"""

import argparse

import numpy as np

import bailab

GAME = bailab.Game("tienlen", players=4)
LAYOUT = {name: length for name, length, _ in GAME.action_layout()}


def hand_weights():
    """Weights over the action layout: shed many cards, pass rarely."""
    weights = np.zeros(GAME.action_size, dtype=np.float32)
    start = 0
    for name, length, _ in GAME.action_layout():
        if name == "cards":
            weights[start:start + length] = 1.0 - np.arange(length) / length  # low cards first
        start += length
    return weights


class LinearPolicy:
    """Takes the legal action whose features score highest under `weights`."""

    def __init__(self, weights):
        self.weights = weights

    def __call__(self, view, seed):
        scores = view.action_features() @ self.weights
        return int(np.argmax(scores))


def learn(policy):
    """Where a learner plugs in: play games with `bailab.VecEnv` or the PettingZoo env, score
    actions with `view.action_features()`, and update `policy.weights`. Nothing is trained here."""
    return policy


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()

    policy = learn(LinearPolicy(hand_weights()))
    experiment = {"name": "linear-vs-greedy", "game": "tienlen", "deals": args.deals, "seed": 1,
                  "agents": ["linear", "greedy", "greedy", "greedy"]}
    results = bailab.run(experiment, agents={"linear": policy}, threads=args.threads)
    summary = results.summary
    agents = summary[summary.kind == "agent"]
    print(f"{results.games_played} games of Tiến Lên in {results.elapsed_s:.1f} s")
    for _, row in agents.iterrows():
        print(f"  {row.agent:8} mean payout {row.mean_payout:+.3f} "
              f"[{row.mean_payout_lo95:+.3f}, {row.mean_payout_hi95:+.3f}] "
              f"win rate {row.win_rate:.3f}")
    pair = summary[summary.kind == "pair"].iloc[0]
    print(f"  paired difference {pair.agent} − {pair.versus}: {pair.mean_diff:+.3f} "
          f"[{pair.mean_diff_lo95:+.3f}, {pair.mean_diff_hi95:+.3f}] {pair.payout_unit} per game")


if __name__ == "__main__":
    main()
