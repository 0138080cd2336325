"""bailab's games as OpenSpiel games: OpenSpiel's own checks pass in every game and variant, the
deck's chance nodes carry their exact probabilities, a game dealt from a deck and played by
OpenSpiel's `evaluate_bots` equals `bailab play --deck` (events and payouts), and a seat's
information state shows nothing the seat may not see."""

import json
import pickle
from math import isclose

import numpy as np
import pytest

import bailab
from conftest import cli

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import bailab.openspiel as bo  # noqa: E402

VARIANTS = [(g["name"], v) for g in bailab.games() for v in g["variants"]]
NAMES = [bo.short_name(g["name"]) for g in bailab.games()] + [bo.short_name(n, v) for n, v in VARIANTS]
SEATS = {g["name"]: tuple(g["seats"]) for g in bailab.games()}


def deck_of(game, seed, index):
    """The deck (and setup) of deal `index` of seed `seed`, from its record."""
    state = game.deal(seed, index)
    while not state.is_terminal:
        state.apply(0)
    record = json.loads(state.record_json())
    return record["deck"].split(), record.get("setup", {})


def draw(state, cards, reshuffle_seed=0):
    """Applies the chance outcomes of a given deck (and reshuffle seed) to an initial state."""
    kinds = state.get_game().table.kinds
    for card in cards:
        state.apply_action(kinds.index(card))
    if state.is_chance_node():
        state.apply_action(reshuffle_seed)
    assert not state.is_chance_node()


def test_every_game_and_variant_is_registered():
    registered = set(pyspiel.registered_names())
    assert set(NAMES) <= registered
    game = pyspiel.load_game("bailab_tienlen(players=4)")
    assert game.num_players() == 4
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


@pytest.mark.parametrize("name", NAMES)
def test_random_sim_test_passes_with_serialization(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def seat_counts(name, variant):
    """The fewest and the most seats the variant takes."""
    fewest, most = SEATS[name]
    taken = []
    for players in range(fewest, most + 1):
        try:
            bailab.Game(name, variant=variant, players=players)
        except ValueError:
            continue
        taken.append(players)
    return sorted({taken[0], taken[-1]})


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_random_sim_test_passes_at_the_fewest_and_most_seats(name, variant):
    for players in seat_counts(name, variant):
        game = pyspiel.load_game(bo.short_name(name, variant), {"players": players})
        assert game.num_players() == players
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_a_playthrough_replays_as_openspiels_playthrough_tests_do(name, variant, tmp_path):
    from absl import flags
    from open_spiel.python.algorithms import generate_playthrough

    if not flags.FLAGS.is_parsed():
        flags.FLAGS(["pytest"])
    text = generate_playthrough.playthrough(bo.short_name(name, variant), None, seed=3)
    path = tmp_path / "playthrough.txt"
    path.write_text(text)
    original, regenerated = generate_playthrough.replay(str(path))
    assert original == regenerated
    assert "InformationStateTensor(0)" in text and "Returns() = " in text


def test_rule_options_are_game_parameters():
    typed = pyspiel.load_game("bailab_tienlen_south(cong_pay=3)")
    text = pyspiel.load_game("bailab_tienlen(rules=cong_pay:3)")
    assert json.loads(typed.table.game.rules_json())["cong_pay"] == 3
    assert typed.table.game.rules_json() == text.table.game.rules_json()
    assert bo.load("tienlen", rules={"cong_pay": 3}).table is text.table
    default = pyspiel.load_game("bailab_tienlen_south")
    assert json.loads(default.table.game.rules_json())["cong_pay"] == 2
    variant = pyspiel.load_game("bailab_tusac(variant=4sac,players=3)")
    assert variant.table.game.variant == "4sac" and variant.num_players() == 3
    with pytest.raises(ValueError, match="unknown option 'no_such_rule'"):
        pyspiel.load_game("bailab_tienlen(rules=no_such_rule:1)")


def test_games_and_states_pickle_and_serialize():
    game = pyspiel.load_game("bailab_tusac_sisepai21(players=3)")
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert str(pyspiel.load_game(str(game))) == str(game)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    for _ in range(20):
        state.apply_action(state.legal_actions()[-1])
    for copy in (pickle.loads(pickle.dumps(state)), game.deserialize_state(state.serialize()), state.clone()):
        assert copy.history() == state.history() and str(copy) == str(state)
        assert copy.information_state_string(1) == state.information_state_string(1)


def test_the_deck_is_drawn_card_by_card_with_exact_probabilities():
    game = pyspiel.load_game("bailab_tusac_classic")
    state = game.new_initial_state()
    table = game.table
    cards, _ = deck_of(table.game, 9, 0)
    left = dict(zip(table.kinds, table.copies))
    for drawn, card in enumerate(cards):
        outcomes = dict(state.chance_outcomes())
        assert isclose(sum(outcomes.values()), 1.0)
        k = table.kinds.index(card)
        assert isclose(outcomes[k], left[card] / (len(cards) - drawn))
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, k) == f"draw {card}"
        left[card] -= 1
        state.apply_action(k)
    assert state.current_player() == table.game.deal(9, 0).current_seat


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_evaluate_bots_from_a_deck_is_bailab_play_deck(name, variant):
    game = pyspiel.load_game(bo.short_name(name, variant))
    for index in range(2):
        cards, setup = deck_of(game.table.game, 2026, index)
        state = game.new_initial_state()
        draw(state, cards)
        bots = [bo.BailabBot("greedy"), bo.BailabBot(lambda view, seed: 0)] * 2
        returns = evaluate_bots.evaluate_bots(state, bots, np.random.default_rng(0))
        played = json.loads(state.bailab_state.record_json())
        record = json.loads(cli("play", "--game", name, "--variant", variant, "--deck", " ".join(cards),
                                "--agent", "greedy", "--agent", "first", "--json"))
        assert played["events"] == record["events"]
        assert returns == [float(p) for p in record["outcome"]["payouts"]]
        assert state.is_terminal() and sum(returns) == 0


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_a_seat_sees_only_its_view(name, variant):
    game = pyspiel.load_game(bo.short_name(name, variant))
    infostate = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    checked = 0
    while not state.is_terminal() and checked < 30:
        seat = state.current_player()
        sampler = lambda: float(rng.random())  # noqa: E731
        sample = state.resample_from_infostate(seat, sampler)
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.observation_string(seat) == state.observation_string(seat)
        assert sample.legal_actions() == state.legal_actions()
        for obs in (infostate, observation):
            obs.set_from(state, seat)
            assert np.array_equal(obs.tensor, state.view(seat).tensor())
            mine = obs.tensor.copy()
            obs.set_from(sample, seat)
            assert np.array_equal(obs.tensor, mine)
        assert np.array_equal(state.information_state_tensor(seat), state.view(seat).tensor())
        state.apply_action(int(rng.choice(state.legal_actions())))
        checked += 1
    assert checked > 0


def test_resampling_hides_the_other_hands_in_tienlen():
    game = pyspiel.load_game("bailab_tienlen")
    state = game.new_initial_state()
    cards, _ = deck_of(game.table.game, 4, 0)
    draw(state, cards)
    seat = state.current_player()
    other = (seat + 1) % 4
    samples = [state.resample_from_infostate(seat, lambda: x) for x in (0.1, 0.5, 0.9)]
    hands = {json.dumps(s.view(other).observation()["hand"]) for s in samples}
    assert len(hands) > 1
    with pytest.raises(pyspiel.SpielError, match="resampled"):
        samples[0].serialize()


def test_openspiel_ismcts_plays_a_game():
    game = pyspiel.load_game("bailab_tienlen(players=2)")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 20, random_state=np.random.RandomState(1)),
            bo.BailabBot("ismcts:iters=20")]
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    while not state.is_terminal():  # ISMCTSBot has no restart_at, which evaluate_bots calls
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    assert sum(state.returns()) == 0 and any(state.returns())


def test_a_deck_the_variant_redeals_is_drawn_again():
    game = pyspiel.load_game("bailab_tusac_sisepai21")
    table = game.table
    deck = [k for k, c in zip(table.kinds, table.copies) for _ in range(c)]
    rng = np.random.default_rng(0)
    dead = live = None
    while dead is None or live is None:
        rng.shuffle(deck)
        try:
            table.game.deal_from_deck(" ".join(deck))
            live = live or list(deck)
        except ValueError as error:
            assert "redeal check" in str(error)
            dead = dead or list(deck)
    state = game.new_initial_state()
    for card in dead:
        state.apply_action(table.kinds.index(card))
    assert state.is_chance_node() and len(state.chance_outcomes()) == len(table.kinds)
    draw(state, live, reshuffle_seed=7)
    while not state.is_terminal():
        state.apply_action(0)
    record = json.loads(state.bailab_state.record_json())
    assert record["setup"] == {"reshuffle_seed": 7, "redeals": 1}
    assert record["deck"].split() == live
    copy = game.deserialize_state(state.serialize())
    assert copy.returns() == state.returns() and copy.history() == state.history()


def run_learning_example(algo):
    """Runs examples/openspiel_learn.py briefly; returns its output."""
    import subprocess
    import sys

    from conftest import REPO

    out = subprocess.run([sys.executable, str(REPO / "examples" / "openspiel_learn.py"), "--algo", algo,
                          "--minutes", "0.05", "--eval-deals", "20"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_tabular_learning_example_trains_and_is_evaluated_by_bailab_run():
    out = run_learning_example("qlearning")
    assert "training games of Tiến Lên" in out
    assert "bailab.run, 80 games: learned mean payout" in out and "paired difference learned − random" in out


def test_the_policy_gradient_learning_example_trains_where_pytorch_is():
    pytest.importorskip("torch")
    out = run_learning_example("a2c")
    assert "bailab.run, 80 games: learned mean payout" in out
