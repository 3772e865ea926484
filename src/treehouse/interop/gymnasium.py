"""Every installed variant and shipped rule set as a single-agent Gymnasium environment (docs/interop.md).

Importing this module registers one environment id per game the adapters
know (:func:`treehouse.interop.rules.installed_games`), named from the rule
set or variant: ``treehouse/Classic-v0``, ``treehouse/ClassicWiki-v0``,
``treehouse/Fences-v0``, ``treehouse/Race-v0`` (a plugin's) and so on::

    import gymnasium
    import treehouse.interop.gymnasium  # registers treehouse/...-v0

    env = gymnasium.make("treehouse/Fences-v0", opponents=["search"])
    observation, info = env.reset(seed=1)
    action = env.action_space.sample(info["action_mask"])

The agent plays one seat (``seat``, default 0); the other seats are built-in
bots named by spec, as on the command line (``opponents=["random",
"search(depth=2)"]``, one per other seat; default: ``random`` for each),
bot objects, or policies: callables ``policy(observation, info) -> id``
(:mod:`treehouse.interop.policy`; the learner itself, for self-play).
``players`` defaults to one more than the opponents named, else the
variant's default.  Every other keyword is the same as PettingZoo's
``env(...)``: ``house_rules`` (a list or one text), rule options, and
``render_mode`` (``human``, ``ansi``).

The observation is the seat's vector (:class:`~treehouse.interop.actions.Observation`);
the action space is ``Discrete`` over the game's action ids; the legal ones
are ``info["legal_ids"]`` (ascending), ``info["action_mask"]`` (``int8``) and :meth:`TreehouseGymEnv.action_masks`
(the name sb3-contrib's ``MaskablePPO`` asks for).  An action outside the
mask ends the episode for good as a loss (``info["illegal_action"]``; the
mask empties, a further step asks for ``reset()``), as PettingZoo's
``TerminateIllegalWrapper`` ends a game.  The reward is the seat's return at the end
(:func:`treehouse.interop.flow.returns`), 0 before; the turn and decision caps
truncate.  All randomness (the deal, every roll, every bot's choices) comes
from ``reset(seed=...)``: the environment's ``np_random`` seeds one
``random.Random`` per episode, split as the engine splits its seed.
"""

from __future__ import annotations

import random
import re
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("Gymnasium is not installed: pip install 'treehouse[gymnasium]'") from error

from treehouse.bots.options import make_bot
from treehouse.errors import ConfigError, TreehouseError
from treehouse.interop.actions import Actions, observer
from treehouse.interop.drawing import RENDER_MODES, check_render_mode, draw
from treehouse.interop.episode import EpisodePickle
from treehouse.interop.flow import CHANCE, TERMINAL, GameFlow, Node, returns
from treehouse.interop.policy import PolicySeat, afterstate
from treehouse.interop.rules import configured, installed_games
from treehouse.kernel.engine import Outcome
from treehouse.kernel.seats import seat_in
from treehouse.plugins import Plugins, load_plugins

NAMESPACE = "treehouse"
CAPS = ("turn cap", "decision cap")
#: The outcome's reason when the agent's action was outside the mask.
ILLEGAL = "illegal action"


def env_id(name: str) -> str:
    """The Gymnasium id of a rule set or variant: ``fences-house-rules`` -> ``treehouse/FencesHouseRules-v0``."""
    return f"{NAMESPACE}/{''.join(part.capitalize() for part in re.split(r'[^A-Za-z0-9]+', name) if part)}-v0"


def _is_opponent(spec: Any) -> bool:
    """A bot spec, a bot (it has ``choose``) or a policy (a callable)."""
    return isinstance(spec, str) or callable(spec) or callable(getattr(spec, "choose", None))


class SeatedGame:
    """What a bot's ``seated(game, index)`` reads of a running game: its
    hooks, variant, seats and caps, and the turn now (the engine's
    :class:`~treehouse.kernel.engine.Game` has these too)."""

    def __init__(self, flow: GameFlow, seats: list[Any], turn_cap: int | None) -> None:
        self.hooks, self.variant, self.seats, self.turn_cap = flow.hooks, flow.variant, seats, turn_cap
        self.turn = 0


class TreehouseGymEnv(gymnasium.Env, EpisodePickle):
    """One seat of a treehouse game against bots (see the module's docstring).

    It pickles and deep-copies (:class:`~treehouse.interop.episode.EpisodePickle`):
    its arguments and the episode so far (the bots are built again from their specs)."""

    EPISODE = ("node", "_legal", "_legal_ids", "_rng", "_seat_rngs", "_np_random", "_np_random_seed")

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        variant: str = "classic",
        opponents: Any = None,
        players: int | None = None,
        seat: int = 0,
        render_mode: str | None = None,
        house_rules: Any = None,
        observation: str = "vector",
        plugins: Plugins | None = None,
        **rules: Any,
    ) -> None:
        EpisodePickle.__init__(
            self, variant=variant, opponents=opponents, players=players, seat=seat, render_mode=render_mode, house_rules=house_rules, observation=observation, **rules
        )
        who = f"{env_id(variant) if isinstance(variant, str) else 'treehouse'}"
        check_render_mode(who, render_mode)
        plugins = plugins or load_plugins()
        if isinstance(opponents, str) or callable(opponents):
            opponents = [opponents]
        if opponents is not None and (not isinstance(opponents, (list, tuple)) or not all(map(_is_opponent, opponents))):
            raise ConfigError(
                f"{who}: opponents must be a list of bot specs, bots or policies, e.g. ['search', 'random'] or [policy], not {opponents!r}"
            )
        if players is None and opponents is not None:
            players = len(opponents) + 1
        effective, players = configured(who, variant, players, house_rules, rules, plugins)
        opponents = list(opponents) if opponents is not None else ["random"] * (players - 1)
        if len(opponents) != players - 1:
            raise ConfigError(f"{who}: opponents: {players} players need {players - 1} opponent{'s' if players != 2 else ''} (one per other seat), not {len(opponents)}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ConfigError(f"{who}: seat must be 0 to {players - 1}, not {seat!r}")
        try:
            bots = [self._opponent(plugins, spec, observation) for spec in opponents]
        except TreehouseError as error:
            raise ConfigError(f"{who}: opponents: {error}") from None
        self.seat, self.opponents = seat, tuple(opponents)
        self.flow = GameFlow(effective.variant(), players, effective.house_rule_plugins(plugins), turn_cap=effective.turn_cap)
        self.actions = Actions(self.flow)
        self.observer = observer(self.flow, observation, who)
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(self.actions.size)
        self.observation_space = spaces.Box(0.0, self.observer.high, self.observer.shape, np.float32)
        #: seat -> bot; the agent's seat has none
        self.seats: list[Any] = bots[:seat] + [None] + bots[seat:]
        self.table = SeatedGame(self.flow, self.seats, effective.turn_cap)
        for index, bot in enumerate(self.seats):
            if bot is not None:
                seat_in(bot, self.table, index)
        self.node: Node | None = None
        self._set_legal({})

    @staticmethod
    def _opponent(plugins: Plugins, spec: Any, observation: str) -> Any:
        """A bot from its spec; a bot object (one with ``choose``) as it is; any
        other callable is a policy (treehouse.interop.policy) that reads the
        same kind of observation as the agent, from its own seat."""
        if isinstance(spec, str):
            return make_bot(plugins, spec)
        if callable(getattr(spec, "choose", None)):
            return spec
        return PolicySeat(spec, observation)

    # -- the episode ----------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        # one stream per episode from np_random, split as the engine splits its seed
        self._rng = random.Random(int(self.np_random.integers(2**63)))
        self._seat_rngs = [random.Random(self._rng.getrandbits(64)) for _ in range(self.flow.players)]
        self._advance(self.flow.initial(self._rng))
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self.node is None:
            raise TreehouseError("call reset() before step()")
        if self.node.kind == TERMINAL:
            raise TreehouseError("the episode is over: call reset()")
        move = self._legal.get(int(action))
        if move is None:
            # PettingZoo's TerminateIllegalWrapper's rule: the episode ends, for
            # good, as a loss (the other seats win): the mask empties and a
            # further step asks for reset(), as at any other end
            winners = tuple(seat for seat in range(self.flow.players) if seat != self.seat)
            self.node = self.node._replace(kind=TERMINAL, moves=(), outcome=Outcome(winners, ILLEGAL))
            self._set_legal({})
        else:
            self._advance(self.flow.play(self.node, move))
        node, reward, terminated, truncated = self.node, 0.0, False, False
        if node.kind == TERMINAL:
            truncated = node.outcome.reason in CAPS
            terminated = not truncated
            reward = returns(node.outcome, self.flow.players)[self.seat]
        if self.render_mode == "human":
            self.render()
        info = self._info()
        if node.kind == TERMINAL:
            info["outcome"] = node.outcome.reason
            if node.outcome.reason == ILLEGAL:
                info["illegal_action"] = True
        return self._observe(), float(reward), terminated, truncated, info

    def _advance(self, node: Node) -> None:
        """Roll and let the bots move until the agent's decision or the end
        (the setup draws from the episode's stream, so no layout node comes)."""
        flow = self.flow
        while node.kind != TERMINAL:
            if node.kind == CHANCE:
                node = flow.roll(node, flow.draw(node, self._rng))
            elif node.mover == self.seat:
                break
            else:
                self.table.turn = node.turn
                bot = self.seats[node.mover]
                node = flow.play(node, bot.choose(node.position, node.steps[0], node.face, node.moves, self._seat_rngs[node.mover]))
        self.node = node
        self._set_legal(self.actions.legal(node))

    def _set_legal(self, legal: dict[int, Any]) -> None:
        self._legal = legal
        self._legal_ids = np.fromiter(legal, np.int64, len(legal))  # ascending: legal() sorts them

    # -- what the agent sees ------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """1 for each legal action id (0 everywhere once the episode is over)."""
        mask = np.zeros(self.actions.size, np.int8)
        mask[self._legal_ids] = 1
        return mask

    def _observe(self) -> np.ndarray:
        return self.observer.encode(self.node, self.seat)

    def afterstate(self, action: Any) -> tuple[np.ndarray, float | None]:
        """What the agent would see of the position ``action`` leaves, before
        any bot or the die moves, and its return if the move ends the game
        (``None`` if not): the rules play the move in their head, as
        ``greedy`` does, for an afterstate learner (treehouse.interop.policy).
        Nothing in the episode changes."""
        if self.node is None:
            raise TreehouseError("call reset() before afterstate()")
        return afterstate(self.flow, self.observer, self.node, self._legal, action, self.seat)

    def legal_ids(self) -> np.ndarray:
        """The legal action ids, ascending (``int64``; empty once the episode is over)."""
        return self._legal_ids.copy()

    def _info(self) -> dict:
        # the ids themselves beside the mask: a learner's loop need not scan the mask's 40,682 ids for them
        return {"action_mask": self.action_masks(), "legal_ids": self.legal_ids()}

    def render(self) -> str | None:
        """The board as ``th play`` draws it and what is pending (treehouse.interop.drawing)."""
        if self.render_mode is None or self.node is None:
            return None
        return draw(self.flow, self.node, self.observer.pending(self.node), self.render_mode)


def register_envs(plugins: Plugins | None = None) -> list[str]:
    """Register an id per installed game (once each); return the ids."""
    ids = []
    for name in installed_games(plugins or load_plugins()):
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(ident, entry_point=f"{__name__}:TreehouseGymEnv", kwargs={"variant": name}, disable_env_checker=False)
        ids.append(ident)
    return ids


register_envs()
