"""Classic moves as integer ids, and positions as a vector of numbers (docs/interop.md).

For frameworks that want every move as a number (OpenSpiel, PettingZoo): a
classic move is known by its target and its result (two moves are equal when
they are), so its id is::

    target * 204 + rank(result)      target 0: your own trio, 1: the House

``rank`` is the trio's index among the 204 legal trios in notation order
(:func:`~treehouse.variants.classic.trio.all_trios`): 408 ids in all, stable
across positions and versions.  ``pass`` and ``reroll`` are not the
variant's: the adapter numbers them.

The observation for a seat is ``(players + 1) * 204 + players`` numbers:
one-hot the House's rank, then each trio's rank starting from the observing
seat's own and going round the table, then one-hot the seat to move counted
from the observer (0: the observer).
"""

from __future__ import annotations

import numpy as np

from treehouse.variants.classic.trio import all_trios, format_trio, trio_rank

TRIOS = len(all_trios())
TARGETS = ("own", "house")


class ClassicActions:
    """The ids of classic moves (see the module's docstring)."""

    size = len(TARGETS) * TRIOS

    def encode(self, position, move) -> int:
        target, rank, _result = move
        return TARGETS.index(target) * TRIOS + rank

    def describe(self, action: int) -> str:
        """An id as text, without a position: the action name comes with the move."""
        target, rank = divmod(action, TRIOS)
        prefix = "house:" if TARGETS[target] == "house" else ""
        return f"{prefix}{format_trio(all_trios()[rank])}"


class ClassicObservation:
    """A position seen by one seat, as numbers (see the module's docstring)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.size = (players + 1) * TRIOS + players

    def encode(self, position, seat: int) -> np.ndarray:
        players = self.players
        out = np.zeros(self.size, np.float32)
        out[trio_rank(position.house)] = 1
        for offset in range(players):
            out[(offset + 1) * TRIOS + trio_rank(position.trios[(seat + offset) % players])] = 1
        out[(players + 1) * TRIOS + (position.to_move - seat) % players] = 1
        return out
