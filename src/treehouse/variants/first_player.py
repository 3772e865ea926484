"""The first player: a rule option the built-in variants share (``first_player``).

The seeds leave the choice to the table (Fences: "Choose a first Player
(longest hair, shortest hair, most novel color of hair, etc.)"; classic:
"Whoever's holding the die goes first!").  The option says who: ``1`` (the
default, as the engine always played), any other seat by number, or
``drawn``: a seat drawn by the game's seed, the same seat for the same seed.
Turns then go round the table from that seat (seat numbers do not change).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, PlainValidator

from treehouse.errors import ConfigError


def _checked(value):
    """The option's value as written, if it is one: a seat number from 1 to 12
    (strict: ``true`` and ``"2"`` are not numbers) or the word ``drawn``."""
    if value == "drawn" or (type(value) is int and 1 <= value <= 12):
        return value
    raise ValueError("expected a seat number from 1 to 12, or drawn")


#: The option's type: a seat number from 1, or ``drawn``.
FirstPlayer = Annotated[int | str, PlainValidator(_checked)]

DESCRIPTION = (
    "Who plays first: 1 (seat 1, the default), a seat's number, or drawn: a seat drawn by the game's seed"
    " (the seeds: 'Choose a first Player'; classic: 'Whoever's holding the die goes first!')."
)


def first_player_field():
    """The ``first_player`` field of a variant's rules (default seat 1)."""
    return Field(1, description=DESCRIPTION)


def first_seat(first_player: int | str, players: int, rng) -> int:
    """The seat (0-based) that plays first in a game of ``players``: the one
    named, or under ``drawn`` one drawn from ``rng`` (the game's setup
    randomness; only then is it drawn from, so the other settings play the
    games they always did).  A seat the game does not have is a
    :class:`~treehouse.errors.ConfigError`, in one line."""
    if first_player == "drawn":
        return int(rng.random() * players)
    if first_player > players:
        raise ConfigError(f"first_player: {first_player}, but the game has {players} players: name a seat from 1 to {players}, or drawn")
    return first_player - 1
