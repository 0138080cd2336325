"""bailab's games as OpenSpiel games (https://github.com/google-deepmind/open_spiel).

    import pyspiel
    import bailab.openspiel                      # registers every game and variant

    game = pyspiel.load_game("bailab_tienlen(players=4)")
    state = game.new_initial_state()
    while state.is_chance_node():                # the deck, card by card
        cards, probs = zip(*state.chance_outcomes())
        state.apply_action(int(np.random.choice(cards, p=probs)))
    ...                                          # then the seats' decisions, as any game

Registered names: `bailab_<game>` (parameters `players`, `variant` and `rules`: rule options as
`key:value;key:value`, each value read as JSON, else as text) and `bailab_<game>_<variant>`
(parameters `players` and every scalar rule option of the variant, typed, its default the
variant's). `bailab.openspiel.load(name, variant, players, rules)` loads either from Python.

- Chance: the deck is drawn card by card (chance outcome = a kind of card, its probability the
  copies left over the cards left), then dealt as `game.deal_from_deck` deals it (the deck's
  dealing order, as `bailab play --deck`). In Tứ Sắc sisepai21 and dirtyking26 a last chance node
  draws the seed of the one reshuffle among `RESHUFFLE_SEEDS` (outcome 0 is `bailab play
  --deck`'s), and a deck those variants redeal (§1.4 step 1) is drawn again, as bailab's deal does.
- Decisions: action `k` is legal action `k` of `State.legal_actions()` (the game's canonical
  order), so `num_distinct_actions` is `game.max_actions`.
- Imperfect information: observation and information-state tensors are the seat's
  `view.tensor()`; the observation string is its `view.observation()` as JSON, the
  information-state string the same followed by the seat's own past choices. Nothing else of
  the state reaches them. `resample_from_infostate` is `view.determinize(seed)`.
- Returns: the payouts at the end, 0 before. Serialization (and pickling) replays the deck and
  the decisions; a resampled state (no deck) cannot be serialized.

Needs OpenSpiel: `python3 -m pip install open_spiel` (or `./python[openspiel]`).
"""

import json

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - exercised by a test that hides the module
    raise ImportError(
        "bailab.openspiel needs OpenSpiel: install it with `python3 -m pip install open_spiel` "
        "(or `python3 -m pip install ./python[openspiel]` from a bailab clone)"
    ) from error

import numpy as np

from ._bailab import Agent, Game, games

__all__ = ["RESHUFFLE_SEEDS", "BailabBot", "load", "short_name"]

#: The reshuffle seeds a multi-pack Tứ Sắc deal's last chance node draws from, uniformly.
RESHUFFLE_SEEDS = 1024
#: A bound on any seat's payout (OpenSpiel asks for one; bailab's payouts stay far inside it).
MAX_UTILITY = 1e6
#: A bound on the decisions of a game (OpenSpiel asks for one).
MAX_DECISIONS = 10_000


def short_name(game_name, variant=None):
    """The registered name: `bailab_<game>`, or `bailab_<game>_<variant>`."""
    return f"bailab_{game_name}" if variant is None else f"bailab_{game_name}_{variant}"


def _parse_rules(text):
    """Rule options from `key:value;key:value` (each value JSON, else text)."""
    rules = {}
    for item in filter(None, (part.strip() for part in text.split(";"))):
        key, sep, value = item.partition(":")
        if not sep:
            raise ValueError(f"rules: {item!r} is not key:value")
        try:
            rules[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            rules[key.strip()] = value.strip()
    return rules


class _Table:
    """What every state of one game shares: the bailab `Game` and its deck's composition.
    Copies and pickles of a state keep referring to it (it is rebuilt from its arguments)."""

    _cache = {}

    def __init__(self, name, variant, players, rules):
        self.key = (name, variant, players, json.dumps(rules, sort_keys=True))
        self.game = Game(name, variant=variant, players=players, rules=rules or None)
        state = self.game.deal(0, 0)
        while not state.is_terminal:
            state.apply(0)
        record = json.loads(state.record_json())
        deck = record["deck"].split()
        self.kinds = sorted(set(deck))
        self.copies = [deck.count(k) for k in self.kinds]
        self.deck_len = len(deck)
        self.reshuffles = "reshuffle_seed" in record.get("setup", {})

    @classmethod
    def get(cls, name, variant, players, rules_json):
        """The shared table of these arguments (one per process)."""
        key = (name, variant, players, rules_json)
        if key not in cls._cache:
            cls._cache[key] = cls(name, variant, players, json.loads(rules_json))
        return cls._cache[key]

    def __reduce__(self):
        return (_Table.get, self.key)

    def __deepcopy__(self, memo):
        return self


class _Deal:
    """One game's bailab side: the cards drawn, the reshuffle seed, the bailab `State` once
    dealt, and each seat's own choices. Copied by `State.clone`; pickled as the deck and the
    decisions (replayed when read back)."""

    def __init__(self, table):
        self.table = table
        self.drawn = []
        self.left = list(table.copies)
        self.reshuffle_seed = None
        self.redeals = 0
        self.state = None
        self.decisions = []
        self.choices = [[] for _ in range(table.game.players)]
        self.determinized = False

    def deck_done(self):
        """Whether every card of the deck is drawn."""
        return len(self.drawn) == self.table.deck_len

    def setup(self):
        """The setup `deal_from_deck` takes: the reshuffle seed and redeals, when any."""
        if not self.table.reshuffles:
            return None
        setup = {"reshuffle_seed": self.reshuffle_seed or 0}
        if self.redeals:
            setup["redeals"] = self.redeals
        return setup

    def try_deal(self):
        """The drawn deck dealt; a deck the variant redeals is dropped instead, to be drawn
        again (None)."""
        try:
            return self.table.game.deal_from_deck(" ".join(self.drawn), self.setup())
        except ValueError as error:
            if "redeal check" not in str(error):
                raise
            self.drawn, self.left = [], list(self.table.copies)
            self.reshuffle_seed = None
            self.redeals += 1
            return None

    def draw(self, outcome):
        """Applies a chance outcome: the next card, or the reshuffle seed (drawn once the deck
        is, a redealt deck dropped before it)."""
        if not self.deck_done():
            if not 0 <= outcome < len(self.left) or self.left[outcome] == 0:
                raise ValueError(f"chance outcome {outcome}: no such card left")
            self.drawn.append(self.table.kinds[outcome])
            self.left[outcome] -= 1
            if self.deck_done():
                dealt = self.try_deal()
                self.state = None if self.table.reshuffles else dealt
            return
        if not 0 <= outcome < RESHUFFLE_SEEDS:
            raise ValueError(f"chance outcome {outcome}: no such reshuffle seed")
        self.reshuffle_seed = outcome
        self.state = self.try_deal()

    def chance_outcomes(self):
        """The chance node's outcomes and their exact probabilities."""
        if not self.deck_done():
            total = self.table.deck_len - len(self.drawn)
            return [(k, n / total) for k, n in enumerate(self.left) if n]
        return [(s, 1.0 / RESHUFFLE_SEEDS) for s in range(RESHUFFLE_SEEDS)]

    def decide(self, index):
        """Applies the seat to move's legal action `index`."""
        seat = self.state.current_seat
        legal = self.state.legal_actions()
        if not 0 <= index < len(legal):
            raise ValueError(f"action {index} is not legal: seat {seat} has {len(legal)} legal actions")
        self.choices[seat].append(str(legal[index]))
        self.decisions.append(index)
        self.state.apply(index)

    def __deepcopy__(self, memo):
        copy = object.__new__(_Deal)
        copy.__dict__.update(self.__dict__)
        copy.drawn, copy.left = list(self.drawn), list(self.left)
        copy.state = None if self.state is None else self.state.clone()
        copy.decisions = list(self.decisions)
        copy.choices = [list(c) for c in self.choices]
        return copy

    def __getstate__(self):
        if self.determinized:
            raise pyspiel.SpielError("a resampled state has no deck to serialize")
        keep = ("table", "drawn", "reshuffle_seed", "redeals", "decisions")
        return {k: self.__dict__[k] for k in keep}

    def __setstate__(self, saved):
        self.__init__(saved["table"])
        self.redeals = saved["redeals"]
        for card in saved["drawn"]:
            k = self.table.kinds.index(card)
            self.drawn.append(card)
            self.left[k] -= 1
        self.reshuffle_seed = saved["reshuffle_seed"]
        if self.deck_done() and (self.reshuffle_seed is not None or not self.table.reshuffles):
            self.state = self.try_deal()
        for index in saved["decisions"]:
            self.decide(index)


class BailabState(pyspiel.State):
    """A bailab game in OpenSpiel: the deck's chance nodes, then the seats' decisions."""

    def __init__(self, game, deal=None):
        super().__init__(game)
        self._deal = deal if deal is not None else _Deal(game.table)

    @property
    def bailab_state(self):
        """The `bailab.State` in play (None while the deck is drawn)."""
        return self._deal.state

    def view(self, seat):
        """Seat `seat`'s `bailab.View` (the deck must be dealt)."""
        return self._deal.state.view(seat)

    def current_player(self):
        """The seat to decide, CHANCE while the deck is drawn, TERMINAL at the end."""
        state = self._deal.state
        if state is None:
            return pyspiel.PlayerId.CHANCE
        if state.is_terminal:
            return pyspiel.PlayerId.TERMINAL
        return state.current_seat

    def is_terminal(self):
        """Whether the game is over."""
        return self._deal.state is not None and self._deal.state.is_terminal

    def _legal_actions(self, player):
        """The indices of the seat's legal actions."""
        state = self._deal.state
        if state is None or state.is_terminal or state.current_seat != player:
            return []
        return list(range(len(state.legal_actions())))

    def chance_outcomes(self):
        """The next card's kinds (or reshuffle seeds) and their probabilities."""
        return self._deal.chance_outcomes()

    def _apply_action(self, action):
        """Draws a chance outcome, or applies a legal-action index."""
        if self._deal.state is None:
            self._deal.draw(int(action))
        else:
            self._deal.decide(int(action))

    def _action_to_string(self, player, action):
        """A card drawn, a reshuffle seed, or the action's notation."""
        deal = self._deal
        if player == pyspiel.PlayerId.CHANCE:
            if not deal.deck_done() and 0 <= action < len(deal.table.kinds):
                return f"draw {deal.table.kinds[action]}"
            return f"reshuffle seed {action}"
        if deal.state is not None and not deal.state.is_terminal:
            legal = deal.state.legal_actions()
            if 0 <= action < len(legal):
                return f"{action}:{legal[action]}"
        return f"{action}"

    def returns(self):
        """The payouts once the game is over, else zeros."""
        if not self.is_terminal():
            return [0.0] * self._deal.table.game.players
        return [float(p) for p in self._deal.state.payouts()]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state consistent with seat `player_id`'s information: its view's determinization,
        seeded from `probability_sampler()` (any callable giving a float in [0, 1))."""
        seed = int(probability_sampler() * 2**53)
        deal = self._deal.__deepcopy__({})
        deal.state = self._deal.state.view(player_id).determinize(seed)
        deal.determinized = True
        return BailabState(self.get_game(), deal)

    def __str__(self):
        """Every seat's view (debugging: it shows every hand)."""
        deal = self._deal
        if deal.state is None:
            return f"drawing the deck: {len(deal.drawn)} of {deal.table.deck_len} cards drawn"
        views = [deal.state.view(s).observation() for s in range(deal.table.game.players)]
        return "\n".join(json.dumps(v, sort_keys=True) for v in views)


class _Observer:
    """OpenSpiel's observer of a bailab game: the seat's view tensor, and its observation as
    JSON (with the seat's own choices for the information state)."""

    def __init__(self, table, perfect_recall):
        self.table = table
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(table.game.tensor_size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state, player):
        """The tensor of `player`'s view (zeros while the deck is drawn)."""
        if state._deal.state is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = state._deal.state.view(player).tensor()

    def string_from(self, state, player):
        """`player`'s observation as JSON, and its own past choices for the information state."""
        deal = state._deal
        if deal.state is None:
            return f"seat {player}: drawing the deck ({len(deal.drawn)} cards drawn)"
        text = json.dumps(deal.state.view(player).observation(), sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            text += " choices:" + "|".join(deal.choices[player])
        return text


def _scalar_rules(game):
    """The variant's scalar rule options and their defaults (players aside)."""
    rules = json.loads(game.rules_json())
    return {
        k: v for k, v in sorted(rules.items())
        if k != "players" and isinstance(v, (bool, int, float, str))
    }


def _register(name, variant, seats, variants):
    """Registers `bailab_<name>` (variant None) or `bailab_<name>_<variant>` with OpenSpiel."""
    if variant is None:
        spec = {"players": 4, "variant": variants[0], "rules": ""}
    else:
        spec = {"players": 4, **_scalar_rules(Game(name, variant=variant))}
    game_type = pyspiel.GameType(
        short_name=short_name(name, variant),
        long_name=f"bailab {name}" + (f" ({variant})" if variant else ""),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=seats[1],
        min_num_players=seats[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )

    class BailabGame(pyspiel.Game):
        """A bailab game as an OpenSpiel game (see the module's text)."""

        def __init__(self, params=None):
            params = dict(params or {})
            players = int(params.get("players", 4))
            if variant is None:
                chosen = params.get("variant", variants[0])
                rules = _parse_rules(params.get("rules", ""))
            else:
                chosen = variant
                rules = {k: params[k] for k in params if k != "players" and params[k] != spec[k]}
            table = _Table.get(name, chosen, players, json.dumps(rules, sort_keys=True))
            info = pyspiel.GameInfo(
                num_distinct_actions=table.game.max_actions,
                max_chance_outcomes=max(len(table.kinds), RESHUFFLE_SEEDS if table.reshuffles else 0),
                num_players=players,
                min_utility=-MAX_UTILITY,
                max_utility=MAX_UTILITY,
                utility_sum=0.0,
                max_game_length=MAX_DECISIONS,
            )
            super().__init__(game_type, info, params)
            self.table = table

        def new_initial_state(self):
            """The game before the first card is drawn."""
            return BailabState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            """The observer: information state when `iig_obs_type.perfect_recall`."""
            perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            return _Observer(self.table, perfect_recall)

    # A module attribute of its own name, so that pickle finds the class.
    BailabGame.__name__ = BailabGame.__qualname__ = f"BailabGame_{name}_{variant or 'any'}"
    globals()[BailabGame.__name__] = BailabGame
    pyspiel.register_game(game_type, BailabGame)


def load(game_name, variant=None, players=4, rules=None):
    """The OpenSpiel game of `bailab.Game(game_name, variant, players, rules)` (rules: a dict
    of scalar options)."""
    params = {"players": players, "rules": ";".join(f"{k}:{json.dumps(v)}" for k, v in (rules or {}).items())}
    if variant is not None:
        params["variant"] = variant
    return pyspiel.load_game(short_name(game_name), params)


class BailabBot(pyspiel.Bot):
    """A bailab agent as an OpenSpiel bot: a spec (`"greedy"`, `"ismcts:iters=100"`), a
    `bailab.Agent` or a callable `f(view, seed)`, choosing from the bot's seat's view; the
    seed of its n-th decision is `seed + n`."""

    def __init__(self, agent, seed=0):
        pyspiel.Bot.__init__(self)
        self.agent = Agent(agent) if isinstance(agent, str) else agent
        self.seed = seed
        self.decisions = 0

    def step(self, state):
        """The agent's choice at `state` (a `BailabState` at its seat's decision)."""
        choice = int(self.agent(state.view(state.current_player()), self.seed + self.decisions))
        self.decisions += 1
        return choice

    def restart_at(self, state):
        """Nothing kept between games but the decision count."""

    def inform_action(self, state, player_id, action):
        """Other seats' moves change nothing: the agent reads the view."""


for _game in games():
    for _variant in [None, *_game["variants"]]:
        _register(_game["name"], _variant, tuple(_game["seats"]), _game["variants"])
