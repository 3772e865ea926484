"""How Fences' compiled core sees a game: positions and moves as integers, the board as tables.

The kernels (:mod:`treehouse.variants.fences.fast.core`) read these names as
constants; the glue (:mod:`treehouse.variants.fences.fast.looks`) builds its
arrays with them.  This module imports no numba, so a process whose
kernels were compiled ahead of time never loads numba (docs/rules/tiers.md).

The encoding (:mod:`~treehouse.variants.fences.fast.looks` builds it):

* a **cell** of the 49-cell board: ``EMPTY`` (0; also the four corners,
  never reached), ``1 + seat`` for a Stack, or a Fence
  ``FENCE + (size * 10 + colour) * 5 + direction`` (size 0 large, 1 medium;
  colour the index in ``ALL_COLOURS``; direction ``UP N E S W`` = 0..4);
* **Stacks**: ``stacks[seat, i]`` colours bottom to top, ``heights[seat]``;
  ``out[seat]`` the check the seat went out at (0: in);
* a **move** is one int64 code (``looks.code`` writes it, the core's
  ``_decode`` reads it), whatever the step: its kind ``K_*`` in the low 4
  bits (``C_KIND_BITS``); then, from bit ``C_SQUARE``, 6 bits of the square
  it names plus 1 and, from bit ``C_ARG``, 6 bits of its argument plus 1 (a
  square, a direction, a colour, or -1 for none); an Aim instead has, from
  bit ``C_AIM``, up to four turns of ``AIM_TURN_BITS`` each (the Fence's
  square plus 1, then its new direction shifted by 6; 0: no more turns);
  and from bit ``C_ORDER`` a WILD reorder, its colours bottom to top as
  base-``ORDER_BASE`` digits of the colour plus 1, the bottom lowest (0: no
  reorder).  At most 61 bits, so every move's code is ``>= 0`` (the
  declines are negative: kernel/fast/compiled_game.py).
"""

from __future__ import annotations

import numpy as np

# The evaluation's weights, read by the kernels: the reference evaluation's own.
from treehouse.variants.fences.hits import CAUSES, SOURCE_SIZES, Cause
from treehouse.variants.fences.evaluate import BOXED_IN, POINTING_AT, POINTING_AWAY, ROOM, SHIELD, SMALL, STANDING, WON  # noqa: F401

# -- encoding --------------------------------------------------------------
EMPTY = 0
FENCE = 8
UP, NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3, 4
K_MOVE, K_TIP, K_SWAP, K_HOP, K_HOPFENCE, K_DIG, K_AIM, K_FAIL, K_STEP = range(9)
MAX_HEIGHT = 6
#: A move's code (the module's docstring): where its fields start, in bits.
C_KIND_BITS, C_SQUARE, C_ARG, C_AIM, C_ORDER = 4, 4, 10, 4, 40
AIM_TURN_BITS = 9
ORDER_BASE = 11
#: Rule flags, one int each, in this order (``looks.rule_flags`` fills them).
R_EVERY_CHECK, R_ONE_PER_PIECE, R_SWAP_IGNORES_COLOUR, R_SWAP_OUTSIDE_MOVED, R_ALL_OUT_TIE, R_TURN_LIMIT, R_LIMIT_DRAW = range(7)
R_UNIFORM_DIG, R_OUTSIDE_ATTEMPTS, R_MOVER_HIT_ON_STACK = 7, 8, 9
#: Then the house rules' verdicts on a Hit by its cause and the size of its
#: source (``hit_table.table``'s table; ``hits.Verdict``: 0 stands, 1 dropped,
#: 2 ignores colour): from ``R_VERDICT``, ``VERDICT_SIZES`` ints per cause
#: (``H_*``, in ``hits.CAUSES``' order), indexed by the size code + 1: no
#: piece, Large, Medium, a Stack.
R_VERDICT = 10
V_STANDS, V_DROPPED, V_IGNORES_COLOUR = 0, 1, 2
VERDICT_SIZES = len(SOURCE_SIZES)
H_POINTED_AT, H_BOUNCED, H_MOVED_ONTO, H_STACK_MOVED_ONTO, H_OUTSIDE, H_SWAP_OUTSIDE, H_IMPOSSIBLE = (
    CAUSES.index(cause)
    for cause in (Cause.POINTED_AT, Cause.BOUNCED, Cause.MOVED_ONTO, Cause.STACK_MOVED_ONTO, Cause.OUTSIDE, Cause.SWAP_OUTSIDE, Cause.IMPOSSIBLE)
)
RULE_COUNT = R_VERDICT + len(CAUSES) * VERDICT_SIZES
#: ``uniform_dig``'s values, as ``R_UNIFORM_DIG`` holds them.
UNIFORM_NOOP, UNIFORM_HIT, UNIFORM_REROLL = 0, 1, 2
#: The rolled face of the act step (any other face reads as AIM, as in rules.one_action_moves).
F_TIP, F_SWAP, F_HOP, F_DIG, F_AIM, F_WILD = range(6)
#: How a move ended the game (0: it did not).
O_NONE, O_LAST_STANDING, O_ALL_OUT, O_TURN_LIMIT = 0, 1, 2, 3
#: What a Hit's source is: none (an attempt Outside, an impossible action), a Fence, a Stack.
S_NONE, S_FENCE, S_STACK = 0, 1, 2
SMALL_SIZE = 2  # a Stack's source has the small size: never equal to a Fence's (0, 1)

# -- the board, as tables (board.py's NEIGHBOUR, RAY, INSIDE) ----------------
SIZE = 7


def _at(x: int, y: int) -> int:
    if not (0 <= x < SIZE and 0 <= y < SIZE) or (x in (0, SIZE - 1) and y in (0, SIZE - 1)):
        return -1
    return y * SIZE + x


_DELTA = ((0, 0), (0, 1), (1, 0), (0, -1), (-1, 0))  # by direction: UP, N, E, S, W
NEIGHBOUR = np.full((49, 5), -1, dtype=np.int64)
INSIDE = np.zeros(49, dtype=np.bool_)
RAY = np.full((49, 5, 7), -1, dtype=np.int64)
RAY_LENGTH = np.zeros((49, 5), dtype=np.int64)
for _s in range(49):
    _x, _y = _s % SIZE, _s // SIZE
    if _at(_x, _y) < 0:
        continue
    INSIDE[_s] = 1 <= _x <= 5 and 1 <= _y <= 5
    for _d in range(1, 5):
        NEIGHBOUR[_s, _d] = _at(_x + _DELTA[_d][0], _y + _DELTA[_d][1])
for _s in range(49):
    for _d in range(1, 5):
        _n, _k = NEIGHBOUR[_s, _d], 0
        while _n >= 0:
            RAY[_s, _d, _k] = _n
            _k += 1
            _n = NEIGHBOUR[_n, _d]
        RAY_LENGTH[_s, _d] = _k



#: The position's layout in one int array (``looks.encode_position``): the
#: turn, the step (0 fence, 1 act, 2 stack), the seat to move, the player
#: count, the 49 cells, then per seat its height, its out-check, its destroyed
#: smalls (how many of each colour, ``DESTROYED_BITS`` bits a colour, by its
#: index in ``ALL_COLOURS``), its Stack's square (-1: out) and its Stack
#: (``MAX_HEIGHT`` colours, bottom to top); last, ``LINES_WIDTH`` ints: the
#: board's lines of sight (rules.lines), their count (-1: not found yet, as
#: ``looks.encode_position`` leaves it) and then each line's fence square,
#: fence cell, stack square and seat.  The core finds a board's lines once
#: and hands them on to the positions it makes (the check compares the
#: lines after a move with those before).
P_TURN, P_STEP, P_MOVER, P_PLAYERS, P_BOARD = 0, 1, 2, 3, 4
P_SEATS = P_BOARD + 49
SEAT_HEIGHT, SEAT_OUT, SEAT_DESTROYED, SEAT_SQUARE, SEAT_STACK = 0, 1, 2, 3, 4
SEAT_WIDTH = SEAT_STACK + MAX_HEIGHT
DESTROYED_BITS = 3
MAX_LINES = 16
LINES_WIDTH = 1 + 4 * MAX_LINES
