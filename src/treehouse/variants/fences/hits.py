"""Hits and Damage: who is Hit at a check, by which piece and why, and what each Hit removes.

This module is the whole of the seed's Hit and Damage rules, kept apart from
the actions so it can be tested on its own.

A **check** runs at the end of every step.  Its Hits are :class:`Hit`
values, each naming the Stack Hit, its :class:`Cause` and the piece that
Hit it (a :class:`Source`: size, colour, square):

* the *attempt* Hits the step's move produced itself (a Stack trying to move
  onto a Fence, Outside, or onto another Stack; a Swap with an Outside Fence;
  an impossible action), which the actions module reports; and
* the *line* Hits: a Pointing Fence with only empty squares between it and a
  Stack.  A line Hits at a check when it is new (the Fence moved or was
  pointed, the Stack moved, or a blocker left), or when its Stack was
  "considered moved" without leaving its square (a bounce).  With the rule
  option ``line_hits: every_check`` every line Hits at every check.

One piece Hits a Stack at most once per check (:func:`one_per_piece`; the
rule option ``one_hit_per_piece: false`` counts each rule it meets).  The
Hits found then pass through the ``treehouse_fences_hits`` hook, which
house rules use to say which Hits stand.

**Damage** is then resolved simultaneously (:func:`resolve_damage`): colour
immunity is decided for every Hit against the Stack's top colour *before* any
piece is removed; each remaining Hit removes one small from the top.  A Stack
left empty is out at once.  What happened is reported as events
(:class:`HitReport`, :class:`StackOut`), the values ``th play``, ``th
replay``, records and the playtest statistics all read.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple

from treehouse.kernel.pieces import Direction, Pyramid, Size
from treehouse.variants.fences.board import COMPASS, NAMES, RAY
from treehouse.variants.fences.memo import SIZE, current, played_from
from treehouse.variants.fences.position import FencesPosition, sort_colours

_new = tuple.__new__


class Cause(StrEnum):
    """Why a Stack is Hit (the seed's list, plus the two actions that Hit)."""

    #: a Pointing Fence points at the Stack with only empty squares between, newly
    #: (the Fence moved or turned, the Stack moved, a blocker left) or, under
    #: ``line_hits: every_check``, at every check
    POINTED_AT = "pointed at"
    #: the Stack bounced (considered moved, though it stayed) in a line that was already there
    BOUNCED = "bounced"
    #: the Stack tried to move (step 3 or a Hop) onto a Fence and stayed
    MOVED_ONTO = "moved onto"
    #: another Stack tried to move onto this one (only the stationary Stack is Hit)
    STACK_MOVED_ONTO = "stack moved onto"
    #: the Stack tried to move (step 3 or a Hop) Outside and stayed: always Damages
    OUTSIDE = "attempted Outside"
    #: a Swap with an Outside Fence: the Stack stays and is Hit
    SWAP_OUTSIDE = "swapped with Outside"
    #: the rolled action was impossible: the Stack is Hit and Damaged
    IMPOSSIBLE = "impossible action"


class Source(NamedTuple):
    """The piece that Hits: a Fence (size ``L``/``M``, its colour, its square)
    or a Stack (size ``S``, its top colour, its square, and its ``seat``)."""

    size: Size
    colour: str
    square: int
    seat: int | None = None

    @property
    def is_fence(self) -> bool:
        return self.seat is None

    def describe(self) -> str:
        if self.seat is not None:
            return f"player {self.seat + 1}'s Stack ({self.colour} top) from {NAMES[self.square]}"
        return f"{self.size.value}({self.colour}) at {NAMES[self.square]}"


def fence_source(fence: Pyramid, square: int) -> Source:
    return Source(fence.size, fence.colour, square)


class Hit(NamedTuple):
    """One Hit on ``seat``'s Stack: its ``cause``, the piece that Hit it
    (``source``; ``None`` for an attempt to move Outside and an impossible
    action) and, for an attempt Outside, the Outside ``square`` tried.
    ``ignores_colour``: the Hit Damages whatever the Stack's top colour."""

    seat: int
    cause: Cause
    source: Source | None = None
    square: int | None = None
    ignores_colour: bool = False

    @property
    def colour(self) -> str | None:
        """The colour that makes the Stack immune when it is on top; ``None``:
        the Hit always Damages (no piece, or it ignores colour)."""
        if self.ignores_colour or self.source is None:
            return None
        return self.source.colour

    def why(self) -> str:
        """The Hit's cause in words: "moved onto M(red) at c4"."""
        cause, source = self.cause, self.source
        if cause is Cause.POINTED_AT:
            return f"{source.describe()} points at it"
        if cause is Cause.BOUNCED:
            return f"bounced in the line of {source.describe()}"
        if cause is Cause.MOVED_ONTO:
            return f"moved onto {source.describe()}"
        if cause is Cause.STACK_MOVED_ONTO:
            return f"{source.describe()} moved onto it"
        if cause is Cause.OUTSIDE:
            return f"tried to move Outside at {NAMES[self.square]}"
        if cause is Cause.SWAP_OUTSIDE:
            return f"swapped with {source.describe()}, Outside"
        return "the rolled action was impossible"


class HitReport(NamedTuple):
    """An event: a Hit as it was resolved.  ``top`` is the Stack's top colour
    at the check, ``lost`` the small this Hit removed (``None``: no Damage,
    because colour saved it or no small was left)."""

    hit: Hit
    top: str | None
    lost: str | None

    @property
    def saved(self) -> bool:
        """Colour immunity spared the Stack."""
        return self.lost is None and self.hit.colour is not None and self.hit.colour == self.top

    @property
    def impossible(self) -> bool:
        """The rolled action was impossible (counted in the playtest's impossible share)."""
        return self.hit.cause is Cause.IMPOSSIBLE

    def describe(self) -> str:
        player = f"Player {self.hit.seat + 1}"
        if self.lost is not None:
            return f"{player} loses {self.lost} ({self.hit.why()})"
        if self.saved:
            return f"{player} is Hit ({self.hit.why()}): {self.top} top, no damage"
        return f"{player} is Hit ({self.hit.why()}): no small left to lose"


class StackOut(NamedTuple):
    """An event: ``seat``'s Stack was emptied at check ``check`` and is out;
    ``fell_to`` is the Hit that took its last small."""

    seat: int
    check: int
    fell_to: Hit

    @property
    def eliminated(self) -> int:
        """The seat that went out (the CLI's game-over line says how)."""
        return self.seat

    def describe(self) -> str:
        return f"Player {self.seat + 1} is out: the last small went ({self.fell_to.why()})"


#: The direction back along each compass direction (a Fence pointing so faces the way it was met from).
BACK = {d: d.opposite for d in COMPASS}


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


def seen_from(board, square: int) -> list[tuple[Direction, int, object]]:
    """:func:`first_pieces`, kept in the memo in use by the board's identity: a
    check's new lines and the evaluation look from the same Stacks on the same
    boards after a move (:mod:`~treehouse.variants.fences.memo`)."""
    sights = current().sights
    key = (id(board), square)
    found = sights.get(key)
    if found is None or found[0] is not board:
        if len(sights) > SIZE:
            sights.clear()
        found = sights[key] = (board, first_pieces(board, square))
    return found[1]


@lru_cache(maxsize=1 << 11)
def lines(board) -> tuple[Line, ...]:
    """Every line of sight from a Pointing Fence to a Stack.

    Looks outward from each Stack along its row and column to the first
    piece (:func:`first_pieces`), and keeps it if it is a Fence pointing
    back: a few squares per Stack, whatever else moved.  Cached by board:
    a check compares the lines after a move with these lines of the board
    before (:func:`_line_changes`), and the bots try many moves from one board.
    The caches here are small on purpose: the bots reuse a board within one
    node of their search, and every board a cache holds is walked by each
    full garbage collection (larger caches cost more there than they save).
    """
    return tuple(_lines_from(board, stacks_on(board), first_pieces))


def _lines_from(board, stacks, look) -> list[Line]:
    """The lines of sight to ``stacks`` (``(square, seat)``, in square order),
    each Stack's ray walk given by ``look`` (:func:`first_pieces`, or its
    memo :func:`seen_from`)."""
    found = []
    for square, seat in stacks:
        for d, n, cell in look(board, square):
            if type(cell) is not int and cell.direction is BACK[d]:
                found.append(_new(Line, (n, cell, square, seat)))
    return found


@lru_cache(maxsize=1 << 11)
def _sightings(board) -> tuple[tuple[Line, Hit, Hit], ...]:
    """Each line of ``board`` with the Hit it makes when new (``POINTED_AT``)
    and when its Stack bounced (``BOUNCED``): made once per board, not per check."""
    found = []
    for line in lines(board):
        source = fence_source(line.fence, line.fence_square)
        found.append((line, Hit(line.seat, Cause.POINTED_AT, source), Hit(line.seat, Cause.BOUNCED, source)))
    return tuple(found)


def line_hits(before: FencesPosition, after: FencesPosition, moved: frozenset = frozenset(), every_check: bool = False) -> list[Hit]:
    """The line Hits of a check from ``before`` to ``after``.

    ``moved`` are the seats whose Stack is considered moved though it stayed
    on its square (it bounced); their lines Hit even if they were there before
    (cause ``BOUNCED``).

    Only what the move changed is new: when the board is the same (a Dig, a
    failed action, an attempt that bounced) no line is new and only the
    bounced Stacks' lines Hit; otherwise the lines after are compared with
    the lines before, once per pair of boards (:func:`_line_changes`, kept
    in the memo of the board before: :mod:`~treehouse.variants.fences.memo`).
    """
    board = after.board
    if every_check:
        return [pointed for _line, pointed, _bounced in _sightings(board)]
    if board is before.board:
        return [bounced for line, _pointed, bounced in _sightings(board) if line.seat in moved] if moved else []
    lines_from = played_from(before.board).lines
    known = lines_from.get(id(board))
    if known is None or known[0] is not board:
        known = lines_from[id(board)] = (board, *_line_changes(before.board, after))
    _board, new, entries = known
    if not moved:
        return list(new)
    return [pointed if fresh else bounced for fresh, seat, pointed, bounced in entries if fresh or seat in moved]


def _line_changes(before: tuple, after: FencesPosition) -> tuple[tuple[Hit, ...], tuple]:
    """The lines of position ``after`` against those of board ``before``: the
    Hits of the new ones, in order, and every line after as ``(new, seat,
    its POINTED_AT Hit, its BOUNCED Hit)`` (for the Stacks that bounced).

    The lines after are found as :func:`lines` finds them (Stacks in square
    order), but from the position's live Stacks rather than a scan of the
    board, and not through the caches by board value: each board after is
    met here once per board before (the memo keeps the answer), so hashing
    it would cost more than it saves."""
    old = lines(before)
    board = after.board
    stacks = sorted([(board.index(seat), seat) for seat, stack in enumerate(after.stacks) if stack])
    entries, new = [], []
    for line in _lines_from(board, stacks, seen_from):
        n, fence, _square, seat = line
        source = _new(Source, (fence.size, fence.colour, n, None))  # fence_source, without NamedTuple's Python __new__
        pointed = _new(Hit, (seat, Cause.POINTED_AT, source, None, False))
        fresh = line not in old
        entries.append((fresh, seat, pointed, _new(Hit, (seat, Cause.BOUNCED, source, None, False))))
        if fresh:
            new.append(pointed)
    return tuple(new), tuple(entries)


def one_per_piece(hits, swap_in_addition: bool = True) -> list[Hit]:
    """At most one Hit per piece and Stack: the first a piece makes (an
    attempt comes before a line).  Stepping into a Fence that already points
    at the Stack is then one Hit, not two (docs/rules/fences.md, Hits).
    A Swap with an Outside Fence Hits "in addition to any other Hits", so
    with ``swap_in_addition`` (``swap_outside_considered_moved``) it is never
    merged with a line of that Fence."""
    seen, kept = set(), []
    for hit in hits:
        if swap_in_addition and hit.cause is Cause.SWAP_OUTSIDE:
            kept.append(hit)
            continue
        if hit.source is not None:
            key = (hit.seat, hit.source)
            if key in seen:
                continue
            seen.add(key)
        kept.append(hit)
    return kept


def ignoring_colour(hit: Hit) -> Hit:
    """The same Hit, Damaging whatever the Stack's top colour.  The one way
    a Hit is made to ignore colour: a Swap with an Outside Fence
    (``swap_outside_ignores_colour``) and every Hit under the house rule
    ``no-colour-immunity``."""
    return hit._replace(ignores_colour=True)


def damage_counts(state: FencesPosition, hits) -> dict[int, int]:
    """Damage per seat: every Hit counts unless the Stack's top colour (as it
    is now, before anything is removed) matches the Hit's colour."""
    counts: dict[int, int] = {}
    for hit in hits:
        stack = state.stacks[hit.seat]
        if not stack:
            continue
        colour = hit.colour
        if colour is not None and stack[-1] == colour:
            continue  # colour immunity
        counts[hit.seat] = counts.get(hit.seat, 0) + 1
    return counts


def resolve_damage(state: FencesPosition, hits, check: int) -> tuple[FencesPosition, tuple]:
    """Resolve ``hits`` simultaneously: remove one top small per Damage, all
    at once; empty Stacks go out at ``check``.  Returns the position and the
    events: a :class:`HitReport` per Hit (in order; the Damaging Hits of a
    Stack take its smalls from the top down) and a :class:`StackOut` per
    Stack emptied."""
    if not hits:
        return state, ()
    stacks = state.stacks
    reports, fell, taken = [], {}, {}
    for hit in hits:
        seat = hit.seat
        stack = stacks[seat]
        if not stack:
            reports.append(_new(HitReport, (hit, None, None)))
            continue
        top = stack[-1]
        source = hit.source
        if source is not None and not hit.ignores_colour and top == source.colour:
            reports.append(_new(HitReport, (hit, top, None)))  # colour immunity
            continue
        n = taken.get(seat, 0)
        if n >= len(stack):
            reports.append(_new(HitReport, (hit, top, None)))  # nothing left to lose
            continue
        taken[seat] = n + 1
        reports.append(_new(HitReport, (hit, top, stack[len(stack) - 1 - n])))
        if n + 1 == len(stack):
            fell[seat] = hit
    if not taken:
        return state, tuple(reports)
    board, out = state.board, state.out
    stacks, destroyed = list(stacks), list(state.destroyed)
    for seat in sorted(taken):
        n = taken[seat]
        stack = stacks[seat]
        stacks[seat] = stack[: len(stack) - n]
        destroyed[seat] = _with_destroyed(destroyed[seat], stack[len(stack) - n :])
    if not fell:
        return _new(FencesPosition, (board, tuple(stacks), tuple(destroyed), *state[3:])), tuple(reports)
    out = list(out)
    for seat in fell:  # emptied: out at this check
        if seat in board:  # always, in play: Stacks are only Hit once placed
            cells = list(board)
            cells[board.index(seat)] = None
            board = tuple(cells)
        out[seat] = check
    after = _new(FencesPosition, (board, tuple(stacks), tuple(destroyed), state.aside, tuple(out), *state[5:]))
    events = tuple(reports) + tuple(StackOut(seat, check, hit) for seat, hit in sorted(fell.items()))
    return after, events


@lru_cache(maxsize=1 << 10)
def _with_destroyed(destroyed: tuple, removed: tuple) -> tuple:
    """A seat's destroyed smalls with ``removed`` added, sorted (a few colours: cached)."""
    return sort_colours(destroyed + removed)


def apply_damage(state: FencesPosition, hits, check: int) -> FencesPosition:
    """The position once ``hits`` are resolved (:func:`resolve_damage` without its events)."""
    return resolve_damage(state, hits, check)[0]
