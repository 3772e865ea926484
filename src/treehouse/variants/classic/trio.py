"""Trios on a line and their pinned notation.

A trio is its stacks from left to right; a stack is its pieces from bottom to
top.  Notation (relied on by tools outside the project, so it is pinned):

* stacks are separated by single spaces: ``L< S^ M>``;
* a stack's pieces are joined by ``/``, bottom first: ``L^/M^/S^``;
* a piece is its size letter and its direction: ``^`` upright, ``<`` left,
  ``>`` right.  On input a piece with no direction is upright, sizes may be
  lower case, and extra spaces are ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import permutations, product

from treehouse.errors import IllegalPositionError, NotationError
from treehouse.kernel.pieces import LINE_DIRECTIONS, Direction, Pyramid, Size, Stack

#: A trio: its stacks from left to right.
Trio = tuple[Stack, ...]

GLYPHS = {Direction.UP: "^", Direction.LEFT: "<", Direction.RIGHT: ">"}
_DIRECTION_OF = {glyph: direction for direction, glyph in GLYPHS.items()}
_SIZE_OF = {size.value: size for size in Size}
SIZES = (Size.LARGE, Size.MEDIUM, Size.SMALL)
PIECE_HINT = "a size S, M or L, then ^ (upright), < (left) or > (right)"


def piece(text: str) -> Pyramid:
    """``"L<"`` -> the large pyramid pointing left."""
    return _parse_piece(text, text)


def format_piece(p: Pyramid) -> str:
    return p.size.value + GLYPHS[p.direction]


def format_stack(stack: Stack) -> str:
    return "/".join(format_piece(p) for p in stack)


@lru_cache(maxsize=None)
def format_trio(trio: Trio) -> str:
    """The canonical notation of a trio (cached: there are only 204)."""
    return " ".join(format_stack(stack) for stack in trio)


def _parse_piece(token: str, whole: str) -> Pyramid:
    size = _SIZE_OF.get(token[:1].upper())
    rest = token[1:]
    if size is None or len(rest) > 1 or (rest and rest not in _DIRECTION_OF):
        raise NotationError(f"bad piece {token!r} in {whole!r}: expected {PIECE_HINT}, e.g. L^/M^/S^")
    return Pyramid(size, _DIRECTION_OF[rest] if rest else Direction.UP)


@lru_cache(maxsize=4096)
def parse_trio(text: str) -> Trio:
    """Read a trio, checking both its spelling and the rules of a trio."""
    stacks = text.split()
    if not stacks:
        raise NotationError("empty trio: expected stacks such as 'L< S^ M>' or 'L^/M^/S^'")
    trio = tuple(_parse_stack(stack, text) for stack in stacks)
    check_trio(trio)
    return trio


def _parse_stack(token: str, whole: str) -> Stack:
    parts = token.split("/")
    if not all(parts):
        raise NotationError(f"bad stack {token!r} in {whole!r}: a stack is pieces joined by '/', e.g. L^/M^/S^")
    return tuple(_parse_piece(part, whole) for part in parts)


def check_trio(trio: Trio) -> None:
    """Raise :class:`IllegalPositionError` unless ``trio`` is one S, one M and one L,
    on one to three stacks, with every stacked piece upright."""
    text = format_trio(trio)
    sizes = [p.size for stack in trio for p in stack]
    for size in SIZES:
        count = sizes.count(size)
        if count > 1:
            raise IllegalPositionError(f"trio {text!r} has {count} {size.value} pieces; a trio is one S, one M and one L")
        if count == 0:
            raise IllegalPositionError(f"trio {text!r} has no {size.value}; a trio is one S, one M and one L")
    for stack in trio:
        if len(stack) > 1:
            for p in stack:
                if p.direction is not Direction.UP:
                    raise IllegalPositionError(
                        f"trio {text!r} has a lying piece ({format_piece(p)}) in a stack; only upright pieces stack"
                    )
        for p in stack:
            if p.direction not in GLYPHS:
                raise IllegalPositionError(f"trio {text!r}: a piece on a line points up, left or right")


def mirror(trio: Trio) -> Trio:
    """The trio seen in a mirror: stacks in reverse order, left and right swapped."""
    flip = {Direction.LEFT: Direction.RIGHT, Direction.RIGHT: Direction.LEFT, Direction.UP: Direction.UP}
    return tuple(tuple(p.pointing(flip[p.direction]) for p in stack) for stack in reversed(trio))


@lru_cache(maxsize=1)
def all_trios() -> tuple[Trio, ...]:
    """Every legal trio (there are 204), in notation order."""
    trios = set()
    for order in permutations(SIZES):
        trios.add((tuple(Pyramid(s) for s in order),))  # one stack of three
        two, single = tuple(Pyramid(s) for s in order[:2]), order[2]
        for d in LINE_DIRECTIONS:  # a stack of two beside a single piece, either side
            trios.add((two, (Pyramid(single, d),)))
            trios.add(((Pyramid(single, d),), two))
        for directions in product(LINE_DIRECTIONS, repeat=3):
            trios.add(tuple((Pyramid(s, d),) for s, d in zip(order, directions)))
    return tuple(sorted(trios, key=format_trio))


#: ``trio_rank(trio)``: the trio's index in :func:`all_trios` (0 to 203), a
#: KeyError for anything that is not a legal trio.  The dict's own lookup, as
#: the bots' evaluation ranks every trio of every position it judges.
trio_rank: Callable[[Trio], int] = {trio: rank for rank, trio in enumerate(all_trios())}.__getitem__
TREE: Trio = parse_trio("L^/M^/S^")
HOUSE: Trio = parse_trio("L< S^ M>")
