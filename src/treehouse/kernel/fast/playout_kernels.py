"""The compiled playout's kernels: games between random seats, whole, in compiled code.

:mod:`treehouse.playtest.compiled_playout` says what they stand for and
hands their answers back as the observer's summaries; this module is only
the compiled code, so that a process whose variant's core was compiled
ahead of time (:mod:`treehouse.kernel.fast.ahead`) never imports it, nor numba.

* :func:`games` knows no game: it takes the variant's kernels as its first
  seven arguments and is inlined into a one-line kernel beside them
  (``Playout.games``; classic's is ``core.playout``), so numba calls them
  directly.
* Python's ``random.Random`` is the Mersenne Twister (MT19937), written
  again here after CPython's ``_randommodule.c`` (:func:`_seed`,
  :func:`_next`, :func:`_random`).

numba compiles in the constants these kernels read from other modules (the
columns, the choice codes): the cores name this file and those among the
sources their kernels are compiled from.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from treehouse.kernel.fast.compiled import njit_cached
from treehouse.kernel.engine import MAX_ROLLS_PER_STEP
from treehouse.kernel.fast.compiled_game import (
    DECISIONS, EVALUATED_STEPS, FORCED, GOES_ON, IMPOSSIBLE, LAST_MOVER, LAST_STEP_MOVER, LEAD_CHANGES,
    MULTI, NO_FACE, PASS, PASSED, REROLL, REROLLED, ROLLED, TIMEOUT, TURNS, WINNERS,
)  # fmt: skip

#: MT19937's sizes, as CPython's _randommodule.c has them: the state's words, and the twist's offset.
N, M = 624, 397
MASK = 0xFFFFFFFF


@njit_cached
def _unseeded():
    """init_genrand(19650218): where every seeding starts."""
    mt = np.empty(N + 1, dtype=np.int64)
    mt[0] = 19650218
    for i in range(1, N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK
    return mt


@njit_cached
def _seed(mt, key, start):
    """init_by_array: the state ``random.Random`` seeded with the integer
    whose 32-bit words (least significant first) are ``key``, from ``start``
    (:func:`_unseeded`)."""
    mt[:N] = start[:N]
    i, j = 1, 0
    for _ in range(max(N, key.shape[0])):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525) & MASK)) + key[j] + j) & MASK
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= key.shape[0]:
            j = 0
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941) & MASK)) - i) & MASK
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[N] = N  # the index of the next word: all N used, so the next draw twists first


@njit_cached
def _next(mt):
    """genrand_uint32: the next 32 random bits.

    genrand_uint32 twists all N words once every N draws.  Word ``k`` of a
    twist reads only words ``k + 1`` and ``k + M`` (mod N), already twisted
    if below ``k``, so twisting each word as it is drawn gives the very same
    words: and a game that draws 150 words of a seat's stream never twists
    the other 474."""
    k = mt[N]
    if k == N:  # all N drawn (as after a seeding): a new twist starts
        k = 0
    # the two words it reads, wrapped by comparisons (numba's %, with Python's sign rule, made a draw twice as slow)
    following = k + 1 if k + 1 < N else 0
    ahead = k + M if k + M < N else k + M - N
    y = (mt[k] & 0x80000000) | (mt[following] & 0x7FFFFFFF)
    y = mt[ahead] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    mt[k] = y
    mt[N] = k + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@njit_cached
def _random(mt):
    """random.random(): 53 random bits as a float in [0, 1)."""
    a = _next(mt) >> 5
    b = _next(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit_cached
def _key(low, high):
    """The key of ``random.Random(high << 32 | low)``: the fewest words the number needs."""
    key = np.empty(2 if high else 1, dtype=np.int64)
    key[0] = low
    if high:
        key[1] = high
    return key


@njit_cached
def _seat_key(mt):
    """The key of ``random.Random(rng.getrandbits(64))``, the seat's own
    stream (``Game``): getrandbits fills the low word first."""
    low = _next(mt)
    return _key(low, _next(mt))


@njit(inline="always")  # into each variant's binding (Playout.games), which numba caches: the kernels become direct calls
def games(status, legal, play, advance, evaluate, turn_ends, tally, tables, start, die, keys, key_starts, seats, turn_cap, lead, choices, ints, faces, counts, last_not_leading):
    """Over a variant's kernels (the compiled game's five, then the
    playout's ``turn_ends`` and ``tally``), play one game per key (``keys[key_starts[g]:key_starts[g + 1]]``) from
    ``start``, every seat random, and count each as the observer does:
    ``ints[g]`` (the columns above), ``faces[g, i]`` die face ``i``'s
    :data:`~treehouse.playtest.aggregate.FACE_COLUMNS`, ``counts[g]`` the
    tallies, ``last_not_leading[g, seat]`` (with ``lead``).  ``die`` holds
    each face's number for ``legal``; ``turn_cap`` 0 for none.  Returns -1,
    or the first game whose step rolled too often with nothing to play."""
    codes = np.empty(choices, dtype=np.int64)
    unseeded = _unseeded()
    mt = np.empty(N + 1, dtype=np.int64)
    seat_mts = np.empty((seats, N + 1), dtype=np.int64)
    scores = np.empty(seats)
    for g in range(key_starts.shape[0] - 1):
        _seed(mt, keys[key_starts[g] : key_starts[g + 1]], unseeded)
        for seat in range(seats):  # each seat's stream is drawn first (Game.__init__)
            _seed(seat_mts[seat], _seat_key(mt), unseeded)
        row, face_counts, mine, not_leading = ints[g], faces[g], counts[g], last_not_leading[g]
        position = start.copy()
        after = np.empty_like(position)
        pending, pending_face = False, -1
        leader = row[LAST_MOVER] = -1
        turn = 0
        at = status(tables, position)
        while True:  # Game._play_turns: a turn, step by step
            mover = at >> 1
            turn += 1
            winners = GOES_ON
            while True:
                rolls = at & 1
                rolled = 0
                chosen = REROLL  # none yet
                while True:  # the engine's roll_and_choose, with Observer.on_choice
                    face = -1
                    number = NO_FACE
                    if rolls:
                        face = int(_random(mt) * die.shape[0])
                        number = die[face]
                    n = legal(tables, position, number, codes)
                    if pending and pending_face >= 0:  # the choice before this one was a REROLL
                        face_counts[pending_face, REROLLED] += 1
                    if face >= 0:
                        face_counts[face, ROLLED] += 1
                    if n == 0:
                        pending = False
                        if face >= 0:
                            face_counts[face, IMPOSSIBLE] += 1
                    else:
                        row[DECISIONS] += 1
                        if n > 1:
                            row[MULTI] += 1
                        elif face >= 0:
                            face_counts[face, FORCED] += 1
                        pending, pending_face = True, face
                        chosen = codes[int(_random(seat_mts[mover]) * n)]  # RandomBot.choose
                        if chosen != REROLL:
                            break
                    if n == 0 and not rolls:
                        break  # a step without a roll had nothing to do
                    rolled += 1
                    if rolled == MAX_ROLLS_PER_STEP:
                        return g
                if chosen != REROLL:  # the step is played: Observer.on_step
                    winners = play(tables, position, chosen, after)
                    if pending_face >= 0 and chosen == PASS:
                        face_counts[pending_face, PASSED] += 1
                    pending, pending_face = False, -1
                    row[LAST_MOVER] = mover
                    tally(tables, position, chosen, mine)
                    if lead:  # Observer._track_lead
                        for seat in range(seats):
                            scores[seat] = evaluate(tables, after, seat)
                        row[EVALUATED_STEPS] += 1
                        steps = row[EVALUATED_STEPS]
                        best, leading = scores[0], 0
                        for seat in range(1, seats):
                            if scores[seat] > best:
                                best, leading = scores[seat], seat
                        for seat in range(seats):
                            if seat != leading and scores[seat] == best:
                                leading = -1  # a tie for the lead: nobody leads
                                break
                        if leading >= 0:
                            if leading != leader:
                                if leader >= 0:
                                    row[LEAD_CHANGES] += 1
                                leader = leading
                            for seat in range(seats):
                                if seat != leading:
                                    not_leading[seat] = steps
                        else:
                            not_leading[:] = steps
                    position, after = after, position
                    if winners != GOES_ON:
                        break
                last = turn_ends(tables, position)
                advance(tables, position, after)
                position, after = after, position
                at = status(tables, position)
                if last:
                    break
            if winners != GOES_ON:
                row[WINNERS] = winners
                row[LAST_STEP_MOVER] = mover
                break
            if turn_cap and turn >= turn_cap:
                row[TIMEOUT] = 1
                break
        row[TURNS] = turn
    return -1
