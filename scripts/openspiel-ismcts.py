#!/usr/bin/env python3
"""OpenSpiel's ISMCTSBot against bailab's `ismcts` at equal iterations, through the registered
OpenSpiel game (`bailab.openspiel`): a cross-check of bailab's search against code nobody here
wrote.

    nice -n 19 python3 scripts/openspiel-ismcts.py [--games tienlen,tusac] [--deals 4] [--iters 100]

Per game (Tiến Lên south and Tứ Sắc classic, 4 seats), deal `d` of master seed `--seed` (the
deck of `bailab play --seed S --index d`) is played twice through OpenSpiel: OpenSpiel's
`ISMCTSBot` (random rollouts, UCT constant `--uct-c` times the game's payout scale, since its
returns are raw payouts) in seats 0 and 2 and `bailab.Agent(--bailab-spec)` in seats 1 and 3,
then the seats swapped. A deal's difference is the mean over both games of OpenSpiel's seats'
mean payout minus bailab's; the script prints its mean over the deals with a 95% interval
(Student t), and each search's iterations per second on one thread (iterations over the time
spent in its decisions that searched, those with more than one legal action).
"""

import argparse
import json
import math
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import bailab
import bailab.openspiel as bo

GAMES = {"tienlen": ("tienlen", "south"), "tusac": ("tusac", "classic"), "chan": ("chan", "standard")}


def t95(n):
    """The two-sided 95% Student t quantile with n - 1 degrees of freedom."""
    try:
        from scipy.stats import t
        return float(t.ppf(0.975, n - 1))
    except ImportError:
        return 1.96


def deck(game, seed, index):
    """The deck of deal `index` of seed `seed`, from its record."""
    state = game.deal(seed, index)
    while not state.is_terminal:
        state.apply(0)
    return json.loads(state.record_json())["deck"].split()


class Timed:
    """A bot and the time and iterations its searching decisions took."""

    def __init__(self, bot, iters):
        self.bot, self.iters = bot, iters
        self.seconds, self.searches = 0.0, 0

    def step(self, state):
        searched = len(state.legal_actions()) > 1
        start = time.perf_counter()
        action = self.bot.step(state)
        if searched:
            self.seconds += time.perf_counter() - start
            self.searches += 1
        return int(action)

    def rate(self):
        """Iterations per second over the searching decisions."""
        return self.searches * self.iters / self.seconds if self.seconds else float("nan")


def play(game, cards, bots):
    """Plays the deck `cards` with `bots` (one per seat); returns the payouts."""
    state = game.new_initial_state()
    kinds = game.table.kinds
    for card in cards:
        state.apply_action(kinds.index(card))
    while state.is_chance_node():  # a multi-pack reshuffle seed: bailab play --deck's
        state.apply_action(0)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def head_to_head(name, args):
    """The paired difference and the speeds in one game."""
    game_name, variant = GAMES[name]
    game = pyspiel.load_game(bo.short_name(game_name, variant), {"players": 4})
    uct_c = args.uct_c * game.table.game.payout_scale
    spec = args.bailab_spec.format(iters=args.iters)
    rng = np.random.RandomState(args.seed)
    theirs = Timed(None, args.iters)
    ours = Timed(None, args.iters)
    diffs = []
    for d in range(args.deals):
        cards = deck(game.table.game, args.seed, d)
        per_game = []
        for openspiel_seats in ((0, 2), (1, 3)):
            evaluator = mcts.RandomRolloutEvaluator(1, rng)
            theirs.bot = ismcts.ISMCTSBot(game, evaluator, uct_c, args.iters, random_state=rng)
            ours.bot = bo.BailabBot(spec, seed=args.seed * 1_000_003 + d)
            bots = [theirs if s in openspiel_seats else ours for s in range(4)]
            payouts = play(game, cards, bots)
            mine = [payouts[s] for s in range(4) if s in openspiel_seats]
            other = [payouts[s] for s in range(4) if s not in openspiel_seats]
            per_game.append(statistics.mean(mine) - statistics.mean(other))
        diffs.append(statistics.mean(per_game))
        if args.verbose:
            print(f"  {name} deal {d}: {diffs[-1]:+.2f}", flush=True)
    mean = statistics.mean(diffs)
    half = t95(len(diffs)) * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan
    return {"game": f"{game_name} {variant}", "deals": len(diffs), "mean": mean, "lo": mean - half,
            "hi": mean + half, "openspiel_its": theirs.rate(), "bailab_its": ours.rate(),
            "uct_c": uct_c, "spec": spec}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="tienlen,tusac", help="comma-separated: tienlen, tusac, chan")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--iters", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--uct-c", type=float, default=1.0,
                        help="OpenSpiel's UCT constant, in units of the game's payout scale")
    parser.add_argument("--bailab-spec", default="ismcts:iters={iters}",
                        help="bailab's agent ({iters} is replaced), e.g. "
                        "ismcts:iters={iters},rollout=random,root=ucb,deviate=off,depth=off")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    print(f"OpenSpiel ISMCTSBot vs bailab {args.bailab_spec.format(iters=args.iters)}, "
          f"{args.iters} iterations, seed {args.seed}, one thread")
    print(f"{'game':18} {'deals':>5} {'OpenSpiel − bailab (95% CI), per game':>40} "
          f"{'OpenSpiel it/s':>15} {'bailab it/s':>12}")
    for name in args.games.split(","):
        r = head_to_head(name.strip(), args)
        print(f"{r['game']:18} {r['deals']:5d} {r['mean']:+14.2f} [{r['lo']:+.2f}, {r['hi']:+.2f}]"
              f"{'':12} {r['openspiel_its']:15.0f} {r['bailab_its']:12.0f}", flush=True)


if __name__ == "__main__":
    main()
