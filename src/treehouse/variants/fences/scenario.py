"""Writing Fences positions by hand: name only the pieces that matter.

``complete(layout(c3="1", e5="2", a4="Mr>"), stacks="rgby,oygb")`` gives a
whole position in the notation: :func:`layout` writes the board rows with
the named squares filled, and :func:`complete` adds every Fence not named as
a Standing piece on an empty **Outside** square, preferring those out of
every Stack's row, column and reach, then those not next to a Stack.  So
spare Fences stay off the Inside, where they would block lines and moves
nobody asked for, and out of the lines of sight (Standing, they make none).
Only with ``spares_inside=True`` may a spare go Inside (when the Outside is
full), preferring squares out of every Stack's lines and reach.  Name
squares in ``empty`` to keep them clear.  It then sets the unused smalls
aside and appends the remaining fields.  Tests and docs examples use it;
the result is parsed by the variant like any other position.
"""

from __future__ import annotations

import re
from collections import Counter

from treehouse.variants.fences.board import AROUND, BY_NAME, OUTSIDE, RING, SIZE, at, same_line
from treehouse.variants.fences.position import COLOURS, COPIES, LETTER

_CELL = re.compile(r"[LM][roygb][*^>v<]|[1-9]|\.")


def _rows_of(grid: dict) -> str:
    rows = []
    for y in range(SIZE - 1, -1, -1):
        rows.append("".join(grid[s] for s in (at(x, y) for x in range(SIZE)) if s is not None))
    return "/".join(rows)


def layout(**cells: str) -> str:
    """Board rows with the named squares filled: ``layout(c3="1", a4="Mr>")``."""
    grid = {s: "." for s in BY_NAME.values()}
    for name, token in cells.items():
        grid[BY_NAME[name]] = token
    return _rows_of(grid)


def complete(
    rows: str,
    stacks: str = "rgby,oygb",
    destroyed: str | None = None,
    seat: int = 1,
    step: str = "act",
    turn: int = 0,
    aside: str | None = None,
    empty: tuple[str, ...] = (),
    spares_inside: bool = False,
) -> str:
    """A whole position from a partial board (rows as in the notation);
    the squares named in ``empty`` get no spare Fence, and spare Fences go
    Inside only with ``spares_inside``."""
    grid = {}
    for row_number, row in enumerate(rows.split("/")):
        y = SIZE - 1 - row_number
        squares = [s for s in (at(x, y) for x in range(SIZE)) if s is not None]
        tokens = _CELL.findall(row.replace(" ", ""))
        if len(tokens) != len(squares):
            raise ValueError(f"row {row_number + 1} {row!r}: {len(tokens)} cells, need {len(squares)}")
        grid.update(zip(squares, tokens))
    have = Counter(t[:2] for t in grid.values() if len(t) == 3)
    missing = [f"{size}{LETTER[c]}" for size in "LM" for c in COLOURS for _ in range(COPIES - have[f"{size}{LETTER[c]}"])]
    stacks_at = [s for s, t in grid.items() if t.isdigit()]
    keep = {BY_NAME[name] for name in empty}
    free = [s for s in (*RING, *sorted(set(BY_NAME.values()) - set(RING))) if grid[s] == "." and s not in keep]
    if not spares_inside:
        free = [s for s in free if s in OUTSIDE]

    def rank(square: int) -> int:
        near = any(square in AROUND[q] for q in stacks_at)
        in_line = any(same_line(square, q) for q in stacks_at)
        if square in OUTSIDE:  # every Outside square before any Inside one
            return 0 if not (near or in_line) else 1 if not near else 2
        return 3 if not (near or in_line) else 4

    for square in sorted(free, key=rank):
        if missing:
            grid[square] = missing.pop(0) + "*"
    if missing:
        where = "empty squares" if spares_inside else "empty Outside squares (spares_inside=True lets them go Inside)"
        raise ValueError(f"no {where} left for {len(missing)} more Fences")
    seats = stacks.split(",")
    if destroyed is None:
        destroyed = ",".join("-" for _ in seats)
    if aside is None:
        used = Counter(ch for part in (stacks, destroyed) for ch in part if ch in "roygb")
        left = Counter({LETTER[c]: COPIES for c in COLOURS}) - used
        aside = "".join(LETTER[c] * left[LETTER[c]] for c in COLOURS) or "-"
    return " ".join([_rows_of(grid), stacks, destroyed, aside, str(seat), step, str(turn)])
