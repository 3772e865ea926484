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
* WILD: any result of any action, on either trio.

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
``dig_in_place``, ``house_decline`` and ``mirror_matches``) and may restrict
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
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from treehouse.errors import TreehouseError
from treehouse.kernel.die import TREEHOUSE_DIE, Die

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
    and no decline; ``match[x, h]`` says trio ``x`` wins against House ``h``;
    ``decline`` is ``"pass"`` or ``"reroll"``.
    """

    names: tuple[str, ...]
    faces: tuple[str, ...]
    probabilities: tuple[float, ...]
    own: tuple[tuple[tuple[int, ...], ...], ...]
    house: tuple[tuple[tuple[int, ...], ...], ...]
    wild: tuple[bool, ...]
    match: np.ndarray = field(compare=False)
    decline: str = "pass"

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
    )


# --------------------------------------------------------------------------
# value iteration
# --------------------------------------------------------------------------


def _row_max(source: np.ndarray, successors: Sequence[int], out: np.ndarray, axis: int) -> None:
    """``out = max over s in successors of source[s]`` along ``axis`` (0 or 1)."""
    take = (lambda s: source[s]) if axis == 0 else (lambda s: source[:, s, :])
    np.copyto(out, take(successors[0]))
    for s in successors[1:]:
        np.maximum(out, take(s), out=out)


def _union_faces(game: SolverGame, f: int) -> list[int] | None:
    """The plain faces whose results a wild face's results are the union of, if so."""
    plain = [g for g in range(len(game.faces)) if not game.wild[g]]
    for t in range(game.size):
        for table in (game.own, game.house):
            union = set().union(*(table[g][t] for g in plain)) if plain else set()
            if union != set(table[f][t]):
                return None
    return plain


@dataclass
class _Plan:
    """What every iteration reuses: which faces fit which trios, and the wild shortcut."""

    has_own: list[np.ndarray]
    has_house: list[np.ndarray]
    #: per wild face: the plain faces whose results it is the union of (or None)
    union: dict[int, list[int] | None]
    #: the plain faces whose maxima the wild shortcut needs
    keep: set[int]
    #: (house, trio) index pairs where the trio matches the House
    matched: tuple[np.ndarray, np.ndarray]


def _plan(game: SolverGame) -> _Plan:
    union = {f: _union_faces(game, f) for f in range(len(game.faces)) if game.wild[f]}
    return _Plan(
        has_own=[np.array([bool(s) for s in game.own[f]]) for f in range(len(game.faces))],
        has_house=[np.array([bool(s) for s in game.house[f]]) for f in range(len(game.faces))],
        union=union,
        keep=set().union(*(u for u in union.values() if u)) if union else set(),
        matched=np.nonzero(game.match.T),
    )


def bellman(game: SolverGame, V: np.ndarray, Q: np.ndarray | None = None, plan: _Plan | None = None) -> np.ndarray:
    """One value-iteration update of ``V`` (``[house, own, opp]``): the new table.

    Finished positions (a trio matches the House) get their fixed values:
    0 where the opponent matches, else 1 where the player to move matches.
    """
    n = game.size
    plan = plan or _plan(game)
    if Q is None:
        Q = np.empty_like(V)
    # Q[h, x, y]: the value of (x, y, h) to the player who just made it and whose turn ends.
    np.subtract(1.0, V.transpose(0, 2, 1), out=Q)
    hs, ts = plan.matched
    Q[hs, :, ts] = 0.0  # the opponent matches: lost
    Q[hs, ts, :] = 1.0  # the mover matches: won, even when both match
    total = np.zeros_like(V)
    reroll = np.zeros((n, n))  # [house, own]: the probability of a face with nothing to do
    own_best = np.empty_like(V)
    house_best = np.empty_like(V)
    wild_own = wild_house = None
    decline_pass = game.decline == "pass"
    order = sorted(range(len(game.faces)), key=lambda f: game.wild[f])  # plain faces first
    for f in order:
        p = game.probabilities[f]
        if game.wild[f] and plan.union[f] is not None and wild_own is not None:
            np.maximum(wild_own, wild_house, out=own_best)
            total += p * own_best
            continue
        own_best.fill(_NONE)
        house_best.fill(_NONE)
        has_own, has_house = plan.has_own[f], plan.has_house[f]
        for a, successors in enumerate(game.own[f]):
            if successors:
                _row_max(Q, successors, own_best[:, a, :], axis=1)
        for h, successors in enumerate(game.house[f]):
            if successors:
                _row_max(Q, successors, house_best[h], axis=0)
        if f in plan.keep:
            if wild_own is None:
                wild_own, wild_house = own_best.copy(), house_best.copy()
            else:
                np.maximum(wild_own, own_best, out=wild_own)
                np.maximum(wild_house, house_best, out=wild_house)
        if game.wild[f]:
            np.maximum(own_best, house_best, out=own_best)
            if not has_own.all() or not has_house.all():
                own_best[own_best < 0] = 0.0
                reroll += p * (~has_own[None, :] & ~has_house[:, None])
            total += p * own_best
            continue
        # the House (or declining) only where the face does not fit one's own trio
        np.maximum(house_best, Q if decline_pass else V, out=house_best)
        total += p * np.where(has_own[None, :, None], own_best, np.where(has_house[:, None, None], house_best, 0.0))
        reroll += p * (~has_own[None, :] & ~has_house[:, None])
    # A position where no face does anything can never end (it does not occur in
    # classic; a reduced game may have one): it is worth 1/2 to both sides.
    stuck = reroll >= 1.0 - 1e-12
    total /= np.where(stuck, 1.0, 1.0 - reroll)[:, :, None]
    if stuck.any():
        total[stuck] = 0.5
    total[hs, ts, :] = 1.0
    total[hs, :, ts] = 0.0
    return total


def value_iteration(
    game: SolverGame,
    tolerance: float = DEFAULT_TOLERANCE,
    max_iterations: int = DEFAULT_MAX_ITERATIONS,
    progress: Callable[[int, float], None] | None = None,
) -> Solution:
    """Iterate :func:`bellman` from 1/2 everywhere until the largest change is below ``tolerance``."""
    began = time.perf_counter()
    n = game.size
    V = np.full((n, n, n), 0.5)
    Q = np.empty_like(V)
    plan = _plan(game)
    residual = float("inf")
    iterations = 0
    while iterations < max_iterations:
        new = bellman(game, V, Q, plan)
        iterations += 1
        residual = float(np.max(np.abs(new - V)))
        V = new
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
    }


def cache_dir() -> Path:
    override = os.environ.get("TREEHOUSE_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("treehouse"))


def table_path(rules: Any) -> Path:
    key = rules_key(rules)
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    flags = f"dip{int(key['dig_in_place'])}-{key['house_decline']}-mirror{int(key['mirror_matches'])}"
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
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "wb") as handle:
        np.save(handle, np.ascontiguousarray(solution.table))
    os.replace(temporary, path)
    meta = {
        "key": rules_key(rules),
        "iterations": solution.iterations,
        "residual": solution.residual,
        "seconds": solution.seconds,
    }
    temporary = path.with_name(f".{path.name}.{os.getpid()}.json.tmp")
    temporary.write_text(json.dumps(meta, indent=2))
    os.replace(temporary, path.with_suffix(".json"))
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
    except OSError as error:  # a read-only cache still gives an answer
        print(f"warning: cannot save the table to {table_path(rules)}: {error}", file=sys.stderr)
    return solution


def start_value(solution: Solution) -> float:
    """The first player's winning probability from the start (both trios the Tree, the House as set up)."""
    from treehouse.variants.classic.trio import HOUSE, TREE, format_trio

    names = {name: i for i, name in enumerate(solution.game.names)}
    tree, house = names[format_trio(TREE)], names[format_trio(HOUSE)]
    return solution.value(tree, tree, house)
