"""``wild_choice`` (issue 47, item 4): the official page's WILD and the wiki's.

The official page: "WILD: Choose any of the five actions above, and apply it
to your trio or the House."  The wiki: "WILD: Choose one of the above", under
its general rule "If you can perform the action on your trio, you must".
``either`` (default) reads the first; ``own_first`` the second: the chosen
action goes to your own trio when it fits there, else to the House.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from treehouse.kernel.die import TREEHOUSE_DIE
from treehouse.kernel.engine import ONE_ROLLED_STEP
from treehouse.variants.classic.actions import ACTIONS, blocked_actions, results
from treehouse.variants.classic.game import ClassicPosition, ClassicRules, action_moves
from treehouse.variants.classic.solver import classic_game, rules_key, table_path, value_iteration
from treehouse.variants.classic.trio import all_trios, format_trio, parse_trio

STEP = ONE_ROLLED_STEP[0]
#: The issue's position: both trios the Tree, the House as set up.
START = ClassicPosition(parse_trio("L< S^ M>"), (parse_trio("L^/M^/S^"), parse_trio("L^/M^/S^")), 0)
OWN_FIRST = ClassicRules(dig_in_place=False, house_decline="reroll", wild_choice="own_first")  # classic-wiki with the wiki's WILD


def house_words(variant, state):
    return {variant.format_move(m) for m in variant.treehouse_legal_moves(state, STEP, "WILD") if m.target == "house"}


def test_either_lets_a_wild_tip_the_house_though_the_tree_can_tip(classic_class):
    """The issue's example: ``th moves -v classic-wiki '...' --action wild`` lists ``house: tip S^ left``."""
    wiki = classic_class(ClassicRules(dig_in_place=False, house_decline="reroll"))
    assert wiki.rules.wild_choice == "either"
    assert "house:tip L< S< M>" in house_words(wiki, START) and results(START.trios[0], "TIP", False)


def test_own_first_takes_to_the_house_only_the_actions_the_tree_cannot_take(classic_class):
    wiki = classic_class(OWN_FIRST)
    tree = START.trios[0]
    assert blocked_actions(tree, False) == ("DIG", "AIM")  # a lone stack: nothing lies down, nothing stands alone
    found = wiki.treehouse_legal_moves(START, STEP, "WILD")
    assert [m for m in found if m.target == "own"] == list(action_moves(tree, "WILD", "own", False))
    house = [m for m in found if m.target == "house"]
    assert house and {m.action for m in house} <= {"DIG", "AIM"}
    assert "house:tip L< S< M>" not in house_words(wiki, START)
    # every House result of a blocked action is offered, once
    expected = {r for a in ("DIG", "AIM") for r, _w in results(START.house, a, False)}
    assert {m.result for m in house} == expected and len(house) == len(expected)


def test_a_typed_house_move_the_rule_refuses_says_why(classic_class):
    wiki = classic_class(OWN_FIRST)
    move = wiki.parse_move("house:tip L< S< M>")
    why = wiki.treehouse_explain_illegal(START, STEP, "WILD", move, wiki.treehouse_legal_moves(START, STEP, "WILD"))
    assert "own_first a WILD's TIP goes to your trio, not the House" in why and "\n" not in why


def test_own_first_changes_nothing_off_the_wild(classic_class):
    plain, own_first = classic_class(ClassicRules()), classic_class(ClassicRules(wild_choice="own_first"))
    rng = random.Random(3)
    trios = all_trios()
    for _ in range(200):
        state = ClassicPosition(rng.choice(trios), (rng.choice(trios), rng.choice(trios)), 0)
        for face in ACTIONS:
            assert plain.treehouse_legal_moves(state, STEP, face) == own_first.treehouse_legal_moves(state, STEP, face)


#: Three single pieces in the order L S M: 27 trios, a small complete game (tests/bots/test_solver.py).
SUBSET = [t for t in all_trios() if len(t) == 3 and "".join(s[0].size.value for s in t) == "LSM"]


@pytest.mark.parametrize("rules", [ClassicRules(wild_choice="own_first"), OWN_FIRST], ids=["classic", "classic-wiki"])
def test_the_solver_honours_own_first(rules):
    """The Bellman equation at every position of the reduced game, recomputed
    from the variant's own move lists with the wiki's WILD (an action counts as
    fitting one's trio when it has a result in the reduced set, as the solver
    sees it); and the value differs from the official WILD's."""
    solution = value_iteration(classic_game(rules, trios=SUBSET))
    index = {t: i for i, t in enumerate(SUBSET)}

    def V(a, b, h):
        return solution.value(index[a], index[b], index[h])

    def after_own(a2, b, h):
        return 1.0 if a2 == h else 1.0 - V(b, a2, h)

    def after_house(a, b, h2):
        return 1.0 if a == h2 else 0.0 if b == h2 else 1.0 - V(b, a, h2)

    def made(trio, action):
        return [m.result for m in action_moves(trio, action, "own", rules.dig_in_place) if m.result in index]

    for a in SUBSET:
        for b in SUBSET:
            for h in SUBSET:
                if a == h or b == h:
                    continue
                here, total, rerolled = V(a, b, h), 0.0, 0.0
                for face, p in TREEHOUSE_DIE.outcomes():
                    p = float(p)
                    if face == "WILD":
                        options = [after_own(x, b, h) for act in ACTIONS for x in made(a, act)]
                        options += [after_house(a, b, x) for act in ACTIONS if not made(a, act) for x in made(h, act)]
                    elif made(a, face):
                        options = [after_own(x, b, h) for x in made(a, face)]
                    elif made(h, face):
                        decline = 1.0 - V(b, a, h) if rules.house_decline == "pass" else here
                        options = [after_house(a, b, x) for x in made(h, face)] + [decline]
                    else:
                        options = []
                    if options:
                        total += p * max(options)
                    else:
                        rerolled += p
                assert total / (1 - rerolled) == pytest.approx(here, abs=1e-8), (format_trio(a), format_trio(b), format_trio(h))
    either = value_iteration(classic_game(rules.model_copy(update={"wild_choice": "either"}), trios=SUBSET))
    assert not np.allclose(either.table, solution.table)


def test_tables_under_the_two_readings_are_kept_apart():
    """The wiki's WILD is keyed; the official's key is as before the option (its tables stay valid)."""
    assert "wild_choice" not in rules_key(ClassicRules())
    assert rules_key(ClassicRules(wild_choice="own_first"))["wild_choice"] == "own_first"
    assert table_path(ClassicRules()) != table_path(ClassicRules(wild_choice="own_first"))
    assert "wildownfirst" in table_path(ClassicRules(wild_choice="own_first")).name


def test_the_classic_wiki_rule_set_takes_the_wikis_wild(plugins):
    """The issue's command: ``th moves -v classic-wiki '...' --action wild`` no longer lists
    ``house: tip``; with ``--set wild_choice=either`` it does."""
    from typer.testing import CliRunner

    from treehouse.cli import app
    from treehouse.config import resolve

    assert resolve(plugins, variant="classic-wiki").rules.wild_choice == "own_first"
    assert resolve(plugins, variant="classic").rules.wild_choice == "either"
    position = "L< S^ M> :: L^/M^/S^ | L^/M^/S^ :: 1"
    wiki = CliRunner().invoke(app, ["moves", "-v", "classic-wiki", position, "--action", "wild"])
    assert wiki.exit_code == 0 and "house: aim" in wiki.output and "house: tip" not in wiki.output
    either = CliRunner().invoke(app, ["moves", "-v", "classic-wiki", position, "--action", "wild", "--set", "wild_choice=either"])
    assert either.exit_code == 0 and "house: tip S^ left" in either.output
