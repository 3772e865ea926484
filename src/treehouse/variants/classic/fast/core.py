"""Classic Treehouse's compiled core: its rules as numba kernels over integers.

The second tier of classic's rules (docs/rules/classic.md, "Two tiers").
The reference rules (actions.py, distance.py, game.py) are the
specification; these kernels say the same again over small integers, so
that one call looks at every move of a position (``treehouse_look_moves``,
``treehouse_look_all_moves``) and the compiled search
(:mod:`treehouse.kernel.fast.compiled_search`) plays whole games in its head.
tests/classic/test_tiers.py proves the two tiers equal, value for value.

The encoding of trios, positions and moves is in
:mod:`treehouse.variants.classic.fast.core_layout`, which imports no numba: the
glue (looks.py) reads it whichever way the kernels were compiled.

The kernels ``status``, ``legal``, ``play``, ``advance`` and ``evaluate`` are
the compiled game the search asks for (:mod:`treehouse.kernel.fast.compiled_game`),
bound to the generic search in ``search`` (with ``search_node``), and with
``turn_ends`` and ``tally`` to the compiled playout of random seats in
``playout``; ``look`` and ``look_all`` answer the look hooks with them.
Those four are what Python calls (``AHEAD_OF_TIME``).
"""

from __future__ import annotations

import numpy as np

from treehouse.kernel.fast.compiled_search import node, play_one_by_one, root
from treehouse.kernel.fast.compiled import njit_cached
from treehouse.kernel.fast.compiled_game import GOES_ON, PASS, REROLL
from treehouse.kernel.fast.playout_kernels import games
from treehouse.variants.classic.fast.core_layout import (  # the kernels read them as constants
    ACTION_FACES, P_FIRST, P_HOUSE, P_PLAYERS, P_TO_MOVE, T_AWAY, T_DECLINE, T_IMAGE, T_MIRROR, T_OFFSETS, T_RESULTS, T_WILD, T_WILD_OWN_FIRST, TRIOS,
)

#: The kernels Python calls (looks.py; ``CompiledGame.search``, ``Playout.games``),
#: with the one signature each is called with: compiled ahead of time, where
#: they can be, into an extension module (kernel/fast/ahead.py).  Arrays are
#: C-contiguous int64 (the search's probabilities float64).
AHEAD_OF_TIME = {
    "look": "Tuple((f8[::1], i8[::1], i8))(i8[::1], i8[::1], i8, i8[::1])",
    "look_all": "Tuple((f8[::1], i8[::1], i8[::1], i8[::1], i8))(i8[::1], i8[::1], i8, i8[::1], i8)",
    "search": "f8[::1](i8[::1], i8[::1], f8[::1], i8[::1], i8[::1], i8, i8, i8, i8, i8[::1])",
    "playout": "i8(i8[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8, i8, i8, i8, i8[:, ::1], i8[:, :, ::1], i8[:, ::1], i8[:, ::1])",
}


@njit_cached
def status(tables, position):
    """The seat to move, times 2, plus 1: every classic turn is one rolled step."""
    return position[P_TO_MOVE] * 2 + 1


@njit_cached
def _results(tables, face, trio, offset, codes, n):
    """Append the trios one ``face`` makes of ``trio`` to ``codes[n:]`` (each plus ``offset``); the new count."""
    at = tables[T_OFFSETS] + face * TRIOS + trio
    first = tables[T_RESULTS]
    for i in range(tables[at], tables[at + 1]):
        codes[n] = tables[first + i] + offset
        n += 1
    return n


@njit_cached
def _count(tables, face, trio):
    """How many trios one ``face`` makes of ``trio`` (0: the action cannot be done to it)."""
    at = tables[T_OFFSETS] + face * TRIOS + trio
    return tables[at + 1] - tables[at]


@njit_cached
def _wild_house(tables, own, house, codes, n):
    """``wild_choice: own_first`` (game.wild_house_moves): append the House's
    results of each action ``own`` cannot take, in action order, each result
    once (the first action that makes it); the new count."""
    start = n
    for face in range(ACTION_FACES):
        if _count(tables, face, own):
            continue
        at = tables[T_OFFSETS] + face * TRIOS + house
        first = tables[T_RESULTS]
        for i in range(tables[at], tables[at + 1]):
            made = tables[first + i] + TRIOS
            seen = False
            for j in range(start, n):
                if codes[j] == made:
                    seen = True
                    break
            if not seen:
                codes[n] = made
                n += 1
    return n


@njit_cached
def legal(tables, position, face, codes):
    """treehouse_legal_moves: own trio first; else the House and the decline; WILD both trios
    (``wild_choice: own_first``: the House only for the actions one's trio cannot take)."""
    own = position[P_FIRST + position[P_TO_MOVE]]
    n = _results(tables, face, own, 0, codes, 0)
    if face == tables[T_WILD]:
        if tables[T_WILD_OWN_FIRST]:
            return _wild_house(tables, own, position[P_HOUSE], codes, n)
        return _results(tables, face, position[P_HOUSE], TRIOS, codes, n)
    if n:
        return n
    n = _results(tables, face, position[P_HOUSE], TRIOS, codes, 0)
    if n:
        codes[n] = tables[T_DECLINE]
        n += 1
    return n


@njit_cached
def _winners(tables, position, mover):
    """game.outcome: the mover if their trio matches the House (or, under
    ``mirror_matches``, its image); else the one other matching trio, or
    several tied: as a bit mask of seats, or GOES_ON while nobody matches."""
    house = position[P_HOUSE]
    image = tables[tables[T_IMAGE] + house]
    mirror_matches = tables[T_MIRROR]
    matching = 0
    for seat in range(position[P_PLAYERS]):
        trio = position[P_FIRST + seat]
        if trio == house or (mirror_matches and trio == image):
            matching |= 1 << seat
    if not matching:
        return GOES_ON
    if matching >> mover & 1:
        return 1 << mover
    return matching


@njit_cached
def _copy(position, after):
    """``after[:] = position``, as a loop: numba's slice assignment of a few ints costs about 25 ns, the loop 5."""
    for i in range(position.shape[0]):
        after[i] = position[i]


@njit_cached
def play(tables, position, code, after):
    """A choice applied (treehouse_apply_move; PASS leaves the position as it
    is), and who has won (treehouse_outcome)."""
    _copy(position, after)
    if code >= TRIOS:
        after[P_HOUSE] = code - TRIOS
    elif code >= 0:
        after[P_FIRST + position[P_TO_MOVE]] = code
    return _winners(tables, after, position[P_TO_MOVE])


@njit_cached
def advance(tables, position, after):
    """treehouse_end_turn: the next seat's turn."""
    _copy(position, after)
    seat = position[P_TO_MOVE] + 1  # wrapped by a comparison: numba's % keeps Python's sign rule, at a division's cost
    after[P_TO_MOVE] = seat if seat < position[P_PLAYERS] else 0


@njit_cached
def evaluate(tables, position, seat):
    """game._scores for ``seat``: 100 once its trio matches, -100 once only an
    opponent's does, else the nearest opponent's distance minus its own."""
    away = tables[T_AWAY] + position[P_HOUSE] * TRIOS
    mine = tables[away + position[P_FIRST + seat]]
    if mine == 0:
        return 100.0
    theirs = 1 << 30
    for other in range(position[P_PLAYERS]):
        if other != seat:
            theirs = min(theirs, tables[away + position[P_FIRST + other]])
    return -100.0 if theirs == 0 else float(theirs - mine)


@njit_cached
def turn_ends(tables, position):
    """Every classic turn is one step, so each step ends its turn."""
    return 1


@njit_cached
def tally(tables, position, code, counts):
    """treehouse_step_statistics: a pass, a move on the House, or one on the mover's own trio (STATISTICS' order)."""
    if code == PASS:
        counts[0] += 1
    elif code >= TRIOS:
        counts[1] += 1
    elif code >= 0:
        counts[2] += 1


@njit_cached
def playout(tables, start, die, keys, key_starts, seats, turn_cap, lead, choices, ints, faces, counts, last_not_leading):
    """The compiled playout of random seats over these kernels
    (:class:`~treehouse.kernel.fast.compiled_game.Playout`), calling them directly."""
    # the arguments one by one: passed on as *arguments, numba calls the kernels through pointers
    return games(status, legal, play, advance, evaluate, turn_ends, tally, tables, start, die, keys, key_starts, seats, turn_cap, lead, choices, ints, faces, counts, last_not_leading)


@njit_cached
def play_each(tables, position, codes, n, me, winners, values):
    """The search's one-step looks: classic's moves share no work, so one by one."""
    play_one_by_one(play, evaluate, tables, position, codes, n, me, winners, values)


@njit_cached
def search_node(tables, faces, probs, position, depth, me, width, choices, counter):
    """The compiled search's node over these kernels (:func:`search`; its recursion comes back here)."""
    return node(status, legal, play, advance, evaluate, play_each, search_node, tables, faces, probs, position, depth, me, width, choices, counter)


@njit_cached
def search(tables, faces, probs, position, codes, depth, me, width, choices, counter):
    """The compiled search over these kernels (``CompiledGame.search``), calling them directly."""
    return root(status, legal, play, advance, evaluate, play_each, search_node, tables, faces, probs, position, codes, depth, me, width, choices, counter)


@njit_cached
def look(tables, position, seat, codes):
    """Every move of ``codes`` looked at for ``seat``: ``values[i]`` the
    evaluation after move ``i`` (0.0 where it ends the game), ``winners[i]``
    its winners (GOES_ON: none); and how many moves end the game.  New
    arrays each call: one core serves every game of a process, and
    ``th serve`` plays tables in threads."""
    n = codes.shape[0]
    values = np.zeros(n)
    winners = np.full(n, GOES_ON, dtype=np.int64)
    after = np.empty_like(position)
    ended = 0
    for i in range(n):
        winners[i] = play(tables, position, codes[i], after)
        if winners[i] == GOES_ON:
            values[i] = evaluate(tables, after, seat)
        else:
            ended += 1
    return values, winners, ended


@njit_cached
def look_all(tables, position, seat, faces, choices):
    """``look`` of every choice ``legal`` lists for each face of ``faces``,
    one face after another: the values and winners, how many choices each
    face has and how many of them are REROLL (valued as the position stands,
    never played); and how many end the game."""
    codes = np.empty(choices, dtype=np.int64)
    counts = np.zeros(faces.shape[0], dtype=np.int64)
    rerolls = np.zeros(faces.shape[0], dtype=np.int64)
    values = np.zeros(faces.shape[0] * choices)
    winners = np.full(faces.shape[0] * choices, GOES_ON, dtype=np.int64)
    after = np.empty_like(position)
    at = ended = 0
    for k in range(faces.shape[0]):
        n = counts[k] = legal(tables, position, faces[k], codes)
        for i in range(n):
            if codes[i] == REROLL:
                rerolls[k] += 1
                values[at] = evaluate(tables, position, seat)
            else:
                winners[at] = play(tables, position, codes[i], after)
                if winners[at] == GOES_ON:
                    values[at] = evaluate(tables, after, seat)
                else:
                    ended += 1
            at += 1
    return values[:at], winners[:at], counts, rerolls, ended
