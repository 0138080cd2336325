"""The PettingZoo environment passes PettingZoo's own API test in every game and variant, deals
as `game.deal(seed, index)` does, pays the payouts, and says how to install PettingZoo when it
is missing."""

import subprocess
import sys
import warnings

import numpy as np
import pytest

import bailab

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import bailab.pettingzoo as bz  # noqa: E402

VARIANTS = [(g["name"], v) for g in bailab.games() for v in g["variants"]]


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_pettingzoo_api_test_passes(name, variant):
    env = bz.env(name, variant=variant, seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice for dict observations, not failures
        api_test(env, num_cycles=1000)


def test_two_players_pass_the_api_test():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(bz.env("tienlen", players=2, seed=1), num_cycles=1000)


def play_first(env):
    """Plays the whole game with the first legal action; returns the rewards `last` gave."""
    rewards = {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            rewards[agent] = reward
            env.step(None)
        else:
            assert obs["action_mask"][0] == 1
            env.step(0)
    return rewards


def test_a_game_is_the_deal_of_the_seed_and_pays_the_payouts():
    game = bailab.Game("tusac", variant="classic")
    env = bz.env("tusac", variant="classic")
    env.reset(seed=2026)
    state = game.deal(2026, 0)
    first = env.unwrapped.agent_selection
    assert first == f"player_{state.current_seat}"
    obs = env.observe(first)
    legal = state.legal_actions()
    assert obs["action_mask"].dtype == np.int8
    assert obs["action_mask"].sum() == len(legal) and obs["action_mask"][: len(legal)].all()
    assert np.array_equal(obs["observation"], state.view(state.current_seat).tensor())
    rewards = play_first(env)
    while not state.is_terminal:
        state.apply(0)
    assert rewards == {f"player_{s}": float(p) for s, p in enumerate(state.payouts())}
    assert sum(rewards.values()) == 0


def test_only_the_agent_to_act_has_a_mask():
    env = bz.env("chan")
    env.reset(seed=3)
    acting = env.unwrapped.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == acting)


def test_resets_take_the_next_deal_and_a_seed_starts_again():
    game = bailab.Game("tienlen")
    env = bz.env("tienlen")
    env.reset(seed=9)
    deals = [env.unwrapped.deal_index]
    for _ in range(3):
        env.reset()
        deals.append(env.unwrapped.deal_index)
    assert deals == sorted(set(deals)) and deals[0] == 0
    env.reset(seed=9)
    assert env.unwrapped.deal_index == 0
    expected = [str(a) for a in game.deal(9, 0).legal_actions()]
    assert [str(a) for a in env.unwrapped.game_state.legal_actions()] == expected


def test_deals_over_at_the_deal_are_skipped():
    game = bailab.Game("tienlen")
    live = [i for i in range(120) if not game.deal(1, i).is_terminal]
    assert len(live) < 120, "seed 1 has instant wins among its first deals"
    env = bz.env("tienlen")
    env.reset(seed=1)
    seen, skipped = [], []
    for _ in live:
        seen.append(env.unwrapped.deal_index)
        skipped.append(env.unwrapped.infos[env.unwrapped.agent_selection]["skipped"])
        assert not any(env.unwrapped.terminations.values())
        env.reset()
    assert seen == live
    assert skipped == [b - a - 1 for a, b in zip([-1] + live, live)]


def test_an_illegal_index_raises_index_error():
    env = bz.env("tusac")
    env.reset(seed=1)
    n = int(env.observe(env.unwrapped.agent_selection)["action_mask"].sum())
    with pytest.raises(IndexError, match=f"{n} legal actions"):
        env.step(n)


def test_ansi_render_shows_the_legal_actions():
    env = bz.env("tienlen", render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    state = env.unwrapped.game_state
    assert f"player_{state.current_seat} to act" in text
    for a in state.legal_actions():
        assert f"{a.index:3d}  {a}" in text


def test_without_pettingzoo_the_import_error_names_the_pip_command():
    code = (
        "import sys; sys.modules['pettingzoo'] = None\n"
        "try:\n"
        "    import bailab.pettingzoo\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "pip install" in out.stdout and "pettingzoo" in out.stdout, out.stderr

