"""Given and partial deals from Python equal `bailab play --deck` and `bailab play --deal`."""

import json

import pytest

import bailab
from conftest import cli

FIXED_HAND = """[deal]
seat0 = "rA rA rA yE yE yE rP rP gR gC gH wR wC yP gP wP yK gK wA rE yH"
"""


def first_to_the_end(state):
    """Plays every seat's first legal action to the end; returns the record as a dict."""
    while not state.is_terminal:
        state.apply(0)
    return json.loads(state.record_json(agents=["first"] * 4))


@pytest.mark.parametrize("name,variant", [("tusac", "classic"), ("tusac", "dirtyking26"),
                                          ("chan", "standard"), ("tienlen", "south")])
def test_a_given_deck_deals_as_bailab_play_deck(name, variant):
    recorded = json.loads(cli("play", "--game", name, "--variant", variant, "--seed", "9",
                              "--agent", "random", "--json"))
    deck = recorded["deck"]
    game = bailab.Game(name, variant=variant)
    mine = first_to_the_end(game.deal_from_deck(deck, setup=recorded.get("setup")))
    theirs = json.loads(cli("play", "--game", name, "--variant", variant, "--deck", deck,
                            "--agent", "first", "--json"))
    assert mine["deck"] == theirs["deck"] == deck
    assert mine["events"] == theirs["events"]
    assert mine["outcome"] == theirs["outcome"]


def test_a_deal_specification_deals_as_bailab_play_deal(tmp_path):
    spec = tmp_path / "hand.toml"
    spec.write_text(FIXED_HAND)
    game = bailab.Game("tusac", variant="classic")
    for given in [FIXED_HAND, spec, {"deal": {"seat0": FIXED_HAND.split('"')[1]}}]:
        mine = first_to_the_end(game.deal_partial(given, seed=3, index=2))
        theirs = json.loads(cli("play", "--game", "tusac", "--deal", str(spec), "--seed", "3",
                                "--index", "2", "--agent", "first", "--json"))
        assert mine["deck"] == theirs["deck"]
        assert mine["outcome"] == theirs["outcome"]


@pytest.mark.parametrize(
    "deck,words",
    [("rA rA zz", "zz"), ("rA", "cards")],
)
def test_a_bad_deck_raises_value_error_naming_it(deck, words):
    with pytest.raises(ValueError, match=words):
        bailab.Game("tusac").deal_from_deck(deck)


@pytest.mark.parametrize(
    "spec,words",
    [("[deal]\nseat0 = \"rA rA rA rA rA ...\"\n", "rA"), ("[deal]\nseat9 = \"rA\"\n", "seat9"),
     ("[deal\n", "TOML|expected|line")],
)
def test_a_bad_deal_specification_raises_value_error_naming_it(spec, words):
    with pytest.raises(ValueError, match=words):
        bailab.Game("tusac").deal_partial(spec, seed=1)
