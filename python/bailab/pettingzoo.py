"""bailab's games as PettingZoo AEC environments (https://pettingzoo.farama.org).

    import bailab.pettingzoo

    env = bailab.pettingzoo.env("tienlen", players=4)
    env.reset(seed=7)                       # deal 0 of master seed 7, as game.deal(7, 0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:                               # any legal index: obs["action_mask"] marks them
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are `player_0` … `player_{n-1}` (the seats); the agent to act is the seat the rules
give the move to, so turns need not go round in order. Each observation is a dict: the seat's
view tensor (`observation`, float32, `game.tensor_size`) and its legal-action mask
(`action_mask`, int8, `game.max_actions`: 1 for the indices of `State.legal_actions()` when the
seat is to act, else all 0). An action is an index into the legal actions. The rewards are the
payouts, given when the game ends.

`reset(seed=s)` deals deal 0 of master seed `s`; each later `reset()` deals the next index of
the same seed. A deal whose game the rules end at the deal (an instant win) is skipped: the
environment deals the next index, and `infos[agent]["skipped"]` counts the deals skipped.
`infos[agent]["deal"]` is the deal played.

Needs `pettingzoo` and `gymnasium`: `python3 -m pip install 'pettingzoo>=1.24' 'gymnasium>=0.28'`.
"""

import random

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # pragma: no cover - exercised by a test that hides the module
    raise ImportError(
        "bailab.pettingzoo needs PettingZoo and Gymnasium: install them with "
        "`python3 -m pip install 'pettingzoo>=1.24' 'gymnasium>=0.28'` "
        "(or `python3 -m pip install ./python[pettingzoo]` from a bailab clone)"
    ) from error

import numpy as np

from ._bailab import Game

__all__ = ["BailabEnv", "env", "raw_env"]


class BailabEnv(AECEnv):
    """One game of bailab as a PettingZoo AEC environment: every seat an agent."""

    metadata = {"render_modes": ["ansi"], "name": "bailab_v0", "is_parallelizable": False}

    def __init__(self, game, seed=None, render_mode=None):
        """An environment dealing `game` (a `bailab.Game`) from master seed `seed` (None: a
        random one, drawn at the first reset without a seed)."""
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.game = game
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"bailab_{game.name}_{game.variant}_v0")
        self.possible_agents = [f"player_{s}" for s in range(game.players)]
        observation = gymnasium.spaces.Box(-np.inf, np.inf, (game.tensor_size,), np.float32)
        mask = gymnasium.spaces.Box(0, 1, (game.max_actions,), np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": observation, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(game.max_actions) for a in self.possible_agents}
        self._seed = seed
        self._next_index = 0
        self.game_state = None
        self.deal_index = None

    def observation_space(self, agent):
        """The observation space of `agent`: `observation` (Box float32) and `action_mask`."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The action space of `agent`: `Discrete(game.max_actions)`, indices of legal actions."""
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Deals deal 0 of master seed `seed` if given, else the seed's next deal index."""
        if seed is not None:
            self._seed, self._next_index = seed, 0
            for space in self.action_spaces.values():
                space.seed(seed)
        elif self._seed is None:
            self._seed = random.SystemRandom().getrandbits(63)
        skipped = 0
        while True:
            self.deal_index = self._next_index
            self._next_index += 1
            self.game_state = self.game.deal(self._seed, self.deal_index)
            if not self.game_state.is_terminal:
                break
            skipped += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"deal": self.deal_index, "skipped": skipped} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_seat]

    def observe(self, agent):
        """The view of `agent`'s seat as a tensor, and its legal-action mask."""
        seat = self.possible_agents.index(agent)
        view = self.game_state.view(seat)
        mask = np.zeros(self.game.max_actions, dtype=np.int8)
        mask[: len(view.legal_actions())] = 1
        return {"observation": view.tensor(), "action_mask": mask}

    def step(self, action):
        """Applies the legal action of index `action` for the agent to act (None once it is
        terminated); an index out of range raises IndexError."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game_state.apply(int(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.game_state.is_terminal:
            for a, payout in zip(self.possible_agents, self.game_state.payouts()):
                self.rewards[a] = float(payout)
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self.game_state.current_seat]
        self._accumulate_rewards()

    def render(self):
        """With `render_mode="ansi"`: the text (Gymnasium's `ansi` mode returns it; print it) of
        the agent to act's observation and legal actions (index and notation), or of the
        payouts once the game is over."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: call env(..., render_mode='ansi')")
            return None
        state = self.game_state
        lines = [f"{self.game!r}, seed {self._seed}, deal {self.deal_index}"]
        if state.is_terminal:
            lines.append(f"game over: payouts {state.payouts()}")
            return "\n".join(lines)
        seat = state.current_seat
        lines.append(f"player_{seat} to act; observation: {state.view(seat).observation()}")
        lines += [f"  {a.index:3d}  {a}" for a in state.legal_actions()]
        return "\n".join(lines)

    def close(self):
        """Nothing to release."""


def raw_env(game_name, variant=None, players=4, rules=None, seed=None, render_mode=None):
    """The environment of a game built as `bailab.Game(game_name, variant, players, rules)`,
    without PettingZoo's wrappers."""
    return BailabEnv(Game(game_name, variant=variant, players=players, rules=rules), seed, render_mode)


def env(game_name, variant=None, players=4, rules=None, seed=None, render_mode=None):
    """The AEC environment of a game built as `bailab.Game(game_name, variant, players,
    rules)`, dealing from master seed `seed`, wrapped in PettingZoo's order enforcement."""
    return wrappers.OrderEnforcingWrapper(raw_env(game_name, variant, players, rules, seed, render_mode))
