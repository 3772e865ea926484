"""Seats: whoever picks the moves, a person or a bot, behind one interface."""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Seat(Protocol):
    """Anything that can pick a move.

    ``name`` is what records and reports call the seat (``"random"``,
    ``"human"``).  ``choose`` is given the position, the step, the face rolled
    (``None`` for a step without a roll), the non-empty tuple of legal moves,
    and the seat's own seeded ``random.Random``; it returns one of the moves.
    A seat that needs the game (a search bot wants the hooks) may define
    ``seated(game, index)``; the engine calls it once before play starts.
    """

    name: str

    def choose(self, state: Any, step: Any, face: str | None, moves: tuple, rng: random.Random) -> Any: ...


def seat_in(seat: Seat, game: Any, index: int) -> None:
    """Tell a seat which game and which chair it has, if it wants to know."""
    seated = getattr(seat, "seated", None)
    if seated is not None:
        seated(game, index)
