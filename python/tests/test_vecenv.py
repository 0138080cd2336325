"""`bailab.VecEnv`: the shapes and dtypes it promises, games that depend on the seed only (not
on the threads), and every environment equal to the same games played from Python with
`game.deal(seed, index)`: the deals `i, i + n, …`, the learning seat's views, masks and
rewards, and the deals the opponents end before the learning seat decides."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import bailab
import bailab.net

REPO = Path(__file__).resolve().parents[2]
VARIANTS = [(g["name"], v) for g in bailab.games() for v in g["variants"]]


def bailab_play(*args):
    """The record `bailab play --json` prints (the binary `cargo build --release` built)."""
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    path = Path(os.environ.get("BAILAB_BIN", target / "release" / "bailab"))
    assert path.exists(), f"{path} not found: run `cargo build --release` first"
    out = subprocess.run([str(path), "play", *args, "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def uniform(mask, rng):
    """One uniformly random legal index per env (a numpy policy over the mask)."""
    u = rng.random(mask.shape) * mask
    return u.argmax(axis=1)


def run(env, steps, policy_seed=0):
    """Resets `env` and steps it `steps` times with a seeded uniform policy; every array seen."""
    rng = np.random.default_rng(policy_seed)
    obs, mask = env.reset()
    seen = [obs, mask]
    for _ in range(steps):
        obs, mask, rewards, dones, info = env.step(uniform(mask, rng))
        seen += [obs, mask, rewards, dones, info["deal"], info["skipped"], info["skipped_reward"]]
    return seen


class Shadow:
    """Environment `i` of `n`, with `first` opponents, played from Python: deals i, i + n, …,
    every seat but the learning seat taking the first legal action."""

    def __init__(self, game, seed, i, n, seat):
        self.game, self.seed, self.n, self.seat = game, seed, n, seat
        self.deal = i
        self.skipped, self.skipped_reward = 0, 0.0
        self.state = game.deal(seed, i)
        self.settle()

    def opponents(self):
        """Plays the other seats' first actions up to the learning seat's turn or the end."""
        while not self.state.is_terminal and self.state.current_seat != self.seat:
            self.state.apply(0)

    def next_deal(self):
        """Deals this environment's next deal."""
        self.deal += self.n
        self.state = self.game.deal(self.seed, self.deal)

    def settle(self):
        """Brings the learning seat to a decision, skipping the deals that end before it."""
        self.opponents()
        while self.state.is_terminal:
            self.skipped += 1
            self.skipped_reward += self.state.payouts()[self.seat]
            self.next_deal()
            self.opponents()

    def step(self, action):
        """Applies the learning seat's action; returns (reward, done, finished deal)."""
        self.skipped, self.skipped_reward = 0, 0.0
        self.state.apply(action)
        self.opponents()
        reward, done, finished = 0.0, False, -1
        if self.state.is_terminal:
            reward, done, finished = float(self.state.payouts()[self.seat]), True, self.deal
            self.next_deal()
        self.settle()
        return reward, done, finished

    def check(self, obs, mask):
        """Asserts that a row of obs and mask is the learning seat's view tensor and legal list."""
        view = self.state.view(self.seat)
        legal = view.legal_actions()
        assert view.to_move
        assert mask.sum() == len(legal) and mask[: len(legal)].all()
        assert np.array_equal(obs, view.tensor())


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_shapes_and_dtypes(name, variant):
    game = bailab.Game(name, variant=variant)
    env = bailab.VecEnv(game, 5, 1, threads=1)
    n, t, m = 5, game.tensor_size, game.max_actions
    assert (env.num_envs, env.tensor_size, env.max_actions) == (n, t, m)
    obs, mask = env.reset()
    assert obs.shape == (n, t) and obs.dtype == np.float32
    assert mask.shape == (n, m) and mask.dtype == np.bool_
    assert (mask.sum(axis=1) >= 1).all()
    obs, mask, rewards, dones, info = env.step(np.zeros(n, dtype=np.int64))
    assert obs.shape == (n, t) and obs.dtype == np.float32
    assert mask.shape == (n, m) and mask.dtype == np.bool_
    assert rewards.shape == (n,) and rewards.dtype == np.float32
    assert dones.shape == (n,) and dones.dtype == np.bool_
    assert info["deal"].shape == (n,) and info["deal"].dtype == np.int64
    assert isinstance(info["games_finished"], int)
    features = env.action_features()
    assert features.shape == (n, m, game.action_size) and features.dtype == np.float32
    assert not features[~mask].any(), "zeros beyond the legal actions"


@pytest.mark.parametrize("name", ["tusac", "chan", "tienlen"])
def test_the_same_seed_gives_the_same_arrays(name):
    game = bailab.Game(name)
    a = run(bailab.VecEnv(game, 6, 11, threads=1), 60)
    b = run(bailab.VecEnv(game, 6, 11, threads=1), 60)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    c = run(bailab.VecEnv(game, 6, 12, threads=1), 60)
    assert not all(np.array_equal(x, y) for x, y in zip(a, c)), "another seed, other games"


@pytest.mark.parametrize("name", ["tusac", "chan", "tienlen"])
def test_one_thread_and_two_threads_give_the_same_arrays(name):
    game = bailab.Game(name)
    opponents = ["random", "greedy"]
    one = run(bailab.VecEnv(game, 33, 5, opponents=opponents, threads=1), 80)
    two = run(bailab.VecEnv(game, 33, 5, opponents=opponents, threads=2), 80)
    assert all(np.array_equal(x, y) for x, y in zip(one, two))


def test_reset_with_a_seed_starts_that_seed_again():
    game = bailab.Game("chan")
    env = bailab.VecEnv(game, 4, 1, threads=1)
    run(env, 30)
    env.reset(seed=8)
    assert env.seed == 8
    again = bailab.VecEnv(game, 4, 8, threads=1)
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    _, mask_a = env.reset(seed=8)
    _, mask_b = again.reset()
    for _ in range(30):
        *a, info_a = env.step(uniform(mask_a, rng_a))
        *b, info_b = again.step(uniform(mask_b, rng_b))
        assert all(np.array_equal(x, y) for x, y in zip(a, b))
        mask_a, mask_b = a[1], b[1]


@pytest.mark.parametrize("name,variant", VARIANTS)
@pytest.mark.parametrize("seat", [0, 2])
def test_the_first_game_equals_the_deal_played_with_first_actions(name, variant, seat):
    game = bailab.Game(name, variant=variant)
    seed = 2026
    state = game.deal(seed, 0)
    decided = False
    while not state.is_terminal:
        decided |= state.current_seat == seat
        state.apply(0)
    assert decided, "the learning seat decides in this deal"
    env = bailab.VecEnv(game, 3, seed, opponents=["first"], seat=seat, threads=1)
    env.reset()
    for _ in range(10_000):
        _, _, rewards, dones, info = env.step([0, 0, 0])
        if dones[0]:
            break
    assert dones[0] and info["finished_deal"][0] == 0
    assert rewards[0] == state.payouts()[seat]


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_random_and_greedy_opponents_play_as_bailab_play(name, variant):
    """The opponents draw from the runner's RNGs: with the learning seat taking the first
    action, deal 0 is the game `bailab play` plays with `first` at that seat."""
    seed, seat = 5, 1
    agents = ["random", "first", "greedy", "random"]
    record = bailab_play("--game", name, "--variant", variant, "--seed", str(seed),
                         *[x for a in agents for x in ("--agent", a)])
    decisions = [e["legal"] for e in record["events"] if e["seat"] == seat and not e["forced"]]
    assert len(decisions) > 1
    game = bailab.Game(name, variant=variant)
    env = bailab.VecEnv(game, 2, seed, opponents=["random", "greedy"], seat=seat, threads=1)
    _, mask = env.reset()
    seen = []
    for _ in decisions:
        seen.append(int(mask[0].sum()))
        _, mask, rewards, dones, info = env.step([0, 0])
    assert seen == decisions
    assert dones[0] and info["finished_deal"][0] == 0
    assert rewards[0] == record["outcome"]["payouts"][seat]


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_every_env_equals_its_deals_played_from_python(name, variant):
    game = bailab.Game(name, variant=variant)
    n, seed, seat = 3, 1, 1
    env = bailab.VecEnv(game, n, seed, opponents="first", seat=seat, threads=2)
    shadows = [Shadow(game, seed, i, n, seat) for i in range(n)]
    obs, mask = env.reset()
    for i, s in enumerate(shadows):
        s.check(obs[i], mask[i])
    for k in range(150):
        actions = [(k + i) % int(mask[i].sum()) for i in range(n)]
        features, inputs = env.action_features(), env.net_inputs()
        for i, s in enumerate(shadows):
            legal, view = mask[i].sum(), s.state.view(seat)
            assert np.array_equal(features[i, :legal], view.action_features())
            assert not features[i, legal:].any() and not inputs[i, legal:].any()
            assert np.allclose(inputs[i, :legal], bailab.net.action_inputs(view), atol=1e-6)
        skipped_before = [s.skipped for s in shadows]
        obs, mask, rewards, dones, info = env.step(actions)
        for i, s in enumerate(shadows):
            reward, done, finished = s.step(actions[i])
            assert (rewards[i], dones[i], info["finished_deal"][i]) == (reward, done, finished)
            assert info["deal"][i] == s.deal
            assert info["skipped"][i] == s.skipped + (skipped_before[i] if k == 0 else 0)
            s.check(obs[i], mask[i])


def test_deals_the_opponents_end_are_skipped_and_counted():
    game = bailab.Game("tienlen")
    seed, seat = 1, 0
    ended = []
    for i in range(60):
        state = game.deal(seed, i)
        while not state.is_terminal and state.current_seat != seat:
            state.apply(0)
        if state.is_terminal:
            ended.append((i, state.payouts()[seat]))
    assert ended, "seed 1 has deals over before seat 0 decides"
    env = bailab.VecEnv(game, 1, seed, opponents=["first"], seat=seat, threads=1)
    env.reset()
    skipped, skipped_reward, deals = 0, 0.0, set()
    while env.games_finished < 60:
        _, _, _, dones, info = env.step([0])
        skipped += int(info["skipped"][0])
        skipped_reward += float(info["skipped_reward"][0])
        if dones[0]:
            deals.add(int(info["finished_deal"][0]))
    assert env.games_skipped == skipped == len(ended)
    assert skipped_reward == sum(p for _, p in ended)
    assert not deals & {i for i, _ in ended}
    assert info["games_finished"] == env.games_finished


def test_action_features_into_a_given_array():
    game = bailab.Game("tusac")
    env = bailab.VecEnv(game, 4, 3, threads=1)
    env.reset()
    out = np.full((4, game.max_actions, game.action_size), 7.0, dtype=np.float32)
    assert env.action_features(out=out) is out
    assert np.array_equal(out, env.action_features())
    with pytest.raises(ValueError, match="shape"):
        env.action_features(out=np.zeros((3, game.max_actions, game.action_size), np.float32))
    out.flags.writeable = False
    with pytest.raises(ValueError, match="out"):
        env.action_features(out=out)


def test_net_inputs_into_a_given_array():
    game = bailab.Game("chan")
    env = bailab.VecEnv(game, 3, 5, threads=1)
    env.reset()
    width = game.action_size + len(game.feature_names())
    assert env.net_input_size == width == bailab.net.input_sizes(game)[1]
    out = np.full((3, game.max_actions, width), 7.0, dtype=np.float32)
    assert env.net_inputs(out=out) is out
    assert np.array_equal(out, env.net_inputs())
    assert np.array_equal(out[:, :, : game.action_size], env.action_features())
    with pytest.raises(ValueError, match="shape"):
        env.net_inputs(out=np.zeros((3, game.max_actions, game.action_size), np.float32))


def test_an_index_out_of_range_names_the_env_and_moves_nothing():
    game = bailab.Game("tusac")
    env = bailab.VecEnv(game, 4, 3, threads=1)
    obs, mask = env.reset()
    bad = np.zeros(4, dtype=np.int64)
    bad[2] = mask[2].sum()
    with pytest.raises(IndexError, match=f"env 2: action index {bad[2]} out of range"):
        env.step(bad)
    with pytest.raises(IndexError, match="env 1: action index -1"):
        env.step([0, -1, 0, 0])
    fresh = bailab.VecEnv(game, 4, 3, threads=1)
    fresh.reset()
    a, b = env.step([0] * 4), fresh.step([0] * 4)
    assert all(np.array_equal(x, y) for x, y in zip(a[:4], b[:4]))


@pytest.mark.parametrize(
    "kwargs,error,words",
    [
        (dict(opponents=["nobody"]), ValueError, "unknown agent 'nobody'"),
        (dict(opponents=["random", "ismcts:iters=0"]), ValueError, "iters"),
        (dict(opponents=["greedy:speed=9"]), ValueError, "no parameter 'speed'"),
        (dict(opponents=[]), ValueError, "opponents"),
        (dict(seat=4), ValueError, "seat 4"),
        (dict(threads=0), ValueError, "threads"),
        (dict(num_envs=0), ValueError, "num_envs"),
    ],
)
def test_bad_arguments_raise(kwargs, error, words):
    args = dict(num_envs=2, seed=1) | kwargs
    with pytest.raises(error, match=words):
        bailab.VecEnv(bailab.Game("chan"), **args)


def test_bad_actions_raise():
    env = bailab.VecEnv(bailab.Game("chan"), 2, 1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step([0, 0])
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step([0, 0, 0])
    with pytest.raises(TypeError, match="integers"):
        env.step([0.5, 0.0])


LOGGING_AGENT = '''
import json, os, sys
log = open(os.path.join(sys.argv[1], f"agent-{os.getpid()}.jsonl"), "a")
bad = sys.argv[2:] == ["bad"]
for line in sys.stdin:
    message = json.loads(line)
    log.write(json.dumps({k: message.get(k) for k in ("type", "seat", "payouts")}) + "\\n")
    log.flush()
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "logging", "protocol": 1}), flush=True)
    elif message["type"] == "decide":
        action = len(message["legal"]) if bad else 0
        print(json.dumps({"action": action}), flush=True)
'''


def exec_agent(tmp_path, *args):
    """The spec of an outside agent taking the first action (or an index out of range with
    `bad`) that writes every message it gets into a file of `tmp_path` per process."""
    script = tmp_path / "agent.py"
    script.write_text(LOGGING_AGENT)
    return " ".join([f"exec:{sys.executable}", str(script), str(tmp_path), *args])


@pytest.mark.parametrize("name", ["tusac", "chan", "tienlen"])
def test_an_outside_opponent_plays_as_first_and_is_told_every_game(tmp_path, name):
    game = bailab.Game(name)
    seat, n = 1, 2
    outside = bailab.VecEnv(game, n, 4, opponents=exec_agent(tmp_path), seat=seat, threads=1)
    first = bailab.VecEnv(game, n, 4, opponents="first", seat=seat, threads=1)
    a, b = run(outside, 120), run(first, 120)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    finished = outside.games_finished
    assert finished > 0
    logs = sorted(tmp_path.glob("agent-*.jsonl"))
    assert len(logs) == n, "one process per environment"
    others = [s for s in range(game.players) if s != seat]
    games = 0
    for log in logs:
        messages = [json.loads(line) for line in log.read_text().splitlines()]
        assert messages[0]["type"] == "hello"
        kinds = [m["type"] for m in messages]
        assert not any(m["seat"] == seat for m in messages[1:]), "the learning seat is not its own"
        starts = [m["seat"] for m in messages if m["type"] == "game"]
        ends = [m for m in messages if m["type"] == "end"]
        assert starts[: len(others)] == others and kinds[1 : 1 + len(others)] == ["game"] * len(others)
        assert len(starts) == len(ends) + len(others), "the next game begun when one ends"
        assert all(len(e["payouts"]) == game.players for e in ends)
        games += len(ends) // len(others)
    assert games == finished


def test_an_outside_opponent_that_fails_raises_naming_it(tmp_path):
    game = bailab.Game("chan")
    spec = exec_agent(tmp_path, "bad")
    env = bailab.VecEnv(game, 2, 4, opponents=spec, seat=0, threads=2)
    with pytest.raises(RuntimeError) as failed:
        run(env, 2000)
    message = str(failed.value)
    assert f"the outside agent `{spec}` at seat" in message, message
    assert "answered action" in message and "deal " in message, message
    with pytest.raises(RuntimeError, match="reset"):
        env.step([0, 0])
