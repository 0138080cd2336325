"""bailab from Python: the exact engines of Tứ Sắc, Chắn and Tiến Lên.

    import bailab
    game = bailab.Game("tienlen", players=4)
    state = game.deal(seed=7, index=0)      # the deal of `bailab play --seed 7 --index 0`
    while not state.is_terminal:
        view = state.view(state.current_seat)   # what the seat to move may see
        state.apply(0)                      # index into state.legal_actions()
    print(state.payouts())

    bailab.run("experiments/x.toml", agents={"mine": my_policy})   # DataFrames

See docs/python.md.
"""

from . import net
from ._bailab import Action, Agent, Game, State, VecEnv, View, games, net_q_values
from .experiments import Results, run

__all__ = [
    "Action", "Agent", "Game", "Results", "State", "VecEnv", "View", "games", "net", "net_q_values",
    "run",
]
