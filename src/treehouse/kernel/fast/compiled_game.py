"""A compiled game: what a variant's compiled core offers the compiled search.

The search is written once per tier (docs/bots.md): in Python over the
game's hooks (:mod:`treehouse.bots.search`), and compiled over any
compiled game (:mod:`treehouse.kernel.fast.compiled_search`).  A variant whose core
can play its whole game as integers answers ``treehouse_compiled_game``
with a :class:`CompiledGame`: the search bound to six numba kernels over
its own integer encoding, the arrays they read, and how its positions and
moves become integers.  The search knows no game: the variant binds it to
its kernels in two kernels of one line beside them (:class:`CompiledGame`
shows them), so numba calls them directly and compiles the whole search
into the variant's core.

The six kernels, each given the variant's ``tables`` (one int64 array
holding whatever its rules need) and a ``position`` (an int64 array in the
variant's layout, the step to be played included):

* ``status(tables, position)``: the seat to move, times 2, plus 1 if the
  step rolls the die;
* ``legal(tables, position, face, codes)``: writes the codes of the step's
  choices for ``face`` (:data:`NO_FACE` for a step without a roll) into
  ``codes``, in ``treehouse_legal_moves``' order, and returns how many;
  a move is a code ``>= 0``, a decline :data:`PASS` or :data:`REROLL`;
* ``play(tables, position, code, after)``: writes the position after the
  choice (applied and resolved, the step not yet advanced) into ``after``
  and returns the winners as a bit mask of seats (0 for a draw), or
  :data:`GOES_ON` while the game goes on;
* ``advance(tables, position, after)``: writes the position at the next
  step into ``after`` (the next player's turn after the last step, or
  where ``play`` cut the turn short: Fences' seat that went out);
* ``evaluate(tables, position, seat)``: ``treehouse_evaluate``'s number;
* ``play_each(tables, position, codes, n, me, winners, values)``: the first
  ``n`` choices ``codes`` each played from ``position`` as ``play`` plays
  it, ``winners[i]`` its answer and, while the game goes on, ``values[i]``
  the evaluation for ``me`` of the position after (``REROLL`` skipped: the
  search values it).  The search's one-step looks, in one call, so moves
  that share work share it (Fences' workspace); a game whose moves share
  nothing binds :func:`~treehouse.kernel.fast.compiled_search.play_one_by_one`
  to its ``play`` and ``evaluate``.

A game may also offer a :class:`Playout`: what the compiled playout of
random seats (:mod:`treehouse.playtest.compiled_playout`) needs beyond
those five to count a game as ``th simulate``'s observer does.

This module imports no numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple

if TYPE_CHECKING:
    import numpy as np

#: The choice codes of a decline (the moves' own codes are 0 or more).
PASS = -1
REROLL = -2
#: ``legal``'s face for a step that does not roll.
NO_FACE = -1
#: ``play``'s answer while the game goes on.
GOES_ON = -1

#: A won and a lost game's value for the seat that looks ahead, in both tiers
#: of the search (the Python search, bots/search.py, and the compiled one).
WIN = 1e9
LOSS = -1e9

#: The columns of a playout game's whole numbers (``Playout.games``' ``ints``).
WINNERS, LAST_STEP_MOVER, TURNS, DECISIONS, MULTI, LAST_MOVER, LEAD_CHANGES, EVALUATED_STEPS, TIMEOUT = range(9)
INTS = 9
#: Face usage columns: each roll of a face is counted as rolled, and then as
#: at most one of the others (the playtest's aggregate reads them too).
FACE_COLUMNS = ("rolled", "forced", "impossible", "rerolled", "passed")
ROLLED, FORCED, IMPOSSIBLE, REROLLED, PASSED = range(5)


#: Hooks that must be the kernel's own for a game of random seats to play
#: as the compiled playout plays it: the die and its roll, the seats' own
#: choice, and no setup phase.
PLAYOUT_KERNEL_HOOKS = ("treehouse_chance", "treehouse_roll", "treehouse_choose_move", "treehouse_setup_step")
#: Hooks the variant must answer alone, besides those a compiled game stands for.
PLAYOUT_VARIANT_HOOKS = ("treehouse_setup", "treehouse_step_statistics", "treehouse_evaluate")


def hooks_play_out(hooks: Any) -> bool:
    """Do a game's ``hooks`` leave its random seats' games to the compiled
    playout (:data:`PLAYOUT_KERNEL_HOOKS`, :data:`PLAYOUT_VARIANT_HOOKS`)?
    Asked before numpy is imported: Fences, whose setup draws, never loads it."""
    return set(PLAYOUT_KERNEL_HOOKS) <= hooks.kernel_only and hooks.variant_alone(*PLAYOUT_VARIANT_HOOKS)


class CompiledGame(NamedTuple):
    """A variant's compiled game (see the module's docstring).

    ``search`` is :func:`treehouse.kernel.fast.compiled_search.root` bound to the
    variant's six kernels, in the module of its kernels, with
    :func:`~treehouse.kernel.fast.compiled_search.node` bound beside it (the
    search's recursion goes through it)::

        @njit_cached
        def search_node(tables, faces, probs, position, depth, me, width, choices, counter):
            return node(status, legal, play, advance, evaluate, play_each, search_node, tables, faces, probs, position, depth, me, width, choices, counter)

        @njit_cached
        def search(tables, faces, probs, position, codes, depth, me, width, choices, counter):
            return root(status, legal, play, advance, evaluate, play_each, search_node, tables, faces, probs, position, codes, depth, me, width, choices, counter)

    It values each of the root's choices ``codes``.  ``choices`` is the
    most choices ``legal`` ever writes; ``faces`` each face's number for
    ``legal``; ``position(state, step)`` and ``code(move)`` the encoding
    (``code`` gives :data:`PASS` and :data:`REROLL` for the declines);
    ``playout`` what random seats' games need besides, if it offers them."""

    search: Any
    tables: np.ndarray
    choices: int
    faces: Mapping[str, int]
    position: Callable[[Any, Any], np.ndarray]
    code: Callable[[Any], int]
    playout: Playout | None = None


class Playout(NamedTuple):
    """What the compiled playout needs besides the search's kernels.

    ``games`` is :func:`treehouse.kernel.fast.playout_kernels.games` bound to
    the variant's kernels: a cached kernel in the module of its kernels that
    passes it the search's kernels but ``play_each``, and two more, so that numba calls them directly::

        @njit_cached
        def playout(tables, start, die, keys, key_starts, seats, turn_cap, lead, choices, ints, faces, counts, last_not_leading):
            return games(status, legal, play, advance, evaluate, turn_ends, tally, tables, start, die, keys,
                         key_starts, seats, turn_cap, lead, choices, ints, faces, counts, last_not_leading)

    (the arguments one by one: passed on as ``*arguments``, numba calls the
    kernels through pointers, and cannot cache the binding).

    * ``turn_ends(tables, position)``: 1 if the step ``position`` is at is
      the last of its turn (``advance`` then hands the turn on), else 0;
    * ``tally(tables, position, code, counts)``: adds to ``counts`` what
      ``treehouse_step_statistics`` answers for that choice in that
      position, one whole number per name of ``statistics``, in that order.

    ``statistics`` names the counters (a counter the hook never answers
    stays out of a game's statistics, as it does in the observer, so the
    hook's numbers must be whole and never 0); ``outcome(winners, mover)``
    is the :class:`~treehouse.kernel.turn.Outcome` the hooks give for
    ``play``'s winners after ``mover``'s step.  The playout counts no
    impossible action played out (Fences' fail): a game whose resolve
    reports one offers no playout."""

    games: Any
    statistics: tuple[str, ...]
    outcome: Callable[[int, int], Any]

