"""The search bot's second tier: the same expectimax, compiled, over any compiled game.

:mod:`treehouse.bots.search` is the specification: this module searches
exactly as it does (its docstring says how), over a variant's compiled
game (:class:`treehouse.kernel.compiled_game.CompiledGame`, the
``treehouse_compiled_game`` hook) instead of its hooks, so a whole decision
is one call of numba code.  It gives every root move the value the Python
search's ``advise`` gives it, bit for bit (the same arithmetic in the same
order), so ``choose`` picks among the same best moves with the same draw
(tests/bots/test_compiled_search.py).  What it leaves out changes no value:

* the cut-offs (``choose``'s alpha), which only skip moves that cannot be best;
* the table of positions met twice, which only saves searching them again.

The search bot uses it for a search without a budget (``nodes`` and
``seconds`` count the Python search's own moves), where the variant offers
a compiled game and the die is the kernel's (the same at every rolled step).
The variant's kernels are called through function pointers, so this
module knows no game and is compiled once for all of them.

Only the search bot imports this module, once the compiled core is in use.
numba compiles in the values of the constants these kernels read from other
modules (``WIN`` and ``LOSS``, the choice codes) and keys its cache by this
file alone: after changing one of those, clear the cache folder that
``th --version`` names.
"""

from __future__ import annotations

import warnings
from typing import Any, Sequence

import numpy as np
from numba import types
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.extending import typeof_impl

from treehouse.bots.lookahead import LOSS, WIN
from treehouse.kernel.compiled import njit_cached
from treehouse.kernel.compiled_game import GOES_ON, NO_FACE, REROLL, CompiledGame, op_types

# numba calls taking kernels as values (its "first-class functions") experimental; this module relies only on calling them
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning, module=r"numba\..*|treehouse\.bots\.compiled_search")

STATUS, LEGAL, PLAY, ADVANCE, EVALUATE = (types.FunctionType(signature) for signature in op_types())
_ARRAY = types.int64[::1]
_OPS = (STATUS, LEGAL, PLAY, ADVANCE, EVALUATE)
#: The arguments every search call carries: the game's kernels and tables, the
#: die (each face's number and probability), then the position and the search's settings.
_NODE = types.float64(*_OPS, _ARRAY, _ARRAY, types.float64[::1], _ARRAY, types.int64, types.int64, types.int64, types.int64, _ARRAY)
_ROOT = types.float64[::1](*_OPS, _ARRAY, _ARRAY, types.float64[::1], _ARRAY, _ARRAY, types.int64, types.int64, types.int64, types.int64, _ARRAY)


@njit_cached
def _score(winners, me):
    """Model.outcome_score: a sole win, a shared win (0), a loss, or a draw (0)."""
    if winners >> me & 1:
        return WIN if winners == 1 << me else 0.0
    return LOSS if winners else 0.0


@njit_cached
def _one_step(play, evaluate, tables, position, code, me, after):
    """Model.look of one choice: REROLL worth the position as it stands, else
    the outcome's score where the choice ends the game, else the evaluation."""
    if code == REROLL:
        return evaluate(tables, position, me)
    winners = play(tables, position, code, after)
    if winners != GOES_ON:
        return _score(winners, me)
    return evaluate(tables, after, me)


@njit_cached
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


@njit_cached(signature=_NODE)
def _node(status, legal, play, advance, evaluate, tables, faces, probs, position, depth, me, width, choices, counter):
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
            value = 0.0
            for i in range(n):
                looked = _one_step(play, evaluate, tables, position, codes[i], me, after)
                if i == 0 or (looked > value if mine else looked < value):
                    value = looked
        else:
            chosen = codes[:n]
            if n > width:  # _best_few: the width best by a one-step look, ties to the earlier move
                keys = np.empty(n)
                for i in range(n):
                    looked = _one_step(play, evaluate, tables, position, codes[i], me, after)
                    keys[i] = looked if mine else -looked
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
                    looked = _node(status, legal, play, advance, evaluate, tables, faces, probs, child, deeper, me, width, choices, counter)
                if i == 0 or (looked > value if mine else looked < value):
                    value = looked
        total += p * value
        weight += p
    if weight == 0.0:  # no face has anything to do
        return evaluate(tables, position, me)
    return total / weight


@njit_cached(signature=_ROOT)
def _root(status, legal, play, advance, evaluate, tables, faces, probs, position, codes, depth, me, width, choices, counter):
    """Each of the root's choices ``codes`` valued (SearchBot._move_value at ``depth``)."""
    values = np.empty(codes.shape[0])
    after = np.empty_like(position)
    child = np.empty_like(position)
    for i in range(codes.shape[0]):
        value, deeper = _move(play, advance, evaluate, tables, position, codes[i], depth, me, after, child)
        if deeper:
            value = _node(status, legal, play, advance, evaluate, tables, faces, probs, child, deeper, me, width, choices, counter)
        if codes[i] != REROLL:
            counter[0] += 1
        values[i] = value
    return values


class Pointer(types.WrapperAddressProtocol):
    """A kernel as a function pointer, its address taken once (numba's
    wrapper address protocol).  Handed a kernel itself, numba looks its
    address up again at every call of the search: about 0.1 ms a decision
    for the five, against about 1.4 ms for a classic decision's search."""

    def __init__(self, kernel: Any, signature: Any) -> None:
        from numba.experimental.function_type import _get_wrapper_address

        self._signature = signature
        self._address = _get_wrapper_address(kernel, signature)
        self.numba_type = types.FunctionType(signature)

    def __wrapper_address__(self) -> int:
        return self._address

    def signature(self) -> Any:
        return self._signature


@typeof_impl.register(Pointer)
def _typeof_pointer(pointer: Pointer, context: Any) -> Any:
    return pointer.numba_type  # made once: numba's own typing of a protocol object builds it at every call


def pointers(kernels: Sequence, signatures: Sequence) -> tuple:
    """Kernels of a compiled game as :class:`Pointer` s, for a game that is
    built once and searched often: the five of ``CompiledGame.ops`` with
    :func:`~treehouse.kernel.compiled_game.op_types`.  Where this numba takes addresses another way, the
    kernels themselves (the same values, a little slower)."""
    try:
        return tuple(Pointer(kernel, signature) for kernel, signature in zip(kernels, signatures, strict=True))
    except (ImportError, AttributeError, TypeError, NotImplementedError):
        return tuple(kernels)


def values(game: CompiledGame, state: Any, step: Any, moves: Sequence, die: Sequence, seat: int, depth: int, width: int) -> tuple[list[float], int] | None:
    """The value to ``seat`` of each of ``moves`` (the choices of ``step`` in
    ``state``), searched ``depth`` steps as SearchBot does, with ``die`` the
    chance node of every rolled step (``(face, probability)`` pairs); and
    how many moves it played in its head.  ``None`` where the die has a face
    the game does not know (then the Python search answers)."""
    faces = [game.faces.get(face, -1) for face, _p in die]
    if -1 in faces:
        return None
    counter = np.zeros(1, dtype=np.int64)
    found = _root(
        *game.ops,
        game.tables,
        np.array(faces, dtype=np.int64),
        np.array([p for _face, p in die], dtype=np.float64),
        game.position(state, step),
        np.array([game.code(move) for move in moves], dtype=np.int64),
        depth,
        seat,
        width,
        game.choices,
        counter,
    )
    return found.tolist(), int(counter[0])


def warm(game: CompiledGame, position: np.ndarray, face: int, codes: np.ndarray) -> None:
    """Search the choices ``codes`` of ``position``, its step rolled ``face``,
    once (numba loads the search from its cache, or compiles it)."""
    assert codes.shape[0], "warm the search on a position with choices"
    _root(*game.ops, game.tables, np.array([face], dtype=np.int64), np.array([1.0]), position, codes, 2, 0, 2, game.choices, np.zeros(1, dtype=np.int64))
