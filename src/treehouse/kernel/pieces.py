"""Pyramids and stacks: the physical pieces every game is played with.

A pyramid has a size, an optional colour and a direction.  Directions cover
both kinds of board: a piece on a line points left or right, a piece on a grid
points to one of the four compass directions, and on either it may stand
upright.  ``LEFT``/``RIGHT`` are aliases of ``WEST``/``EAST``, so "pointing
left" on a line and "pointing west" on a grid are one value.

Pieces are ``NamedTuple`` values with ``StrEnum`` fields: immutable, hashable
in C (positions built from them are hashed on the hot path), and equal by value.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Size(StrEnum):
    SMALL = "S"
    MEDIUM = "M"
    LARGE = "L"

    @property
    def pips(self) -> int:
        """1, 2 or 3: the number of pips printed on an Icehouse pyramid."""
        return _PIPS[self]


_PIPS = {Size.SMALL: 1, Size.MEDIUM: 2, Size.LARGE: 3}


class Direction(StrEnum):
    UP = "up"
    NORTH = "north"
    EAST = "east"
    SOUTH = "south"
    WEST = "west"
    # On a line, left and right are west and east.
    LEFT = "west"
    RIGHT = "east"

    @property
    def is_upright(self) -> bool:
        return self is Direction.UP

    @property
    def opposite(self) -> Direction:
        return _OPPOSITE[self]


_OPPOSITE = {
    Direction.UP: Direction.UP,
    Direction.NORTH: Direction.SOUTH,
    Direction.SOUTH: Direction.NORTH,
    Direction.EAST: Direction.WEST,
    Direction.WEST: Direction.EAST,
}

#: The directions a piece on a line may have.
LINE_DIRECTIONS = (Direction.UP, Direction.LEFT, Direction.RIGHT)
#: The directions a piece on a grid may have.
GRID_DIRECTIONS = (Direction.UP, Direction.NORTH, Direction.EAST, Direction.SOUTH, Direction.WEST)


class Pyramid(NamedTuple):
    """One Icehouse pyramid."""

    size: Size
    direction: Direction = Direction.UP
    colour: str | None = None

    @property
    def upright(self) -> bool:
        return self.direction is Direction.UP

    def pointing(self, direction: Direction) -> Pyramid:
        """The same pyramid turned to ``direction``."""
        return self._replace(direction=direction)


#: A stack is its pyramids from bottom to top.  A stack of one is a single piece.
Stack = tuple[Pyramid, ...]


def stands(stack: Stack) -> Stack:
    """The stack with every piece stood upright (what happens to a piece stacked on or under)."""
    return tuple(p if p.direction is Direction.UP else p.pointing(Direction.UP) for p in stack)


def is_upright_stack(stack: Stack) -> bool:
    """True when every piece of the stack stands upright: only such stacks can be tipped or hopped from."""
    return all(p.direction is Direction.UP for p in stack)
