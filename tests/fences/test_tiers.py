"""Fences' two tiers of rules give the same answers (docs/rules/tiers.md).

The compiled core (variants/fences/fast/core.py, through looks.py) answers
``treehouse_look_moves``, ``treehouse_look_all_moves`` (it generates the
legal moves itself) and ``treehouse_evaluate_seats``; the reference is the kernel's default
(:func:`treehouse.kernel.turn.look_moves`), which plays every move through
the hooks, and the reference rules' legal moves.  The two must agree value
for value (floats bit for bit), outcome for outcome and move for move:

* at every decision of recorded games (random, greedy and search seats),
  for every legal move of every face, judged for every seat, under several
  rule options;
* at positions hypothesis reaches by random play under random options;
* and ``th simulate`` gives the same JSON with the core on and off.

A house rule that answers one of the hooks a look stands for sends the look
back to the hooks (the variant answers ``None``), except house rules that
judge Hits by their source and cause alone (``hits.JudgedBySource``:
large-fences-only, no-colour-immunity, no-swap-outside), whose verdicts the core reads: those games are compared
step by step too.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seats import Recording
from tiers import FENCES_HOUSE_RULES, FENCES_OPTIONS, SmallsIgnoreColour
from treehouse.bots.greedy import GreedyBot
from treehouse.bots.random_bot import RandomBot
from treehouse.bots.search import SearchBot
from treehouse.kernel.fast import compiled
from treehouse.kernel.engine import Game
from treehouse.kernel.hooks import HouseRule
from treehouse.kernel.pieces import Size
from treehouse.kernel.turn import Control, Looks, look_moves
from treehouse.plugins import game_hooks
from treehouse.hookspecs import hookimpl
from treehouse.variants.fences.fast import looks
from treehouse.variants.fences.hits import Cause
from treehouse.variants.fences.position import format_position

pytestmark = pytest.mark.skipif(not compiled.enabled(), reason="the compiled core is off here (TREEHOUSE_COMPILED or no numba)")


def recorded(variant, kinds, seed, turn_cap):
    """The (position, step) of every decision of one seeded game with these seats."""
    seen = []
    seats = [Recording(kind(), seen) for kind in kinds]
    Game(variant, seats, random.Random(seed), turn_cap=turn_cap).play()
    return [(state, step) for state, step, _face, _moves in seen]


def bits(looks) -> list[str]:
    return [float.hex(v) for v in looks.values]


def compare(variant, state, step) -> int:
    """Both tiers on every legal move of every face at ``state``, for every seat:
    the looks at listed moves (``treehouse_look_moves``), the core's own legal
    moves (its codes equal the reference's moves encoded, in their order), and
    the looks at all of a node's moves at once (``treehouse_look_all_moves``)."""
    hooks = variant.hooks
    faces = [face for face, _p in variant.die.outcomes()] if step.rolls else [None]
    looked = 0
    players = len(state.stacks)
    judged = variant.treehouse_evaluate_seats(state, players)  # the playtest's lead tracking, on the core
    if variant.core_verdicts("treehouse_evaluate", "treehouse_fences_hits") is not None:
        assert [v.hex() for v in judged] == [float(hooks.treehouse_evaluate(state, seat)).hex() for seat in range(players)]
    else:
        assert judged is None
    listed = {face: hooks.treehouse_legal_moves(state, step, face) for face in faces}
    # a seat that is out passes, and a house rule may change the legal moves: then the hooks answer
    by_hooks = any(isinstance(m, Control) for moves in listed.values() for m in moves)
    by_hooks = by_hooks or variant.core_verdicts("treehouse_legal_moves", *variant.LOOK_HOOKS) is None
    for seat in range(len(state.stacks)):
        at_once = variant.treehouse_look_all_moves(state, step, tuple(faces), seat)
        where = f"{format_position(state)} step {step.name} seat {seat + 1}"
        if by_hooks:
            assert at_once is None, where
        else:
            assert len(at_once) == len(faces), where
        for index, face in enumerate(faces):
            moves = [m for m in listed[face] if not isinstance(m, Control)]
            if seat == 0 and not by_hooks:
                codes = looks.legal_codes(variant.rules, state, step, face)
                assert codes == [looks.code(m) for m in moves], f"{where} face {face}: the core's legal moves"
            if not by_hooks:
                assert bits(at_once[index]) == bits(look_moves(hooks, state, step, moves, seat)) if moves else not at_once[index].values
            if not moves:
                continue
            core = variant.treehouse_look_moves(state, step, face, moves, seat)
            reference = look_moves(hooks, state, step, moves, seat)
            assert type(core) is Looks, f"{where} face {face}"
            assert bits(core) == bits(reference), f"{where} face {face}"
            assert core.outcomes == reference.outcomes, f"{where} face {face}"
            if not by_hooks:
                assert at_once[index].outcomes == reference.outcomes and at_once[index].rerolls == 0, f"{where} face {face}"
            looked += len(moves)
    return looked


def fences(plugins, house_rules=(), **options):
    cls = plugins.variant("fences")
    variant = cls(cls.Rules(**options))
    variant.prepare_compiled()  # evaluate_seats takes the core once it is loaded
    rules = tuple(rule if isinstance(rule, HouseRule) else plugins.house_rule(rule, cls) for rule in house_rules)
    return game_hooks(variant, rules).variant  # the variant object bound to its game's hooks


def test_lead_tracking_alone_does_not_load_the_core(plugins):
    """A game of random seats never looks: its evaluate_seats stays on the
    reference rules rather than pay numba's start-up, until a look loads the
    core; the two answer the same."""
    code = (
        "from treehouse.plugins import load_plugins, game_hooks; from treehouse.kernel.fast import compiled;"
        "cls = load_plugins().variant('fences'); v = game_hooks(cls(cls.Rules(start='corners'))).variant;"
        "from treehouse.kernel.engine import Game; from treehouse.bots.random_bot import RandomBot; import random, sys;"
        "g = Game(v, [RandomBot(), RandomBot()], random.Random(1), turn_cap=5); g.play();"
        "reference = v.treehouse_evaluate_seats(g.state, 2); print('numba' in sys.modules);"
        "v.prepare_compiled(); print(v.treehouse_evaluate_seats(g.state, 2) == reference, compiled.ready('fences'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.split() == ["False", "True", "True"]



def test_games_in_threads_each_get_their_own_answers(plugins, monkeypatch, at_once):
    """th serve plays tables in threads, and one table of move codes serves
    every game of a process: two threads looking at different moves at once,
    with the table emptied again and again, never see each other's answers."""
    monkeypatch.setattr(looks.MoveCodes, "LIMIT", 64)  # emptied at almost every look: no move stays known
    monkeypatch.setattr(looks, "MOVES", looks.MoveCodes())
    variant = fences(plugins)
    asked = []
    for state, step in recorded(variant, (GreedyBot, RandomBot), 3, 40):
        for face, _p in variant.die.outcomes():
            moves = [m for m in variant.hooks.treehouse_legal_moves(state, step, face) if not isinstance(m, Control)]
            if len(moves) > 3:
                asked.append((state, step, face, moves, variant.treehouse_look_moves(state, step, face, moves, 0)))
    work = [asked[::2], asked[1::2]]
    wrong: list = []

    def look_again(mine) -> None:
        for _ in range(20):
            for state, step, face, moves, expected in mine:
                found = variant.treehouse_look_moves(state, step, face, moves, 0)
                if bits(found) != bits(expected) or found.outcomes != expected.outcomes:
                    wrong.append(format_position(state))
                    return

    at_once(*(partial(look_again, mine) for mine in work))
    assert len(asked) > 20
    assert wrong == []


OPTIONS = [
    {},
    {"line_hits": "every_check", "swap_outside_ignores_colour": False, "start": "corners", "outside_attempts": True},
    {"swap_outside_considered_moved": False, "swap_outside_ignores_colour": False, "start": "corners", "mover_hit_on_stack": True},
    {"one_hit_per_piece": False, "all_out_at_once": "tie", "uniform_dig": "hit", "turn_limit": 12, "first_player": "drawn"},
    {"sets": "rainbow-xeno", "turn_limit": 9, "turn_limit_scoring": "draw", "start": "random", "uniform_dig": "reroll"},
]


@pytest.mark.parametrize("options", OPTIONS, ids=["seed", "every-check", "swap-not-moved-mover-hit", "no-merge-tie-limit", "xeno-limit-draw"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_step_of_recorded_games_looks_the_same_through_both_tiers(plugins, options, players):
    variant = fences(plugins, **options)
    kinds = [GreedyBot] + [RandomBot] * (players - 1)
    looked = steps = 0
    for game in range(2):
        for state, step in recorded(variant, kinds, f"tiers:{players}:{game}", 40):
            if step.setup:
                assert variant.treehouse_look_moves(state, step, None, (), 0) is None  # the setup goes through the hooks
                continue
            looked += compare(variant, state, step)
            steps += 1
    assert steps > 20 and looked > 500


#: Issue 47's example positions (tests/fences/test_readings.py): a step onto a
#: Stack, with a line already on the mover; a Hop bouncing off a Stack, likewise.
ISSUE_47_STEP = "Lr*Lr*My*Lo*Lo*/My*.....Ly*/Mb*..2..Mg*/Mb*..1..Lg</Mo*.....Ly*/Mo*.....Lg*/Mr*Mr*Mg*Lb*Lb* r,b gyb,roy og 1 stack 0"


@pytest.mark.parametrize("mover_hit_on_stack", [False, True])
def test_a_stack_moving_onto_a_stack_looks_the_same_through_both_tiers(plugins, mover_hit_on_stack):
    """``mover_hit_on_stack`` on the core as in the reference: in issue 47's example
    ``step n`` wins for player 1 (false, the seed), or empties both Stacks, a draw (true)."""
    from treehouse.variants.fences.game import STEPS

    variant = fences(plugins, mover_hit_on_stack=mover_hit_on_stack)
    state = variant.parse_position(ISSUE_47_STEP)
    step = STEPS[2]
    assert compare(variant, state, step) > 0
    moves = variant.hooks.treehouse_legal_moves(state, step, None)
    on_core = variant.treehouse_look_moves(state, step, None, moves, 0)
    north = moves.index(variant.parse_move("step n"))
    assert on_core.outcomes[north].winners == (() if mover_hit_on_stack else (0,))


@pytest.mark.parametrize("turn_limit", [0, 5])
@pytest.mark.parametrize("line_hits", ["new", "every_check"])
def test_a_seat_going_out_in_its_own_step_looks_the_same_through_both_tiers(plugins, pos, turn_limit, line_hits):
    """Issue 47: a seat emptied in its step 1 plays no more steps; its turn,
    complete, meets the ``turn_limit`` at that check on the core as in the reference."""
    from treehouse.variants.fences.game import STEPS
    from treehouse.variants.fences.scenario import layout

    variant = fences(plugins, turn_limit=turn_limit, line_hits=line_hits)
    state = pos(layout(b4="Lb>", c4="2", d4="1", e5="3"), stacks="y,o,ro", destroyed="gb,rb,y", seat=2, step="fence", turn=4)
    assert compare(variant, state, STEPS[0]) > 0


@pytest.mark.parametrize("uniform_dig", ["noop", "hit", "reroll"])
def test_a_wild_dig_that_gives_back_the_stack_is_left_out_by_both_tiers(plugins, uniform_dig):
    """Issue 47, item 3: a Stack ``ry`` and a WILD: ``wild:yr dig`` (back to ``ry``) is in neither
    tier's legal moves (compare checks the core's rows against the reference's moves)."""
    from treehouse.variants.fences.game import STEPS

    variant = fences(plugins, uniform_dig=uniform_dig)
    from treehouse.variants.fences.scenario import complete, layout

    rows = complete(layout(c3="1", e1="2"), stacks="ry,oy", destroyed="gb,gb", step="act", empty=("N3", "S3", "W3", "E3"), spares_inside=True)
    state = variant.parse_position(rows)
    assert compare(variant, state, STEPS[1]) > 0
    words = {variant.format_move(m) for m in variant.hooks.treehouse_legal_moves(state, STEPS[1], "WILD")}
    assert "wild:ry dig" in words and "wild:yr dig" not in words


def test_the_search_bots_games_look_the_same_through_both_tiers(plugins):
    """Positions the search reaches (the bot that leans on the core most), greedy against it."""
    variant = fences(plugins, start="corners", outside_attempts=True, uniform_dig="hit", all_out_at_once="tie")
    looked = 0
    for state, step in recorded(variant, [GreedyBot, SearchBot], "tiers:search", 12):
        looked += compare(variant, state, step)
    assert looked > 200


SETTINGS = {**FENCES_OPTIONS, "house_rules": FENCES_HOUSE_RULES}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(options=st.fixed_dictionaries(SETTINGS), seed=st.integers(0, 2**32), steps=st.integers(0, 150))
def test_reachable_positions_look_the_same_through_both_tiers_with_every_face(plugins, options, seed, steps):
    """A position ``steps`` decisions into a random game under random rule options, every face, every seat."""
    players = options.pop("players")
    variant = fences(plugins, **options)
    seen = [(state, step) for state, step in recorded(variant, [RandomBot] * players, seed, 60) if not step.setup]
    if seen:
        state, step = seen[min(steps, len(seen) - 1)]
        compare(variant, state, step)


class MediumFencesHitNot:
    """large-fences-only written as a plain wrapper of treehouse_fences_hits:
    it judges each Hit by its source alone, so the core reads it as a table."""

    def __init__(self, variant, options):
        pass

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        standing = yield
        return tuple(hit for hit in standing if hit.source is None or hit.source.seat is not None or hit.source.size != Size.MEDIUM)


class MediumFencesHitNotInPlay(MediumFencesHitNot):
    """The same rule, asking the position first (no check is made in the
    setup, so it always goes on): the core cannot know what it does."""

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        standing = yield
        if state.setting_up:
            return standing
        return tuple(hit for hit in standing if hit.source is None or hit.source.size is not Size.MEDIUM)


PLAIN_WRAPPER = HouseRule("medium-fences-hit-not", MediumFencesHitNot)
READS_THE_POSITION = HouseRule("medium-fences-hit-not-in-play", MediumFencesHitNotInPlay)


def test_a_house_rule_reading_the_position_sends_the_look_to_the_hooks(plugins):
    """A treehouse_fences_hits wrapper that reads the position: the variant answers None and
    the kernel's default, through the house rule, gives the look (a medium Fence's Hit dropped)."""
    variant = fences(plugins, house_rules=[READS_THE_POSITION], start="corners")
    hooks = variant.hooks
    assert variant.core_verdicts(*variant.LOOK_HOOKS) is None
    state, step = recorded(variant, [GreedyBot, RandomBot], "tiers:house", 6)[-1]
    moves = [m for m in hooks.treehouse_legal_moves(state, step, "WILD" if step.rolls else None) if not isinstance(m, Control)]
    assert variant.treehouse_look_moves(state, step, "WILD", moves, 0) is None
    assert variant.treehouse_look_all_moves(state, step, ("WILD",), 0) is None
    # the lead tracking: the reference rules, which judge Hits through the hook, as seat by seat
    assert variant.treehouse_evaluate_seats(state, 2) == [hooks.treehouse_evaluate(state, seat) for seat in range(2)]
    assert hooks.treehouse_look_moves(state, step, "WILD", moves, 0) == look_moves(hooks, state, step, moves, 0)
    # a house rule that only changes the legal moves leaves the look to the core
    variant = fences(plugins, house_rules=["dig-restores-any"])
    assert variant.hooks.variant_alone(*variant.LOOK_HOOKS)
    for state, step in recorded(variant, [GreedyBot, RandomBot], "tiers:dig", 20):
        if not step.setup:
            compare(variant, state, step)


@pytest.mark.parametrize(
    "house_rules, verdicts",
    [
        # one row of four (no piece, Large, Medium, a Stack) per cause, in hits.CAUSES' order: four
        # causes by a piece, an attempt Outside, a Swap Outside, an impossible action (pairs no check finds stand)
        (["large-fences-only"], (0, 0, 1, 0) * 4 + (0, 0, 0, 0) + (0, 0, 1, 0) + (0, 0, 0, 0)),
        (["no-colour-immunity"], (0, 2, 2, 2) * 4 + (2, 0, 0, 0) + (0, 2, 2, 2) + (2, 0, 0, 0)),
        (["no-colour-immunity", "large-fences-only"], (0, 2, 1, 2) * 4 + (2, 0, 0, 0) + (0, 2, 1, 2) + (2, 0, 0, 0)),
        (["no-swap-outside"], (0, 0, 0, 0) * 5 + (0, 1, 1, 1) + (0, 0, 0, 0)),
    ],
    ids=["large-fences-only", "no-colour-immunity", "both", "no-swap-outside"],
)
@pytest.mark.parametrize("players", [2, 3])
def test_house_rules_judging_hits_by_source_run_on_the_core_step_for_step_as_through_the_hooks(plugins, house_rules, verdicts, players):
    """Their verdicts go to the core as a table; every decision of recorded
    games looks the same through both tiers (the reference through the house
    rules' own treehouse_fences_hits wrappers)."""
    variant = fences(plugins, house_rules=house_rules, start="corners")
    assert variant.core_verdicts(*variant.LOOK_HOOKS) == verdicts
    looked = 0
    for game in range(2):
        for state, step in recorded(variant, [GreedyBot] + [RandomBot] * (players - 1), f"tiers:judged:{players}:{game}", 40):
            looked += compare(variant, state, step)
    assert looked > 500


@pytest.mark.parametrize("house_rules", [["wild-repair(max=2)"], ["wild-repair(max=2)", "large-fences-only"]], ids=["wild-repair", "with-large-fences-only"])
def test_a_house_rule_adding_moves_of_its_own_keeps_the_core_for_fences_moves(plugins, house_rules):
    """wild-repair (an AddsMoves rule) performs only its Repair moves: a look at
    a WILD face's moves puts Fences' on the core and the Repairs through the
    hooks, and the whole equals the hooks' look, every decision of recorded games."""
    variant = fences(plugins, house_rules=house_rules, start="corners")
    assert variant.core_verdicts(*variant.LOOK_HOOKS) is not None
    assert variant.core_verdicts("treehouse_legal_moves", *variant.LOOK_HOOKS) is None  # it adds legal moves: the search lists them
    looked = repairs = 0
    for game in range(3):
        for state, step in recorded(variant, [GreedyBot, RandomBot], f"tiers:repair:{game}", 60):
            looked += compare(variant, state, step)
            if step.rolls:
                repairs += sum(1 for m in variant.hooks.treehouse_legal_moves(state, step, "WILD") if type(m).__name__ == "Repair")
    assert looked > 500 and repairs > 0


def test_a_house_rule_performing_moves_in_a_hook_of_its_own_sends_the_look_to_the_hooks(plugins):
    """A rule answering treehouse_apply_move itself (not the derived AddsMoves
    hook) might perform any move: the look is the hooks'."""
    rule = plugins.house_rule("wild-repair(max=2)", plugins.variant("fences"))

    class PerformsItself(rule.factory):
        @hookimpl(tryfirst=True)
        def treehouse_apply_move(self, state, step, move):
            return None

    variant = fences(plugins, house_rules=[HouseRule("performs-itself", PerformsItself, rule.options)], start="corners")
    assert variant.core_verdicts(*variant.LOOK_HOOKS) is None
    state, step = recorded(variant, [GreedyBot, RandomBot], "tiers:itself", 4)[-1]
    moves = [m for m in variant.hooks.treehouse_legal_moves(state, step, "WILD" if step.rolls else None) if not isinstance(m, Control)]
    assert variant.treehouse_look_moves(state, step, "WILD", moves, 0) is None


def test_large_fences_only_plays_the_same_games_declared_as_a_plain_wrapper_and_reading_the_position(plugins):
    """The same search games, move for move: large-fences-only and its plain-wrapper
    twin on the core (the same table), and its twin that reads the position
    through the hooks on the reference rules."""
    declared = fences(plugins, house_rules=["large-fences-only"], start="corners")
    plain = fences(plugins, house_rules=[PLAIN_WRAPPER], start="corners")
    by_hooks = fences(plugins, house_rules=[READS_THE_POSITION], start="corners")
    assert plain.core_verdicts(*plain.GAME_HOOKS) == declared.core_verdicts(*declared.GAME_HOOKS) is not None
    assert by_hooks.core_verdicts(*by_hooks.LOOK_HOOKS) is None
    games = [
        [(format_position(state), step.name) for state, step in recorded(variant, [GreedyBot, SearchBot], "tiers:judged:search", 10)]
        for variant in (declared, plain, by_hooks)
    ]
    assert games[0] == games[1] == games[2]
    assert len(games[0]) > 20


class NoSwapOutside:
    """docs/fences-api.md's first example, as it is written there."""

    def __init__(self, variant, options):
        self.variant = variant

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        standing = yield
        return tuple(hit for hit in standing if hit.cause is not Cause.SWAP_OUTSIDE)


@pytest.mark.parametrize(
    "rule, options",
    [(PLAIN_WRAPPER, {}), (HouseRule("smalls", SmallsIgnoreColour), {"mover_hit_on_stack": True}), (HouseRule("no-swap", NoSwapOutside), {})],
    ids=["medium-fences-hit-not", "smalls", "no-swap-outside"],
)
def test_plain_wrappers_judging_each_hit_alone_run_on_the_core_step_for_step_as_through_the_hooks(plugins, rule, options):
    """Read as a table, a plain wrapper's games look the same through both
    tiers, every decision of recorded games (the reference through the wrapper itself)."""
    variant = fences(plugins, house_rules=[rule], start="corners", **options)
    assert variant.core_verdicts(*variant.GAME_HOOKS) is not None
    looked = 0
    for game in range(2):
        for state, step in recorded(variant, [GreedyBot, RandomBot], f"tiers:plain:{game}", 40):
            looked += compare(variant, state, step)
    assert looked > 500


def test_with_the_core_turned_off_the_variant_leaves_the_look_to_the_hooks(plugins, monkeypatch):
    variant = fences(plugins, start="corners")
    state, step = recorded(variant, [RandomBot, RandomBot], "tiers:off", 3)[-1]
    moves = [m for m in variant.hooks.treehouse_legal_moves(state, step, "TIP") if not isinstance(m, Control)]
    monkeypatch.setenv(compiled.COMPILED_ENV, "0")
    compiled.reset_for_tests()
    try:
        assert variant.treehouse_look_moves(state, step, "TIP", moves, 0) is None
    finally:
        monkeypatch.delenv(compiled.COMPILED_ENV)
        compiled.reset_for_tests()
    assert variant.treehouse_look_moves(state, step, "TIP", moves, 0) is not None


def simulate(compiled_on: bool, *args: str) -> dict:
    env = {**os.environ, compiled.COMPILED_ENV: "1" if compiled_on else "0"}
    command = [sys.executable, "-m", "treehouse", "simulate", "--variant", "fences", *args, "--json"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600, check=True)
    report = json.loads(done.stdout)
    report.pop("seconds")  # the one field that is a measurement, not a result
    return report


def test_th_simulate_gives_the_same_json_with_the_core_on_and_off():
    args = ("--seat", "greedy", "--seat", "search", "--games", "4", "--seed", "5", "--set", "start=corners")
    on = simulate(True, *args)
    assert on == simulate(False, *args)
    assert on["games"] == 4 and on["turns_total"] > 0


def test_th_simulate_under_house_rules_on_the_core_gives_the_same_json_with_the_core_off():
    """large-fences-only (verdicts) and wild-repair (moves of its own) on the core, against the reference."""
    args = ("--seat", "greedy", "--seat", "search", "--games", "2", "--seed", "8", "--set", 'house_rules=["large-fences-only", "wild-repair(max=2)"]')
    on = simulate(True, *args)
    assert on == simulate(False, *args)
    assert on["games"] == 2 and on["turns_total"] > 0
