"""The compiled core of Fences: its rules as numba kernels over integer arrays.

The second tier of Fences' rules (docs/rules/tiers.md).  The reference rules
(rules.py, hits.py, evaluate.py, game.py) are the specification; this
module says the same thing again over compact integers.  One move is played
once, by :func:`_performed`: the move performed, the check (attempt Hits,
line Hits, one Hit per piece, colour immunity, simultaneous Damage, going
out) and the outcome, exactly as the hooks do.  On it stand:

* the compiled game the search asks for (:mod:`treehouse.kernel.fast.compiled_game`):
  ``status``, ``legal``, ``play``, ``advance`` and ``evaluate``, bound to the
  generic search (:mod:`treehouse.kernel.fast.compiled_search`) in ``search``
  (with ``search_node``), so a whole decision is one call;
* ``look`` (many moves of one position, ``treehouse_look_moves``) and
  ``look_faces`` (every legal move of every face, ``treehouse_look_all_moves``);
* ``evaluate_seats`` (the playtest's lead tracking).

A move is one int64 code (the docstring of core_layout.py says the bits);
``play`` leaves the step where it was played and ``advance`` moves on: to
the turn's next step, or, after its last or once the mover is out (a seat
that goes out in its own step plays no more: kernel/turn.py
``turn_cut_short``), to the next seat still in (rules.advance, end_turn).
tests/fences/test_tiers.py and test_compiled_search.py prove the two tiers
equal, value for value.

Only :mod:`treehouse.variants.fences.fast.looks` imports this module, and only
once :func:`treehouse.kernel.fast.compiled.enabled` said numba is there.

The encoding of positions and moves, and the board's tables, are in
:mod:`treehouse.variants.fences.fast.core_layout`, which imports no numba: the
glue (looks.py) reads it whichever way the kernels were compiled.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from treehouse.kernel.fast.compiled import njit_cached
from treehouse.kernel.fast.compiled_game import GOES_ON, PASS, REROLL
from treehouse.kernel.fast.compiled_search import node, root
from treehouse.variants.fences.fast.core_layout import (  # the kernels read them as constants
    EMPTY, FENCE, UP, K_MOVE, K_TIP, K_SWAP, K_HOP, K_HOPFENCE, K_DIG, K_AIM, K_FAIL, K_STEP, C_SQUARE, C_ARG, C_AIM,
    C_ORDER, AIM_TURN_BITS, ORDER_BASE, MAX_HEIGHT, R_EVERY_CHECK, R_ONE_PER_PIECE, R_SWAP_IGNORES_COLOUR,
    R_SWAP_OUTSIDE_MOVED, R_ALL_OUT_TIE, R_TURN_LIMIT, R_LIMIT_DRAW, R_UNIFORM_DIG, R_OUTSIDE_ATTEMPTS, R_MOVER_HIT_ON_STACK, R_VERDICT, VERDICT_SIZES,
    H_POINTED_AT, H_BOUNCED, H_MOVED_ONTO, H_STACK_MOVED_ONTO, H_OUTSIDE, H_SWAP_OUTSIDE, H_IMPOSSIBLE,
    V_DROPPED, V_IGNORES_COLOUR, UNIFORM_NOOP, UNIFORM_REROLL, F_TIP, F_SWAP, F_HOP, F_DIG, F_WILD, O_NONE,
    O_LAST_STANDING, O_ALL_OUT, O_TURN_LIMIT, S_NONE, S_FENCE, S_STACK, SMALL_SIZE, SIZE, NEIGHBOUR, INSIDE, RAY,
    RAY_LENGTH, SMALL, POINTING_AT, STANDING, POINTING_AWAY, SHIELD, ROOM, BOXED_IN, WON, P_TURN, P_STEP, P_MOVER,
    P_PLAYERS, P_BOARD, P_SEATS, SEAT_HEIGHT, SEAT_OUT, SEAT_DESTROYED, SEAT_SQUARE, SEAT_STACK, SEAT_WIDTH, DESTROYED_BITS,
    MAX_LINES, LINES_WIDTH,
)

#: The kernels Python calls (looks.py; ``CompiledGame.search``; the tests
#: compare ``legal``, ``play`` and ``advance`` with the reference rules), with
#: the one signature each is called with: compiled ahead of time, where they
#: can be, into an extension module (kernel/fast/ahead.py).  Arrays are
#: C-contiguous int64 (the search's probabilities float64); ``tables`` is
#: the rule flags (``looks.rule_flags``).
AHEAD_OF_TIME = {
    "look": "Tuple((f8[::1], i8[::1], i8[::1], i8))(i8[::1], i8[::1], i8, i8[::1])",
    "look_faces": "Tuple((f8[::1], i8[::1], i8[::1], i8[::1]))(i8[::1], i8[::1], i8[::1], i8, i8)",
    "evaluate_seats": "f8[::1](i8[::1], i8[::1])",
    "legal": "i8(i8[::1], i8[::1], i8, i8[::1])",
    "play": "i8(i8[::1], i8[::1], i8, i8[::1])",
    "advance": "none(i8[::1], i8[::1], i8[::1])",
    "search": "f8[::1](i8[::1], i8[::1], f8[::1], i8[::1], i8[::1], i8, i8, i8, i8, i8[::1])",
}

#: The workspace one move is played in (:func:`_performed`), one array: the
#: cells, per seat (4 at most) its height, its out-check, whether it bounced,
#: how many smalls it loses and whether it fell; the mover's Stack; the Hits
#: found and kept (24 of :data:`HIT_WIDTH` ints: :func:`_add_hit`); the lines before and after (16 of 4); the
#: mover's square; how many lines there are before, and after (-1: not
#: found: the board did not change, or the check needed none).
W_CELLS, W_HEIGHTS, W_OUTS, W_BOUNCED, W_TAKEN, W_FELL, W_OWN = 0, 49, 53, 57, 61, 65, 69
HIT_WIDTH = 9
W_HITS = W_OWN + MAX_HEIGHT
W_KEPT = W_HITS + 24 * HIT_WIDTH
W_BEFORE = W_KEPT + 24 * HIT_WIDTH
W_AFTER = W_BEFORE + 4 * MAX_LINES
W_SQUARE = W_AFTER + 4 * MAX_LINES
W_BEFORE_COUNT, W_AFTER_COUNT = W_SQUARE + 1, W_SQUARE + 2
W_SIZE = W_SQUARE + 3


@njit_cached
def _opposite(d):
    return 0 if d == UP else (d + 1) % 4 + 1


@njit_cached
def _is_fence(cell):
    return cell >= FENCE


@njit_cached
def _colour(cell):
    return ((cell - FENCE) // 5) % 10


@njit_cached
def _size(cell):
    return (cell - FENCE) // 50


@njit_cached
def _direction(cell):
    return (cell - FENCE) % 5


@njit_cached
def _turned(cell, d):
    return cell - _direction(cell) + d


@njit_cached
def _lines(board, at, found, into):
    """Every line of sight from a Pointing Fence to a Stack (rules.lines) on
    the cells ``board[at:at + 49]``: the Stacks in square order, each looking
    north, east, south, west to the first piece.  Writes line ``i`` into
    ``found[into + 4 * i:]``: (fence square, fence cell, stack square, seat);
    the count."""
    count = 0
    for square in range(49):
        cell = board[at + square]
        if cell < 1 or cell >= FENCE:
            continue
        for d in range(1, 5):
            for k in range(RAY_LENGTH[square, d]):
                n = RAY[square, d, k]
                other = board[at + n]
                if other == EMPTY:
                    continue
                if _is_fence(other) and _direction(other) == _opposite(d):
                    line = into + 4 * count
                    found[line] = n
                    found[line + 1] = other
                    found[line + 2] = square
                    found[line + 3] = cell - 1
                    count += 1
                break
    return count


@njit_cached
def _verdict(rules, cause, size):
    """The house rules' say on a Hit of ``cause`` (``H_*``) whose source has
    ``size`` (-1: no piece; ``hit_table.table``'s table)."""
    return rules[R_VERDICT + VERDICT_SIZES * cause + 1 + size]


@njit_cached
def _harmless(cell, top, rules, cause):
    """A Fence's threat (a Hit of ``cause``) cannot Damage a Stack of ``top``
    colour (evaluate.placed_value's harmless): its Hit is dropped, or colour
    immunity spares the Stack."""
    verdict = _verdict(rules, cause, _size(cell))
    return verdict == V_DROPPED or (verdict != V_IGNORES_COLOUR and _colour(cell) == top)


@njit_cached
def _placed_value(position, square, top, smalls, rules):
    """A placed Stack's value (evaluate.placed_value): the same sums in the same order."""
    value = SMALL * smalls
    for d in range(1, 5):
        for k in range(RAY_LENGTH[square, d]):
            cell = position[P_BOARD + RAY[square, d, k]]
            if cell == EMPTY:
                continue
            if _is_fence(cell):
                if _harmless(cell, top, rules, H_POINTED_AT):
                    value += SHIELD
                elif _direction(cell) == _opposite(d):
                    value -= POINTING_AT
                elif _direction(cell) == UP:
                    value -= STANDING
                else:
                    value -= POINTING_AWAY
            break
    room = 0
    for d in range(1, 5):
        n = NEIGHBOUR[square, d]
        if n < 0 or not INSIDE[n]:
            continue  # Outside is never room: no step goes there, or the attempt always Damages
        cell = position[P_BOARD + n]
        if cell == EMPTY:
            room += 1
        elif _is_fence(cell) and _harmless(cell, top, rules, H_MOVED_ONTO):
            room += 1  # stepping onto it does no Damage
    value += ROOM * room
    if room == 0:
        value -= BOXED_IN
    return value


@njit_cached
def _add_hit(work, count, cause, seat, source, colour, size, square, source_seat, ignores, apart=0):
    """Hit ``count`` of the workspace's Hits found (:data:`W_HITS`): the seat
    Hit, its source (``S_*``, colour, size, square, and a Stack's seat),
    whether it ignores colour, whether it is never merged with another of its
    piece, and its cause (``H_*``); the count after."""
    hit = W_HITS + HIT_WIDTH * count
    work[hit + 8] = cause
    work[hit + 7] = apart  # never merged with another Hit of its piece (one Hit per piece)
    work[hit] = seat
    work[hit + 1] = source
    work[hit + 2] = colour
    work[hit + 3] = size
    work[hit + 4] = square
    work[hit + 5] = source_seat
    work[hit + 6] = ignores
    return count + 1


@njit_cached
def _attempt(work, top, seat, square, target, count, mover_hit_on_stack):
    """A Stack on ``square`` tries to enter ``target`` (rules.attempt_hit): the
    Hit count after, the seat marked bounced in ``work`` when it stays
    considered moved (rules.bounced: not onto a Stack unless
    ``mover_hit_on_stack``).  ``-1``: it may, and has moved there."""
    cell = work[W_CELLS + target]
    if not INSIDE[target]:
        work[W_BOUNCED + seat] = 1
        return _add_hit(work, count, H_OUTSIDE, seat, S_NONE, -1, -1, target, -1, 0)
    if cell == EMPTY:
        work[W_CELLS + square] = EMPTY
        work[W_CELLS + target] = seat + 1
        work[W_SQUARE] = target
        return -1
    if not _is_fence(cell):
        # only the stationary Stack is Hit; the mover's top colour can make it immune
        if mover_hit_on_stack:
            work[W_BOUNCED + seat] = 1
        return _add_hit(work, count, H_STACK_MOVED_ONTO, cell - 1, S_STACK, top, SMALL_SIZE, square, seat, 0)
    work[W_BOUNCED + seat] = 1
    return _add_hit(work, count, H_MOVED_ONTO, seat, S_FENCE, _colour(cell), _size(cell), target, -1, 0)


@njit_cached
def _side(square, f):
    """The direction from ``square`` to its neighbour ``f`` (board.direction_between)."""
    d = 0
    for e in range(1, 5):
        if NEIGHBOUR[square, e] == f:
            d = e
    return d


@njit_cached
def _workspace(position):
    """A workspace for moves from ``position`` (one allocation, indexed by
    the ``W_*`` offsets: a view of it would cost its reference counts on
    every move), with the lines of its board (found, where the position
    does not carry them yet); and how many there are."""
    work = np.empty(W_SIZE, dtype=np.int64)
    at = position.shape[0] - LINES_WIDTH
    count = position[at]
    if count < 0:
        count = _lines(position, P_BOARD, work, W_BEFORE)
    else:
        for i in range(4 * count):
            work[W_BEFORE + i] = position[at + 1 + i]
    work[W_BEFORE_COUNT] = count
    return work, count


@njit_cached
def _square(position, seat):
    """Where ``seat``'s Stack stands (-1: nowhere)."""
    return position[P_SEATS + seat * SEAT_WIDTH + SEAT_SQUARE]


@njit_cached
def _performed(rules, position, code, square, before_count, work):
    """The move ``code`` played by the seat to move from ``position``
    (rules.perform, the check of rules.check_hits with the house rules'
    verdicts, rules.resolve_damage) and the outcome (rules.outcome, the step
    advanced as the reference does): ``(O_* code, winners as a bit per
    seat)``.  The position after is left in ``work`` (:func:`_workspace`,
    :func:`_written` reads it): the cells, the heights, the mover's Stack,
    the out-checks, and how many smalls each seat lost.  ``square`` is the
    mover's, ``before_count`` the lines of ``position`` (in ``work``)."""
    turn = position[P_TURN]
    step_index = position[P_STEP]
    mover = position[P_MOVER]
    players = position[P_PLAYERS]
    every_check = rules[R_EVERY_CHECK] != 0
    per_piece = rules[R_ONE_PER_PIECE] != 0
    swap_ignores = rules[R_SWAP_IGNORES_COLOUR]
    swap_moved = rules[R_SWAP_OUTSIDE_MOVED] != 0
    mover_hit_on_stack = rules[R_MOVER_HIT_ON_STACK] != 0
    limit = rules[R_TURN_LIMIT]
    check = 3 * turn + step_index + 1
    work[W_SQUARE] = square
    for s in range(49):
        work[W_CELLS + s] = position[P_BOARD + s]
    for p in range(players):
        base = P_SEATS + p * SEAT_WIDTH
        work[W_HEIGHTS + p] = position[base + SEAT_HEIGHT]
        work[W_OUTS + p] = position[base + SEAT_OUT]
        work[W_BOUNCED + p] = 0
        work[W_TAKEN + p] = 0
        work[W_FELL + p] = 0
    height = work[W_HEIGHTS + mover]
    base = P_SEATS + mover * SEAT_WIDTH + SEAT_STACK
    for i in range(height):
        work[W_OWN + i] = position[base + i]
    kind = code & 15
    f = (code >> C_SQUARE & 63) - 1
    arg = (code >> C_ARG & 63) - 1
    order = code >> C_ORDER
    i = 0
    while order > 0:  # WILD: the reorder first
        work[W_OWN + i] = order % ORDER_BASE - 1
        order //= ORDER_BASE
        i += 1
    top = work[W_OWN + height - 1] if height > 0 else -1
    nhits = 0
    changed = True  # the board changed (else no line is new)

    if kind == K_MOVE:
        work[W_CELLS + arg] = work[W_CELLS + f]
        work[W_CELLS + f] = EMPTY
    elif kind == K_TIP:
        piece = _turned(work[W_CELLS + f], arg)
        end = f
        for k in range(RAY_LENGTH[f, arg]):
            n = RAY[f, arg, k]
            if INSIDE[n] and work[W_CELLS + n] == EMPTY:
                end = n
            else:
                break
        work[W_CELLS + f] = EMPTY
        work[W_CELLS + end] = piece
    elif kind == K_SWAP:
        if not INSIDE[f]:
            fence = work[W_CELLS + f]
            # the Stack stays but is still considered moved (swap_outside_considered_moved): the lines
            # already on it Hit too, in addition to this Hit, never merged with it
            nhits = _add_hit(work, nhits, H_SWAP_OUTSIDE, mover, S_FENCE, _colour(fence), _size(fence), f, -1, swap_ignores, 1 if swap_moved else 0)
            if swap_moved:
                work[W_BOUNCED + mover] = 1
            changed = False
        else:
            work[W_CELLS + square] = work[W_CELLS + f]
            work[W_CELLS + f] = mover + 1
            work[W_SQUARE] = f
    elif kind == K_HOP:
        d = _side(square, f)
        target = NEIGHBOUR[f, d]
        if _direction(work[W_CELLS + f]) == UP:
            work[W_CELLS + f] = _turned(work[W_CELLS + f], d)  # a Standing Fence falls to point at the target square
        result = _attempt(work, top, mover, square, target, nhits, mover_hit_on_stack)
        if result >= 0:
            nhits = result
    elif kind == K_HOPFENCE:
        far = NEIGHBOUR[square, _opposite(_side(square, f))]
        work[W_CELLS + far] = work[W_CELLS + f]
        work[W_CELLS + f] = EMPTY
    elif kind == K_AIM:
        for i in range(4):
            turn_code = code >> (C_AIM + AIM_TURN_BITS * i) & 511
            if turn_code == 0:
                break
            at = (turn_code & 63) - 1
            work[W_CELLS + at] = _turned(work[W_CELLS + at], turn_code >> 6)
    elif kind == K_STEP:
        target = NEIGHBOUR[square, arg]
        result = _attempt(work, top, mover, square, target, nhits, mover_hit_on_stack)
        if result >= 0:
            nhits = result
            changed = False  # the Stack stayed and the board is as it was
    elif kind == K_DIG:
        changed = False
        if arg < 0:
            last = work[W_OWN + height - 1]
            for i in range(height - 1, 0, -1):
                work[W_OWN + i] = work[W_OWN + i - 1]
            work[W_OWN] = last
        else:
            for i in range(height, 0, -1):
                work[W_OWN + i] = work[W_OWN + i - 1]
            work[W_OWN] = arg
            height += 1
            work[W_HEIGHTS + mover] = height
    else:  # fail: the rolled action is impossible
        changed = False
        nhits = _add_hit(work, nhits, H_IMPOSSIBLE, mover, S_NONE, -1, -1, -1, -1, 0)

    # -- the check: line Hits (rules.line_hits) --
    attempts = nhits
    work[W_AFTER_COUNT] = -1
    if every_check or changed or work[W_BOUNCED + mover]:  # else no line is new, and none bounced
        after_count = _lines(work, W_CELLS, work, W_AFTER)
        work[W_AFTER_COUNT] = after_count
        for i in range(after_count):
            lseat = work[W_AFTER + 4 * i + 3]
            fresh = True
            if not every_check:
                for j in range(before_count):
                    if (
                        work[W_BEFORE + 4 * j] == work[W_AFTER + 4 * i]
                        and work[W_BEFORE + 4 * j + 1] == work[W_AFTER + 4 * i + 1]
                        and work[W_BEFORE + 4 * j + 2] == work[W_AFTER + 4 * i + 2]
                        and work[W_BEFORE + 4 * j + 3] == lseat
                    ):
                        fresh = False
                        break
            if fresh or work[W_BOUNCED + lseat]:
                fence = work[W_AFTER + 4 * i + 1]
                cause = H_POINTED_AT if fresh else H_BOUNCED
                nhits = _add_hit(work, nhits, cause, lseat, S_FENCE, _colour(fence), _size(fence), work[W_AFTER + 4 * i], -1, 0)

    # -- one Hit per piece (rules.one_per_piece): only an attempt can repeat a piece --
    nkept = 0
    for i in range(nhits):
        if attempts > 0 and per_piece and work[W_HITS + HIT_WIDTH * i + 1] != S_NONE and work[W_HITS + HIT_WIDTH * i + 7] == 0:
            repeated = False
            for j in range(nkept):
                if (
                    work[W_KEPT + HIT_WIDTH * j + 7] == 0
                    and work[W_KEPT + HIT_WIDTH * j] == work[W_HITS + HIT_WIDTH * i]
                    and work[W_KEPT + HIT_WIDTH * j + 1] == work[W_HITS + HIT_WIDTH * i + 1]
                    and work[W_KEPT + HIT_WIDTH * j + 2] == work[W_HITS + HIT_WIDTH * i + 2]
                    and work[W_KEPT + HIT_WIDTH * j + 3] == work[W_HITS + HIT_WIDTH * i + 3]
                    and work[W_KEPT + HIT_WIDTH * j + 4] == work[W_HITS + HIT_WIDTH * i + 4]
                    and work[W_KEPT + HIT_WIDTH * j + 5] == work[W_HITS + HIT_WIDTH * i + 5]
                ):
                    repeated = True
                    break
            if repeated:
                continue
        verdict = _verdict(rules, work[W_HITS + HIT_WIDTH * i + 8], work[W_HITS + HIT_WIDTH * i + 3])  # treehouse_fences_hits
        if verdict == V_DROPPED:
            continue
        for c in range(HIT_WIDTH):
            work[W_KEPT + HIT_WIDTH * nkept + c] = work[W_HITS + HIT_WIDTH * i + c]
        if verdict == V_IGNORES_COLOUR:
            work[W_KEPT + HIT_WIDTH * nkept + 6] = 1
        nkept += 1

    # -- Damage, simultaneously (rules.resolve_damage) --
    for i in range(nkept):
        hit_seat = work[W_KEPT + HIT_WIDTH * i]
        h = work[W_HEIGHTS + hit_seat]
        if h == 0:
            continue
        stack_top = work[W_OWN + h - 1] if hit_seat == mover else position[P_SEATS + hit_seat * SEAT_WIDTH + SEAT_STACK + h - 1]
        if work[W_KEPT + HIT_WIDTH * i + 1] != S_NONE and work[W_KEPT + HIT_WIDTH * i + 6] == 0 and stack_top == work[W_KEPT + HIT_WIDTH * i + 2]:
            continue  # colour immunity
        n = work[W_TAKEN + hit_seat]
        if n >= h:
            continue  # nothing left to lose
        work[W_TAKEN + hit_seat] = n + 1
        if n + 1 == h:
            work[W_FELL + hit_seat] = 1
    for p in range(players):
        work[W_HEIGHTS + p] -= work[W_TAKEN + p]
        if work[W_FELL + p]:
            for s in range(49):
                if work[W_CELLS + s] == p + 1:
                    work[W_CELLS + s] = EMPTY
            work[W_OUTS + p] = check

    # -- the outcome (Fences.treehouse_outcome) --
    live = 0
    for p in range(players):
        if work[W_HEIGHTS + p] > 0:
            live += 1
    ended = O_NONE
    mask = 0
    if live == 1:
        ended = O_LAST_STANDING
        for p in range(players):
            if work[W_HEIGHTS + p] > 0:
                mask |= 1 << p
    elif live == 0:
        ended = O_ALL_OUT
        if rules[R_ALL_OUT_TIE] != 0:
            last = work[W_OUTS]
            for p in range(players):
                if work[W_OUTS + p] > last:
                    last = work[W_OUTS + p]
            for p in range(players):
                if work[W_OUTS + p] == last:
                    mask |= 1 << p
    elif limit > 0 and turn + 1 >= limit and (step_index == 2 or work[W_HEIGHTS + mover] == 0):
        # the turn complete (its last step, or its seat out: rules.advance, end_turn)
        ended = O_TURN_LIMIT
        if rules[R_LIMIT_DRAW] == 0:
            most = 0
            for p in range(players):
                if work[W_HEIGHTS + p] > most:
                    most = work[W_HEIGHTS + p]
            for p in range(players):
                if work[W_HEIGHTS + p] > 0 and work[W_HEIGHTS + p] == most:
                    mask |= 1 << p
    return ended, mask


@njit(inline="always")  # once a move: a call costs numba two reference counts an array, more than this body
def _written(position, code, work, after):
    """The position a move led to (left in ``work`` by :func:`_performed`)
    written into ``after``: its step, turn and seat to move as they were;
    its lines of sight handed on where the check found them, or where the
    board did not change, else left to be found."""
    mover = position[P_MOVER]
    at = position.shape[0] - LINES_WIDTH
    for i in range(at):
        after[i] = position[i]
    fell = False
    for s in range(49):
        after[P_BOARD + s] = work[W_CELLS + s]
    restored = (code >> C_ARG & 63) - 1 if code & 15 == K_DIG else -1
    for p in range(position[P_PLAYERS]):
        base = P_SEATS + p * SEAT_WIDTH
        h = work[W_HEIGHTS + p]
        destroyed = position[base + SEAT_DESTROYED]
        if p == mover and restored >= 0:
            destroyed -= 1 << DESTROYED_BITS * restored
        for i in range(h + work[W_TAKEN + p]):  # the Stack before the Damage: the lost smalls are its top ones
            small = work[W_OWN + i] if p == mover else position[base + SEAT_STACK + i]
            if i >= h:
                destroyed += 1 << DESTROYED_BITS * small
                small = 0
            after[base + SEAT_STACK + i] = small
        after[base + SEAT_HEIGHT] = h
        after[base + SEAT_SQUARE] = -1 if h == 0 else work[W_SQUARE] if p == mover else position[base + SEAT_SQUARE]
        after[base + SEAT_OUT] = work[W_OUTS + p]
        after[base + SEAT_DESTROYED] = destroyed
        if work[W_FELL + p]:
            fell = True
    if fell:  # a Stack left the board: the lines behind it are new
        after[at] = -1
        return
    lines, count = W_AFTER, work[W_AFTER_COUNT]
    if count < 0:  # the board as it was
        lines, count = W_BEFORE, work[W_BEFORE_COUNT]
    after[at] = count
    for i in range(4 * count):
        after[at + 1 + i] = work[lines + i]


@njit_cached
def _looked(tables, position, codes, n, seat, outcomes, winners, values):
    """The first ``n`` moves ``codes`` played by the seat to move from
    ``position`` in one workspace (the lines before are the same for every
    move), each judged for ``seat``: ``outcomes[i]`` an ``O_*`` code,
    ``winners[i]`` a bit per seat (GOES_ON while the game goes on) and, while
    it does, ``values[i]`` the evaluation.  REROLL is left to the caller (the
    search values it as the position stands).  How many moves end the game."""
    work, before_count = _workspace(position)
    square = _square(position, position[P_MOVER])
    after = np.empty_like(position)
    ended = 0
    for m in range(n):
        if codes[m] == REROLL:
            continue
        outcome, mask = _performed(tables, position, codes[m], square, before_count, work)
        outcomes[m] = outcome
        if outcome != O_NONE:
            ended += 1
            winners[m] = mask
        else:
            winners[m] = GOES_ON
            _written(position, codes[m], work, after)
            values[m] = _evaluation(after, seat, tables)
    return ended


@njit_cached
def look(tables, position, seat, codes):
    """The moves ``codes`` played by the seat to move from ``position``,
    then judged for ``seat``: ``(values, outcomes, winners)`` per move
    (:func:`_looked`); and how many moves end the game.  New arrays each
    call: one core serves every game of a process, and ``th serve`` plays
    tables in threads."""
    count = codes.shape[0]
    values = np.zeros(count, dtype=np.float64)
    outcomes = np.zeros(count, dtype=np.int64)
    winners = np.zeros(count, dtype=np.int64)
    ended = _looked(tables, position, codes, count, seat, outcomes, winners, values)
    return values, outcomes, winners, ended


@njit_cached
def play_each(tables, position, codes, n, me, winners, values):
    """The search's one-step looks (``CompiledGame``'s ``play_each``): :func:`_looked`."""
    _looked(tables, position, codes, n, me, np.empty(n, dtype=np.int64), winners, values)


@njit(inline="always")  # once a move, as _written
def _evaluation(position, seat, rules):
    """The score of a position in play for ``seat`` (evaluate.evaluate): its
    Stack's value less the best other's; lost, or won when it is the last."""
    if position[P_SEATS + seat * SEAT_WIDTH + SEAT_HEIGHT] == 0:
        return -WON
    value = 0.0
    best = 0.0
    others = False
    for p in range(position[P_PLAYERS]):
        base = P_SEATS + p * SEAT_WIDTH
        h = position[base + SEAT_HEIGHT]
        if h == 0:
            continue
        v = _placed_value(position, _square(position, p), position[base + SEAT_STACK + h - 1], h, rules)
        if p == seat:
            value = v
        elif not others or v > best:
            best = v
            others = True
    return WON if not others else value - best


@njit_cached
def evaluate_seats(position, rules):
    """The evaluation of a position in play (not the setup's) for every seat, in one call."""
    players = position[P_PLAYERS]
    values = np.empty(players, dtype=np.float64)
    for seat in range(players):
        values[seat] = _evaluation(position, seat, rules)
    return values


@njit_cached
def evaluate(tables, position, seat):
    """treehouse_evaluate of a position in play for ``seat`` (evaluate.evaluate)."""
    return _evaluation(position, seat, tables)


# -- the legal moves (rules.py's fence_moves, action_moves, stack_moves) -------
# Each writes move codes (core_layout's docstring; looks.code writes the
# same) into ``codes`` from ``n`` and returns the new count, in exactly the
# reference rules' order: the search's ties and its width depend on it.


@njit_cached
def _code(kind, square, arg):
    return kind | (square + 1) << C_SQUARE | (arg + 1) << C_ARG


@njit_cached
def _same_line(a, b):
    return a % SIZE == b % SIZE or a // SIZE == b // SIZE


@njit_cached
def _fence_moves(board, square, codes):
    """Step 1 (rules.fence_moves): the moves near the Stack if any, else all."""
    n = 0
    near = np.zeros(4 * 49, dtype=np.bool_)
    for f in range(49):
        cell = board[f]
        if not _is_fence(cell):
            continue
        for d in range(1, 5):
            if _direction(cell) != UP and d == _opposite(_direction(cell)):
                continue  # backwards along its own line
            t = NEIGHBOUR[f, d]
            if t < 0 or board[t] != EMPTY:
                continue
            for e in range(1, 5):
                if NEIGHBOUR[square, e] == t or NEIGHBOUR[square, e] == f:
                    near[n] = 1
            codes[n] = _code(K_MOVE, f, t)
            n += 1
    kept = 0
    for i in range(n):
        if near[i]:
            codes[kept] = codes[i]
            kept += 1
    return kept if kept > 0 else n


@njit_cached
def _tips(board, square, codes, n):
    for f in range(49):
        cell = board[f]
        if _is_fence(cell) and _direction(cell) == UP and _same_line(f, square):
            for d in range(1, 5):
                t = NEIGHBOUR[f, d]
                if t >= 0 and INSIDE[t]:
                    codes[n] = _code(K_TIP, f, d)
                    n += 1
    return n


@njit_cached
def _swaps(board, square, codes, n):
    for f in range(49):
        if _is_fence(board[f]) and _same_line(f, square):
            codes[n] = _code(K_SWAP, f, -1)
            n += 1
    return n


@njit_cached
def _hops(board, square, codes, n):
    for d in range(1, 5):
        f = NEIGHBOUR[square, d]
        if f < 0 or not _is_fence(board[f]):
            continue
        if INSIDE[f]:
            codes[n] = _code(K_HOP, f, -1)
            n += 1
        far = NEIGHBOUR[square, _opposite(d)]
        if far >= 0 and board[far] == EMPTY:
            codes[n] = _code(K_HOPFENCE, f, -1)
            n += 1
    return n


@njit_cached
def _aims(board, square, codes, n):
    """AIM: every non-empty set of the Fences around the Stack, each turned
    anew; the choices in square order, the last varying fastest (itertools.product)."""
    around = np.empty(4, dtype=np.int64)
    count = 0
    for d in range(1, 5):
        around[count] = NEIGHBOUR[square, d]
        count += 1
    around.sort()
    fences = np.empty(4, dtype=np.int64)
    options = np.zeros((4, 5), dtype=np.int64)
    radix = np.zeros(4, dtype=np.int64)
    k = 0
    for i in range(count):
        f = around[i]
        if f < 0 or not _is_fence(board[f]):
            continue
        cell = board[f]
        fences[k] = f
        r = 1  # choice 0: left as it is
        if _direction(cell) != UP:
            options[k, r] = UP
            r += 1
        for d in range(1, 5):
            t = NEIGHBOUR[f, d]
            if t >= 0 and INSIDE[t] and d != _direction(cell):
                options[k, r] = d
                r += 1
        radix[k] = r
        k += 1
    digits = np.zeros(4, dtype=np.int64)
    while True:
        i = k - 1  # the next combination: the last choice fastest
        while i >= 0:
            digits[i] += 1
            if digits[i] < radix[i]:
                break
            digits[i] = 0
            i -= 1
        if i < 0:
            return n
        code = K_AIM
        turns = 0
        for j in range(k):
            if digits[j] > 0:
                code |= (fences[j] + 1 | options[j, digits[j]] << 6) << (C_AIM + AIM_TURN_BITS * turns)
                turns += 1
        codes[n] = code
        n += 1


@njit_cached
def _uniform(order, height):
    for i in range(1, height):
        if order[i] != order[0]:
            return False
    return True


@njit_cached
def _digs(order, height, destroyed, uniform_dig, codes, n):
    """DIG (rules.dig_moves): the top small to the bottom; under a lone small,
    each destroyed colour put back (the colours in their order)."""
    if height >= 2 and (uniform_dig == UNIFORM_NOOP or not _uniform(order, height)):
        codes[n] = _code(K_DIG, -1, -1)
        n += 1
    if height == 1:
        for c in range(10):
            if destroyed >> DESTROYED_BITS * c & (1 << DESTROYED_BITS) - 1:
                codes[n] = _code(K_DIG, -1, c)
                n += 1
    return n


@njit_cached
def _orders(stack, height):
    """Every distinct reordering of a Stack (rules.orders): as it stands first,
    then the others in order of their colours, bottom to top."""
    ordered = np.empty(height, dtype=np.int64)
    for i in range(height):
        ordered[i] = stack[i]
    ordered.sort()
    total = 1
    for i in range(2, height + 1):
        total *= i
    found = np.zeros((total, height), dtype=np.int64)
    for i in range(height):
        found[0, i] = stack[i]
    n = 1
    while True:
        same = True
        for i in range(height):
            if ordered[i] != stack[i]:
                same = False
        if not same:
            for i in range(height):
                found[n, i] = ordered[i]
            n += 1
        # the next permutation in lexicographic order (skips repeats of a colour)
        i = height - 2
        while i >= 0 and ordered[i] >= ordered[i + 1]:
            i -= 1
        if i < 0:
            return found[:n]
        j = height - 1
        while ordered[j] <= ordered[i]:
            j -= 1
        swapped = ordered[i]
        ordered[i] = ordered[j]
        ordered[j] = swapped
        low, high = i + 1, height - 1
        while low < high:  # the tail reversed
            swapped = ordered[low]
            ordered[low] = ordered[high]
            ordered[high] = swapped
            low += 1
            high -= 1


@njit_cached
def _order_code(order, height):
    """A WILD reorder's bits of a move's code: its colours plus 1, base ORDER_BASE, the bottom lowest."""
    value = 0
    for i in range(height - 1, -1, -1):
        value = value * ORDER_BASE + order[i] + 1
    return value << C_ORDER


@njit_cached
def _action_moves(board, square, stack, height, destroyed, face, uniform_dig, codes):
    """Step 2 (rules.action_moves): the moves a rolled face offers; one FAIL
    (one per reorder under WILD) when the action is impossible; none when the
    face is rolled again (a uniform Dig under ``reroll``)."""
    if face != F_WILD:
        if face == F_TIP:
            n = _tips(board, square, codes, 0)
        elif face == F_SWAP:
            n = _swaps(board, square, codes, 0)
        elif face == F_HOP:
            n = _hops(board, square, codes, 0)
        elif face == F_DIG:
            n = _digs(stack, height, destroyed, uniform_dig, codes, 0)
        else:
            n = _aims(board, square, codes, 0)
        if n == 0:
            if face == F_DIG and uniform_dig == UNIFORM_REROLL and height >= 2:
                return 0
            codes[0] = _code(K_FAIL, -1, -1)
            n = 1
        return n
    unordered = np.empty(1024, dtype=np.int64)
    count = _tips(board, square, unordered, 0)
    count = _swaps(board, square, unordered, count)
    count = _hops(board, square, unordered, count)
    count = _aims(board, square, unordered, count)
    orders = _orders(stack, height)
    digs = np.empty(11, dtype=np.int64)
    all_one_colour = _uniform(stack, height)
    n = 0
    for o in range(orders.shape[0]):
        order = orders[o]
        reorder = _order_code(order, height)
        for m in range(count):
            codes[n] = unordered[m] | reorder
            n += 1
        # a reorder then a Dig that gives back the Stack as it stood is not offered, unless it is the one Dig there is
        restores_stack = True
        for i in range(height):
            if order[(i + height - 1) % height] != stack[i]:  # the Dig's Stack: order rotated
                restores_stack = False
        for i in range(_digs(order, height, destroyed, uniform_dig, digs, 0)):
            if (digs[i] >> C_ARG & 63) > 0 or not restores_stack or all_one_colour:  # a colour put back, or a Dig that changes the Stack
                codes[n] = digs[i] | reorder
                n += 1
    if n == 0:
        for o in range(orders.shape[0]):
            codes[n] = _code(K_FAIL, -1, -1) | _order_code(orders[o], height)
            n += 1
    return n


@njit_cached
def legal(tables, position, face, codes):
    """treehouse_legal_moves of the step the position is at, for ``face``
    (read only at the act step), as codes written into ``codes`` in the
    reference rules' order; how many.  A seat that is out passes at the act
    step and has nothing to do at the others."""
    mover = position[P_MOVER]
    base = P_SEATS + mover * SEAT_WIDTH
    height = position[base + SEAT_HEIGHT]
    step = position[P_STEP]
    if height == 0:
        if step == 1:
            codes[0] = PASS
            return 1
        return 0
    board = position[P_BOARD : P_BOARD + 49]
    square = _square(position, mover)
    if step == 0:
        return _fence_moves(board, square, codes)
    if step == 2:
        n = 0
        for d in range(1, 5):
            if tables[R_OUTSIDE_ATTEMPTS] != 0 or INSIDE[NEIGHBOUR[square, d]]:
                codes[n] = _code(K_STEP, -1, d)
                n += 1
        return n
    stack = position[base + SEAT_STACK : base + SEAT_STACK + MAX_HEIGHT]
    return _action_moves(board, square, stack, height, position[base + SEAT_DESTROYED], face, tables[R_UNIFORM_DIG], codes)


@njit_cached
def status(tables, position):
    """The seat to move, times 2, plus 1 at the act step (the one that rolls)."""
    return position[P_MOVER] * 2 + (1 if position[P_STEP] == 1 else 0)


@njit_cached
def play(tables, position, code, after):
    """The move ``code`` played at the position's step (treehouse_apply_move
    and treehouse_resolve): the position after it written into ``after``,
    its step, turn and seat to move as they were (:func:`advance` moves
    on); the winners as a bit per seat, or GOES_ON (treehouse_outcome)."""
    work, before_count = _workspace(position)
    ended, mask = _performed(tables, position, code, _square(position, position[P_MOVER]), before_count, work)
    _written(position, code, work, after)
    return GOES_ON if ended == O_NONE else mask


@njit_cached
def advance(tables, position, after):
    """The position at the next step written into ``after``: the turn's next
    step (rules.advance); after its last, or once its seat is out, the next
    seat still in, from step ``fence``, the turn counted (rules.end_turn)."""
    for i in range(position.shape[0]):
        after[i] = position[i]
    mover = position[P_MOVER]
    step = position[P_STEP]
    if step < 2 and position[P_SEATS + mover * SEAT_WIDTH + SEAT_HEIGHT] > 0:
        after[P_STEP] = step + 1
        return
    players = position[P_PLAYERS]
    for offset in range(1, players + 1):
        seat = mover + offset  # wrapped by a comparison: numba's % keeps Python's sign rule, at a division's cost
        if seat >= players:
            seat -= players
        if position[P_SEATS + seat * SEAT_WIDTH + SEAT_HEIGHT] > 0:
            after[P_MOVER] = seat
            break
    after[P_STEP] = 0
    after[P_TURN] = position[P_TURN] + 1


@njit_cached
def search_node(tables, faces, probs, position, depth, me, width, choices, counter):
    """The compiled search's node over these kernels (:func:`search`; its recursion comes back here)."""
    return node(status, legal, play, advance, evaluate, play_each, search_node, tables, faces, probs, position, depth, me, width, choices, counter)


@njit_cached
def search(tables, faces, probs, position, codes, depth, me, width, choices, counter):
    """The compiled search over these kernels (``CompiledGame.search``), calling them directly."""
    return root(status, legal, play, advance, evaluate, play_each, search_node, tables, faces, probs, position, codes, depth, me, width, choices, counter)


@njit_cached
def look_faces(tables, position, faces, seat, choices):
    """For each face of ``faces``, every legal move of the position's step
    (:func:`legal`, at most ``choices``) looked at for ``seat``
    (:func:`look`), in one call: the looks of all faces one after another,
    and how many moves each face has."""
    counts = np.zeros(faces.shape[0], dtype=np.int64)
    values = np.zeros(256, dtype=np.float64)
    outcomes = np.zeros(256, dtype=np.int64)
    winners = np.zeros(256, dtype=np.int64)
    codes = np.empty(choices, dtype=np.int64)
    start = 0
    for i in range(faces.shape[0]):
        count = legal(tables, position, faces[i], codes)
        counts[i] = count
        if start + count > values.shape[0]:  # room for this face's looks
            size = 2 * (start + count)
            values = _grown(values, size, start)
            outcomes = _grown(outcomes, size, start)
            winners = _grown(winners, size, start)
        face_values, face_outcomes, face_winners, _ended = look(tables, position, seat, codes[:count])
        for m in range(count):
            values[start + m] = face_values[m]
            outcomes[start + m] = face_outcomes[m]
            winners[start + m] = face_winners[m]
        start += count
    return values[:start], outcomes[:start], winners[:start], counts


@njit_cached
def _grown(array, size, used):
    grown = np.zeros(size, dtype=array.dtype)
    for i in range(used):
        grown[i] = array[i]
    return grown
