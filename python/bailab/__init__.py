"""bailab from Python: the exact engines of Tứ Sắc, Chắn and Tiến Lên.

    import bailab
    game = bailab.Game("tienlen", players=4)
    state = game.deal(seed=7, index=0)      # the deal of `bailab play --seed 7 --index 0`
    while not state.is_terminal:
        state.apply(0)                      # index into state.legal_actions()
    print(state.payouts())

See docs/python.md.
"""

from ._bailab import Game, State, VecEnv, games

__all__ = ["Game", "State", "VecEnv", "games"]
