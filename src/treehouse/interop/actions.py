"""Moves as integer ids and positions as numbers, for every variant (docs/interop.md).

Ids ``0`` and ``1`` are the engine's own choices, ``pass`` and ``reroll``;
a variant's moves follow from ``2``.

A variant numbers its moves by defining ``action_encoding(players)``,
returning an object with ``size`` (its ids are ``0 .. size-1``) and
``encode(position, move) -> int``, and optionally ``describe(id) -> str``
(classic and Fences do: ``variants/*/encoding.py``).  Ids must be stable: the
same move has the same id in every position.

A variant that does not (a third party's plugin, say) gets the generic
encoding with no code of its own: the ``k``-th of the legal moves, in the
variant's fixed order (the ``treehouse_legal_moves`` contract), is id
``2 + k``, up to ``max_moves``.  Those ids mean "the k-th move offered", not
one move everywhere; enough for search and for masked learning.

Likewise ``observation(players)``, returning an object with ``size`` and
``encode(position, seat) -> numpy array``, gives the numbers a seat sees;
a house rule's plugin object may define one too (a rule that keeps a count
in the position: its counts), appended after the variant's by rule name;
the adapter then appends the turns started (the engine's count, which the
turn cap reads) and the face just rolled (one-hot over the die's faces, all
zero when no face is pending).  Without it a seat sees the generic
observation, :class:`FieldObservation`: the position's fields as numbers
(:func:`position_numbers`) and the seat to move.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from treehouse.errors import PluginError, TreehouseError
from treehouse.interop.flow import DECISION, TERMINAL, GameFlow, Node
from treehouse.kernel.engine import PASS, REROLL, Control, format_move
from treehouse.kernel.turn import chance_verb

CONTROL_IDS = {PASS: 0, REROLL: 1}
CONTROLS = len(CONTROL_IDS)
#: Legal moves the generic encoding numbers, unless the game says otherwise.
DEFAULT_MAX_MOVES = 256
#: Ids kept, after every encoding's, for house-rule moves no encoding numbers.
DEFAULT_OVERFLOW = 32
#: The largest number an observation may hold, for the environments' spaces:
#: counts (turns, checks) are unbounded, so float32's largest (finite: an
#: infinite bound makes Gymnasium warn).  Every number is 0 or more.
OBSERVATION_HIGH = float(np.finfo(np.float32).max)
#: What a variant's encoding raises for a move it does not know (a house rule's, say).
_NOT_ITS_MOVE = (AttributeError, KeyError, TypeError, ValueError, IndexError, PluginError)


class Block(NamedTuple):
    """A run of ids: ``start .. start + size - 1``, numbered by ``table`` (``None``: the k-th move offered)."""

    owner: str
    start: int
    size: int
    table: Any


def rule_tables(flow: GameFlow, method: str) -> list[tuple[str, Any]]:
    """``(name, table)`` for each house rule in force whose plugin object
    defines ``method(players)`` (``action_encoding`` or ``observation``)
    returning a table, by name (so a rule's ids and numbers do not depend
    on the order the rules were named in)."""
    found = []
    for rule in getattr(flow.hooks, "house_rules", ()):
        plugin = flow.hooks.manager.get_plugin(rule.name)
        provided = getattr(plugin, method, None)
        if callable(provided):
            table = provided(flow.players)
            if table is not None:
                found.append((rule.name, table))
    return sorted(found, key=lambda item: item[0])


def rule_encodings(flow: GameFlow) -> list[tuple[str, Any]]:
    """The action encodings of the house rules in force (:func:`rule_tables`)."""
    return rule_tables(flow, "action_encoding")


class Actions:
    """The action ids of one game (a variant, a player count, its house rules).

    Ids run: the two controls; the variant's block (its ``action_encoding``,
    or ``max_moves`` ids for the k-th move offered); a block per house rule
    whose plugin defines ``action_encoding`` (by rule name); then, for a
    variant with its own encoding and house rules in force, ``overflow`` ids:
    the k-th legal move that no encoding numbers (a rule's move with no
    encoding of its own).  See docs/interop.md, "Moves a house rule adds".
    """

    def __init__(self, flow: GameFlow, max_moves: int = DEFAULT_MAX_MOVES, overflow: int = DEFAULT_OVERFLOW) -> None:
        self.variant = flow.variant
        self.table = self.variant.action_encoding(flow.players)
        self.generic = self.table is None
        if self.generic and max_moves < 1:
            raise TreehouseError(f"max_moves must be at least 1, not {max_moves}")
        start = CONTROLS
        self.blocks: list[Block] = []
        own = Block(f"variant {self.variant.name}", start, max_moves if self.generic else self.table.size, self.table)
        self.blocks.append(own)
        start += own.size
        self.rule_blocks: list[Block] = []
        for name, table in rule_encodings(flow):
            block = Block(f"house rule {name}", start, table.size, table)
            self.rule_blocks.append(block)
            self.blocks.append(block)
            start += table.size
        #: moves no encoding numbers land here (only where house rules may add such moves)
        self.overflow = None
        if not self.generic and getattr(flow.hooks, "house_rules", ()):
            self.overflow = Block("overflow", start, overflow, None)
            self.blocks.append(self.overflow)
            start += overflow
        self.size = start
        #: moves that took an overflow id so far (the kit reports their rule as having no stable ids)
        self.overflowed: set[str] = set()

    def _encoded(self, block: Block, position: Any, move: Any) -> int:
        action = block.table.encode(position, move)
        if action is None:
            return -1
        if not 0 <= action < block.size:
            raise PluginError(f"{block.owner}: its action encoding gave {move!r} the id {action}, outside 0..{block.size - 1}")
        return block.start + action

    def legal(self, node: Node) -> dict[int, Any]:
        """Action id -> move for the legal moves at a decision node, ids ascending."""
        if node.kind != DECISION:
            return {}
        found: dict[int, Any] = {}
        k = spilled = 0
        own, rules, overflow = self.blocks[0], self.rule_blocks, self.overflow
        for move in node.moves:
            if isinstance(move, Control):
                action = CONTROL_IDS[move]
            else:
                action = -1
                for block in rules:  # a rule's own encoding first: it knows its moves
                    action = self._encoded(block, node.position, move)
                    if action >= 0:
                        break
                if action < 0 and self.generic:
                    action = CONTROLS + k
                    k += 1
                    if k > own.size:
                        raise PluginError(
                            f"variant {self.variant.name}: {k} legal moves or more, beyond max_moves={own.size}; raise max_moves"
                        )
                elif action < 0:
                    try:
                        action = self._encoded(own, node.position, move)
                    except _NOT_ITS_MOVE:
                        if overflow is None:
                            raise  # no house rule in force: the variant's encoding is wrong
                        action = -1
                    if action < 0:
                        if overflow is None:
                            raise PluginError(f"variant {self.variant.name}: its action encoding gives {move!r} no id")
                        if spilled >= overflow.size:
                            raise PluginError(
                                f"more than {overflow.size} legal moves no encoding numbers (house rules' moves); give the rule an action_encoding (docs/interop.md)"
                            )
                        action = overflow.start + spilled
                        spilled += 1
                        self.overflowed.add(type(move).__name__)
            if action in found:
                raise PluginError(f"variant {self.variant.name}: the action encodings give two legal moves the id {action}")
            found[action] = move
        return dict(sorted(found.items()))

    def name(self, node: Node, action: int, legal: dict[int, Any] | None = None) -> str:
        """The action in the variant's notation where it is legal, else as the encoding spells it."""
        legal = self.legal(node) if legal is None else legal
        move = legal.get(action)
        if move is not None:
            return format_move(self.variant, move)
        for control, number in CONTROL_IDS.items():
            if action == number:
                return control.value
        for block in self.blocks:
            if block.start <= action < block.start + block.size:
                if block.table is not None and hasattr(block.table, "describe"):
                    return block.table.describe(action - block.start)
                where = "" if block is self.blocks[0] else f" ({block.owner})"
                return f"move #{action - block.start + 1}{where}"
        return f"action {action}"


def position_numbers(value: Any) -> list[float]:
    """A position's fields as numbers, depth first: a bool or number is itself,
    ``None`` is 0, an enum is its value's numbers (or its place among its
    members), a tuple / list / NamedTuple / dataclass its items' numbers in
    order; text is left out (notation, not state: give the variant an
    ``observation`` to count it)."""
    import dataclasses
    import enum

    if value is None:
        return [0.0]
    if isinstance(value, bool):
        return [1.0 if value else 0.0]
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, enum.Enum):
        inner = value.value
        return [float(inner)] if isinstance(inner, (int, float)) and not isinstance(inner, bool) else [float(list(type(value)).index(value))]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = tuple(getattr(value, f.name) for f in dataclasses.fields(value))
    if isinstance(value, (tuple, list)):
        out: list[float] = []
        for item in value:
            out.extend(position_numbers(item))
        return out
    return []


class FieldObservation:
    """The generic observation: :func:`position_numbers` of the position, then
    the seat to move counted from the observer (one-hot).  Its size is set by
    the first position (the setup's, seed 0); a later position with more
    numbers is cut to it, one with fewer padded with zeros, so a variant
    whose tuples grow should define its own ``observation(players)``."""

    def __init__(self, sample: Any, players: int) -> None:
        self.players = players
        self.fields = len(position_numbers(sample))
        self.size = self.fields + players

    def encode(self, position: Any, seat: int) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        numbers = position_numbers(position)[: self.fields]
        out[: len(numbers)] = numbers
        out[self.fields + (position.to_move - seat) % self.players] = 1
        return out


def field_observation(variant: Any, players: int) -> FieldObservation:
    """The generic observation for ``variant`` (what a scaffolded variant's
    ``observation()`` returns until its designer writes one)."""
    return FieldObservation(variant.hooks.treehouse_setup(variant, players, __import__("random").Random(0)), players)


class _Notation:
    """What is pending and the position in notation, for a game's ``flow``."""

    flow: GameFlow

    def text(self, node: Node) -> str:
        """The position in the variant's notation, and what is pending."""
        if node.position is None:
            return "setup: the layout is drawn"
        return f"{self.flow.variant.format_position(node.position)} {self.pending(node)}"

    def pending(self, node: Node) -> str:
        """What the game waits for, in brackets: ``[act rolled WILD]``, ``[place drew red]`` (a setup draw), ``[fence: roll]``, ``[over: ...]``."""
        if node.position is None:
            return "[setup: the layout is drawn]"
        if node.kind == DECISION:
            face = f" {chance_verb(node.steps[0])} {node.face}" if node.face is not None else ""
            return f"[{node.steps[0].name}{face}]"
        if node.kind == TERMINAL:
            return f"[over: {node.outcome.reason}]"
        return f"[{node.steps[0].name}: roll]"


class Observation(_Notation):
    """What a seat sees, as numbers: the variant's vector (its own or the
    generic one), each house rule's (those that define ``observation``, by
    name), the turns started so far, then the face pending.

    The turn count is the engine's, not the position's: under a turn cap a
    position's value depends on how many turns are left, so a learner that
    cannot see it sees two states as one (OpenSpiel's observation of a
    perfect-information game is the whole state)."""

    #: every number is 0 or more; counts have no bound of their own
    high = OBSERVATION_HIGH

    def __init__(self, flow: GameFlow) -> None:
        self.flow = flow
        own = flow.variant.observation(flow.players)
        if own is None:  # the generic one, from the position's fields
            own = FieldObservation(flow._call(flow.hooks.treehouse_setup, flow.variant, flow.players, __import__("random").Random(0)), flow.players)
        #: ``(owner, table)``: the variant's first, then the house rules'
        self.tables = [(f"variant {flow.variant.name}", own)] + [(f"house rule {name}", table) for name, table in rule_tables(flow, "observation")]
        self.faces = len(flow.faces)
        self.size = sum(table.size for _owner, table in self.tables) + 1 + self.faces
        self.shape = (self.size,)

    def encode(self, node: Node, seat: int) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        at = 0
        for owner, table in self.tables:
            if node.position is not None:
                numbers = table.encode(node.position, seat)
                if len(numbers) != table.size:
                    raise PluginError(f"{owner}: its observation gave {len(numbers)} numbers, not its size {table.size}")
                out[at : at + table.size] = numbers
            at += table.size
        out[at] = node.turn
        at += 1
        if node.kind == DECISION and node.face in self.flow.face_ids:
            out[at + self.flow.face_ids[node.face]] = 1
        return out


#: House rules' numbers are counts: squashed into [0, 1) as ``n / (n + 1)`` in the planes.
RULE_COUNT_SCALE = 1.0
#: The turns started are divided by the turn cap; with no cap, squashed as ``t / (t + 50)``.
UNCAPPED_TURN_SCALE = 50.0


class PlaneObservation(_Notation):
    """What a seat sees, for learning (docs/interop.md, "Board planes"): the
    variant's board planes (its ``observation(players)`` table's ``board_planes()``:
    ``shape`` (C, H, W), ``plane_names``, ``scalar_names``, ``scalar_size`` and
    ``encode_planes(position, seat) -> (planes, scalars)``, every value in
    [0, 1]), then one constant plane per
    scalar: the variant's, each house rule's numbers (squashed), the turns
    started over the turn cap, and the face pending (one-hot).  One
    ``Box(0, 1, (channels, H, W))``, channels first, as a convolution takes it."""

    high = 1.0

    def __init__(self, flow: GameFlow, who: str = "observation") -> None:
        self.flow = flow
        own = flow.variant.observation(flow.players)
        offered = getattr(own, "board_planes", None)
        board = offered() if callable(offered) else None
        if board is None:
            raise TreehouseError(
                f"{who}: {flow.variant.name} has no board planes (its observation(players) offers no board_planes()); the observation offered is 'vector'"
            )
        self.board = board
        self.rules = [(f"house rule {name}", table) for name, table in rule_tables(flow, "observation")]
        channels, rows, columns = board.shape
        rule_names = [f"{owner} #{i + 1}" for owner, table in self.rules for i in range(table.size)]
        self.scalar_names = (*board.scalar_names, *rule_names, "turns started", *(f"face {face}" for face in flow.faces))
        self.channel_names = (*board.plane_names, *self.scalar_names)
        self.shape = (channels + len(self.scalar_names), rows, columns)
        self._board_channels = channels
        cap = flow.turn_cap
        self._turn_scale = (lambda turn: turn / cap) if cap else (lambda turn: turn / (turn + UNCAPPED_TURN_SCALE))

    def scalars(self, node: Node, seat: int) -> tuple[np.ndarray | None, np.ndarray]:
        """The board planes (``None`` before the setup) and every scalar, for ``seat`` at ``node``."""
        values = np.zeros(len(self.scalar_names), np.float32)
        planes = None
        at = self.board.scalar_size
        if node.position is not None:
            planes, own = self.board.encode_planes(node.position, seat)
            values[:at] = own
            for owner, table in self.rules:
                numbers = np.asarray(table.encode(node.position, seat), np.float32)
                if len(numbers) != table.size:
                    raise PluginError(f"{owner}: its observation gave {len(numbers)} numbers, not its size {table.size}")
                values[at : at + table.size] = numbers / (numbers + RULE_COUNT_SCALE)
                at += table.size
        else:
            at += sum(table.size for _owner, table in self.rules)
        values[at] = min(1.0, self._turn_scale(node.turn))
        if node.kind == DECISION and node.face in self.flow.face_ids:
            values[at + 1 + self.flow.face_ids[node.face]] = 1
        return planes, values

    def encode(self, node: Node, seat: int) -> np.ndarray:
        planes, values = self.scalars(node, seat)
        out = np.empty(self.shape, np.float32)
        channels = self._board_channels
        if planes is None:
            out[:channels] = 0
        else:
            out[:channels] = planes
        out[channels:] = values[:, None, None]
        return out


#: The observations the environments offer, by the name their ``observation=`` argument takes.
OBSERVATIONS = {"vector": Observation, "planes": PlaneObservation}


def observer(flow: GameFlow, kind: Any, who: str) -> Observation | PlaneObservation:
    """The observation named ``kind`` (``vector`` or ``planes``) for an environment; a bad one is one line naming ``who``."""
    from treehouse.errors import ConfigError

    if kind not in OBSERVATIONS:
        raise ConfigError(f"{who}: observation must be one of {', '.join(map(repr, OBSERVATIONS))}, not {kind!r}")
    if kind == "vector":
        return Observation(flow)
    try:
        return PlaneObservation(flow, f"{who}: observation='planes'")
    except TreehouseError as error:
        raise ConfigError(str(error)) from None
