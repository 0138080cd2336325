"""A view shows what its seat may see and nothing else. Over 10,000 views of random games in
every game and variant: the view of a seat and the same seat's view of any determinization (the
other hands resampled from what the seat has not seen) give the same observation and tensor, and
(when the seat is to move) the same legal actions, action features and feature rows, while the
other seats' own views do change; and in Tiến Lên, where every card is unique, no card of another
seat's hand appears anywhere in the observation outside the seat's own `hand`, its `unseen` list
and the rules' `required` card."""

import random

import numpy as np
import pytest

import bailab

TABLES = [("tusac", "classic", 4), ("tusac", "4sac", 3), ("tusac", "sisepai21", 8),
          ("tusac", "dirtyking26", 4), ("chan", "standard", 4), ("chan", "standard", 2),
          ("tienlen", "south", 4), ("tienlen", "south", 3)]
VIEWS_PER_TABLE = 1250  # 8 tables: 10,000 views


def encodings(view):
    """Everything a view offers, in comparable form."""
    return (view.observation(), view.tensor().tolist(), [str(a) for a in view.legal_actions()],
            view.action_features().tolist(), view.feature_rows().tolist())


def card_strings(value, skip=("hand", "unseen", "required")):
    """Every string anywhere in an observation, outside the keys `skip`: the seat's own hand,
    the cards it has not seen, and `required`, the card the first lead of a game must hold
    (3♠: its holder is public by the rules, who must lead with it)."""
    if isinstance(value, dict):
        return [s for k, v in value.items() if k not in skip for s in card_strings(v, skip)]
    if isinstance(value, list):
        return [s for v in value for s in card_strings(v, skip)]
    return [value] if isinstance(value, str) else []


def random_views(game, count, rng):
    """(state, seat) pairs at the decisions of random games, `count` views in all."""
    seen, index = 0, 0
    while seen < count:
        state = game.deal(rng.randrange(1 << 30), index)
        index += 1
        while not state.is_terminal and seen < count:
            for seat in range(game.players):
                if seen < count and rng.random() < 0.5:
                    yield state, seat
                    seen += 1
            state.apply(rng.randrange(len(state.legal_actions())))


@pytest.mark.parametrize("name,variant,players", TABLES)
def test_a_view_encodes_only_what_its_seat_sees(name, variant, players):
    game = bailab.Game(name, variant=variant, players=players)
    rng = random.Random(2026)
    others_changed = others_compared = 0
    for state, seat in random_views(game, VIEWS_PER_TABLE, rng):
        view = state.view(seat)
        mine = encodings(view)
        assert np.all(np.isfinite(view.tensor())) and len(view.tensor()) == game.tensor_size
        for seed in (1, 2):
            sample = view.determinize(seed)
            # a Chắn seat waiting on another seat's silent ù or chíu window may be the one to
            # decide in a sample whose hands open no window: only its choices (none now)
            # differ, not what it sees (the observation and the tensor)
            compared = len(mine) if view.to_move else 2
            seen = encodings(sample.view(seat))
            assert seen[:compared] == mine[:compared], f"seat {seat}'s view changed"
            for other in range(players):
                if other != seat:
                    others_compared += 1
                    if sample.view(other).observation() != state.view(other).observation():
                        others_changed += 1
        if name == "tienlen":
            others = {c for o in range(players) if o != seat
                      for c in state.view(o).observation()["hand"]}
            leaked = others & set(card_strings(mine[0]))
            assert not leaked, f"seat {seat} sees {leaked} of another hand"
    # The test has power: determinization does move the cards a seat cannot see.
    assert others_changed > others_compared // 2, (others_changed, others_compared)


def test_a_view_of_a_seat_not_to_move_has_no_legal_actions():
    state = bailab.Game("tienlen").deal(1, 0)
    other = (state.current_seat + 1) % 4
    view = state.view(other)
    assert not view.to_move and view.legal_actions() == []
    assert view.action_features().shape == (0, bailab.Game("tienlen").action_size)
    with pytest.raises(ValueError, match="seat 4"):
        state.view(4)
