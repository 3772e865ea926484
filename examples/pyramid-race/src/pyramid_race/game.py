"""Pyramid Race's rules: pure functions and an immutable position."""

from __future__ import annotations

from typing import NamedTuple

from pydantic import Field
from rich.text import Text

from treehouse.errors import IllegalPositionError, NotationError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.die import Die
from treehouse.kernel.engine import PASS, Outcome
from treehouse.kernel.pieces import Size
from treehouse.kernel.variant import Rules, Variant

D6 = Die("d6", ("1", "2", "3", "4", "5", "6"))
SIZES = (Size.SMALL, Size.MEDIUM, Size.LARGE)
#: how much shorter than the roll each size moves
SLOWNESS = {Size.SMALL: 0, Size.MEDIUM: 1, Size.LARGE: 2}


class RaceRules(Rules):
    length: int = Field(15, ge=3, le=60, description="Spaces from the start to home.")
    exact_finish: bool = Field(True, description="A pyramid must land exactly on home.")
    bump: bool = Field(True, description="Landing on an opponent's pyramid no larger than yours sends it back to the start.")


class RacePosition(NamedTuple):
    """Each player's (S, M, L) spaces, and the seat (0-based) to move."""

    spaces: tuple[tuple[int, int, int], ...]
    to_move: int = 0


class RaceMove(NamedTuple):
    """Move the pyramid of ``size`` to space ``to``.  Notation: ``S7``, ``L15``."""

    size: Size
    to: int


def _whole(token: str) -> int | None:
    """``token`` as a whole number, or None when it is not one: ``isdecimal()``
    admits only digits ``int()`` reads (``isdigit()`` admits '²'), and ``int()``
    refuses more than 4300 of them."""
    if not token.isdecimal():
        return None
    try:
        return int(token)
    except ValueError:
        return None


class Race(Variant):
    name = "race"
    aliases = ("pyramid-race",)
    description = "Roll a d6 and race your three pyramids home; bump the smaller ones back."
    min_players = 2
    max_players = 6
    die = D6
    Rules = RaceRules

    # -- notation --------------------------------------------------------

    def players_in(self, state: RacePosition) -> int:
        return len(state.spaces)

    def format_position(self, state: RacePosition) -> str:
        players = " | ".join(" ".join(str(space) for space in trio) for trio in state.spaces)
        return f"{players} :: {state.to_move + 1}"

    def parse_position(self, text: str) -> RacePosition:
        players, sep, mover = text.partition("::")
        if not sep:
            raise NotationError(f"bad race position {text!r}: expected 'S M L | S M L ... :: N', e.g. '0 0 0 | 3 1 0 :: 1'")
        spaces = []
        for part in players.split("|"):
            trio = tuple(_whole(token) for token in part.split())
            if len(trio) != 3 or None in trio:
                raise NotationError(f"bad player {part.strip()!r} in {text!r}: expected three spaces, e.g. '3 1 0'")
            if any(space > self.rules.length for space in trio):
                raise IllegalPositionError(f"{part.strip()!r} in {text!r}: the track has {self.rules.length} spaces")
            spaces.append(trio)
        if not self.min_players <= len(spaces) <= self.max_players:
            raise IllegalPositionError(f"{text!r} has {len(spaces)} players: race is played by {self.min_players} to {self.max_players}")
        seat = _whole(mover.strip())
        if seat is None or not 1 <= seat <= len(spaces):
            raise NotationError(f"bad player to move {mover.strip()!r} in {text!r}: expected 1 to {len(spaces)}")
        return RacePosition(tuple(spaces), seat - 1)

    def format_move(self, move: RaceMove) -> str:
        return f"{move.size.value}{move.to}"

    def parse_move(self, text: str) -> RaceMove:
        text = text.strip().upper()
        for size in SIZES:
            if text[:1] == size.value and _whole(text[1:]) is not None:
                return RaceMove(size, _whole(text[1:]))
        raise NotationError(f"bad race move {text!r}: expected a size and a space, e.g. S7 or L15")

    def describe_move(self, move) -> str:
        if move is PASS:
            return "pass (no pyramid can move)"
        where = "home" if move.to == self.rules.length else f"to space {move.to}"
        return f"move the {move.size.name.lower()} pyramid {where}"

    # -- the rules -------------------------------------------------------

    def target(self, space: int, size: Size, roll: int) -> int | None:
        """Where a pyramid on ``space`` lands with ``roll``, or None if it cannot move."""
        home = self.rules.length
        if space == home:
            return None
        landing = space + max(1, roll - SLOWNESS[size])
        if landing > home:
            return None if self.rules.exact_finish else home
        return landing

    @hookimpl
    def treehouse_setup(self, variant, players, rng):
        return RacePosition(((0, 0, 0),) * players, 0)

    @hookimpl
    def treehouse_legal_moves(self, state, step, face):
        mine = state.spaces[state.to_move]
        landings = ((size, self.target(space, size, int(face))) for size, space in zip(SIZES, mine))
        moves = tuple(RaceMove(size, to) for size, to in landings if to is not None)
        return moves or (PASS,)

    @hookimpl
    def treehouse_apply_move(self, state, step, move):
        mover, index = state.to_move, SIZES.index(move.size)
        spaces = [list(trio) for trio in state.spaces]
        spaces[mover][index] = move.to
        if self.rules.bump and move.to != self.rules.length:
            for seat, trio in enumerate(spaces):
                for other, space in enumerate(trio):
                    # An opponent's pyramid no larger than the one landing goes back to the start.
                    if seat != mover and space == move.to and other <= index:
                        trio[other] = 0
        return state._replace(spaces=tuple(tuple(trio) for trio in spaces))

    @hookimpl
    def treehouse_outcome(self, state, mover):
        for seat, trio in enumerate(state.spaces):
            if all(space == self.rules.length for space in trio):
                return Outcome((seat,), "all three pyramids home")
        return None

    @hookimpl
    def treehouse_end_turn(self, state):
        return state._replace(to_move=(state.to_move + 1) % len(state.spaces))

    @hookimpl
    def treehouse_render(self, state, console_width):
        text = Text()
        width = min(self.rules.length, max(10, console_width - 20))
        for seat, trio in enumerate(state.spaces):
            marker = "*" if seat == state.to_move else " "
            line = ["."] * (self.rules.length + 1)
            for size, space in zip(SIZES, trio):
                line[space] = size.value if line[space] == "." else line[space] + size.value
            text.append(f"{marker} Player {seat + 1}  ", style="bold")
            text.append(" ".join(line[: width + 1]) + "  home\n")
        return text
