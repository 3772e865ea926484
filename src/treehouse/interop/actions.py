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
the adapter appends the face just rolled (one-hot over the die's faces, all
zero when no face is pending).  Without it a seat sees only that face and
the seat to move.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from treehouse.errors import PluginError, TreehouseError
from treehouse.interop.flow import DECISION, TERMINAL, GameFlow, Node
from treehouse.kernel.engine import PASS, REROLL, Control, format_move

CONTROL_IDS = {PASS: 0, REROLL: 1}
CONTROLS = len(CONTROL_IDS)
#: Legal moves the generic encoding numbers, unless the game says otherwise.
DEFAULT_MAX_MOVES = 256


class Actions:
    """The action ids of one game (a variant, a player count)."""

    def __init__(self, flow: GameFlow, max_moves: int = DEFAULT_MAX_MOVES) -> None:
        self.variant = flow.variant
        provided = getattr(self.variant, "action_encoding", None)
        self.table = provided(flow.players) if callable(provided) else None
        self.generic = self.table is None
        if self.generic and max_moves < 1:
            raise TreehouseError(f"max_moves must be at least 1, not {max_moves}")
        self.size = CONTROLS + (max_moves if self.generic else self.table.size)

    def legal(self, node: Node) -> dict[int, Any]:
        """Action id -> move for the legal moves at a decision node, ids ascending."""
        if node.kind != DECISION:
            return {}
        found: dict[int, Any] = {}
        k = 0
        for move in node.moves:
            if isinstance(move, Control):
                action = CONTROL_IDS[move]
            elif self.generic:
                action = CONTROLS + k
                k += 1
                if action >= self.size:
                    raise PluginError(
                        f"variant {self.variant.name}: {k} legal moves or more, beyond max_moves={self.size - CONTROLS}; raise max_moves"
                    )
            else:
                action = CONTROLS + self.table.encode(node.position, move)
                if not CONTROLS <= action < self.size:
                    raise PluginError(f"variant {self.variant.name}: its action encoding gave {move!r} the id {action - CONTROLS}, outside 0..{self.size - CONTROLS - 1}")
            if action in found:
                raise PluginError(f"variant {self.variant.name}: its action encoding gives two legal moves the id {action - CONTROLS}")
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
        if not self.generic and hasattr(self.table, "describe"):
            return self.table.describe(action - CONTROLS)
        return f"move #{action - CONTROLS + 1}"


class Observation:
    """What a seat sees, as numbers: the variant's vector (if it has one), the face pending, the seat to move."""

    def __init__(self, flow: GameFlow) -> None:
        self.flow = flow
        provided = getattr(flow.variant, "observation", None)
        self.table = provided(flow.players) if callable(provided) else None
        self.faces = len(flow.faces)
        own = self.table.size if self.table is not None else flow.players
        self.size = own + self.faces

    def encode(self, node: Node, seat: int) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        own = self.size - self.faces
        if node.position is not None:
            if self.table is not None:
                out[:own] = self.table.encode(node.position, seat)
            else:
                out[(node.position.to_move - seat) % self.flow.players] = 1
        if node.kind == DECISION and node.face in self.flow.face_ids:
            out[own + self.flow.face_ids[node.face]] = 1
        return out

    def text(self, node: Node) -> str:
        """The position in the variant's notation, and what is pending."""
        if node.position is None:
            return "setup: the layout is drawn"
        position = self.flow.variant.format_position(node.position)
        if node.kind == DECISION:
            face = f" rolled {node.face}" if node.face is not None else ""
            return f"{position} [{node.steps[0].name}{face}]"
        if node.kind == TERMINAL:
            return f"{position} [over: {node.outcome.reason}]"
        return f"{position} [{node.steps[0].name}: roll]"

