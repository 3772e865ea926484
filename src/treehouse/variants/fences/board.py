"""The Fences board: a 7x7 frame of squares, its names, neighbours and rays.

Squares are numbered ``y * 7 + x`` with ``x`` from west (0) to east (6) and
``y`` from south (0) to north (6).  The Inside is ``1 <= x, y <= 5`` (the 5x5
grid, named ``a1`` .. ``e5`` like a chess board: files a-e west to east,
ranks 1-5 south to north).  The Outside is the ring around it without its
corners: ``N1..N5`` along the north edge (above files a..e), ``S1..S5`` along
the south edge, ``W1..W5`` along the west edge (beside ranks 1..5) and
``E1..E5`` along the east edge.  The four corners are not squares at all.

Two squares are adjacent when they are one step apart in a row or a column.
So an Outside square touches its neighbours along the same edge and the one
Inside square in front of it, and the four edges do not touch each other
(there is no corner to turn through).
"""

from __future__ import annotations

from treehouse.kernel.pieces import Direction

SIZE = 7
FILES = "abcde"

NORTH, EAST, SOUTH, WEST = Direction.NORTH, Direction.EAST, Direction.SOUTH, Direction.WEST
#: The four compass directions, in the order moves are listed.
COMPASS = (NORTH, EAST, SOUTH, WEST)
DELTA = {NORTH: (0, 1), EAST: (1, 0), SOUTH: (0, -1), WEST: (-1, 0)}


def xy(square: int) -> tuple[int, int]:
    return square % SIZE, square // SIZE


def at(x: int, y: int) -> int | None:
    """The square at ``(x, y)``, or ``None`` off the frame or at a corner."""
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        return None
    if x in (0, SIZE - 1) and y in (0, SIZE - 1):
        return None
    return y * SIZE + x


def _is_inside(square: int) -> bool:
    x, y = xy(square)
    return 1 <= x <= 5 and 1 <= y <= 5


#: Every square of the frame, in index order (south-west first).
SQUARES = tuple(s for s in range(SIZE * SIZE) if at(*xy(s)) is not None)
INSIDE = frozenset(s for s in SQUARES if _is_inside(s))
OUTSIDE = frozenset(s for s in SQUARES if not _is_inside(s))
#: Outside squares in setup order: north W->E, east N->S, south E->W, west S->N (clockwise).
RING = tuple(
    [at(x, 6) for x in range(1, 6)]
    + [at(6, y) for y in range(5, 0, -1)]
    + [at(x, 0) for x in range(5, 0, -1)]
    + [at(0, y) for y in range(1, 6)]
)


def _name(square: int) -> str:
    x, y = xy(square)
    if y == 6:
        return f"N{x}"
    if y == 0:
        return f"S{x}"
    if x == 0:
        return f"W{y}"
    if x == 6:
        return f"E{y}"
    return f"{FILES[x - 1]}{y}"


NAMES = {s: _name(s) for s in SQUARES}
BY_NAME = {name: s for s, name in NAMES.items()}

#: NEIGHBOUR[square][direction]: the adjacent square that way, or None.
NEIGHBOUR = {
    s: {d: at(xy(s)[0] + DELTA[d][0], xy(s)[1] + DELTA[d][1]) for d in COMPASS} for s in SQUARES
}
#: RAY[square][direction]: the squares met going that way, nearest first, to the frame's edge.
RAY: dict[int, dict[Direction, tuple[int, ...]]] = {}
for _s in SQUARES:
    RAY[_s] = {}
    for _d in COMPASS:
        _line, _n = [], NEIGHBOUR[_s][_d]
        while _n is not None:
            _line.append(_n)
            _n = NEIGHBOUR[_n][_d]
        RAY[_s][_d] = tuple(_line)
#: The squares around each square (up to four), north first.
AROUND = {s: tuple(n for n in (NEIGHBOUR[s][d] for d in COMPASS) if n is not None) for s in SQUARES}
#: INWARD[square]: the directions whose next square is Inside (:func:`inward`), north first.
INWARD = {s: tuple(d for d in COMPASS if NEIGHBOUR[s][d] in INSIDE) for s in SQUARES}


def square_name(square: int) -> str:
    return NAMES[square]


def inward(square: int) -> tuple[Direction, ...]:
    """The directions from ``square`` whose next square is Inside ("toward an Inside space")."""
    return INWARD[square]


def same_line(a: int, b: int) -> bool:
    """True when two squares share a row or a column."""
    return a % SIZE == b % SIZE or a // SIZE == b // SIZE


#: The direction from a square to each adjacent one, by the pair.
_BETWEEN = {(a, NEIGHBOUR[a][d]): d for a in SQUARES for d in COMPASS if NEIGHBOUR[a][d] is not None}


def direction_between(a: int, b: int) -> Direction | None:
    """The direction from ``a`` to the adjacent square ``b``, if they are adjacent."""
    return _BETWEEN.get((a, b))
