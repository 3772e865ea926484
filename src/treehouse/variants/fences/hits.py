"""Hits and Damage: who is Hit at a check, and what each Hit removes.

This module is the whole of the seed's Hit and Damage rules, kept apart from
the actions so it can be tested on its own.

A **check** runs at the end of every step.  Its Hits are

* the *attempt* Hits the step's move produced itself (a Stack trying to move
  onto a Fence, Outside, or onto another Stack; a Swap with an Outside Fence;
  an impossible action), which the actions module reports as :class:`Hit`
  values; and
* the *line* Hits: a Pointing Fence with only empty squares between it and a
  Stack.  A line Hits at a check when it is new (the Fence moved or was
  pointed, the Stack moved, or a blocker left), or when its Stack was
  "considered moved" without leaving its square (a bounce).  With the rule
  option ``line_hits: every_check`` every line Hits at every check.

**Damage** is then resolved simultaneously (:func:`apply_damage`): colour
immunity is decided for every Hit against the Stack's top colour *before* any
piece is removed; each remaining Hit removes one small from the top.  A Stack
left empty is out at once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from treehouse.kernel.pieces import Direction, Pyramid
from treehouse.variants.fences.board import COMPASS, RAY, square_name
from treehouse.variants.fences.position import FencesPosition, sort_colours


class Hit(NamedTuple):
    """One Hit on ``seat``'s Stack.  ``colour`` is the colour that makes the
    Stack immune when it is on top; ``None`` means the Hit always Damages."""

    seat: int
    colour: str | None
    cause: str


class Line(NamedTuple):
    """A Pointing Fence with a clear view of a Stack."""

    fence_square: int
    fence: Pyramid
    stack_square: int
    seat: int


def stacks_on(board) -> list[tuple[int, int]]:
    """(square, seat) of every Stack on the board."""
    return [(s, c) for s, c in enumerate(board) if type(c) is int]


def first_pieces(board, square: int) -> list[tuple[Direction, int, object]]:
    """``(direction, square, cell)`` of the first piece met going each way
    along ``square``'s row and column (north first; none where the way is
    clear to the frame's edge).  The one ray walk of Fences: lines of sight
    here, and the bots' threats in :mod:`~treehouse.variants.fences.evaluate`."""
    found = []
    rays = RAY[square]
    for d in COMPASS:
        for n in rays[d]:
            cell = board[n]
            if cell is not None:
                found.append((d, n, cell))
                break
    return found


@lru_cache(maxsize=1 << 14)
def lines(board) -> tuple[Line, ...]:
    """Every line of sight from a Pointing Fence to a Stack.

    Looks outward from each Stack along its row and column to the first
    piece (:func:`first_pieces`), and keeps it if it is a Fence pointing
    back: a few squares per Stack, whatever else moved.  Cached by board:
    a check compares the board before a move with the one after, and the
    bots try many moves from one board (and many that end on the same one).
    """
    found = []
    for square, seat in stacks_on(board):
        for d, n, cell in first_pieces(board, square):
            if type(cell) is not int and cell.direction is d.opposite:
                found.append(Line(n, cell, square, seat))
    return tuple(found)


def line_hits(before: FencesPosition, after: FencesPosition, moved: frozenset = frozenset(), every_check: bool = False) -> list[Hit]:
    """The line Hits of a check from ``before`` to ``after``.

    ``moved`` are the seats whose Stack is considered moved though it stayed
    on its square (it bounced); their lines Hit even if they were there before.
    """
    old = set() if every_check else set(lines(before.board))
    hits = []
    for line in lines(after.board):
        if every_check or line.seat in moved or line not in old:
            hits.append(
                Hit(
                    line.seat,
                    line.fence.colour,
                    f"{line.fence.size.value}({line.fence.colour}) at {square_name(line.fence_square)} points at it",
                )
            )
    return hits


def ignoring_colour(hit: Hit) -> Hit:
    """The same Hit, Damaging whatever the Stack's top colour: a Hit with no
    colour never meets colour immunity.  The one way a Hit is made to ignore
    colour: a Swap with an Outside Fence (``swap_outside_ignores_colour``)
    and every Hit under the house rule ``no-colour-immunity``."""
    return hit._replace(colour=None)


def damage_counts(state: FencesPosition, hits) -> dict[int, int]:
    """Damage per seat: every Hit counts unless the Stack's top colour (as it
    is now, before anything is removed) matches the Hit's colour."""
    counts: dict[int, int] = {}
    for hit in hits:
        stack = state.stacks[hit.seat]
        if not stack:
            continue
        if hit.colour is not None and stack[-1] == hit.colour:
            continue  # colour immunity
        counts[hit.seat] = counts.get(hit.seat, 0) + 1
    return counts


def apply_damage(state: FencesPosition, hits, check: int) -> FencesPosition:
    """Remove one top small per Damage, all at once; empty Stacks go out at ``check``."""
    counts = damage_counts(state, hits)
    if not counts:
        return state
    board = list(state.board)
    stacks, destroyed, out = list(state.stacks), list(state.destroyed), list(state.out)
    for seat, n in counts.items():
        stack = stacks[seat]
        n = min(n, len(stack))
        removed = stack[len(stack) - n :]
        stacks[seat] = stack[: len(stack) - n]
        destroyed[seat] = sort_colours(destroyed[seat] + removed)
        if not stacks[seat]:
            if seat in board:  # always, in play: Stacks are only Hit once placed
                board[board.index(seat)] = None
            out[seat] = check
    return state._replace(board=tuple(board), stacks=tuple(stacks), destroyed=tuple(destroyed), out=tuple(out))
