"""A trained policy at the table: a seat that asks a callable for an action id (docs/interop.md).

A *policy* is any callable ``policy(observation, info) -> action id``, what
a learner trained through the Gymnasium environment computes: ``observation``
is the seat's observation (``vector`` or ``planes``, as the environment's
``observation=`` argument), ``info`` holds ``action_mask`` (``int8``),
``legal_ids`` (ascending), ``rng``, the seat's own ``random.Random``
(draw from it, not from a global stream, and the run's seed decides every
game whatever ``--jobs``), and ``afterstate(id) -> (observation, reward)``:
what the seat would see after that move, and its return if the move ends
the game (:func:`afterstate`; the Gymnasium environment's
``env.unwrapped.afterstate``).  :class:`AfterstateValue` is such a policy,
what ``benchmarks/bench_learning_fences.py`` trains and saves.

:class:`PolicySeat` seats one anywhere a bot sits: a Gymnasium opponent
(``opponents=[policy]``, the learner itself for self-play) and, through the
``policy`` bot, ``th simulate``, ``compare`` and ``play``::

    th simulate --variant fences --seat 'policy(file=agent.py)' --seat greedy
    th simulate --variant fences --seat 'policy(call=mypackage.agent:act, observation=planes)' --seat greedy

``file=`` is a Python file defining ``policy`` (a function, or an object
with ``__call__`` holding its weights), or a pickle of such a callable
(``.pkl``/``.pickle``: unpickling runs code, so load only files you made);
``call=`` is an importable ``module:attribute``.  Checking a spec runs none
of it (a spec is checked wherever it is typed); the seat loads the policy
when it first sits.  The bot is never ready unasked, so the ladder, the
best bot and a web table's lobby pass it by.
"""

from __future__ import annotations

import importlib
import importlib.util
import pickle
import random
from pathlib import Path
from typing import Any, Callable

import numpy as np

from treehouse.errors import TreehouseError
from treehouse.interop.actions import Actions, observer
from treehouse.interop.flow import TERMINAL, GameFlow, Node, returns
from treehouse.textfiles import read_bytes

#: The name a policy file's callable has.
POLICY_NAME = "policy"
#: The largest pickled policy read (its weights: a linear value of Fences' planes is about 15 kB).
MAX_PICKLE = 1 << 30


def afterstate(flow: GameFlow, seen: Any, node: Node, legal: dict[int, Any], action: Any, seat: int) -> tuple[np.ndarray, float | None]:
    """What ``seat`` would see of the position ``action`` leaves, before any
    other seat or the die moves, and its return if the move ends the game
    (``None`` if not): the environment's rules play the move in their head,
    as ``greedy`` does, for an afterstate learner."""
    try:
        move = legal.get(int(action))
    except (TypeError, ValueError):
        move = None
    if move is None:
        raise TreehouseError(f"afterstate: {action!r} is not a legal action id here; the legal ids are info['legal_ids']")
    after = flow.play(node, move)
    reward = returns(after.outcome, flow.players)[seat] if after.kind == TERMINAL else None
    return seen.encode(after, seat), reward


class AfterstateValue:
    """A policy that plays the legal id whose afterstate it values most: a
    linear value of the afterstate's observation (``info["afterstate"]``), a
    finished game valued by its return; ties broken by ``info["rng"]``.  With
    ``board_channels`` (the planes), the planes after the board's are constant
    (a scalar each), so each counts once.  Picklable: what a learner trained
    through the environment saves, for ``policy(file=...)``."""

    def __init__(self, size: int, board_channels: int | None = None) -> None:
        self.weights = np.zeros(size + 1)
        self.board_channels = board_channels

    @classmethod
    def for_observation(cls, shape: tuple[int, ...], board_channels: int | None = None) -> AfterstateValue:
        """Zero weights for observations of ``shape`` (a vector, or planes with ``board_channels`` of board)."""
        if board_channels is None:
            return cls(int(np.prod(shape)))
        channels, rows, columns = shape
        return cls(board_channels * rows * columns + channels - board_channels, board_channels)

    def features(self, observation: np.ndarray) -> np.ndarray:
        if self.board_channels is None:
            return np.concatenate([observation.reshape(-1), (1.0,)])
        board = self.board_channels
        return np.concatenate([observation[:board].reshape(-1), observation[board:, 0, 0], (1.0,)])

    def values(self, info: dict) -> tuple[np.ndarray, list[np.ndarray | None]]:
        """Each legal id's value and its afterstate's features (``None``: the game ends)."""
        values, features = [], []
        for action in info["legal_ids"]:
            observation, reward = info["afterstate"](action)
            if reward is None:
                x = self.features(observation)
                features.append(x)
                values.append(float(self.weights @ x))
            else:
                features.append(None)
                values.append(reward)
        return np.array(values), features

    def best(self, values: np.ndarray, rng: Any) -> int:
        """The place of a best value, ties broken by ``rng`` (a ``random.Random`` or a numpy ``Generator``)."""
        best = np.flatnonzero(values >= values.max() - 1e-12)
        # drawn even for a lone best, so the stream never depends on the values
        pick = rng.integers(len(best)) if hasattr(rng, "integers") else rng.randrange(len(best))
        return int(best[pick])

    def __call__(self, observation: np.ndarray, info: dict) -> int:
        values, _features = self.values(info)
        return int(info["legal_ids"][self.best(values, info["rng"])])


def check_policy_source(file: str = "", call: str = "") -> None:
    """What can be checked of ``file`` / ``call`` without running any of it (a
    spec is checked where it is typed, a web table's lobby included, and
    only loaded by the seat that plays it); a mistake is one line."""
    if bool(file) == bool(call):
        raise TreehouseError("policy: give file=FILE (a .py file defining policy, or a pickled callable) or call=MODULE:NAME, one of them")
    if call:
        module_name, _, attribute = call.partition(":")
        if not module_name or not attribute:
            raise TreehouseError(f"policy: call={call!r} must be MODULE:NAME, e.g. mypackage.agent:act")
    elif not Path(file).expanduser().is_file():
        raise TreehouseError(f"policy: file={file!r} is not a file; give a .py file defining {POLICY_NAME}, or a pickled callable (.pkl)")


def load_policy(file: str = "", call: str = "") -> Callable[..., Any]:
    """The callable named by ``file`` (a ``.py`` file's ``policy``, or a pickled
    callable) or ``call`` (``module:attribute``); a mistake is one line."""
    check_policy_source(file, call)
    if call:
        module_name, _, attribute = call.partition(":")
        try:
            found = getattr(importlib.import_module(module_name), attribute)
        except (ImportError, AttributeError) as error:
            raise TreehouseError(f"policy: call={call!r}: {error}") from None
    else:
        path = Path(file).expanduser()
        if path.suffix == ".py":
            spec = importlib.util.spec_from_file_location(f"treehouse_policy_{abs(hash(str(path.resolve())))}", path)
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except Exception as error:  # the user's file: say where it failed, in one line
                raise TreehouseError(f"policy: file={file!r} failed to load: {type(error).__name__}: {error}") from None
            found = getattr(module, POLICY_NAME, None)
            if found is None:
                raise TreehouseError(f"policy: file={file!r} defines no {POLICY_NAME!r}; define policy(observation, info) -> action id")
        else:
            data = read_bytes(path, TreehouseError, "pickled policy", limit=MAX_PICKLE)
            try:
                found = pickle.loads(data)
            except Exception as error:
                raise TreehouseError(f"policy: file={file!r} is not a pickled callable: {type(error).__name__}: {error}") from None
    if not callable(found):
        raise TreehouseError(f"policy: {file or call!r} is a {type(found).__name__}, not a callable policy(observation, info) -> action id")
    return found


class PolicySeat:
    """A seat that plays the action id its policy returns (see the module's docstring)."""

    name = "policy"

    def __init__(self, policy: Callable[..., Any] | None, observation: str = "vector", load: Callable[[], Callable[..., Any]] | None = None) -> None:
        if policy is None and load is None or policy is not None and not callable(policy):
            raise TreehouseError(f"policy: {policy!r} is not callable; a policy is policy(observation, info) -> action id")
        #: ``load()`` gives the policy when the seat first sits (the policy bot: its file is run only by the seat that plays it)
        self.policy, self.observation, self._load = policy, observation, load
        self._game: Any = None
        self._seat = 0
        self._tables: tuple[GameFlow, Actions, Any] | None = None

    def seated(self, game: Any, index: int) -> None:
        self._game, self._seat, self._tables = game, index, None
        if self.policy is None:
            self.policy = self._load()

    def _built(self) -> tuple[GameFlow, Actions, Any]:
        if self._tables is None:
            game = self._game
            if game is None:
                raise TreehouseError("policy: the seat must be seated in a game before it is asked to move")
            flow = GameFlow(game.variant, len(game.seats), turn_cap=game.turn_cap, hooks=game.hooks)
            self._tables = (flow, Actions(flow), observer(flow, self.observation, "policy"))
        return self._tables

    def choose(self, state: Any, step: Any, face: Any, moves: tuple, rng: random.Random) -> Any:
        flow, actions, seen = self._built()
        node = flow.at_decision(state, step, face, moves, turn=getattr(self._game, "turn", 1))
        legal = actions.legal(node)
        ids = np.fromiter(legal, np.int64, len(legal))
        mask = np.zeros(actions.size, np.int8)
        mask[ids] = 1
        seat = self._seat
        info = {"action_mask": mask, "legal_ids": ids, "rng": rng, "afterstate": lambda action: afterstate(flow, seen, node, legal, action, seat)}
        action = self.policy(seen.encode(node, seat), info)
        try:
            move = legal.get(int(action))
        except (TypeError, ValueError):
            move = None
        if move is None:
            shown = ", ".join(map(str, ids[:8])) + (", ..." if len(ids) > 8 else "")
            raise TreehouseError(f"policy: it chose {action!r}, not a legal action id here; the legal ids are {shown}")
        return move


def policy_bot(file: str = "", call: str = "", observation: str = "vector") -> PolicySeat:
    """The ``policy`` bot: ``file=`` or ``call=`` names the policy, ``observation`` what it reads (``vector`` or ``planes``)."""
    from treehouse.interop.actions import OBSERVATIONS

    if observation not in OBSERVATIONS:
        raise TreehouseError(f"policy: observation must be one of {', '.join(map(repr, OBSERVATIONS))}, not {observation!r}")
    check_policy_source(file, call)
    return PolicySeat(None, observation, load=lambda: load_policy(file, call))
