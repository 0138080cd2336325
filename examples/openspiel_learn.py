"""Train one of OpenSpiel's learners on bailab's Tiến Lên against random seats, then evaluate it
with `bailab.run` (paired, seats rotated, the runner of `bailab run`).

    python3 examples/openspiel_learn.py [--algo qlearning|a2c] [--minutes 3] [--eval-deals 2000]

The game is `bailab.openspiel`'s registered `bailab_tienlen` played through OpenSpiel's
`rl_environment` (the deck drawn by its chance sampler), seat 0 learning, seats 1-3
OpenSpiel's `RandomAgent`. Two learners of OpenSpiel's own code:

- `qlearning` (no deep-learning package): `tabular_qlearner.QLearner`, its table keyed by a
  coarse summary of the seat's view (`summary()`: the phase, the kind of play to beat, the
  number of legal actions, the hand size), passed through QLearner's
  `info_state_to_string_override`; an action is an index into the legal actions (plays from
  lowest, pass last), so the table learns which rank of play to choose in each situation.
- `a2c` (needs PyTorch): `open_spiel.python.pytorch.policy_gradient.PolicyGradient` (advantage
  actor-critic) over the information-state tensor (the seat's `view.tensor()`).

The trained policy then plays as a Python agent in `bailab.run` against three `random` seats;
the script prints its mean payout and the paired difference with their 95% intervals.
"""

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent, tabular_qlearner

import bailab
import bailab.openspiel  # noqa: F401  (registers the games)


def summary(view):
    """The coarse situation the tabular learner keys on."""
    obs = view.observation()
    top = obs["top"]["kind"] if obs["top"] else "-"
    return f"{obs['phase']}|{top}|{len(view.legal_actions())}|{len(obs['hand'])}"


def state_key(state):
    """QLearner's key of an OpenSpiel state: the summary of the seat to move's view."""
    if state.is_terminal():
        return "end"
    return summary(state.view(state.current_player()))


def make_learner(algo, game):
    """The learning agent of seat 0 and a callable `f(view, seed)` playing its policy."""
    actions = game.num_distinct_actions()
    if algo == "qlearning":
        agent = tabular_qlearner.QLearner(0, actions, step_size=0.05, info_state_to_string_override=state_key)

        def policy(view, seed):
            q = agent._q_values[summary(view)]
            legal = range(len(view.legal_actions()))
            return max(legal, key=lambda a: (q[a], -a))

        return agent, policy
    from open_spiel.python.pytorch import policy_gradient  # needs PyTorch

    agent = policy_gradient.PolicyGradient(
        0, game.information_state_tensor_size(), actions, loss_str="a2c", hidden_layers_sizes=[128],
        batch_size=16, critic_learning_rate=0.01, pi_learning_rate=0.001, num_critic_before_pi=4)

    def policy(view, seed):
        _, probs = agent._act(view.tensor().tolist(), list(range(len(view.legal_actions()))))
        return int(np.argmax(probs))

    return agent, policy


def train(algo, minutes, seed):
    """Trains seat 0 for `minutes` against random seats; returns the policy and the log."""
    game = pyspiel.load_game("bailab_tienlen(players=4)")
    env = rl_environment.Environment(game, seed=seed, include_full_state=(algo == "qlearning"))
    learner, policy = make_learner(algo, game)
    agents = [learner] + [random_agent.RandomAgent(p, game.num_distinct_actions()) for p in (1, 2, 3)]
    start, episodes, returns = time.time(), 0, []
    while time.time() - start < minutes * 60:
        step = env.reset()
        if env.get_state.is_terminal():  # an instant win at the deal: no decision to learn from
            continue
        while not step.last():
            seat = step.observations["current_player"]
            step = env.step([agents[seat].step(step).action])
        for agent in agents:
            agent.step(step)
        returns.append(step.rewards[0])
        episodes += 1
        if episodes % 1000 == 0:
            print(f"  {episodes} games, {time.time() - start:.0f} s: mean return of the last 1000 "
                  f"{np.mean(returns[-1000:]):+.3f}", flush=True)
    return policy, episodes, time.time() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--algo", choices=["qlearning", "a2c"], default="qlearning")
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--eval-deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    policy, episodes, seconds = train(args.algo, args.minutes, args.seed)
    print(f"{args.algo}: {episodes} training games of Tiến Lên against random in {seconds:.0f} s")
    experiment = {"name": f"openspiel-{args.algo}-vs-random", "game": "tienlen", "deals": args.eval_deals,
                  "seed": 2, "agents": ["learned", "random", "random", "random"]}
    results = bailab.run(experiment, agents={"learned": policy}, threads=1)
    table = results.summary
    learned = table[(table.kind == "agent") & (table.agent == "learned")].iloc[0]
    pair = table[table.kind == "pair"].iloc[0]
    print(f"bailab.run, {results.games_played} games: learned mean payout {learned.mean_payout:+.3f} "
          f"[{learned.mean_payout_lo95:+.3f}, {learned.mean_payout_hi95:+.3f}], win rate {learned.win_rate:.3f}")
    print(f"  paired difference {pair.agent} − {pair.versus}: {pair.mean_diff:+.3f} "
          f"[{pair.mean_diff_lo95:+.3f}, {pair.mean_diff_hi95:+.3f}] {pair.payout_unit} per game")


if __name__ == "__main__":
    main()
