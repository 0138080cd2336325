"""The engines from Python agree with the command line: the same deal and whole game as
`bailab play --json` for the same seed, index and agents, records that `bailab check` accepts,
and bad input raised as ValueError naming the problem."""

import json
import tempfile
from pathlib import Path

import pytest

import bailab

from conftest import cli

VARIANTS = [(g["name"], v) for g in bailab.games() for v in g["variants"]]


def play_first(game, seed, index):
    """Plays a whole game from Python, every seat taking the first legal action."""
    state = game.deal(seed, index)
    while not state.is_terminal:
        assert state.legal_actions(), "a seat to move has a legal action"
        state.apply(0)
    return state


def test_games_lists_every_game_and_variant():
    names = {g["name"]: g for g in bailab.games()}
    assert set(names) == {"tusac", "chan", "tienlen"}
    assert names["tusac"]["variants"] == ["classic", "4sac", "sisepai21", "dirtyking26"]
    assert names["tienlen"]["seats"] == (2, 4)


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_a_whole_game_equals_bailab_play(name, variant):
    for seed, index in [(7, 0), (2026, 3)]:
        game = bailab.Game(name, variant=variant, players=4)
        state = play_first(game, seed, index)
        mine = json.loads(state.record_json(agents=["first"] * 4))
        theirs = json.loads(
            cli("play", "--game", name, "--variant", variant, "--seed", str(seed),
                "--index", str(index), "--agent", "first", "--json")
        )
        assert mine == theirs
        assert sum(state.payouts()) == 0


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_records_from_python_pass_bailab_check(name, variant):
    state = play_first(bailab.Game(name, variant=variant), 11, 5)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "game.json"
        path.write_text(state.record_json())
        assert "ok" in cli("check", str(path))


def test_a_clone_is_independent():
    state = bailab.Game("tienlen").deal(3, 0)
    copy = state.clone()
    legal = state.legal_actions()
    state.apply(len(legal) - 1)
    assert copy.legal_actions() == legal


def test_payouts_only_once_over():
    state = bailab.Game("chan").deal(1, 0)
    assert state.payouts() is None
    with pytest.raises(ValueError, match="not over"):
        state.record_json()


@pytest.mark.parametrize(
    "kwargs,words",
    [
        (dict(name="poker"), "poker"),
        (dict(name="tusac", variant="nine"), "nine"),
        (dict(name="tienlen", players=7), "7"),
        (dict(name="tienlen", rules={"cong_pay": "lots"}), "cong_pay"),
        (dict(name="chan", rules={"no_such_option": 1}), "no_such_option"),
    ],
)
def test_bad_input_raises_value_error_naming_it(kwargs, words):
    with pytest.raises(ValueError, match=words):
        bailab.Game(**kwargs)


def test_an_illegal_index_is_an_index_error():
    state = bailab.Game("tusac").deal(1, 0)
    n = len(state.legal_actions())
    with pytest.raises(IndexError, match=f"{n} legal actions"):
        state.apply(n)
