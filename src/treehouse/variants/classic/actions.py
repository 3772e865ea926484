"""The five actions of classic Treehouse, as pure functions on a trio.

Each generator yields ``(result, words)`` for every way to perform the action,
``words`` describing it for people ("hop S^ onto L>").  :func:`results` keeps
the distinct results that differ from the trio: a result equal to the trio is
a pass, and a pass is never a move.  Everything is cached per trio, since
there are only 204 trios.

How each action reads (see docs/rules/classic.md for the sources):

* TIP: an upright stack (or single upright piece) falls left or right.  The
  bottom piece stays on the stack's spot; each higher piece lies one step
  further in the fall's direction.  All point the way it fell.
* AIM: a single piece turns to one of its two other directions.
* HOP: an upright piece jumps, carrying what is above it, to any gap in the
  line (ends included) or onto any other stack, standing up what it lands on.
* DIG: a lying piece surfaces upright in place (rule option), at any gap past
  at least one stack in the direction it points, or underneath any stack in
  that direction (which then stands on top of it).
* SWAP: two pieces exchange places; a piece keeps its direction unless it
  enters a stack of two or more, where it stands up.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterator

from treehouse.kernel.pieces import LINE_DIRECTIONS, Direction, Pyramid, Stack, is_upright_stack, stands
from treehouse.variants.classic.trio import Trio, format_piece, format_stack, format_trio

ACTIONS = ("TIP", "SWAP", "HOP", "DIG", "AIM")
WORDS = {Direction.UP: "up", Direction.LEFT: "left", Direction.RIGHT: "right"}

Option = tuple[Trio, str]


def _replace(trio: Trio, index: int, stacks: tuple[Stack, ...]) -> Trio:
    return trio[:index] + stacks + trio[index + 1 :]


def _gap(line: Trio, index: int) -> str:
    """Words for the gap before ``line[index]``."""
    if index == 0:
        return "to the left end"
    if index == len(line):
        return "to the right end"
    return f"between {format_stack(line[index - 1])} and {format_stack(line[index])}"


def tips(trio: Trio, dig_in_place: bool = True) -> Iterator[Option]:
    for i, stack in enumerate(trio):
        if not is_upright_stack(stack):
            continue
        for fall in (Direction.LEFT, Direction.RIGHT):
            # Bottom piece stays put; higher pieces land further along the fall.
            order = stack if fall is Direction.RIGHT else tuple(reversed(stack))
            yield _replace(trio, i, tuple((p.pointing(fall),) for p in order)), f"tip {format_stack(stack)} {WORDS[fall]}"


def aims(trio: Trio, dig_in_place: bool = True) -> Iterator[Option]:
    for i, stack in enumerate(trio):
        if len(stack) != 1:
            continue
        piece = stack[0]
        for direction in LINE_DIRECTIONS:
            if direction is not piece.direction:
                yield _replace(trio, i, ((piece.pointing(direction),),)), f"aim {format_piece(piece)} {WORDS[direction]}"


def hops(trio: Trio, dig_in_place: bool = True) -> Iterator[Option]:
    for i, stack in enumerate(trio):
        for level, piece in enumerate(stack):
            if not piece.upright:
                continue
            group, below = stack[level:], stack[:level]
            line = _replace(trio, i, (below,) if below else ())
            what = format_stack(group)
            for gap in range(len(line) + 1):
                yield line[:gap] + (group,) + line[gap:], f"hop {what} {_gap(line, gap)}"
            for j, target in enumerate(line):
                yield _replace(line, j, (stands(target) + group,)), f"hop {what} onto {format_stack(target)}"


def digs(trio: Trio, dig_in_place: bool = True) -> Iterator[Option]:
    for i, stack in enumerate(trio):
        piece = stack[0]
        if len(stack) != 1 or piece.upright:
            continue
        risen = (piece.pointing(Direction.UP),)
        what = format_piece(piece)
        if dig_in_place:
            yield _replace(trio, i, (risen,)), f"dig {what} in place"
        line = trio[:i] + trio[i + 1 :]
        rightwards = piece.direction is Direction.RIGHT
        for j in range(i, len(line)) if rightwards else range(i - 1, -1, -1):
            yield _replace(line, j, (risen + stands(line[j]),)), f"dig {what} under {format_stack(line[j])}"
            gap = j + 1 if rightwards else j  # the gap just past stack j
            yield line[:gap] + (risen,) + line[gap:], f"dig {what} {_gap(line, gap)}"


def swaps(trio: Trio, dig_in_place: bool = True) -> Iterator[Option]:
    places = [(i, level) for i, stack in enumerate(trio) for level in range(len(stack))]
    for a, (i, k) in enumerate(places):
        for j, m in places[a + 1 :]:
            first, second = trio[i][k], trio[j][m]
            stacks = [list(stack) for stack in trio]
            stacks[i][k] = _entering(second, trio[i])
            stacks[j][m] = _entering(first, trio[j])
            yield tuple(tuple(s) for s in stacks), f"swap {format_piece(first)} and {format_piece(second)}"


def _entering(piece: Pyramid, stack: Stack) -> Pyramid:
    """A piece keeps its direction unless it enters a stack of two or more."""
    return piece.pointing(Direction.UP) if len(stack) > 1 else piece


GENERATORS: dict[str, Callable[..., Iterator[Option]]] = {
    "TIP": tips,
    "SWAP": swaps,
    "HOP": hops,
    "DIG": digs,
    "AIM": aims,
}


@lru_cache(maxsize=None)
def results(trio: Trio, action: str, dig_in_place: bool = True) -> tuple[Option, ...]:
    """The distinct results of ``action`` on ``trio`` (never ``trio`` itself),
    each with the words of the first way found to reach it, in notation order."""
    seen: dict[Trio, str] = {}
    for result, words in GENERATORS[action](trio, dig_in_place):
        if result != trio and result not in seen:
            seen[result] = words
    return tuple(sorted(seen.items(), key=lambda item: format_trio(item[0])))


def wild_results(trio: Trio, dig_in_place: bool = True, actions: tuple[str, ...] = ACTIONS) -> tuple[tuple[str, Trio, str], ...]:
    """``(action, result, words)`` for every distinct result of any of ``actions``
    (the five by default), the first action that makes a result naming it."""
    seen: dict[Trio, tuple[str, Trio, str]] = {}
    for action in actions:
        for result, words in results(trio, action, dig_in_place):
            seen.setdefault(result, (action, result, words))
    return tuple(seen.values())


def blocked_actions(trio: Trio, dig_in_place: bool = True) -> tuple[str, ...]:
    """The actions that cannot be done to ``trio`` (no result changes it):
    under ``wild_choice: own_first`` the ones a WILD may take to the House."""
    return tuple(action for action in ACTIONS if not results(trio, action, dig_in_place))
