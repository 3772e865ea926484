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
  square it can step onto without Damage (an empty Inside square, or an
  Inside Fence of its top colour) earns 0.5, and a Stack with none loses 2
  more.  An Outside square is never room: step 3 moves only toward Inside
  squares, and where ``outside_attempts`` lets a Stack try, the attempt is
  a Hit with no colour, which always Damages.

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

from functools import lru_cache
from typing import Callable

from treehouse.kernel.pieces import Direction, Pyramid
from treehouse.variants.fences.board import AROUND, INSIDE
from treehouse.variants.fences.hits import Cause, Hit, fence_source, immune
from treehouse.variants.fences.position import PLACE_PHASE, FencesPosition
from treehouse.variants.fences.rules import first_pieces, is_fence

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
    if stand is None:
        return _seat_value(state.board, seat, stack[-1], len(stack))
    return placed_value(state.board, state.square_of(seat), seat, stack[-1], len(stack), stand)


@lru_cache(maxsize=1024)
def threatened_hits(board: tuple, square: int, seat: int) -> tuple[tuple, tuple]:
    """The Hits a placed Stack is threatened with: one per Fence first met along
    its row and column (``POINTED_AT``: the Hit it makes once it points at the
    Stack), and one per Fence next to it (``MOVED_ONTO``: stepping onto it).
    A pure function of its arguments, kept by value: where a house rule judges
    the Hits, a search asks it of the same Stack on the same board again and
    again (as :func:`_seat_value` is asked where none does)."""
    lines = tuple((d, cell, Hit(seat, Cause.POINTED_AT, fence_source(cell, n))) for d, n, cell in first_pieces(board, square) if is_fence(cell))
    onto = tuple(Hit(seat, Cause.MOVED_ONTO, fence_source(board[n], n)) for n in AROUND[square] if is_fence(board[n]))
    return lines, onto


def placed_value(board: tuple, square: int, seat: int, top: str, smalls: int, stand: Stand | None = None) -> float:
    """A placed Stack's value from the board, its square and top colour and
    its smalls; ``stand`` as in :func:`stack_value`.  A threat whose Hit does
    not stand, or cannot Damage the Stack (colour immunity), is a shield."""
    if stand is None:
        return _placed_value(board, square, top, smalls)
    return _valued(board, square, seat, top, smalls, stand)


@lru_cache(maxsize=1024)  # small on purpose, as the caches in the rules module are
def _seat_value(board: tuple, seat: int, top: str, smalls: int) -> float:
    """:func:`_placed_value` of ``seat``'s Stack where ``board`` has it: a
    pure function of its arguments, kept by value (a search values the same
    Stack on the same board again and again: under each top colour of a
    WILD's reorders, after each face's moves, at each depth), and by the
    seat, so a value kept is found without looking for its square."""
    return _placed_value(board, board.index(seat), top, smalls)


def _placed_value(board: tuple, square: int, top: str, smalls: int) -> float:
    """:func:`placed_value` where every Hit stands.

    The same sums in the same order as :func:`_valued`'s, so the same float,
    without making the Hits: where every Hit stands, a Fence's Hit is
    harmless exactly when it is immune, when the Fence has the top colour
    (its Hit's :attr:`~treehouse.variants.fences.hits.Hit.colour`)."""
    value = SMALL * smalls
    for d, _n, cell in first_pieces(board, square):
        if isinstance(cell, Pyramid):  # a Fence (is_fence): a Stack is neither threat nor shield
            value += _line_value(d, cell, cell.colour == top)
    room = 0
    for n in AROUND[square]:
        if n in INSIDE:
            cell = board[n]
            if cell is None or (isinstance(cell, Pyramid) and cell.colour == top):
                room += 1  # an empty square, or a Fence stepping onto which does no Damage
    return _with_room(value, room)


def _valued(board: tuple, square: int, seat: int, top: str, smalls: int, stand: Stand | None) -> float:
    lines, onto = threatened_hits(board, square, seat)
    if stand is None:
        judged = None
    else:
        judged = {(h.seat, h.cause, h.source): h for h in stand(tuple(hit for _d, _cell, hit in lines) + onto)}

    def harmless(hit: Hit) -> bool:
        if judged is not None:
            hit = judged.get((hit.seat, hit.cause, hit.source))
        return hit is None or immune(hit, top)

    value = SMALL * smalls
    for d, cell, hit in lines:
        value += _line_value(d, cell, harmless(hit))
    room = sum(1 for n in AROUND[square] if n in INSIDE and board[n] is None)
    room += sum(1 for hit in onto if hit.source.square in INSIDE and harmless(hit))  # stepping onto it does no Damage
    return _with_room(value, room)


def _line_value(d, cell, harmless: bool) -> float:
    """A Fence first met from the Stack along direction ``d``: a shield where its
    Hit would do no Damage (it also blocks the line behind it), else a threat,
    the worse the more it points at the Stack.  (``x - y`` is ``x + -y`` to the
    last bit, so adding these gives the sums the evaluation always gave.)"""
    if harmless:
        return SHIELD
    if cell.direction is d.opposite:
        return -POINTING_AT
    if cell.direction is Direction.UP:
        return -STANDING
    return -POINTING_AWAY


def _with_room(value: float, room: int) -> float:
    """``value`` with the room to step: each square to step onto without Damage, and none boxed in."""
    value += ROOM * room
    if room == 0:
        value -= BOXED_IN
    return value


def evaluate(state: FencesPosition, seat: int, stand: Stand | None = None) -> float:
    """The score of ``state`` for ``seat``: higher is better (see the module's doc)."""
    if stand is None and state.phase < PLACE_PHASE:  # in play (not setting_up): asked at every evaluation
        return _plain_evaluation(state.board, state.stacks, seat)
    others = [s for s in state.live() if s != seat]
    if state.setting_up:  # nobody is out yet; those still to draw count for nothing
        return stack_value(state, seat, stand) - max((stack_value(state, s, stand) for s in others), default=0.0)
    if not state.stacks[seat]:
        return -WON
    if not others:
        return WON
    return stack_value(state, seat, stand) - max(stack_value(state, s, stand) for s in others)


def _plain_evaluation(board: tuple, stacks: tuple, seat: int) -> float:
    """:func:`evaluate` in play where every Hit stands: the seat's Stack value
    less the best live opponent's, each found by :func:`_seat_value` (the
    same values, the same sum)."""
    if not stacks[seat]:
        return -WON
    own = best = None
    for other, stack in enumerate(stacks):
        if stack:
            value = _seat_value(board, other, stack[-1], len(stack))
            if other == seat:
                own = value
            elif best is None or value > best:
                best = value  # the first of equal values, as max() keeps
    return WON if best is None else own - best


def evaluate_seats(state: FencesPosition, stand: Stand | None = None) -> list[float]:
    """:func:`evaluate` for every seat, each live Stack valued once (the
    playtest's lead tracking asks after every step): the same sums, so the
    same floats."""
    live = state.live()
    values = {seat: stack_value(state, seat, stand) for seat in live}
    judged = []
    for seat in range(len(state.stacks)):
        others = [values[s] for s in live if s != seat]
        if state.setting_up:
            judged.append(values.get(seat, 0.0) - max(others, default=0.0))  # a Stack not begun is worth 0
        elif not state.stacks[seat]:
            judged.append(-WON)
        elif not others:
            judged.append(WON)
        else:
            judged.append(values[seat] - max(others))
    return judged
