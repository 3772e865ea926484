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

With ``colour_immunity=False`` (the house rule ``no-colour-immunity``) a
Fence of the top colour is a threat like any other and never a square to
step onto.

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

from treehouse.kernel.pieces import Direction
from treehouse.variants.fences.board import AROUND, INSIDE
from treehouse.variants.fences.hits import first_pieces
from treehouse.variants.fences.position import FencesPosition

SMALL = 10.0
POINTING_AT = 3.0
STANDING = 1.5
POINTING_AWAY = 1.0
SHIELD = 0.5
ROOM = 0.5
BOXED_IN = 2.0
WON = 1000.0


def stack_value(state: FencesPosition, seat: int, colour_immunity: bool = True) -> float:
    """The value of one live Stack: smalls, less the threats, plus shields and room."""
    stack = state.stacks[seat]
    if not stack:
        return 0.0
    square = state.square_of(seat)
    top = stack[-1] if colour_immunity else None  # None matches no Fence's colour
    return _placed_value(state.board, square, top, len(stack))


@lru_cache(maxsize=1 << 15)
def _placed_value(board: tuple, square: int, top: str | None, smalls: int) -> float:
    """A placed Stack's value from what it depends on (cached: the bots score
    many positions that share a board, a Stack's square and its top colour)."""
    value = SMALL * smalls
    for d, _n, cell in first_pieces(board, square):
        if type(cell) is not int:
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
        if n in INSIDE and cell is None:
            room += 1
        elif cell is not None and type(cell) is not int and cell.colour == top:
            room += 1
    value += ROOM * room
    if room == 0:
        value -= BOXED_IN
    return value


def evaluate(state: FencesPosition, seat: int, colour_immunity: bool = True) -> float:
    """The score of ``state`` for ``seat``: higher is better (see the module's doc)."""
    if state.setting_up:  # nobody is out yet; those still to draw count for nothing
        others = [stack_value(state, s, colour_immunity) for s in state.live() if s != seat]
        return stack_value(state, seat, colour_immunity) - max(others, default=0.0)
    if not state.stacks[seat]:
        return -WON
    others = [s for s in state.live() if s != seat]
    if not others:
        return WON
    return stack_value(state, seat, colour_immunity) - max(stack_value(state, s, colour_immunity) for s in others)
