"""bailab's games as Gymnasium environments (https://gymnasium.farama.org): one learning seat
against opponents, for single-agent RL libraries (Stable-Baselines3, sb3-contrib's
`MaskablePPO`, CleanRL, Tianshou).

    import bailab.gymnasium

    env = bailab.gymnasium.env("tienlen", opponents=["greedy"])   # seat 0 learns
    obs, info = env.reset(seed=7)             # deal 0 of master seed 7, as game.deal(7, 0)
    while True:
        action = int(env.action_masks().argmax())   # any index the mask marks
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break

- `BailabEnv` (`env(...)`): one game at a time, stepped from Python. The opponents are agent
  specs (`"greedy"`, `"ismcts:iters=200"`: built-in agents, called through `bailab.Agent`),
  `bailab.Agent`s or Python callables `f(view, seed)` returning an index, given to the other
  seats in seat order, cycled. `action_masks()` is the learning seat's legal-action mask, as
  sb3-contrib's `MaskablePPO` reads it (and `info["action_mask"]` the same).
- `BailabVectorEnv` (`vector_env(...)`): a `gymnasium.vector.VectorEnv` over `bailab.VecEnv`,
  the batch stepped in Rust (opponents: built-in specs only); the masks are in
  `info["action_mask"]`, the Gymnasium convention for vector environments.

Importing the module also registers every game and variant with Gymnasium:
`gymnasium.make("bailab/tienlen-south-v0", opponents=["greedy"])` builds the `env(...)` of that
game and variant (any other keyword of `env` passes through).

Observations are the learning seat's `view.tensor()` (float32, `game.tensor_size`); an action is
an index into the seat's legal actions (`Discrete(game.max_actions)`); the reward is the seat's
payout when the game ends, 0 before. An index past the legal ones (a sampler that ignores the
mask) plays legal action `index % len(legal)` and sets `info["illegal"]`: the environment never
raises on a sample of its action space.

Needs Gymnasium 1.0 or later: `python3 -m pip install 'gymnasium>=1.0'` (or
`python3 -m pip install ./python[gymnasium]` from a bailab clone).
"""

import random

try:
    import gymnasium
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError as error:  # pragma: no cover - exercised by a test that hides the module
    raise ImportError(
        "bailab.gymnasium needs Gymnasium 1.0 or later: install it with "
        "`python3 -m pip install 'gymnasium>=1.0'` "
        "(or `python3 -m pip install ./python[gymnasium]` from a bailab clone)"
    ) from error

import numpy as np

from ._bailab import Agent, Game, VecEnv, games

__all__ = ["BailabEnv", "BailabVectorEnv", "env", "vector_env"]


def _policy(opponent):
    """A callable `f(view, seed) -> index` of an agent spec, a `bailab.Agent` or a callable."""
    if isinstance(opponent, str):
        return Agent(opponent)
    if callable(opponent):
        return opponent
    raise TypeError(f"opponent: an agent spec, a bailab.Agent or a callable f(view, seed), not {opponent!r}")


def _spaces(game):
    """The observation space (the view tensor) and action space (legal-action indices)."""
    observation = gymnasium.spaces.Box(-np.inf, np.inf, (game.tensor_size,), np.float32)
    return observation, gymnasium.spaces.Discrete(game.max_actions)


class BailabEnv(gymnasium.Env):
    """One seat of a bailab game as a Gymnasium environment, the other seats played by agents."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game, opponents=("random",), seat=0, seed=None, render_mode=None):
        """`game` (a `bailab.Game`): seat `seat` learns; `opponents` (specs, `bailab.Agent`s or
        callables; one alone is a list of one) play the other seats in seat order, cycled.
        Deals come from master seed `seed` (None: drawn at the first reset without a seed)."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: {render_mode!r} is not one of {self.metadata['render_modes']}")
        if not 0 <= seat < game.players:
            raise ValueError(f"seat {seat} is not at the table: the seats are 0 to {game.players - 1}")
        if isinstance(opponents, str) or callable(opponents):
            opponents = [opponents]
        policies = [_policy(o) for o in opponents]
        if not policies:
            raise ValueError("opponents: at least one agent for the other seats")
        others = [s for s in range(game.players) if s != seat]
        self.opponents = {s: policies[k % len(policies)] for k, s in enumerate(others)}
        self.game = game
        self.seat = seat
        self.render_mode = render_mode
        self.observation_space, self.action_space = _spaces(game)
        self._seed = seed
        self._next_index = 0
        self._rng = np.random.default_rng(seed)
        self.game_state = None
        self.deal_index = None

    def _play_opponents(self):
        """Lets the opponents move until the learning seat decides or the game ends."""
        state = self.game_state
        while not state.is_terminal and state.current_seat != self.seat:
            seat = state.current_seat
            view = state.view(seat)
            state.apply(int(self.opponents[seat](view, int(self._rng.integers(2**63)))))

    def action_masks(self):
        """The learning seat's legal-action mask: bool `(game.max_actions,)`, true for the
        indices of its legal actions (all false once the game is over)."""
        mask = np.zeros(self.game.max_actions, dtype=bool)
        if not self.game_state.is_terminal:
            mask[: len(self.game_state.legal_actions())] = True
        return mask

    def _observe(self, **info):
        """The learning seat's view tensor and the info dict (deal, mask, and `info`)."""
        obs = self.game_state.view(self.seat).tensor()
        return obs, dict(info, deal=self.deal_index, action_mask=self.action_masks())

    def reset(self, seed=None, options=None):
        """Deals deal 0 of master seed `seed` if given, else the seed's next deal, and lets the
        opponents play up to the learning seat's first decision. A deal that ends before it
        is skipped (`info["skipped"]` counts them, `info["skipped_reward"]` sums their payouts)."""
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._next_index = seed, 0
            self._rng = np.random.default_rng(seed)
        elif self._seed is None:
            self._seed = random.SystemRandom().getrandbits(63)
            self._rng = np.random.default_rng(self._seed)
        skipped, skipped_reward = 0, 0.0
        while True:
            self.deal_index = self._next_index
            self._next_index += 1
            self.game_state = self.game.deal(self._seed, self.deal_index)
            self._play_opponents()
            if not self.game_state.is_terminal:
                return self._observe(skipped=skipped, skipped_reward=skipped_reward)
            skipped += 1
            skipped_reward += float(self.game_state.payouts()[self.seat])

    def step(self, action):
        """Applies the learning seat's legal action of index `action` (past the legal ones:
        `action % len(legal)`, with `info["illegal"]`), then the opponents' moves."""
        if self.game_state is None or self.game_state.is_terminal:
            raise RuntimeError("step() after the game ended: call reset()")
        legal = len(self.game_state.legal_actions())
        index = int(action)
        illegal = not 0 <= index < legal
        self.game_state.apply(index % legal)
        self._play_opponents()
        terminated = self.game_state.is_terminal
        reward = float(self.game_state.payouts()[self.seat]) if terminated else 0.0
        obs, info = self._observe(illegal=illegal)
        return obs, reward, terminated, False, info

    def render(self):
        """With `render_mode="ansi"`: the text of the learning seat's observation and legal
        actions (index and notation), or the payouts once the game is over."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the env with render_mode='ansi'")
            return None
        state = self.game_state
        lines = [f"{self.game!r}, seed {self._seed}, deal {self.deal_index}, seat {self.seat} learns"]
        if state.is_terminal:
            lines.append(f"game over: payouts {state.payouts()}")
            return "\n".join(lines)
        lines.append(f"observation: {state.view(self.seat).observation()}")
        lines += [f"  {a.index:3d}  {a}" for a in state.legal_actions()]
        return "\n".join(lines)


class BailabVectorEnv(VectorEnv):
    """A `gymnasium.vector.VectorEnv` over `bailab.VecEnv`: the environments stepped in Rust.

    Autoreset is Gymnasium's `SAME_STEP` mode: when a game ends, `terminations[i]` is true,
    `rewards[i]` is the payout and `obs[i]` is already the next deal's first decision (no
    terminal observation is kept: a terminated game needs no bootstrap). `info` holds, per
    environment, `action_mask` (bool `(num_envs, max_actions)`), `deal`, `finished_deal`,
    `skipped` and `skipped_reward` as `VecEnv.step` gives them, each with its `_key` mask."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, game, num_envs, seed=0, opponents=("random",), seat=0, threads=None):
        """`bailab.VecEnv(game, num_envs, seed, opponents, seat, threads)` as a VectorEnv."""
        opponents = [opponents] if isinstance(opponents, str) else list(opponents)
        self.vec_env = VecEnv(game, num_envs, seed, opponents=opponents, seat=seat, threads=threads)
        self.game = game
        self.num_envs = num_envs
        self.single_observation_space, self.single_action_space = _spaces(game)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.spaces.MultiDiscrete(np.full(num_envs, game.max_actions))
        self._mask = None

    def _info(self, mask, info=None):
        """The vector info dict: the mask and `VecEnv`'s per-environment entries."""
        out = {"action_mask": mask}
        for key in ("deal", "finished_deal", "skipped", "skipped_reward"):
            if info is not None and key in info:
                out[key] = info[key]
        for key in list(out):
            out["_" + key] = np.ones(self.num_envs, dtype=bool)
        return out

    def action_masks(self):
        """The masks of the last step or reset: bool `(num_envs, max_actions)`."""
        return self._mask

    def reset(self, seed=None, options=None):
        """Every environment at its learning seat's first decision (`VecEnv.reset`)."""
        if seed is not None:
            self.action_space.seed(seed)
        obs, mask = self.vec_env.reset(seed=seed)
        self._mask = mask
        return obs, self._info(mask)

    def step(self, actions):
        """`VecEnv.step(actions)` as `(obs, rewards, terminations, truncations, info)`."""
        obs, mask, rewards, dones, info = self.vec_env.step(np.asarray(actions, dtype=np.int64))
        self._mask = mask
        truncations = np.zeros(self.num_envs, dtype=bool)
        return obs, rewards, dones, truncations, self._info(mask, info)

    def close_extras(self, **kwargs):
        """Nothing to release."""


def env(game_name, variant=None, players=4, rules=None, opponents=("random",), seat=0, seed=None,
        render_mode=None):
    """The environment of seat `seat` in `bailab.Game(game_name, variant, players, rules)`."""
    game = Game(game_name, variant=variant, players=players, rules=rules)
    return BailabEnv(game, opponents=opponents, seat=seat, seed=seed, render_mode=render_mode)


def vector_env(game_name, num_envs, variant=None, players=4, rules=None, opponents=("random",), seat=0,
               seed=0, threads=None):
    """The vector environment of `num_envs` games of `bailab.Game(game_name, variant, players,
    rules)` (opponents: built-in specs)."""
    game = Game(game_name, variant=variant, players=players, rules=rules)
    return BailabVectorEnv(game, num_envs, seed=seed, opponents=opponents, seat=seat, threads=threads)


for _game in games():
    for _variant in _game["variants"]:
        gymnasium.register(
            id=f"bailab/{_game['name']}-{_variant}-v0",
            entry_point="bailab.gymnasium:env",
            kwargs={"game_name": _game["name"], "variant": _variant},
            disable_env_checker=True,
        )
