"""Train sb3-contrib's MaskablePPO on bailab's Tiến Lên through `bailab.gymnasium` (seat 0
against three `random` seats), then evaluate it with `bailab.run` (paired, seats rotated).

    python3 examples/gymnasium_maskable_ppo.py [--steps 20000] [--eval-deals 1000]

MaskablePPO reads the legal-action mask from the env's `action_masks()`; the trained policy
plays as a Python agent, its mask built from the view's legal actions. Needs PyTorch,
stable-baselines3 and sb3-contrib (`pip install sb3-contrib`).
"""

import argparse
import time

import numpy as np
from sb3_contrib import MaskablePPO

import bailab
import bailab.gymnasium as bg


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20_000, help="learning-seat steps to train")
    parser.add_argument("--eval-deals", type=int, default=1000)
    args = parser.parse_args()
    env = bg.env("tienlen", opponents=["random"], seed=1)
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, seed=0, verbose=0)
    start = time.time()
    model.learn(total_timesteps=args.steps)
    print(f"MaskablePPO: {args.steps} learning-seat steps in {time.time() - start:.0f} s")

    def policy(view, seed):
        mask = np.zeros(env.game.max_actions, dtype=bool)
        mask[: len(view.legal_actions())] = True
        action, _ = model.predict(view.tensor(), action_masks=mask, deterministic=True)
        return int(action)

    experiment = {"name": "maskable-ppo-vs-random", "game": "tienlen", "deals": args.eval_deals, "seed": 2,
                  "agents": ["ppo", "random", "random", "random"]}
    results = bailab.run(experiment, agents={"ppo": policy}, threads=1)
    pair = results.summary[results.summary.kind == "pair"].iloc[0]
    print(f"bailab.run, {results.games_played} games: paired difference ppo − random {pair.mean_diff:+.3f} "
          f"[{pair.mean_diff_lo95:+.3f}, {pair.mean_diff_hi95:+.3f}] {pair.payout_unit} per game")


if __name__ == "__main__":
    main()
