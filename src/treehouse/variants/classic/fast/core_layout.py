"""How classic's compiled core sees a game: trios, positions and moves as integers.

The kernels (:mod:`treehouse.variants.classic.fast.core`) read these names as
constants; the glue (:mod:`treehouse.variants.classic.fast.looks`) builds its
arrays with them.  This module imports no numba, so a process whose kernels
were compiled ahead of time (:mod:`treehouse.kernel.fast.ahead`) never loads it.

* a **trio** is its rank among the 204 legal trios
  (:func:`~treehouse.variants.classic.trio.trio_rank`);
* a **position** is ``[House, seat to move, players, each seat's trio]``;
* a **move** is ``rank(result)`` on one's own trio, ``TRIOS + rank(result)``
  on the House, or a decline (:data:`~treehouse.kernel.fast.compiled_game.PASS`,
  :data:`~treehouse.kernel.fast.compiled_game.REROLL`);
* the **tables** (one int64 array) hold what the rules need beyond that,
  made once per rule set from the reference rules, so an action is written
  in one place only (actions.py): a header (``T_*``), the rank of each
  trio's mirror image, ``away[house, trio]`` (the fewest actions from a trio
  to the House or, under ``mirror_matches``, its image: distance.py), and
  per face and trio the ranks of the trios one action makes of it.
"""

from __future__ import annotations

#: How many legal trios there are (trio.all_trios); a code from here up is a move on the House.
TRIOS = 204

#: Where the fields of a position sit (then each seat's trio).
P_HOUSE, P_TO_MOVE, P_PLAYERS, P_FIRST = range(4)
#: The tables' header: two rule options, the WILD face's number, then where each table starts;
#: then ``wild_choice`` (1: own_first, a WILD's action on the House only where it cannot be done to one's trio).
T_MIRROR, T_DECLINE, T_WILD, T_IMAGE, T_AWAY, T_OFFSETS, T_RESULTS, T_WILD_OWN_FIRST = range(8)
HEADER = 8
#: The plain faces (the five actions) are numbered 0 to 4, WILD after them (looks.FACES).
ACTION_FACES = 5

#: The counters of ``core.tally``, in its order (game.Classic.treehouse_step_statistics).
STATISTICS = ("passes", "house_moves", "own_moves")
