"""Classic's two tiers give the same answers: the compiled core (variants/classic/fast/core.py, looks.py)
against the reference, the kernel's default that plays every move through the hooks
(:func:`treehouse.kernel.turn.look_moves`), value for value and bit for bit."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treehouse.config import resolve
from treehouse.kernel.fast import compiled
from treehouse.kernel.engine import REROLL, Control, Game
from treehouse.kernel.hooks import TRACE_ENV, game_hooks
from treehouse.kernel.turn import ONE_ROLLED_STEP, look_moves
from treehouse.variants.classic.fast.looks import ClassicCore, core_for
from treehouse.variants.classic.game import ClassicPosition, ClassicRules
from treehouse.variants.classic.trio import HOUSE, TREE, all_trios, mirror, parse_trio
from tiers import CLASSIC_OPTION_SETS, bits

FACES = ("TIP", "SWAP", "HOP", "DIG", "AIM", "WILD")
STEP = ONE_ROLLED_STEP[0]

OPTION_SETS = CLASSIC_OPTION_SETS
pytestmark = pytest.mark.usefixtures("compiled_core")


def assert_same_looks(hooks, state, step, face, moves, seat) -> int:
    """The core's look and the reference's agree on ``moves`` (and on them reversed,
    so an outcome's index is checked too); the number of moves that end the game."""
    core = hooks.variant.treehouse_look_moves(state, step, face, moves, seat)
    assert core is not None, "the core answers while classic alone answers the hooks"
    assert isinstance(core_for(hooks.variant), ClassicCore)
    reference = look_moves(hooks, state, step, moves, seat)
    assert bits(core.values) == bits(reference.values)
    assert dict(core.outcomes) == dict(reference.outcomes)
    backwards = list(reversed(moves))
    again, expected = hooks.variant.treehouse_look_moves(state, step, face, backwards, seat), look_moves(hooks, state, step, backwards, seat)
    assert bits(again.values) == bits(expected.values) and dict(again.outcomes) == dict(expected.outcomes)
    return len(reference.outcomes)


def board_moves(hooks, state, face) -> list:
    return [move for move in hooks.treehouse_legal_moves(state, STEP, face) if not isinstance(move, Control)]


def reference_choices(hooks, state, face, seat) -> tuple[list[str], dict, int]:
    """Every choice the reference lists for ``face``, valued as treehouse_look_all_moves
    promises: moves as the kernel's look plays them, a decline (PASS, REROLL) by the
    position as it stands, which it leaves; and how many are REROLL."""
    choices = hooks.treehouse_legal_moves(state, STEP, face)
    moves = [move for move in choices if not isinstance(move, Control)]
    moved = look_moves(hooks, state, STEP, moves, seat)
    looked = iter(moved.values)
    values, outcomes, at = [], {}, {}
    for index, choice in enumerate(choices):
        if isinstance(choice, Control):
            values.append(float(hooks.treehouse_evaluate(state, seat)))
        else:
            at[len(at)] = index
            values.append(next(looked))
    for i, outcome in moved.outcomes.items():
        outcomes[at[i]] = outcome
    return bits(values), outcomes, sum(1 for choice in choices if choice is REROLL)


def assert_same_looks_at_once(hooks, state, seat) -> None:
    """treehouse_look_all_moves (no move made) equals the reference, choice by choice, for every face."""
    at_once = hooks.variant.treehouse_look_all_moves(state, STEP, FACES, seat)
    assert len(at_once) == len(FACES)
    for face, looks in zip(FACES, at_once):
        values, outcomes, rerolls = reference_choices(hooks, state, face, seat)
        assert (bits(looks.values), dict(looks.outcomes), looks.rerolls) == (values, outcomes, rerolls), face


def check_every_face(hooks, state) -> tuple[int, int]:
    """Every face's legal moves looked at for every seat, one face at a time and
    all at once: (looks, moves that end the game)."""
    looks = ended = 0
    if hooks.treehouse_outcome(state, state.to_move) is None:  # a position in play, as a decision's is
        for seat in range(len(state.trios)):
            assert_same_looks_at_once(hooks, state, seat)
    for face in FACES:
        moves = board_moves(hooks, state, face)
        if not moves:
            continue
        for seat in range(len(state.trios)):
            ended += assert_same_looks(hooks, state, STEP, face, moves, seat)
            looks += 1
    return looks, ended


class EveryStep:
    """An observer comparing the tiers at every position a game reaches, for every face."""

    def __init__(self) -> None:
        self.looks = self.ended = 0

    def on_choice(self, game, mover, step, face, moves) -> None:
        looks, ended = check_every_face(game.hooks, game.state)
        self.looks += looks
        self.ended += ended

    def on_step(self, game, mover, step, move, before, after, events) -> None:
        pass


#: Each rule option with two seats of each kind; more seats under two of them.
GAMES = [(options, seats) for options in OPTION_SETS for seats in (("random", "random"), ("greedy", "search"))]
GAMES += [(options, ("random",) * players) for options in ("official", "everything-off") for players in (3, 4)]


@pytest.mark.parametrize(("options", "seats"), GAMES, ids=[f"{o}-{'-'.join(s)}" for o, s in GAMES])
def test_every_step_of_recorded_games(plugins, options, seats):
    variant = plugins.variant("classic")(OPTION_SETS[options])
    watcher = EveryStep()
    for seed in range(2):
        bots = [plugins.bot(kind).factory() for kind in seats]
        Game(variant, bots, random.Random(seed), turn_cap=60, observer=watcher).play()
    assert watcher.looks > 50
    assert watcher.ended > 0, "some looked-at moves end the game"


@pytest.mark.parametrize("rule_set", ["classic", "classic-wiki"])
def test_every_step_under_the_shipped_rule_sets(plugins, rule_set):
    effective = resolve(plugins, variant=rule_set)
    watcher = EveryStep()
    bots = [plugins.bot("search").factory(), plugins.bot("greedy").factory()]
    game = effective.new_game(plugins, bots, random.Random(11), observer=watcher)
    game.play()
    assert watcher.looks > 20


rules = st.builds(
    ClassicRules, dig_in_place=st.booleans(), house_decline=st.sampled_from(["pass", "reroll"]), mirror_matches=st.booleans(),
    first_player=st.sampled_from([1, 2, "drawn"]), wild_choice=st.sampled_from(["either", "own_first"]),
)
trios = st.sampled_from(all_trios())


@settings(max_examples=40, deadline=None)
@given(rules=rules, players=st.integers(2, 4), seed=st.integers(0, 2**32), steps=st.integers(0, 40))
def test_reachable_positions_with_every_face(plugins, rules, players, seed, steps):
    """A walk of random legal moves from the start (a reachable position), then
    every face's moves looked at through both tiers."""
    hooks = game_hooks(plugins.variant("classic")(rules))
    rng = random.Random(seed)
    state = hooks.treehouse_setup(hooks.variant, players, rng)  # the first player as the rules say
    assert state.house == HOUSE and state.trios == (TREE,) * players
    for _ in range(steps):
        moves = board_moves(hooks, state, rng.choice(FACES))
        if moves:
            after = hooks.treehouse_apply_move(state, STEP, rng.choice(moves))
            if hooks.treehouse_outcome(after, state.to_move) is not None:
                break  # the game would have ended: look from the position before
            state = after
        state = hooks.treehouse_end_turn(state)
    check_every_face(hooks, state)


@settings(max_examples=40, deadline=None)
@given(rules=rules, house=trios, table=st.lists(trios, min_size=2, max_size=4), data=st.data())
def test_any_trios_with_every_face(plugins, rules, house, table, data):
    """Any legal trios at all, the House's mirror image among them as often as not
    (so mirror_matches, ties and wins on another's turn all come up)."""
    if data.draw(st.booleans()):
        table[data.draw(st.integers(0, len(table) - 1))] = mirror(house)
    state = ClassicPosition(house, tuple(table), data.draw(st.integers(0, len(table) - 1)))
    check_every_face(game_hooks(plugins.variant("classic")(rules)), state)


def test_a_tie_and_a_win_on_another_turn(plugins):
    """Outcomes the kernel writes as numbers come back as the reference's Outcome."""
    hooks = game_hooks(plugins.variant("classic")())
    house = parse_trio("L< S^ M^")
    # seat 1 is an AIM from the House; seats 2 and 3 match the House once it is aimed back
    state = ClassicPosition(house, (parse_trio("L< S^ M<"), HOUSE, HOUSE), 0)
    moves = board_moves(hooks, state, "WILD")
    looks = hooks.treehouse_look_moves(state, STEP, "WILD", moves, 0)
    reasons = {outcome.reason for outcome in looks.outcomes.values()}
    assert reasons == {"tie: several trios matched the House at once", "matched the House"}
    assert_same_looks(hooks, state, STEP, "WILD", moves, 0)
    # an AIM fits only the House: aiming it back makes seat 2's trio match
    state = ClassicPosition(house, (TREE, HOUSE), 0)
    moves = board_moves(hooks, state, "AIM")
    looks = hooks.treehouse_look_moves(state, STEP, "AIM", moves, 1)
    assert {o.winners for o in looks.outcomes.values()} == {(1,)}
    assert {o.reason for o in looks.outcomes.values()} == {"matched the House on another player's turn"}
    assert_same_looks(hooks, state, STEP, "AIM", moves, 1)


def test_a_house_rule_on_a_hook_of_the_look_plays_through_the_hooks(plugins):
    """mirror-matches answers treehouse_outcome: the core is off for that game,
    the variant answers None and the kernel's default plays every move."""
    effective = resolve(plugins, variant="classic", overrides=["house_rules=[mirror-matches]"])
    game = effective.new_game(plugins, [plugins.bot("search").factory(), plugins.bot("search").factory()], random.Random(2))
    state = ClassicPosition(HOUSE, (parse_trio("M< S^ L^"), TREE), 0)
    moves = board_moves(game.hooks, state, "WILD")
    assert game.hooks.variant.treehouse_look_moves(state, STEP, "WILD", moves, 0) is None
    assert game.hooks.variant.treehouse_look_all_moves(state, STEP, FACES, 0) is None
    assert game.hooks.treehouse_look_moves(state, STEP, "WILD", moves, 0) == look_moves(game.hooks, state, STEP, moves, 0)
    game.play()  # and a whole game of search bots runs through the hooks
    assert game.outcome is not None


class ListedMovesOnly(EveryStep):
    """Every position a game under a house rule on the legal moves reaches: the
    core looks at the moves the hooks list, and leaves a whole node to them."""

    def on_choice(self, game, mover, step, face, moves) -> None:
        hooks, state = game.hooks, game.state
        assert hooks.variant.treehouse_look_all_moves(state, STEP, FACES, 0) is None
        for face in FACES:
            listed = board_moves(hooks, state, face)
            if listed:
                for seat in range(len(state.trios)):
                    self.ended += assert_same_looks(hooks, state, STEP, face, listed, seat)
                    self.looks += 1


def test_a_house_rule_on_the_legal_moves_keeps_the_core_for_the_moves_listed(plugins):
    """no-house-moves changes which moves are legal, not what a move does: the
    core looks at the moves it lists, equal to the hooks' look."""
    effective = resolve(plugins, variant="classic", overrides=["house_rules=[no-house-moves]"])
    watcher = ListedMovesOnly()
    for seed in range(2):
        bots = [plugins.bot("greedy").factory(), plugins.bot("search").factory()]
        effective.new_game(plugins, bots, random.Random(seed), observer=watcher).play()
    assert watcher.looks > 50


def test_off_and_traced_games_play_through_the_hooks(plugins, monkeypatch):
    state = ClassicPosition(HOUSE, (TREE, TREE), 0)
    moves = board_moves(game_hooks(plugins.variant("classic")()), state, "TIP")
    monkeypatch.setenv(TRACE_ENV, "1")
    traced = game_hooks(plugins.variant("classic")(ClassicRules(max_players=6)))
    assert traced.variant.treehouse_look_moves(state, STEP, "TIP", moves, 0) is None
    monkeypatch.delenv(TRACE_ENV)
    monkeypatch.setenv(compiled.COMPILED_ENV, "0")
    compiled.reset_for_tests()
    off = game_hooks(plugins.variant("classic")(ClassicRules(max_players=7)))  # rules no other test's shared manager has
    assert off.variant.treehouse_look_moves(state, STEP, "TIP", moves, 0) is None


def simulate(tmp_path, compiled_env: str | None, jobs: int) -> dict:
    env = {key: value for key, value in os.environ.items() if key != compiled.COMPILED_ENV}
    if compiled_env is not None:
        env[compiled.COMPILED_ENV] = compiled_env
    command = [sys.executable, "-m", "treehouse", "simulate", "--variant", "classic", "--seat", "search", "--seat", "search", "--games", "6", "--jobs", str(jobs), "--json"]
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    del data["seconds"]
    return data


def test_the_same_simulation_with_the_core_on_or_off(tmp_path):
    """``TREEHOUSE_COMPILED=0`` gives the very same JSON as the core
    (``=1``: six games would otherwise start on the reference rules), for any
    number of workers, and so does the default, which loads the core only
    once the run's pace says it pays."""
    reference = simulate(tmp_path, "0", jobs=1)
    assert reference["games"] == 6
    assert simulate(tmp_path, "1", jobs=1) == reference
    assert simulate(tmp_path, "1", jobs=2) == reference
    assert simulate(tmp_path, None, jobs=2) == reference


def test_games_in_threads_each_get_their_own_answers(plugins, at_once):
    """th serve plays tables in threads, and one core serves every game of a
    process: two threads looking at different positions at once never see
    each other's answers (the kernel writes none into a buffer they share)."""
    hooks = game_hooks(plugins.variant("classic")())
    positions = [ClassicPosition(HOUSE, (TREE, TREE), 0), ClassicPosition(parse_trio("L< S^ M^"), (parse_trio("L< S^ M<"), HOUSE), 1)]
    expected = [hooks.variant.treehouse_look_all_moves(state, STEP, FACES, 0) for state in positions]
    wrong: list = []

    def look_again(index: int) -> None:
        for _ in range(3000):
            if hooks.variant.treehouse_look_all_moves(positions[index], STEP, FACES, 0) != expected[index]:
                wrong.append(index)
                return

    at_once(partial(look_again, 0), partial(look_again, 1))
    assert expected[0] != expected[1]
    assert wrong == []


@pytest.mark.parametrize(
    "rules", [ClassicRules(wild_choice="own_first"), ClassicRules(dig_in_place=False, house_decline="reroll", wild_choice="own_first")],
    ids=["classic", "classic-wiki"],
)
def test_the_wikis_wild_looks_the_same_through_both_tiers(plugins, rules):
    """``wild_choice: own_first`` (issue 47): the core's legal moves (looked at all
    at once) and looks equal the reference's, at the issue's position (both
    trios the Tree: a WILD may take only DIG and AIM to the House) and at random ones."""
    hooks = game_hooks(plugins.variant("classic")(rules))
    looks, _ended = check_every_face(hooks, ClassicPosition(HOUSE, (TREE, TREE), 0))
    assert looks > 0
    rng = random.Random(7)
    for _ in range(30):
        check_every_face(hooks, ClassicPosition(rng.choice(all_trios()), (rng.choice(all_trios()), rng.choice(all_trios())), rng.randrange(2)))
