"""The exact solver: a game small enough to solve by hand, and the Bellman equation
recomputed independently from the classic variant's own moves."""

from __future__ import annotations

import random

import numpy as np
import pytest

from treehouse.variants.classic.solver import SolverGame, classic_game, rules_key, table_path, value_iteration
from treehouse.kernel.die import TREEHOUSE_DIE
from treehouse.variants.classic.game import ClassicRules, action_moves
from treehouse.variants.classic.trio import all_trios, format_trio, mirror, parse_trio


def race(p: float) -> SolverGame:
    """Trios 0 -> 1 -> 2, the House fixed at 2.  Face "go" (probability p)
    moves a trio one step on; "slip" (1 - p) sends 1 back to 0 and does
    nothing to 0, so from 0 it is rolled again.  By hand (V(own, opp)):

        V(0, b) = 1 - V(b, 1)                  (slip rerolls; go moves to 1)
        V(1, b) = p + (1 - p) (1 - V(b, 0))

    so V(1, 1) = p + (1 - p)^2 V(1, 1), V(1, 1) = 1 / (2 - p) = V(0, 0),
    V(0, 1) = 1 - V(1, 1) and V(1, 0) = p + (1 - p)(1 - V(0, 0))."""
    none = ((), (), ())
    return SolverGame(
        names=("0", "1", "2"),
        faces=("go", "slip"),
        probabilities=(p, 1 - p),
        own=(((1,), (2,), ()), ((), (0,), ())),
        house=(none, none),
        wild=(False, False),
        match=np.eye(3, dtype=bool),
    )


@pytest.mark.parametrize("p", [0.5, 0.3, 0.9])
def test_a_race_solved_by_hand(p):
    solution = value_iteration(race(p))
    first = 1 / (2 - p)
    assert solution.value(0, 0, 2) == pytest.approx(first, abs=1e-9)
    assert solution.value(1, 1, 2) == pytest.approx(first, abs=1e-9)
    assert solution.value(0, 1, 2) == pytest.approx(1 - first, abs=1e-9)
    assert solution.value(1, 0, 2) == pytest.approx(p + (1 - p) * (1 - first), abs=1e-9)


def test_finished_positions():
    solution = value_iteration(race(0.5))
    assert solution.value(2, 0, 2) == 1.0  # the player to move already matches
    assert solution.value(0, 2, 2) == 0.0  # the opponent matched on their move
    assert solution.value(2, 2, 2) == 0.0  # both: the House move that did it was the opponent's
    assert solution.after(2, 2, 2) == 1.0  # ... and to the mover who made it, a win
    assert float(solution.table[2, 2, 0]) == 1.0 and float(solution.table[2, 0, 2]) == 0.0


#: Three single pieces in the order L S M, any directions: 27 trios (the House is
#: one).  AIM, TIP and digging in place keep a trio in the set; every move that
#: leaves it is dropped, so this is a small, complete game of its own.
SUBSET = [t for t in all_trios() if len(t) == 3 and "".join(s[0].size.value for s in t) == "LSM"]

RULE_SETS = {
    "classic": ClassicRules(),
    "classic-wiki": ClassicRules(dig_in_place=False, house_decline="reroll"),
    "mirror": ClassicRules(mirror_matches=True),
}


@pytest.fixture(scope="module", params=list(RULE_SETS))
def reduced(request):
    rules = RULE_SETS[request.param]
    return rules, value_iteration(classic_game(rules, trios=SUBSET))


def test_reduced_values_are_probabilities(reduced):
    _rules, solution = reduced
    assert len(SUBSET) == 27 and solution.table.shape == (27, 27, 27)
    assert np.all(solution.table >= 0.0) and np.all(solution.table <= 1.0)
    assert solution.residual < 1e-10


def _wins(trio, house, rules) -> bool:
    return trio == house or (rules.mirror_matches and trio == mirror(house))


def test_bellman_equation_holds_at_sampled_positions(reduced):
    rules, solution = reduced
    check_bellman(solution, SUBSET, rules, samples=300)


def test_the_full_classic_table(solved_classic):
    """The real table (204 trios): probabilities, the Bellman equation at
    sampled positions, and the first player's chance from the start."""
    from treehouse.variants.classic.solver import start_value

    table = solved_classic.table
    assert table.shape == (204, 204, 204)
    assert list(solved_classic.game.names) == [format_trio(t) for t in all_trios()]
    assert float(table.min()) >= 0.0 and float(table.max()) <= 1.0
    check_bellman(solved_classic, all_trios(), ClassicRules(), samples=200)
    assert start_value(solved_classic) == pytest.approx(0.509572, abs=1e-6)


def check_bellman(solution, trios, rules, samples: int) -> None:
    """Recompute V(own, opp, house) from the variant's own move lists, one face at a time."""
    index = {t: i for i, t in enumerate(trios)}

    def V(a, b, h):
        return solution.value(index[a], index[b], index[h])

    def after_own(a2, b, h):
        return 1.0 if _wins(a2, h, rules) else 1.0 - V(b, a2, h)

    def after_house(a, b, h2):
        if _wins(a, h2, rules):
            return 1.0
        if _wins(b, h2, rules):
            return 0.0
        return 1.0 - V(b, a, h2)

    rng = random.Random(5)
    checked = 0
    while checked < samples:
        a, b, h = (rng.choice(trios) for _ in range(3))
        if _wins(a, h, rules) or _wins(b, h, rules):
            continue
        here = V(a, b, h)
        total = rerolled = 0.0
        for face, p in TREEHOUSE_DIE.outcomes():
            p = float(p)
            own = [m.result for m in action_moves(a, face, "own", rules.dig_in_place) if m.result in index]
            house = [m.result for m in action_moves(h, face, "house", rules.dig_in_place) if m.result in index]
            if face == "WILD":
                options = [after_own(x, b, h) for x in own] + [after_house(a, b, x) for x in house]
            elif own:
                options = [after_own(x, b, h) for x in own]
            elif house:
                decline = 1.0 - V(b, a, h) if rules.house_decline == "pass" else here
                options = [after_house(a, b, x) for x in house] + [decline]
            else:
                options = []
            if options:
                total += p * max(options)
            else:
                rerolled += p
        assert total / (1 - rerolled) == pytest.approx(here, abs=1e-8), (format_trio(a), format_trio(b), format_trio(h))
        checked += 1


def test_the_rules_change_the_answer():
    default = value_iteration(classic_game(RULE_SETS["classic"], trios=SUBSET)).table
    wiki = value_iteration(classic_game(RULE_SETS["classic-wiki"], trios=SUBSET)).table
    assert np.max(np.abs(default - wiki)) > 1e-3


def test_tables_are_cached_by_rules(tmp_path, monkeypatch):
    monkeypatch.setenv("TREEHOUSE_CACHE_DIR", str(tmp_path))
    paths = {name: table_path(rules) for name, rules in RULE_SETS.items()}
    assert len(set(paths.values())) == 3 and all(p.parent == tmp_path for p in paths.values())
    assert rules_key(ClassicRules(max_players=3)) == rules_key(ClassicRules())  # the player limit does not matter


def test_house_is_in_the_reduced_set():
    assert parse_trio("L< S^ M>") in SUBSET


#: A mirror-closed game: three single pieces in the order L S M or its mirror M S L.
MIRRORED = [t for t in all_trios() if len(t) == 3 and "".join(s[0].size.value for s in t) in ("LSM", "MSL")]


@pytest.mark.parametrize("name", ["classic", "mirror"])
def test_the_mirror_symmetry_is_checked_and_changes_no_value(name):
    """Classic's rules have the left-right symmetry (every action and the match
    table map onto themselves), so a sweep computes one House of each mirror
    pair; solving with every House computed gives the same table."""
    import dataclasses

    from treehouse.variants.classic.solver import _plan, _symmetry

    game = classic_game(RULE_SETS[name], trios=MIRRORED)
    assert _symmetry(game) is not None and len(_plan(game).houses) < game.size
    halved = value_iteration(game).table
    full = value_iteration(dataclasses.replace(game, mirror=None)).table
    assert np.max(np.abs(halved - full)) < 1e-9
    check_bellman(value_iteration(game), MIRRORED, RULE_SETS[name], samples=100)


def test_a_claimed_mirror_that_is_not_a_symmetry_is_not_used():
    import dataclasses

    from treehouse.variants.classic.solver import _symmetry

    assert _symmetry(dataclasses.replace(race(0.5), mirror=(2, 1, 0))) is None  # 0 -> 1 is not 2 -> 1
    assert _symmetry(dataclasses.replace(race(0.5), mirror=(1, 1, 1))) is None  # not even a permutation
