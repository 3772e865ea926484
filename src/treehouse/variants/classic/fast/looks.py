"""Classic Treehouse's compiled tier, as the hooks see it: looks and a compiled game.

The second tier of classic's rules (docs/rules/classic.md, "Two tiers"):
the kernels of :mod:`treehouse.variants.classic.fast.core`, behind the hooks
that ask many moves at once (``treehouse_look_moves``,
``treehouse_look_all_moves``) and behind ``treehouse_compiled_game``, the
game the compiled search plays in its head.  The reference tier is the
variant's hooks themselves (game.py), which the kernel's defaults and the
Python search play move by move; tests/classic/test_tiers.py checks the two
give the same answers, value for value.

This module encodes positions and moves as the kernels read them and makes
each rule set's tables from the reference rules once.  It gets the kernels
from :func:`treehouse.kernel.fast.compiled.kernels` only once the compiled core
is in use: compiled ahead of time where they can be (then numba is never
imported), else just in time.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from treehouse.kernel.fast import compiled, gate
from treehouse.kernel.fast.compiled_game import GOES_ON, PASS, REROLL, CompiledGame, Playout
from treehouse.kernel.turn import PASS as PASS_CHOICE
from treehouse.kernel.turn import REROLL as REROLL_CHOICE
from treehouse.kernel.turn import Looks, Outcome
from treehouse.variants.classic.fast import core_layout as layout
from treehouse.variants.classic.actions import ACTIONS, results, wild_results
from treehouse.variants.classic.distance import _targets
from treehouse.variants.classic.trio import all_trios, mirror, trio_rank

if TYPE_CHECKING:
    import numpy as np

TRIOS = len(all_trios())

#: The faces of the classic die, numbered as the kernels know them.
FACES = {face: number for number, face in enumerate((*ACTIONS, "WILD"))}

#: The hooks a look at listed moves stands for: while classic alone answers
#: all of them, the core's answer is the one they would give.
LOOK_HOOKS = ("treehouse_apply_move", "treehouse_resolve", "treehouse_outcome", "treehouse_evaluate")
#: A look at every choice of a node lists the moves too: a house rule that
#: changes which moves are legal (``no-house-moves``) leaves that to the
#: hooks, and the core still looks at the moves they list.
LOOK_ALL_HOOKS = ("treehouse_legal_moves", *LOOK_HOOKS)
#: The compiled search plays whole games in its head: every hook of a turn.
GAME_HOOKS = (*LOOK_ALL_HOOKS, "treehouse_chance", "treehouse_end_turn", "treehouse_turn_steps", "treehouse_look_moves", "treehouse_look_all_moves")

REASONS = {
    "mover": "matched the House",
    "other": "matched the House on another player's turn",
    "tie": "tie: several trios matched the House at once",
}

NO_OUTCOMES = Looks([]).outcomes  # no move ends the game

#: About how long a cold compile of the kernels (the core's, the search's and the playout's) takes (the line on first use).
COMPILE_SECONDS = 12.0

#: The core's module, named, not imported: its kernels are compiled ahead of
#: time where they can be (kernel/fast/ahead.py), and then it is never loaded.
CORE = "treehouse.variants.classic.fast.core"
_SOURCE = Path(__file__).parent.parent.parent.parent  # the treehouse package
#: The files the kernels are compiled from: the core's, the generic search
#: and playout it binds, and those whose constants they read (a change to
#: any compiles them again; tests/kernel/test_compiled.py checks the list).
SOURCES = tuple(
    str(_SOURCE / path)
    for path in (
        "variants/classic/fast/core.py",
        "variants/classic/fast/core_layout.py",
        "kernel/fast/compiled_search.py",
        "kernel/fast/playout_kernels.py",
        "kernel/fast/compiled_game.py",
        "kernel/engine.py",
    )
)


def outcome(winners: int, mover: int) -> Outcome:
    """The kernels' winners (a bit mask of seats) as game.outcome writes them."""
    seats = tuple(seat for seat in range(winners.bit_length()) if winners >> seat & 1)
    if seats == (mover,):
        return Outcome(seats, REASONS["mover"])
    return Outcome(seats, REASONS["other"] if len(seats) == 1 else REASONS["tie"])


def tables(rules: Any) -> np.ndarray:
    """The kernels' tables for ``rules`` (core.py's docstring), made from the reference rules."""
    import numpy as np  # here, not at import: a game that never uses the core never loads numpy

    assert layout.TRIOS == TRIOS and layout.ACTION_FACES == len(ACTIONS) == FACES["WILD"]
    trios = all_trios()
    image = [trio_rank(mirror(trio)) for trio in trios]
    away = [steps for row in _targets(rules.dig_in_place, rules.mirror_matches) for steps in row]
    offsets, found = [0], []
    for face in FACES:
        for trio in trios:
            if face == "WILD":  # as game.action_moves lists them
                made = [result for _action, result, _words in wild_results(trio, rules.dig_in_place)]
            else:
                made = [result for result, _words in results(trio, face, rules.dig_in_place)]
            found += map(trio_rank, made)
            offsets.append(len(found))
    header = [0] * layout.HEADER
    header[layout.T_MIRROR] = int(rules.mirror_matches)
    header[layout.T_DECLINE] = PASS if rules.house_decline == "pass" else REROLL
    header[layout.T_WILD] = FACES["WILD"]
    header[layout.T_WILD_OWN_FIRST] = int(rules.wild_choice == "own_first")
    header[layout.T_IMAGE] = layout.HEADER
    header[layout.T_AWAY] = header[layout.T_IMAGE] + len(image)
    header[layout.T_OFFSETS] = header[layout.T_AWAY] + len(away)
    header[layout.T_RESULTS] = header[layout.T_OFFSETS] + len(offsets)
    return np.array(header + image + away + offsets + found, dtype=np.int64)


def most_choices(table: np.ndarray) -> int:
    """The most choices ``legal`` can write: a face's most on one trio and on the House, and a decline."""
    import numpy as np

    offsets = table[table[layout.T_OFFSETS] : table[layout.T_RESULTS]]
    most = int(np.diff(offsets).max())
    return 2 * most + 1


def position(state: Any, step: Any = None) -> np.ndarray:
    """A position as the kernels read it (every classic turn is one step, so ``step`` adds nothing)."""
    import numpy as np
    house, trios, to_move = state
    return np.array([trio_rank(house), to_move, len(trios), *map(trio_rank, trios)], dtype=np.int64)


def code(move: Any) -> int:
    """A choice as the kernels read it."""
    if move is PASS_CHOICE:
        return PASS
    if move is REROLL_CHOICE:
        return REROLL
    return move.rank + TRIOS if move.target == "house" else move.rank


def compiled_game(kernels: Any, table: np.ndarray) -> CompiledGame:
    """The compiled game (``treehouse_compiled_game``) of the rule set whose
    tables are ``table``, on the core's ``kernels`` (:func:`prepare`)."""
    return CompiledGame(kernels.search, table, most_choices(table), FACES, position, code, Playout(kernels.playout, layout.STATISTICS, outcome))


class ClassicCore:
    """The compiled tier of one rule set's classic game (see the module's docstring)."""

    def __init__(self, kernels: Any, rules: Any) -> None:
        self._core = kernels
        self.game = compiled_game(kernels, tables(rules))

    def look(self, state: Any, moves: Sequence, seat: int) -> Looks:
        """``treehouse_look_moves``'s answer for ``moves`` of ``state`` (a play step's)."""
        import numpy as np
        codes = np.array([code(move) for move in moves], dtype=np.int64)
        values, winners, ended = self._core.look(self.game.tables, position(state), seat, codes)
        values = values.tolist()
        if not ended:
            return Looks(values, NO_OUTCOMES)
        mover = state.to_move
        return Looks(values, {i: outcome(w, mover) for i, w in enumerate(winners.tolist()) if w != GOES_ON})

    def look_all(self, state: Any, faces: Sequence, seat: int) -> list[Looks] | None:
        """``treehouse_look_all_moves``'s answer: for each face, every choice the
        legal moves list (game.Classic.treehouse_legal_moves), in their order,
        without making a move; ``None`` for a die with a face classic does not know."""
        import numpy as np
        numbers = [FACES.get(face, -1) for face in faces]
        if -1 in numbers:
            return None
        values, winners, counts, rerolls, ended = self._core.look_all(self.game.tables, position(state), seat, np.array(numbers, dtype=np.int64), self.game.choices)
        values = values.tolist()
        found, at, mover = [], 0, state.to_move
        for count, rolled in zip(counts.tolist(), rerolls.tolist()):
            part = values[at : at + count]
            if not ended:
                found.append(Looks(part, NO_OUTCOMES, rolled))
            else:
                ending = {i - at: outcome(w, mover) for i, w in enumerate(winners[at : at + count].tolist(), at) if w != GOES_ON}
                found.append(Looks(part, ending or NO_OUTCOMES, rolled))
            at += count
        return found


def _warm(core: Any) -> None:
    """Every kernel Python calls once, on the official rules' tables (compiles
    them just in time, or loads them from numba's cache)."""
    import numpy as np
    from treehouse.variants.classic.game import ClassicRules

    game = compiled_game(core, tables(ClassicRules()))
    start = position((all_trios()[0], (all_trios()[1], all_trios()[2]), 0))
    core.look(game.tables, start, 0, np.array([3, TRIOS + 4], dtype=np.int64))
    core.look_all(game.tables, start, 0, np.array([FACES["WILD"]], dtype=np.int64), game.choices)
    codes = np.empty(game.choices, dtype=np.int64)
    count = core.legal(game.tables, start, FACES["WILD"], codes)
    faces = np.array([FACES["WILD"]], dtype=np.int64)
    game.search(game.tables, faces, np.array([1.0]), start, codes[:count].copy(), 2, 0, 2, game.choices, np.zeros(1, dtype=np.int64))
    from treehouse.kernel.fast.compiled_game import FACE_COLUMNS, INTS

    key = np.array([7], dtype=np.int64)  # one game, seeded as random.Random(7)
    game.playout.games(
        game.tables, start, np.arange(len(FACES), dtype=np.int64), key, np.array([0, 1], dtype=np.int64), 2, 0, 1, game.choices,
        np.zeros((1, INTS), dtype=np.int64), np.zeros((1, len(FACES), len(FACE_COLUMNS)), dtype=np.int64),
        np.zeros((1, len(layout.STATISTICS)), dtype=np.int64), np.zeros((1, 2), dtype=np.int64),
    )  # fmt: skip


def prepare() -> Any | None:
    """The core's kernels, prepared once a process (compiled, or loaded from
    the cache, before their first use); ``None`` where numba turns out not to import."""
    return compiled.kernels("classic", CORE, SOURCES, COMPILE_SECONDS, _warm)


class Unused:
    """Stands for the core where it may not answer: every look is the hooks'."""

    game = None

    def look(self, state: Any, moves: Sequence, seat: int) -> None:
        return None

    def look_all(self, state: Any, faces: Sequence, seat: int) -> None:
        return None


_cores: dict = {}  # the rule options the core depends on -> its ClassicCore


def core_for(variant: Any, hooks: Sequence[str] = LOOK_HOOKS) -> ClassicCore | Unused | None:
    """The core that answers ``variant``'s looks in its game, or :class:`Unused`
    where the compiled core is off or another plugin answers one of the
    ``hooks`` the look stands for (:data:`LOOK_HOOKS`, :data:`LOOK_ALL_HOOKS`,
    :data:`GAME_HOOKS`); ``None`` while the core waits (:func:`compiled.waiting`:
    ``th play`` prepares it in the background, or a short run has not loaded
    it): the hooks answer meanwhile, ask again later."""
    if compiled.waiting("classic"):
        return None
    if not compiled.enabled() or not gate.may_answer(variant.hooks, hooks, variant.FAST_FORMS):
        return Unused()
    kernels = prepare()
    if kernels is None:
        return Unused()
    rules = variant.rules
    key = (bool(rules.dig_in_place), bool(rules.mirror_matches), rules.house_decline, rules.wild_choice)  # what the tables hold
    core = _cores.get(key)
    if core is None:
        core = _cores[key] = ClassicCore(kernels, rules)
    return core
