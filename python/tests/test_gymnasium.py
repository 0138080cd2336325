"""The Gymnasium environments: the single-seat env passes Gymnasium's `check_env` in every game
and variant and plays the games `State` plays; the vector env is `VecEnv`, step for step."""

import warnings

import numpy as np
import pytest

import bailab

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import bailab.gymnasium as bg  # noqa: E402

VARIANTS = [(g["name"], v) for g in bailab.games() for v in g["variants"]]


def first(view, seed):
    """A Python opponent: the first legal action."""
    return 0


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_check_env_passes(name, variant):
    env = bg.env(name, variant=variant, opponents=["greedy", first], seat=1, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice on unbounded boxes, not failures
        check_env(env, skip_render_check=False)


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_every_variant_is_registered_with_gymnasium(name, variant):
    env = gymnasium.make(f"bailab/{name}-{variant}-v0", opponents=["random"], players=3, render_mode="ansi")
    assert env.unwrapped.game.name == name and env.unwrapped.game.variant == variant
    assert env.unwrapped.game.players == 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    obs, _ = env.reset(seed=2)
    assert obs.shape == (env.unwrapped.game.tensor_size,) and "learns" in env.render()


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_a_game_is_the_deal_of_the_seed_and_pays_the_payout(name, variant):
    game = bailab.Game(name, variant=variant)
    env = bg.BailabEnv(game, opponents=first, seat=2)
    obs, info = env.reset(seed=11)
    index = info["deal"]
    assert index == info["skipped"]
    state = game.deal(11, index)
    rewards, steps = [], 0
    terminated = False
    while not terminated:
        while state.current_seat != 2:
            state.apply(0)
        assert np.array_equal(obs, state.view(2).tensor())
        legal = state.legal_actions()
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (game.max_actions,)
        assert mask.sum() == len(legal) and mask[: len(legal)].all()
        assert np.array_equal(info["action_mask"], mask)
        choice = steps % len(legal)
        state.apply(choice)
        obs, reward, terminated, truncated, info = env.step(choice)
        assert not truncated and not info["illegal"]
        rewards.append(reward)
        steps += 1
        while not state.is_terminal and state.current_seat != 2:
            state.apply(0)
        assert terminated == state.is_terminal
    assert state.is_terminal
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == float(state.payouts()[2])
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_an_index_past_the_legal_ones_plays_it_modulo_and_says_so():
    env = bg.env("tienlen", opponents="greedy")
    env.reset(seed=4)
    legal = int(env.action_masks().sum())
    twin = bg.env("tienlen", opponents="greedy")
    twin.reset(seed=4)
    obs, _, _, _, info = env.step(legal + 1)
    obs_twin, _, _, _, info_twin = twin.step(1 % legal)
    assert info["illegal"] and not info_twin["illegal"]
    assert np.array_equal(obs, obs_twin)


def test_resets_take_the_next_deal_and_opponents_are_reproducible():
    def play(env, seed):
        obs, info = env.reset(seed=seed)
        seen = [info["deal"]]
        for _ in range(3):
            done = False
            while not done:
                _, _, done, _, _ = env.step(0)
            obs, info = env.reset()
            seen.append(info["deal"])
        return seen, obs

    one = play(bg.env("tusac", variant="classic", opponents=["random"]), 5)
    two = play(bg.env("tusac", variant="classic", opponents=["random"]), 5)
    assert one[0] == sorted(set(one[0])) and one[0][0] == 0
    assert one[0] == two[0] and np.array_equal(one[1], two[1])


def test_bad_opponents_and_seats_are_refused():
    game = bailab.Game("chan")
    with pytest.raises(ValueError, match="seat"):
        bg.BailabEnv(game, seat=4)
    with pytest.raises(ValueError):
        bg.BailabEnv(game, opponents=["no-such-agent"])
    with pytest.raises(TypeError, match="opponent"):
        bg.BailabEnv(game, opponents=[3])


@pytest.mark.parametrize("name,variant", [("tienlen", "south"), ("tusac", "classic"), ("chan", "standard")])
def test_the_vector_env_is_vecenv_step_for_step(name, variant):
    game = bailab.Game(name, variant=variant)
    vector = bg.BailabVectorEnv(game, 8, seed=3, opponents=["greedy", "random"], seat=1, threads=2)
    plain = bailab.VecEnv(game, 8, 3, opponents=["greedy", "random"], seat=1, threads=1)
    assert isinstance(vector, gymnasium.vector.VectorEnv)
    obs, info = vector.reset()
    obs_p, mask_p = plain.reset()
    assert np.array_equal(obs, obs_p) and np.array_equal(info["action_mask"], mask_p)
    assert vector.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        mask = info["action_mask"]
        actions = np.where(mask, rng.random(mask.shape), -1).argmax(axis=1)
        assert vector.action_space.contains(actions)
        obs, rewards, terminations, truncations, info = vector.step(actions)
        obs_p, mask_p, rewards_p, dones_p, info_p = plain.step(actions)
        assert np.array_equal(obs, obs_p) and np.array_equal(info["action_mask"], mask_p)
        assert np.array_equal(rewards, rewards_p) and np.array_equal(terminations, dones_p)
        assert not truncations.any()
        for key in ("deal", "finished_deal", "skipped", "skipped_reward"):
            assert np.array_equal(info[key], info_p[key]) and info["_" + key].all()
        assert np.array_equal(vector.action_masks(), mask_p)
        finished += int(terminations.sum())
    assert finished > 0
    vector.close()


def test_the_maskable_ppo_example_trains_where_sb3_contrib_is():
    pytest.importorskip("sb3_contrib")
    import subprocess
    import sys

    from conftest import REPO

    out = subprocess.run([sys.executable, str(REPO / "examples" / "gymnasium_maskable_ppo.py"), "--steps", "600",
                          "--eval-deals", "10"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "bailab.run, 40 games: paired difference ppo − random" in out.stdout
