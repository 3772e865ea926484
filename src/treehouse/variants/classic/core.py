"""Classic Treehouse's compiled core: a look at many moves in one numba call.

The second tier of classic's rules (docs/rules/classic.md, "Two tiers"): what
``treehouse_look_moves`` asks — each move applied, the outcome checked
(matching the House, a mirror image of it under ``mirror_matches``, a win on
another's turn, a tie), the position evaluated for one seat
(``Classic.treehouse_evaluate``) — as one kernel over integers.  The
reference tier is the variant's hooks themselves (game.py), which the
kernel's default plays move by move; tests/classic/test_tiers.py checks the
two give the same answers, value for value.

A position is small as integers: every trio is its rank among the 204 legal
trios (:func:`~treehouse.variants.classic.trio.trio_rank`), so a position is
the House's rank, each seat's rank and the seat to move.  A move is known by
its target and its result (``ClassicMove``), so it is one number,
``rank(result)`` on one's own trio or ``TRIOS + rank(result)`` on the House.

The rules the kernel needs beyond that come as two tables made once per rule
set from the reference rules, so an action is written in one place only
(actions.py): ``away[house, trio]``, the fewest actions from a trio to the
House or, under ``mirror_matches``, to its mirror image (distance.py), and
``image[house]``, the rank of the House's mirror image.  ``dig_in_place``
changes ``away``; ``house_decline`` and ``max_players`` change which moves
are legal, never what a move leads to, so the look need not know them.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from treehouse.kernel import compiled
from treehouse.kernel.turn import REROLL, Looks, Outcome
from treehouse.variants.classic.actions import results, wild_results
from treehouse.variants.classic.distance import _targets
from treehouse.variants.classic.trio import all_trios, mirror, trio_rank

TRIOS = len(all_trios())

#: The hooks a look at listed moves stands for: while classic alone answers
#: all of them, the core's answer is the one they would give.
LOOK_HOOKS = ("treehouse_apply_move", "treehouse_resolve", "treehouse_outcome", "treehouse_evaluate")
#: A look at every choice of a node lists the moves too: a house rule that
#: changes which moves are legal (``no-house-moves``) leaves that to the
#: hooks, and the core still looks at the moves they list.
LOOK_ALL_HOOKS = ("treehouse_legal_moves", *LOOK_HOOKS)

#: The outcome of a move, as the kernel writes it: the winners as a bit mask
#: of seats, plus the kind of win times ``_KIND``.
_KIND = 1 << 16
REASONS = {
    1: "matched the House",
    2: "matched the House on another player's turn",
    3: "tie: several trios matched the House at once",
}

NO_OUTCOMES = Looks([]).outcomes  # no move ends the game

#: About how long a cold compile of these kernels takes (the line on first use).
COMPILE_SECONDS = 2.0

#: Where the fields of the kernel's position array sit (then the trios).
_HOUSE, _TO_MOVE, _SEAT, _PLAYERS, _FIRST_TRIO = range(5)


def _look(position, codes, away, image, mirror_matches):
    """Every move of one position looked at: ``values[i]`` the seat's
    evaluation after move ``i`` of ``codes`` (0.0 where it ends the game),
    ``outcomes[i]`` its outcome (0: none); and how many moves end the game.

    ``position`` holds the House's rank, the seat to move, the seat judged,
    the number of players and each seat's trio rank.  The answers are new
    arrays each call: a core is shared by every game of a process, and
    ``th serve`` plays tables in threads."""
    house, to_move, seat, players = position[_HOUSE], position[_TO_MOVE], position[_SEAT], position[_PLAYERS]
    n = codes.shape[0]
    values = np.zeros(n)
    outcomes = np.zeros(n, dtype=np.int64)
    trios = position[_FIRST_TRIO : _FIRST_TRIO + players].copy()
    own = trios[to_move]
    ended = 0
    for i in range(n):
        code = codes[i]
        h = house
        if code >= TRIOS:
            h = code - TRIOS
        else:
            trios[to_move] = code
        # the outcome (game.outcome): who matches the House, or its image
        matching = 0
        count = 0
        for j in range(players):
            if trios[j] == h or (mirror_matches and trios[j] == image[h]):
                matching |= 1 << j
                count += 1
        if count:
            if matching & (1 << to_move):
                outcomes[i] = (1 << to_move) + 1 * _KIND
            elif count == 1:
                outcomes[i] = matching + 2 * _KIND
            else:
                outcomes[i] = matching + 3 * _KIND
            ended += 1
        else:
            # the evaluation (game._scores): the nearest opponent's distance minus the seat's
            mine = away[h, trios[seat]]
            if mine == 0:
                values[i] = 100.0
            else:
                theirs = 1 << 30
                for j in range(players):
                    if j != seat and away[h, trios[j]] < theirs:
                        theirs = away[h, trios[j]]
                values[i] = -100.0 if theirs == 0 else float(theirs - mine)
        trios[to_move] = own
    return values, outcomes, ended


class ClassicCore:
    """The compiled look of one rule set's classic game (see the module's docstring)."""

    def __init__(self, rules: Any) -> None:
        self.away = np.array(_targets(rules.dig_in_place, rules.mirror_matches), dtype=np.int64)
        self.image = np.array([trio_rank(mirror(trio)) for trio in all_trios()], dtype=np.int64)
        self.mirror_matches = bool(rules.mirror_matches)
        self.dig_in_place = bool(rules.dig_in_place)
        #: (face, trio rank, on the House?) -> the codes of the moves it offers (made from the reference rules once)
        self._moves: dict = {}
        #: (own rank, House rank, faces, decline) -> a node's choices (_node_choices), by value: at most 204 x 204 per die
        self._choices: dict = {}
        self.kernel = _compile()

    def look(self, state: Any, moves: Sequence, seat: int) -> Looks:
        """``treehouse_look_moves``'s answer for ``moves`` of ``state`` (a play step's)."""
        house, trios, to_move = state
        codes = np.array([rank + TRIOS if target == "house" else rank for target, rank, _result in moves], dtype=np.int64)
        (looks,) = self._judge(trio_rank(house), [*map(trio_rank, trios)], to_move, seat, codes, ((slice(None), 0),))
        return looks

    def look_all(self, state: Any, faces: Sequence, seat: int, decline: Any) -> list[Looks]:
        """``treehouse_look_all_moves``'s answer: for each face, every choice the
        legal moves list (game.Classic.treehouse_legal_moves), in their order,
        without making a move."""
        house, trios, to_move = state
        ranks, h = [*map(trio_rank, trios)], trio_rank(house)
        key = (ranks[to_move], h, tuple(faces), decline)
        choices = self._choices.get(key)
        if choices is None:
            choices = self._choices[key] = self._node_choices(*key)
        return self._judge(h, ranks, to_move, seat, *choices)

    def _node_choices(self, own: int, house: int, faces: Sequence, decline: Any) -> tuple[np.ndarray, tuple[tuple[slice, int], ...]]:
        """The codes of every face's choices one after another (an array, as
        the kernel reads them), and each face's part of them with how many of
        its choices are REROLL: own trio first; else the House and the decline
        (``decline``, PASS or REROLL), which leaves the position as it stands;
        WILD both trios."""
        codes, parts = [], []
        for face in faces:
            mine = self._codes(face, own, False)
            if face == "WILD":
                choices = mine + self._codes(face, house, True)
            elif mine:
                choices = mine
            else:
                choices = self._codes(face, house, True)
                if choices:  # the decline: the own trio kept, so the position stays as it stands
                    choices = choices + [own]
            rerolls = 1 if choices and not mine and face != "WILD" and decline is REROLL else 0
            parts.append((slice(len(codes), len(codes) + len(choices)), rerolls))
            codes += choices
        return np.array(codes, dtype=np.int64), tuple(parts)

    def _codes(self, face: str, rank: int, house: bool) -> list[int]:
        """The moves' codes ``face`` offers on the trio of ``rank`` (its own, or the House's), made once."""
        key = (face, rank, house)
        codes = self._moves.get(key)
        if codes is None:
            trio = all_trios()[rank]
            if face == "WILD":  # as game.action_moves lists them
                found = [result for _action, result, _words in wild_results(trio, self.dig_in_place)]
            else:
                found = [result for result, _words in results(trio, face, self.dig_in_place)]
            codes = self._moves[key] = [trio_rank(result) + (TRIOS if house else 0) for result in found]
        return codes

    def _judge(self, house: int, trios: list[int], to_move: int, seat: int, codes: np.ndarray, parts: Sequence[tuple[slice, int]]) -> list[Looks]:
        """One kernel call on the moves ``codes`` of a position (the House's
        rank, each seat's trio rank, the seat to move), judged for ``seat``: a
        Looks per part of the codes (a slice of them and its REROLL count)."""
        players = len(trios)
        position = np.array([house, to_move, seat, players, *trios], dtype=np.int64)
        values, outcomes, ended = self.kernel(position, codes, self.away, self.image, self.mirror_matches)
        values = values.tolist()
        if not ended:
            return [Looks(values[part], NO_OUTCOMES, rerolls) for part, rerolls in parts]
        outcomes = outcomes.tolist()
        found = []
        for part, rerolls in parts:
            ending = {}
            for index, code in enumerate(outcomes[part]):
                if code:
                    kind, mask = divmod(code, _KIND)
                    ending[index] = Outcome(tuple(j for j in range(players) if mask >> j & 1), REASONS[kind])
            found.append(Looks(values[part], ending, rerolls))
        return found


_kernel: Any = None  # the compiled kernel, once a process


def prepare() -> None:
    """Compile the kernel, or load it from numba's cache, before its first use."""
    _compile()


def _compile() -> Any:
    """The kernel, compiled (or loaded from numba's cache) and warmed, once a process."""
    global _kernel
    if _kernel is None:
        _kernel = compiled.njit_cached(_look)
    kernel = _kernel
    away = np.zeros((TRIOS, TRIOS), dtype=np.int64)
    image = np.zeros(TRIOS, dtype=np.int64)
    position, codes = np.array([0, 0, 0, 2, 1, 2], dtype=np.int64), np.array([3, TRIOS + 4], dtype=np.int64)
    compiled.prepare("classic", __file__, COMPILE_SECONDS, lambda: kernel(position, codes, away, image, False))  # once a process
    return kernel


class Unused:
    """Stands for the core where it may not answer: every look is the hooks'."""

    def look(self, state: Any, moves: Sequence, seat: int) -> None:
        return None

    def look_all(self, state: Any, faces: Sequence, seat: int, decline: Any) -> None:
        return None


_cores: dict = {}  # the rule options the core depends on -> its ClassicCore


def core_for(variant: Any, hooks: Sequence[str] = LOOK_HOOKS) -> ClassicCore | Unused | None:
    """The core that answers ``variant``'s looks in its game, or :class:`Unused`
    where the compiled core is off or another plugin answers one of the
    ``hooks`` the look stands for (:data:`LOOK_HOOKS`, :data:`LOOK_ALL_HOOKS`); ``None``
    while ``th play`` prepares the core in the background (the hooks answer
    meanwhile: ask again later)."""
    if not compiled.enabled() or not variant.hooks.variant_alone(*hooks):
        return Unused()
    if not compiled.ready("classic") and compiled.preparing():
        return None
    rules = variant.rules
    key = (bool(rules.dig_in_place), bool(rules.mirror_matches))
    core = _cores.get(key)
    if core is None:
        core = _cores[key] = ClassicCore(rules)
    return core
