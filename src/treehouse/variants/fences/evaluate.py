"""How good a Fences position is for one seat: the score the looking-ahead bots use.

:func:`evaluate` is a pure function of the position; the Fences variant
answers the ``treehouse_evaluate`` hook with it.  What it values, per Stack
(``seat``'s own, and each live opponent's):

* **smalls left** (damage taken): 10 points a small.  Losing a small is worth
  more than anything positional below;
* **threats** (damage threatened), looking from the Stack along its row and
  column to the first piece each way.  A Fence whose colour differs from the
  Stack's top colour costs 3 if it already points at the Stack (that line
  Hits again whenever the Stack moves or bounces), 1.5 if it is Standing
  (one Tip or Aim turns it on the Stack) and 1 if it points elsewhere;
* **top-colour match with nearby Fences**: a Fence of the Stack's top colour
  cannot Damage it (colour immunity) and shields the line behind it, so it
  costs nothing and earns 0.5;
* **room to move**: step 3 always moves the Stack, so each neighbouring
  square it can step onto without Damage (an empty Inside square, or a Fence
  of its top colour) earns 0.5, and a Stack with none loses 2 more.

The threats and the squares to step onto are judged as the Hits they would
make (:func:`threatened_hits`), through the same ``treehouse_fences_hits``
hook that resolution uses: a Fence whose Hit a house rule removes (say, a
medium one under ``large-fences-only``) shields like one of the top colour,
and a Hit that ignores colour (``no-colour-immunity``) is a threat whatever
its colour.  So a house rule changes what the bots believe without a copy of
this module.

During the setup (``start: chosen``) a seat that has drawn nothing yet is
not out, and counts for nothing: a placing player is scored against the
Stacks already placed, so it weighs the squares on offer by the threats,
shields and room each would give its one small.

The score is the seat's own Stack value minus the best live opponent's
(opponents' damage counts for the seat): 1000 for the last Stack standing,
-1000 for a seat that is out.
"""

from __future__ import annotations

from typing import Callable

from treehouse.kernel.pieces import Direction
from treehouse.variants.fences.board import AROUND, INSIDE
from treehouse.variants.fences.hits import Cause, Hit, fence_source, first_pieces, seen_from
from treehouse.variants.fences.memo import SIZE, current
from treehouse.variants.fences.position import PLACE_PHASE, FencesPosition

#: Which of some Hits stand: the ``treehouse_fences_hits`` hook, bound to a position.
Stand = Callable[[tuple], "tuple | list"]

SMALL = 10.0
POINTING_AT = 3.0
STANDING = 1.5
POINTING_AWAY = 1.0
SHIELD = 0.5
ROOM = 0.5
BOXED_IN = 2.0
WON = 1000.0


def stack_value(state: FencesPosition, seat: int, stand: Stand | None = None) -> float:
    """The value of one live Stack: smalls, less the threats, plus shields and room.

    ``stand`` says which Hits stand (the ``treehouse_fences_hits`` hook, when a
    house rule answers it): the threats and the squares to step onto are
    judged as the Hits they would be.  ``None``: every Hit stands, as the
    seed has it."""
    stack = state.stacks[seat]
    if not stack:
        return 0.0
    square = state.square_of(seat)
    top = stack[-1]
    if stand is None:
        return _placed_value(state.board, square, seat, top, len(stack))
    return placed_value(state.board, square, seat, top, len(stack), stand)


def threatened_hits(board: tuple, square: int, seat: int) -> tuple[list, list]:
    """The Hits a placed Stack is threatened with: one per Fence first met along
    its row and column (``POINTED_AT``: the Hit it makes once it points at the
    Stack), and one per Fence next to it (``MOVED_ONTO``: stepping onto it)."""
    lines = [(d, cell, Hit(seat, Cause.POINTED_AT, fence_source(cell, n))) for d, n, cell in first_pieces(board, square) if type(cell) is not int]
    onto = []
    for n in AROUND[square]:
        cell = board[n]
        if cell is not None and type(cell) is not int:
            onto.append(Hit(seat, Cause.MOVED_ONTO, fence_source(cell, n)))
    return lines, onto


def placed_value(board: tuple, square: int, seat: int, top: str, smalls: int, stand: Stand | None = None) -> float:
    """A placed Stack's value from the board, its square and top colour and
    its smalls; ``stand`` as in :func:`stack_value`."""
    lines, onto = threatened_hits(board, square, seat)
    judged = None
    if stand is not None:
        judged = {(h.seat, h.cause, h.source): h for h in stand(tuple(hit for _d, _cell, hit in lines) + tuple(onto))}
    value = SMALL * smalls
    for d, cell, hit in lines:
        if judged is not None:
            hit = judged.get((hit.seat, hit.cause, hit.source))
        colour = None if hit is None else hit.colour
        if hit is None or (colour is not None and colour == top):
            value += SHIELD  # it cannot Damage the Stack, and blocks the line behind it
        elif cell.direction is d.opposite:
            value -= POINTING_AT
        elif cell.direction is Direction.UP:
            value -= STANDING
        else:
            value -= POINTING_AWAY
    room = sum(1 for n in AROUND[square] if n in INSIDE and board[n] is None)
    for hit in onto:
        if judged is not None:
            hit = judged.get((hit.seat, hit.cause, hit.source))
        colour = None if hit is None else hit.colour
        if hit is None or (colour is not None and colour == top):
            room += 1  # stepping onto it does no Damage
    value += ROOM * room
    if room == 0:
        value -= BOXED_IN
    return value


def _placed_value(board: tuple, square: int, seat: int, top: str, smalls: int) -> float:
    """:func:`placed_value` when every Hit stands (the seed), without making
    the Hits: a Fence's Hit then is harmless exactly when the Fence has the
    top colour.  The same sums in the same order, so the same number.  The
    pieces seen from the square come from the memo (:func:`seen_from`): the
    bots score a board under each top colour of a WILD's reorders, and the
    check before looked from the same squares."""
    value = SMALL * smalls
    for d, _n, cell in seen_from(board, square):
        if type(cell) is int:
            continue  # a Stack: no threat, no shield
        if cell.colour == top:
            value += SHIELD
        elif cell.direction is d.opposite:
            value -= POINTING_AT
        elif cell.direction is Direction.UP:
            value -= STANDING
        else:
            value -= POINTING_AWAY
    room = 0
    for n in AROUND[square]:
        cell = board[n]
        if cell is None:
            if n in INSIDE:
                room += 1
        elif type(cell) is not int and cell.colour == top:
            room += 1  # stepping onto it does no Damage
    value += ROOM * room
    if room == 0:
        value -= BOXED_IN
    return value


def evaluate(state: FencesPosition, seat: int, stand: Stand | None = None) -> float:
    """The score of ``state`` for ``seat``: higher is better (see the module's doc)."""
    if state.phase >= PLACE_PHASE:  # the setup: nobody is out yet; those still to draw count for nothing
        others = [stack_value(state, s, stand) for s in state.live() if s != seat]
        return stack_value(state, seat, stand) - max(others, default=0.0)
    stacks = state.stacks
    if not stacks[seat]:
        return -WON
    if stand is None:  # the seed's rules (every Hit stands): the cached values, inline
        board = state.board
        known, board_id = current().values, id(board)
        value = best = None
        for other, stack in enumerate(stacks):
            if not stack:
                continue
            key = (board_id, other, stack[-1], len(stack))
            found = known.get(key)
            if found is None or found[0] is not board:
                if len(known) > SIZE:
                    known.clear()
                found = known[key] = (board, _placed_value(board, board.index(other), other, stack[-1], len(stack)))
            v = found[1]
            if other == seat:
                value = v
            elif best is None or v > best:
                best = v
        return WON if best is None else value - best
    others = [s for s in state.live() if s != seat]
    if not others:
        return WON
    value = stack_value(state, seat, stand)
    return value - max(stack_value(state, s, stand) for s in others)
