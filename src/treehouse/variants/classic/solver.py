"""An exact solve of two-player classic Treehouse, by value iteration with numpy.

A position is ``(own, opp, house)``: the trio of the player to move, the
opponent's trio and the House, each one of the 204 trios.  Its value ``V`` is
the probability that the player to move wins under optimal play by both
players.  One turn, for each face ``f`` of the die (probability ``p_f``):

* the player must act on their own trio if ``f`` fits it; a result ``own'``
  wins at once if it matches the House, else it is worth ``1 - V(opp, own', house)``;
* else, if ``f`` fits the House, the player may act on it (a result ``house'``
  wins if ``own`` matches it, loses if only ``opp`` matches it, else is worth
  ``1 - V(opp, own, house')``) or decline: ``pass`` ends the turn
  (``1 - V(opp, own, house)``), ``reroll`` rolls again (``V(own, opp, house)``);
* else the face is rolled again (``V(own, opp, house)``);
* WILD: any result of any action, on either trio (``wild_choice: own_first``:
  an action on the House only where it cannot be done to one's own trio).

so ``V = sum_f p_f * max(choices for f)`` (the Bellman equation).  Value
iteration repeats that update for all 204**3 positions at once until no value
moves by more than ``tolerance``.  Faces with nothing to do at all are solved
in closed form (``V = A + p_R * V`` gives ``V = A / (1 - p_R)``), so the
iteration need not wait for them.

The game is treated as a win for one side or the other: the engine's
``turn_cap`` (a draw after 1000 turns) is ignored, as it is never reached
in practice by players trying to win.

The table is indexed ``table[house, own, opp]`` in memory (each House is one
contiguous 204x204 slab, which keeps the House moves cheap); use
:meth:`Solution.value` rather than indexing it by hand.

The solver is generic over a small abstract game (:class:`SolverGame`): a list
of trios, a die, successor lists per face and a match table.
:func:`classic_game` builds it from the classic rules in force (honouring
``dig_in_place``, ``house_decline``, ``mirror_matches`` and ``wild_choice``) and may restrict
it to a subset of the trios or a different die, which is how the tests solve a
game small enough to check by hand.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from treehouse.errors import TreehouseError
from treehouse.kernel.die import TREEHOUSE_DIE, Die
from treehouse.textfiles import write_atomically, write_text_atomically

#: Bump when the table's meaning or layout changes: old cached tables are then ignored.
SOLVER_VERSION = 1
DEFAULT_TOLERANCE = 1e-10
DEFAULT_MAX_ITERATIONS = 5000
#: Values below this are "no move" markers in the per-face maxima (real values are in [0, 1]).
_NONE = -1.0


@dataclass(frozen=True)
class SolverGame:
    """An abstract race game in the shape of classic Treehouse.

    ``own[f][t]`` and ``house[f][t]`` are the indices of the trios face ``f``
    turns trio ``t`` into (never ``t`` itself) on one's own trio and on the
    House; ``wild[f]`` says the face may be used on either, with no obligation
    and no decline (``wild_own_first``: the face is any one plain face's, so
    on the House only where that face does not fit one's own trio);
    ``match[x, h]`` says trio ``x`` wins against House ``h``; ``decline`` is
    ``"pass"`` or ``"reroll"``.
    """

    names: tuple[str, ...]
    faces: tuple[str, ...]
    probabilities: tuple[float, ...]
    own: tuple[tuple[tuple[int, ...], ...], ...]
    house: tuple[tuple[tuple[int, ...], ...], ...]
    wild: tuple[bool, ...]
    match: np.ndarray = field(compare=False)
    decline: str = "pass"
    #: a candidate left-right mirror map of the trios (checked before use: :func:`_symmetry`)
    mirror: tuple[int, ...] | None = field(default=None, compare=False)
    wild_own_first: bool = False

    @property
    def size(self) -> int:
        return len(self.names)


@dataclass
class Solution:
    """A solved table and how it was obtained."""

    game: SolverGame
    table: np.ndarray  # [house, own, opp]
    iterations: int = 0
    residual: float = 0.0
    seconds: float = 0.0
    path: Path | None = None
    cached: bool = False

    def value(self, own: int, opp: int, house: int) -> float:
        """P(the player to move wins) in ``(own, opp, house)`` (trio indices).

        A finished position is worth 0 if ``opp`` matches the House (the
        opponent just moved and won, or the House move that made both match
        was theirs) and 1 if only ``own`` does."""
        match = self.game.match
        if match[opp, house]:
            return 0.0
        if match[own, house]:
            return 1.0
        return float(self.table[house, own, opp])

    def after(self, own: int, opp: int, house: int) -> float:
        """What a move worth for its mover: the value, to the player who just
        moved and whose turn ends, of ``(own, opp, house)`` (their trio first)."""
        match = self.game.match
        if match[own, house]:
            return 1.0
        if match[opp, house]:
            return 0.0
        return 1.0 - float(self.table[house, opp, own])


# --------------------------------------------------------------------------
# building the abstract game from the classic rules
# --------------------------------------------------------------------------


def classic_game(rules: Any = None, trios: Sequence | None = None, die: Die | None = None) -> SolverGame:
    """The abstract game of two-player classic under ``rules`` (a ``ClassicRules``).

    ``trios`` restricts the game to those trios (moves leading elsewhere are
    dropped: a face whose every result leaves the set does not fit); ``die``
    replaces the Treehouse die (faces must be action names or ``WILD``).
    """
    from treehouse.variants.classic.actions import results, wild_results
    from treehouse.variants.classic.game import ClassicRules
    from treehouse.variants.classic.trio import all_trios, format_trio, mirror

    rules = rules if rules is not None else ClassicRules()
    die = die or TREEHOUSE_DIE
    universe = tuple(trios) if trios is not None else all_trios()
    index = {t: i for i, t in enumerate(universe)}
    faces, probabilities = zip(*((face, float(p)) for face, p in die.outcomes()))
    table = []
    for face in faces:
        row = []
        for trio in universe:
            if face == "WILD":
                found = [r for _a, r, _w in wild_results(trio, rules.dig_in_place)]
            else:
                found = [r for r, _w in results(trio, face, rules.dig_in_place)]
            row.append(tuple(sorted({index[r] for r in found if r in index})))
        table.append(tuple(row))
    n = len(universe)
    match = np.zeros((n, n), dtype=bool)
    for h, house in enumerate(universe):
        match[h, h] = True
        if rules.mirror_matches:
            image = index.get(mirror(house))
            if image is not None:
                match[image, h] = True
    return SolverGame(
        names=tuple(format_trio(t) for t in universe),
        faces=tuple(faces),
        probabilities=tuple(probabilities),
        own=tuple(table),
        house=tuple(table),
        wild=tuple(face == "WILD" for face in faces),
        match=match,
        decline=rules.house_decline,
        mirror=tuple(index[mirror(t)] for t in universe) if all(mirror(t) in index for t in universe) else None,
        wild_own_first=rules.wild_choice == "own_first",
    )


# --------------------------------------------------------------------------
# value iteration
# --------------------------------------------------------------------------


def _union_faces(game: SolverGame, f: int) -> list[int] | None:
    """The plain faces whose results a wild face's results are the union of, if so."""
    plain = [g for g in range(len(game.faces)) if not game.wild[g]]
    for t in range(game.size):
        for table in (game.own, game.house):
            union = set().union(*(table[g][t] for g in plain)) if plain else set()
            if union != set(table[f][t]):
                return None
    return plain


def _symmetry(game: SolverGame) -> np.ndarray | None:
    """``game.mirror`` as an index array if the game really has that symmetry:
    an involution that maps every face's successors and the match table onto
    themselves, so that ``V(own, opp, house) = V(m(own), m(opp), m(house))``.
    Checked here rather than assumed, so a game without it is solved in full."""
    if game.mirror is None:
        return None
    m = np.asarray(game.mirror, dtype=np.intp)
    if m.shape != (game.size,) or not np.array_equal(m[m], np.arange(game.size)):
        return None
    for table in (game.own, game.house):
        for row in table:
            if any(set(row[m[t]]) != {int(m[s]) for s in row[t]} for t in range(game.size)):
                return None
    if not np.array_equal(game.match[np.ix_(m, m)], game.match):
        return None
    return m


@dataclass
class _Face:
    """What a sweep reuses for one face: its successor lists, gathered for numpy."""

    probability: float
    wild: bool
    #: the trios the face fits (rows of the slab), their successors concatenated, and where each trio's run starts
    own_rows: np.ndarray
    own_successors: np.ndarray
    own_starts: np.ndarray
    fits_own: np.ndarray  # [trio] bool
    house: tuple[tuple[int, ...], ...]
    #: the trios the face does not fit (rows of the slab): where a WILD under ``wild_own_first`` may take it to the House
    free_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))


@dataclass
class _Plan:
    """What every sweep reuses: the faces, the rerolls, the finished positions, the symmetry."""

    faces: list[_Face]
    #: the wild faces whose results are the union of the plain faces' (their maximum is the plain maxima's)
    union_wild: list[_Face]
    #: [house, own]: 1 / (1 - the probability of a face with nothing to do), 0 where nothing ever is
    scale: np.ndarray
    stuck: np.ndarray  # [house, own]: no face does anything (worth 1/2)
    #: per House: the trios that match it
    matched: list[np.ndarray]
    #: the houses a sweep computes (one of each mirror pair) and the mirror map, if the game has the symmetry
    houses: list[int]
    mirror: np.ndarray | None


def _plan(game: SolverGame) -> _Plan:
    n = game.size
    faces, union_wild = [], []
    reroll = np.zeros((n, n))
    for f in range(len(game.faces)):
        fits_own = np.array([bool(s) for s in game.own[f]], dtype=bool)
        rows = np.flatnonzero(fits_own)
        successors = [s for t in rows for s in game.own[f][t]]
        starts = np.cumsum([0] + [len(game.own[f][t]) for t in rows[:-1]]) if len(rows) else np.zeros(0, dtype=np.intp)
        face = _Face(
            probability=game.probabilities[f],
            wild=game.wild[f],
            own_rows=rows,
            own_successors=np.asarray(successors, dtype=np.intp),
            own_starts=np.asarray(starts, dtype=np.intp),
            fits_own=fits_own,
            house=game.house[f],
            free_rows=np.flatnonzero(~fits_own),
        )
        fits_house = np.array([bool(s) for s in game.house[f]], dtype=bool)
        reroll += face.probability * (~fits_house[:, None] & ~fits_own[None, :])
        if face.wild and _union_faces(game, f) is not None:
            union_wild.append(face)
        elif face.wild and game.wild_own_first:
            raise TreehouseError(
                f"wild_choice: own_first needs the wild face {game.faces[f]!r} to be the union of the plain faces, as the Treehouse die's WILD is"
            )
        else:
            faces.append(face)
    # A position where no face does anything can never end (it does not occur in
    # classic; a reduced game may have one): it is worth 1/2 to both sides.
    stuck = reroll >= 1.0 - 1e-12
    scale = np.where(stuck, 0.0, 1.0 / np.where(stuck, 1.0, 1.0 - reroll))
    mirror = _symmetry(game)
    houses = [h for h in range(n) if mirror is None or mirror[h] >= h]
    matched = [np.flatnonzero(game.match[:, h]) for h in range(n)]
    return _Plan(faces, union_wild, scale, stuck, matched, houses, mirror)


def _store(plan: _Plan, h: int, new: np.ndarray, V: np.ndarray, Q: np.ndarray) -> None:
    """Write slab ``new`` as House ``h``'s values, fixing the finished positions, into ``V`` and ``Q``.

    ``V[h, own, opp]``: 1 where the player to move matches, 0 where the opponent
    does (even when both do: the House move that made it was the opponent's).
    ``Q[h, x, y]``, the value of ``(x, y, h)`` to the player who just made it:
    ``1 - V[h, y, x]``, and 1 where they match, even when both do."""
    ts = plan.matched[h]
    V_h, Q_h = V[h], Q[h]
    if V_h is not new:
        np.copyto(V_h, new)
    if len(ts):
        V_h[ts, :] = 1.0
        V_h[:, ts] = 0.0
    np.subtract(1.0, V_h.T, out=Q_h)
    if len(ts):
        Q_h[ts, :] = 1.0


def _update_slab(game: SolverGame, plan: _Plan, V: np.ndarray, Q: np.ndarray, h: int, out: np.ndarray, best: np.ndarray, wild: np.ndarray) -> None:
    """The Bellman update of every position with House ``h``, into ``out[own, opp]``.

    ``Q[h', x, y]`` is the value of ``(x, y, h')`` to the player who just made
    it; a move on one's own trio stays in slab ``h``, a House move goes to
    another slab.  ``best`` and ``wild`` are scratch slabs."""
    out.fill(0.0)
    Q_h = Q[h]
    wild.fill(_NONE)
    need_wild = bool(plan.union_wild)
    decline = Q_h if game.decline == "pass" else V[h]
    for face in plan.faces:
        p = face.probability
        # moves on one's own trio: a maximum over each fitting trio's successors (rows of Q_h)
        own = None
        if len(face.own_rows):
            own = np.maximum.reduceat(Q_h[face.own_successors], face.own_starts, axis=0)
        # moves on the House: a maximum over the successor slabs
        house_successors = face.house[h]
        if house_successors:
            np.copyto(best, Q[house_successors[0]])
            for s in house_successors[1:]:
                np.maximum(best, Q[s], out=best)
        if face.wild:  # any move on either trio; no decline, no obligation
            if house_successors:
                if own is not None:
                    best[face.own_rows] = np.maximum(best[face.own_rows], own)
            else:
                best.fill(_NONE)
                if own is not None:
                    best[face.own_rows] = own
            np.maximum(best, 0.0, out=best)  # rows with nothing to do count 0 (and reroll)
            out += p * best
            continue
        if need_wild:
            if house_successors:
                if game.wild_own_first:  # the House only where this action does not fit one's own trio
                    rows = face.free_rows
                    wild[rows] = np.maximum(wild[rows], best[rows])
                else:
                    np.maximum(wild, best, out=wild)
            if own is not None:
                wild[face.own_rows] = np.maximum(wild[face.own_rows], own)
        if house_successors:
            # the House (or declining) only where the face does not fit one's own trio
            np.maximum(best, decline, out=best)
            if own is not None:
                best[face.own_rows] = own
            out += p * best
        elif own is not None:
            out[face.own_rows] += p * own
    if need_wild:
        np.maximum(wild, 0.0, out=wild)  # rows with nothing to do count 0 (and reroll)
        for face in plan.union_wild:
            out += face.probability * wild
    out *= plan.scale[h][:, None]
    stuck = plan.stuck[h]
    if stuck.any():
        out[stuck] = 0.5


def value_iteration(
    game: SolverGame,
    tolerance: float = DEFAULT_TOLERANCE,
    max_iterations: int = DEFAULT_MAX_ITERATIONS,
    progress: Callable[[int, float], None] | None = None,
) -> Solution:
    """Solve the Bellman equation by Gauss-Seidel sweeps from 1/2 everywhere,
    until no value moves by more than ``tolerance`` in a whole sweep.

    A sweep updates one House's slab at a time, in place, so later slabs
    already use the new values (it converges in fewer sweeps than updating
    all at once, to the same fixed point).  Only two tables are held, ``V``
    and its view from the other side ``Q`` (see :func:`_update_slab`), plus
    three slabs of scratch.  Where the game has a left-right mirror symmetry
    (:func:`_symmetry`), only one House of each mirror pair is computed and
    the other slab is its image.
    """
    began = time.perf_counter()
    n = game.size
    plan = _plan(game)
    V = np.full((n, n, n), 0.5)
    Q = np.empty_like(V)
    for h in range(n):
        _store(plan, h, V[h], V, Q)
    new, best, wild = np.empty((n, n)), np.empty((n, n)), np.empty((n, n))
    m = plan.mirror
    residual = float("inf")
    iterations = 0
    while iterations < max_iterations:
        residual = 0.0
        for h in plan.houses:
            _update_slab(game, plan, V, Q, h, new, best, wild)
            ts = plan.matched[h]
            if len(ts):  # finished positions keep their values (see _store)
                new[ts, :] = 1.0
                new[:, ts] = 0.0
            np.subtract(new, V[h], out=best)
            residual = max(residual, float(np.max(np.abs(best, out=best))))
            _store(plan, h, new, V, Q)
            if m is not None and m[h] != h:
                _store(plan, int(m[h]), new[np.ix_(m, m)], V, Q)
        iterations += 1
        if progress is not None:
            progress(iterations, residual)
        if residual < tolerance:
            break
    else:
        raise TreehouseError(f"the solve did not converge in {max_iterations} iterations (last change {residual:.2e})")
    return Solution(game, V, iterations, residual, time.perf_counter() - began)


# --------------------------------------------------------------------------
# the cached table of two-player classic
# --------------------------------------------------------------------------


def rules_key(rules: Any, die: Die = TREEHOUSE_DIE) -> dict[str, Any]:
    """What the table depends on: the rule options that change the game, the die, the solver."""
    return {
        "variant": "classic",
        "players": 2,
        "dig_in_place": bool(rules.dig_in_place),
        "house_decline": str(rules.house_decline),
        "mirror_matches": bool(rules.mirror_matches),
        "die": [[face, str(p)] for face, p in die.outcomes()],
        "solver": SOLVER_VERSION,
        "tolerance": DEFAULT_TOLERANCE,
    } | (
        # only the wiki's WILD is keyed: tables solved before the option, under the
        # official WILD (``either``), keep their key and stay valid
        {"wild_choice": "own_first"} if rules.wild_choice == "own_first" else {}
    )


def cache_dir() -> Path:
    override = os.environ.get("TREEHOUSE_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("treehouse"))


def table_path(rules: Any) -> Path:
    key = rules_key(rules)
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    flags = f"dip{int(key['dig_in_place'])}-{key['house_decline']}-mirror{int(key['mirror_matches'])}" + ("-wildownfirst" if "wild_choice" in key else "")
    return cache_dir() / f"classic-2p-{flags}-{digest}.npy"


def load_cached(rules: Any) -> Solution | None:
    """The cached solution for ``rules``, or ``None`` (a damaged file counts as missing)."""
    path = table_path(rules)
    meta_path = path.with_suffix(".json")
    if not path.is_file() or not meta_path.is_file():
        return None
    try:
        meta = json.loads(meta_path.read_text())
        if meta.get("key") != rules_key(rules):
            return None
        table = np.load(path, mmap_mode="r")
    except (OSError, ValueError):
        return None
    game = classic_game(rules)
    if table.shape != (game.size,) * 3:
        return None
    return Solution(game, table, meta.get("iterations", 0), meta.get("residual", 0.0), meta.get("seconds", 0.0), path, cached=True)


def save(solution: Solution, rules: Any) -> Path:
    path = table_path(rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, lambda handle: np.save(handle, np.ascontiguousarray(solution.table)), TreehouseError, "solved table")
    meta = {
        "key": rules_key(rules),
        "iterations": solution.iterations,
        "residual": solution.residual,
        "seconds": solution.seconds,
    }
    write_text_atomically(path.with_suffix(".json"), json.dumps(meta, indent=2), TreehouseError, "solved table")
    solution.path = path
    return path


def solve_classic(rules: Any = None, use_cache: bool = True, progress: Callable[[int, float], None] | None = None) -> Solution:
    """The solved table of two-player classic under ``rules``: from the cache, or solved and saved."""
    from treehouse.variants.classic.game import ClassicRules

    rules = rules if rules is not None else ClassicRules()
    if use_cache:
        cached = load_cached(rules)
        if cached is not None:
            return cached
    solution = value_iteration(classic_game(rules), progress=progress)
    try:
        save(solution, rules)
    except (OSError, TreehouseError) as error:  # a read-only cache still gives an answer
        print(f"warning: cannot save the table to {table_path(rules)}: {error}", file=sys.stderr)
    return solution


def start_value(solution: Solution) -> float:
    """The first player's winning probability from the start (both trios the Tree, the House as set up)."""
    from treehouse.variants.classic.trio import HOUSE, TREE, format_trio

    names = {name: i for i, name in enumerate(solution.game.names)}
    tree, house = names[format_trio(TREE)], names[format_trio(HOUSE)]
    return solution.value(tree, tree, house)


class ClassicSolver:
    """What ``th solve`` asks of a variant that can be solved exactly
    (``Classic.exact_solver()``): which games it solves, the solve itself, and
    the first player's value from the start."""

    #: The solve's stopping tolerance (its progress bar counts down to it).
    tolerance = DEFAULT_TOLERANCE

    def __init__(self, rules: Any) -> None:
        self.rules = rules

    def refuses(self, players: int) -> str | None:
        """Why a game of ``players`` cannot be solved, in one line; ``None`` when it can."""
        if players != 2:
            return f"th solve solves only 2 players, not {players} (the table would be 204**{players + 1} positions)"
        return None

    def solve(self, use_cache: bool = True, progress: Callable[[int, float], None] | None = None) -> Solution:
        return solve_classic(self.rules, use_cache=use_cache, progress=progress)

    def start_value(self, solution: Solution) -> float:
        return start_value(solution)
