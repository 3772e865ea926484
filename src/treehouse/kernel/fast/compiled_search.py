"""The search bot's second tier: the same expectimax, compiled, over any compiled game.

:mod:`treehouse.bots.search` is the specification: these kernels search
exactly as it does (its docstring says how), over a variant's compiled
game (:class:`treehouse.kernel.fast.compiled_game.CompiledGame`, the
``treehouse_compiled_game`` hook) instead of its hooks, so a whole decision
is one call of compiled code.  It gives every root move the value the
Python search's ``advise`` gives it, bit for bit (the same arithmetic in the
same order), so ``choose`` picks among the same best moves with the same
draw (tests/bots/test_compiled_search.py).  What it leaves out changes no
value:

* the cut-offs (``choose``'s alpha), which only skip moves that cannot be best;
* the table of positions met twice, which only saves searching them again.

The search bot uses it for a search without a budget (``nodes`` and
``seconds`` count the Python search's own moves), where the variant offers
a compiled game and the die is the kernel's (the same at every rolled step):
:meth:`treehouse.bots.lookahead.Model.compiled_values`.

**Written once, bound by the variant**, as the playout of random seats is
(:mod:`treehouse.kernel.fast.playout_kernels`): :func:`root` and :func:`node`
know no game; they take the variant's six kernels as arguments and are
inlined into two one-line kernels beside the variant's own
(``CompiledGame.search``; classic's are ``core.search`` and
``core.search_node``), so numba calls every kernel directly and the whole
search compiles into the variant's core, ahead of time too
(:mod:`treehouse.kernel.fast.ahead`).  The recursion goes through the variant's
``search_node``, which ``root`` and ``node`` take as ``recurse``.

Only the variants' cores import this module (it imports numba).  numba
compiles in the values of the constants these kernels read from other
modules (``WIN`` and ``LOSS``, the choice codes): the cores name this file
and theirs among the sources their kernels are compiled from.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from treehouse.kernel.fast.compiled_game import GOES_ON, LOSS, NO_FACE, REROLL, WIN


@njit(inline="always")
def _score(winners, me):
    """Model.outcome_score: a sole win, a shared win (0), a loss, or a draw (0)."""
    if winners >> me & 1:
        return WIN if winners == 1 << me else 0.0
    return LOSS if winners else 0.0


@njit(inline="always")
def play_one_by_one(play, evaluate, tables, position, codes, n, me, winners, values):
    """``play_each`` for a game whose moves share no work: each choice played
    and evaluated on its own (a variant binds it to its ``play`` and ``evaluate``)."""
    after = np.empty_like(position)
    for i in range(n):
        if codes[i] != REROLL:
            winners[i] = play(tables, position, codes[i], after)
            if winners[i] == GOES_ON:
                values[i] = evaluate(tables, after, me)


@njit(inline="always")
def _looked(play_each, evaluate, tables, position, codes, n, me):
    """Model.look of the first ``n`` choices ``codes``, in one ``play_each``:
    REROLL worth the position as it stands, else the outcome's score where the
    choice ends the game, else the evaluation."""
    winners = np.empty(n, dtype=np.int64)
    values = np.empty(n)
    play_each(tables, position, codes, n, me, winners, values)
    for i in range(n):
        if codes[i] == REROLL:
            values[i] = evaluate(tables, position, me)
        elif winners[i] != GOES_ON:
            values[i] = _score(winners[i], me)
    return values


@njit(inline="always")
def _move(play, advance, evaluate, tables, position, code, depth, me, after, child):
    """SearchBot._move_value up to the next node: ``(value, 0)`` where the
    value is settled, else ``(0.0, d)``: search ``child`` ``d`` steps deep."""
    if code == REROLL:  # the same step rolled again, one step shallower
        if depth > 1:
            child[:] = position
            return 0.0, depth - 1
        return evaluate(tables, position, me), 0
    winners = play(tables, position, code, after)
    rest = depth - 1
    if winners != GOES_ON:  # SearchBot._after: sooner wins are better, later losses less bad
        score = _score(winners, me)
        return (score + rest if score >= WIN else score - rest if score <= LOSS else score), 0
    if rest <= 0:
        return evaluate(tables, after, me), 0
    advance(tables, after, child)
    return 0.0, rest


@njit(inline="always")  # into the variant's search_node
def node(status, legal, play, advance, evaluate, play_each, recurse, tables, faces, probs, position, depth, me, width, choices, counter):
    """SearchBot._node: the value to ``me`` of the step ``position`` is at,
    searched ``depth`` (at least 1) steps: a chance node where the step rolls,
    else a decision; the faces' values weighted by their probabilities."""
    codes = np.empty(choices, dtype=np.int64)
    after = np.empty_like(position)
    child = np.empty_like(position)
    while True:
        state = status(tables, position)
        if state & 1:
            break
        n = legal(tables, position, NO_FACE, codes)
        if n:
            break
        advance(tables, position, after)  # a step without a roll and nothing to do is skipped
        position = after.copy()
    rolls, mine = state & 1, state >> 1 == me
    total = weight = 0.0
    for k in range(faces.shape[0] if rolls else 1):
        p = 1.0  # a step without a roll: one decision, its value exactly (times 1, over 1)
        if rolls:
            p = probs[k]
            n = legal(tables, position, faces[k], codes)
            if not n:
                continue  # nothing to do: that face is rolled again, so it drops out
        counter[0] += n
        if depth == 1:  # the last step searched: the best one-step look (_best_of, _last_chance)
            looks = _looked(play_each, evaluate, tables, position, codes, n, me)
            value = looks[0]
            for i in range(1, n):
                if looks[i] > value if mine else looks[i] < value:
                    value = looks[i]
        else:
            chosen = codes[:n]
            if n > width:  # _best_few: the width best by a one-step look, ties to the earlier move
                keys = _looked(play_each, evaluate, tables, position, codes, n, me)
                if not mine:
                    keys = -keys
                taken = np.zeros(n, dtype=np.bool_)
                chosen = np.empty(width, dtype=np.int64)
                for j in range(width):
                    pick = -1
                    for i in range(n):
                        if not taken[i] and (pick < 0 or keys[i] > keys[pick]):
                            pick = i
                    taken[pick] = True
                    chosen[j] = codes[pick]
            value = 0.0
            for i in range(chosen.shape[0]):
                looked, deeper = _move(play, advance, evaluate, tables, position, chosen[i], depth, me, after, child)
                if deeper:
                    looked = recurse(tables, faces, probs, child, deeper, me, width, choices, counter)
                if i == 0 or (looked > value if mine else looked < value):
                    value = looked
        total += p * value
        weight += p
    if weight == 0.0:  # no face has anything to do
        return evaluate(tables, position, me)
    return total / weight


@njit(inline="always")  # into the variant's search
def root(status, legal, play, advance, evaluate, play_each, recurse, tables, faces, probs, position, codes, depth, me, width, choices, counter):
    """Each of the root's choices ``codes`` valued (SearchBot._move_value at ``depth``)."""
    values = np.empty(codes.shape[0])
    after = np.empty_like(position)
    child = np.empty_like(position)
    for i in range(codes.shape[0]):
        value, deeper = _move(play, advance, evaluate, tables, position, codes[i], depth, me, after, child)
        if deeper:
            value = recurse(tables, faces, probs, child, deeper, me, width, choices, counter)
        if codes[i] != REROLL:
            counter[0] += 1
        values[i] = value
    return values
