"""How far apart two trios are: the exact number of actions between them.

The 204 trios and the five actions form a directed graph (an edge ``t -> u``
when some action turns ``t`` into ``u``; WILD adds no edge of its own, since
it is any of the five).  :func:`distances` runs a breadth-first search from
every trio and returns the 204x204 table of shortest path lengths (at most 5
with the official actions).

In a game the House moves too, so a position is judged against the House as
it stands at that moment: :func:`distance` is the number of actions the trio
needs to reach the current House (or its mirror image, when that wins), and a
House move is worth what it does to every player's distance at once.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from treehouse.variants.classic.actions import ACTIONS, results
from treehouse.variants.classic.trio import Trio, all_trios, mirror, trio_rank

#: Distance given to a trio that can never reach a target (does not happen with the
#: official actions, but a restricted rule set might cut the graph).
UNREACHABLE = 99


@lru_cache(maxsize=4)
def distances(dig_in_place: bool = True) -> tuple[tuple[int, ...], ...]:
    """``table[a][b]``: the fewest actions that turn trio ``a`` into trio ``b`` (by rank)."""
    trios = all_trios()
    successors = [
        sorted({trio_rank(r) for action in ACTIONS for r, _w in results(trio, action, dig_in_place)}) for trio in trios
    ]
    table = []
    for start in range(len(trios)):
        row = [UNREACHABLE] * len(trios)
        row[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in successors[here]:
                if row[there] == UNREACHABLE:
                    row[there] = row[here] + 1
                    queue.append(there)
        table.append(tuple(row))
    return tuple(table)


def distance(trio: Trio, house: Trio, dig_in_place: bool = True, mirror_matches: bool = False) -> int:
    """The exact number of actions ``trio`` needs to match ``house`` (or its mirror image, when that wins)."""
    table = distances(dig_in_place)
    d = table[trio_rank(trio)][trio_rank(house)]
    if mirror_matches:
        d = min(d, table[trio_rank(trio)][trio_rank(mirror(house))])
    return d


@lru_cache(maxsize=8)
def _targets(dig_in_place: bool, mirror_matches: bool) -> tuple[tuple[int, ...], ...]:
    """``table[house][trio]``: actions from the trio to the House (or its mirror image)."""
    table = distances(dig_in_place)
    trios = all_trios()
    rows = []
    for h, house in enumerate(trios):
        image = trio_rank(mirror(house)) if mirror_matches else h
        rows.append(tuple(min(table[t][h], table[t][image]) for t in range(len(trios))))
    return tuple(rows)


def distances_to(trios, house: Trio, dig_in_place: bool = True, mirror_matches: bool = False) -> list[int]:
    """:func:`distance` for each trio, against one House (the bots' hot path)."""
    row = _targets(dig_in_place, mirror_matches)[trio_rank(house)]
    return [*map(row.__getitem__, map(trio_rank, trios))]
