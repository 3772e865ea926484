"""Every installed variant and shipped rule set as an OpenSpiel game (docs/interop.md).

Importing this module registers, with :func:`pyspiel.register_game`, one
Python game per shipped rule set (``treehouse_classic``,
``treehouse_classic_wiki``, ``treehouse_fences``, ``treehouse_fences_scored``,
...) and per installed variant without a rule set of its name (a plugin's,
such as ``treehouse_race``)::

    import pyspiel
    import treehouse.interop.openspiel  # registers the games

    game = pyspiel.load_game("treehouse_fences", {"players": 3})

Games and states pickle (each game's class is set on this module by name;
unpickling imports it, which registers the games), so a spawn-context
``multiprocessing.Pool`` takes a game.

The game is sequential, with explicit stochastic chance (the die is a chance
node; a random setup, such as Fences' deal, is a first chance node drawing
one of ``layouts`` seeded layouts), perfect information, zero-sum, with terminal
rewards (:func:`treehouse.interop.flow.returns`).  Its parameters are
``players``, every rule option of the variant (defaults: the rule set's),
``house_rules`` (specs as everywhere, ``wild-repair(max=1), large-fences-only``;
percent-escaped inside a game string, whose syntax gives commas, parentheses
and ``=`` meanings of their own: :mod:`treehouse.interop.rules`), ``turn_cap`` (the rule set's turn
cap: a draw after that many turns), ``max_decisions`` (a draw after that
many decisions; 0: ten per turn), ``layouts`` and, for a variant with the
generic encoding, ``max_moves``.  Actions are
:class:`treehouse.interop.actions.Actions` ids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("OpenSpiel is not installed: pip install 'treehouse[openspiel]'") from error

import numpy as np
from pydantic import ValidationError

from treehouse.errors import ConfigError, PluginError, TreehouseError
from treehouse.interop.actions import DEFAULT_MAX_MOVES, Actions, Observation, observer
from treehouse.interop.flow import CHANCE, DECISION, DEFAULT_LAYOUTS, MAX_OUTCOMES, SETUP, TERMINAL, GameFlow, Node, returns
from treehouse.kernel.variant import Variant
from treehouse.plugins import Plugins, load_plugins
from treehouse.interop.rules import game_string_value, house_rule_list, installed_games

PREFIX = "treehouse_"
PARAMETER_TYPES = (bool, int, float, str)


def game_name(name: str) -> str:
    """The OpenSpiel name of a rule set or variant: ``classic-wiki`` -> ``treehouse_classic_wiki``."""
    return PREFIX + re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


@dataclass
class Entry:
    """What one registered game is: a variant class and its defaults."""

    name: str
    variant_class: type[Variant]
    description: str
    rules: dict[str, Any]
    turn_cap: int
    house_rules: list[str]
    plugins: Plugins = field(repr=False)

    def parameters(self) -> dict[str, Any]:
        specification: dict[str, Any] = {"players": self.variant_class.default_players}
        specification.update(self.rules)
        specification["house_rules"] = game_string_value(self.house_rules)
        specification["turn_cap"] = self.turn_cap
        specification["max_decisions"] = 0
        specification["layouts"] = DEFAULT_LAYOUTS
        if self.variant_class(self.rules).action_encoding(self.variant_class.default_players) is None:
            specification["max_moves"] = DEFAULT_MAX_MOVES
        return specification

    def game_type(self) -> pyspiel.GameType:
        low, high = self.variant_class(self.rules).player_range()
        return pyspiel.GameType(
            short_name=game_name(self.name),
            long_name=f"Treehouse {self.name}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=high,
            min_num_players=low,
            # perfect information: the information state is the state itself, and its
            # string is str(state) (the position, what is pending, the turn)
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=self.parameters(),
        )


def catalogue(plugins: Plugins | None = None) -> dict[str, Entry]:
    """OpenSpiel name -> entry, for every shipped rule set and every variant
    without a rule set of its own name.  A rule set whose variant is not
    installed is left out."""
    plugins = plugins or load_plugins()
    entries: dict[str, Entry] = {}
    for name, effective in installed_games(plugins).items():
        rules = {
            key: value
            for key, value in effective.rules.model_dump().items()
            if isinstance(value, PARAMETER_TYPES)
        }
        entries[game_name(name)] = Entry(
            name, effective.variant_class, effective.description, rules, effective.turn_cap, list(effective.house_rules), plugins
        )
    return entries


class TreehouseGame(pyspiel.Game):
    """One treehouse rule set as an OpenSpiel game (a subclass per registered name holds its ``entry``)."""

    entry: ClassVar[Entry]

    def __init__(self, params: dict[str, Any] | None = None, hooks: Any = None) -> None:
        entry = self.entry
        params = {**entry.parameters(), **(params or {})}
        players = params["players"]
        try:
            variant = entry.variant_class({key: params[key] for key in entry.rules})
        except ValidationError as error:
            problem = error.errors()[0]
            where = ".".join(str(part) for part in problem["loc"]) or "rules"
            raise ConfigError(f"{game_name(entry.name)}: {where}: {problem['msg']} (got {problem.get('input')!r})") from None
        try:
            specs = house_rule_list(params["house_rules"])
        except ConfigError as error:
            raise ConfigError(f"{game_name(entry.name)}: {error}") from None
        try:
            house_rules = [entry.plugins.house_rule(spec, variant.name) for spec in specs]
        except TreehouseError as error:
            raise ConfigError(f"{game_name(entry.name)}: house_rules: {error}") from None
        # canonical and escaped, so that str(game) is a game string that loads the same game again
        params["house_rules"] = game_string_value([rule.spec for rule in house_rules])
        turn_cap = params["turn_cap"]
        if turn_cap < 1:
            raise ConfigError(f"{game_name(entry.name)}: turn_cap must be at least 1, not {turn_cap}")
        max_decisions = params["max_decisions"] or 10 * turn_cap
        self.flow = GameFlow(
            variant, players, house_rules, turn_cap=turn_cap, max_decisions=max_decisions, layouts=params["layouts"], hooks=hooks
        )
        self.actions = Actions(self.flow, params.get("max_moves", DEFAULT_MAX_MOVES))
        self.observation = Observation(self.flow)
        chance = max(MAX_OUTCOMES, self.flow.layouts if self.flow.random_setup else 0)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions.size,
            max_chance_outcomes=chance,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_decisions,
        )
        super().__init__(entry.game_type(), info, params)
        self._legal_memo: tuple[Node | None, dict[int, Any]] = (None, {})

    def new_initial_state(self) -> TreehouseState:
        return TreehouseState(self)

    def state_at(self, node: Node) -> TreehouseState:
        """A state standing at ``node`` (the MCTS seat starts its search from one)."""
        state = TreehouseState(self)
        state.node = node
        return state

    def legal(self, node: Node) -> dict[int, Any]:
        memo_node, memo = self._legal_memo
        if memo_node is not node:
            memo = self.actions.legal(node)
            self._legal_memo = (node, memo)
        return memo

    def make_py_observer(self, iig_obs_type=None, params=None) -> TreehouseObserver:
        """OpenSpiel's observer; ``params={"observation": "planes"}`` gives the
        board planes (``make_observation(game, params=...)``), the default the vector."""
        params = dict(params or {})
        kind = params.pop("observation", "vector")
        if params:
            raise ValueError(f"treehouse observations take only the parameter 'observation' ('vector' or 'planes'), not {params}")
        table = self.observation if kind == "vector" else observer(self.flow, kind, game_name(self.entry.name))
        return TreehouseObserver(self, table, information_state=bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


class TreehouseState(pyspiel.State):
    """A game in progress: one immutable :class:`~treehouse.interop.flow.Node`
    (so ``clone`` shares it and ``serialize`` pickles it)."""

    def __init__(self, game: TreehouseGame) -> None:
        super().__init__(game)
        self.node = game.flow.initial()

    def current_player(self) -> int:
        kind = self.node.kind
        if kind == DECISION:
            return self.node.mover
        if kind == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.get_game().legal(self.node))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        game = self.get_game()
        if self.node.kind == SETUP:
            probability = 1.0 / game.flow.layouts
            return [(layout, probability) for layout in range(game.flow.layouts)]
        flow = game.flow
        outcomes = flow.chance_outcomes(self.node)
        if len(outcomes) > MAX_OUTCOMES:
            raise PluginError(f"variant {flow.variant.name}: a chance node with {len(outcomes)} outcomes, more than the {MAX_OUTCOMES} the adapter numbers")
        # Only the faces that leave something to do, renormalised (so the tree
        # has no "roll, nothing to do, roll again" cycle); an outcome's id is
        # still its place in the chance node's full list (the face's place on the die).
        playable = dict(flow.playable_outcomes(self.node))
        return [(index, float(playable[face])) for index, (face, _p) in enumerate(outcomes) if face in playable]

    def _apply_action(self, action: int) -> None:
        game, node = self.get_game(), self.node
        if node.kind == SETUP:
            self.node = game.flow.set_up(node, action)
        elif node.kind == CHANCE:
            outcomes = game.flow.chance_outcomes(node)
            after = game.flow.roll(node, outcomes[action][0]) if 0 <= action < len(outcomes) else node
            if after is node:
                raise TreehouseError(f"chance outcome {action} is not offered here; the offered ones are {[a for a, _p in self.chance_outcomes()]}")
            self.node = after
        else:
            move = game.legal(node).get(action)
            if move is None:
                raise TreehouseError(f"action {action} is not legal here; the legal ones are {sorted(game.legal(node))}")
            self.node = game.flow.play(node, move)

    def _action_to_string(self, player: int, action: int) -> str:
        game = self.get_game()
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = game.flow.chance_outcomes(self.node) if self.node.kind == CHANCE else ()
            if action >= len(outcomes):
                return f"layout {action}" if self.node.kind == SETUP else f"outcome {action}"
            return f"roll {outcomes[action][0]}"
        legal = game.legal(self.node) if self.node.kind == DECISION else {}
        return game.actions.name(self.node, action, legal)

    def is_terminal(self) -> bool:
        return self.node.kind == TERMINAL

    def returns(self) -> list[float]:
        node = self.node
        return returns(node.outcome if node.kind == TERMINAL else None, self.get_game().flow.players)

    def __str__(self) -> str:
        node = self.node
        return f"{self.get_game().observation.text(node)} turn {node.turn}"


class TreehouseObserver:
    """OpenSpiel's observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from`` (docs/interop.md)."""

    def __init__(self, game: TreehouseGame, table: Any, information_state: bool = False) -> None:
        self.observation = table
        self.information_state = information_state
        self.tensor = np.zeros(int(np.prod(table.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(table.shape)}

    def set_from(self, state: TreehouseState, player: int) -> None:
        self.tensor[:] = self.observation.encode(state.node, player).reshape(-1)

    def string_from(self, state: TreehouseState, player: int) -> str:
        if self.information_state:
            return str(state)  # perfect information: the state is what a player knows
        return self.observation.text(state.node)


_REGISTERED: dict[str, type[TreehouseGame]] = {}


def register_games(plugins: Plugins | None = None) -> list[str]:
    """Register every installed variant and shipped rule set (once per name); return their names."""
    for name, entry in catalogue(plugins).items():
        if name in _REGISTERED or name in pyspiel.registered_names():
            continue
        # A class per game, not a closure: OpenSpiel keeps the creator until
        # the interpreter has shut down, and a class survives that, a lambda not.
        # It is set on this module under its own name, so that pickle finds it
        # (a game pickles as its class and its game string; another process
        # unpickling it imports this module, which registers the games again).
        cls = type(f"TreehouseGame_{name}", (TreehouseGame,), {"entry": entry, "__module__": __name__})
        globals()[cls.__name__] = cls
        pyspiel.register_game(entry.game_type(), cls)
        _REGISTERED[name] = cls
    return sorted(_REGISTERED)


def game_class(name: str) -> type[TreehouseGame]:
    """The game class registered for a rule set or variant name (``fences`` or ``treehouse_fences``)."""
    key = name if name.startswith(PREFIX) else game_name(name)
    try:
        return _REGISTERED[key]
    except KeyError:
        from treehouse.errors import unknown

        raise unknown("OpenSpiel game", name, sorted(_REGISTERED)) from None


def load(name: str, **params: Any) -> TreehouseGame:
    """``load("fences", players=3)``: the game as :func:`pyspiel.load_game` gives it."""
    cls = game_class(name)
    return pyspiel.load_game(cls.entry.game_type().short_name, params)


register_games()
