"""The turn engine, driven through classic Treehouse and small test plugins."""

from __future__ import annotations

import random

import pytest

from treehouse.errors import PluginError, TreehouseError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.engine import PASS, REROLL, Applied, Game, Outcome, Resolved, describe_event, play_move
from treehouse.kernel.records import Record
from treehouse.plugins import game_hooks
from treehouse.variants.classic.game import ClassicPosition, ClassicRules
from treehouse.variants.classic.trio import parse_trio


class ScriptedDice:
    """Rolls the faces it is given, in order."""

    def __init__(self, *faces):
        self.faces = list(faces)

    @hookimpl(tryfirst=True)
    def treehouse_roll(self, state, step, outcomes, rng):
        return self.faces.pop(0)


class StartAt:
    def __init__(self, state):
        self.state = state

    @hookimpl(tryfirst=True)
    def treehouse_setup(self, variant, players, rng):
        return self.state


class Picks:
    """A seat that takes the first legal move satisfying a test, remembering what it was offered."""

    name = "picks"

    def __init__(self, test=lambda move: True):
        self.test = test
        self.offered = []

    def choose(self, state, step, face, moves, rng):
        self.offered.append((face, moves))
        return next(m for m in moves if self.test(m))


def start(house, *trios, to_move=0):
    return ClassicPosition(parse_trio(house), tuple(parse_trio(t) for t in trios), to_move)


def game(variant, seats, *plugins, record=None, turn_cap=None):
    hooks = game_hooks(variant, extra=plugins)
    return Game(variant, seats, random.Random(0), hooks=hooks, record=record, turn_cap=turn_cap)


def test_a_face_with_nothing_to_do_is_rolled_again(classic_class):
    wiki = classic_class(ClassicRules(dig_in_place=False, house_decline="reroll"))
    seat = Picks()
    record = Record()
    g = game(wiki, [seat, Picks()], ScriptedDice("DIG", "HOP"), StartAt(start("L< S^ M>", "L^/M^/S^", "L^/M^/S^")), record=record)
    g.play_turn()
    assert [face for face, _ in seat.offered] == ["HOP"]
    assert [e[0] for e in record.events] == ["roll", "roll", "move"]
    assert g.state.to_move == 1


def test_declining_by_pass_ends_the_turn_unchanged(classic):
    seat = Picks(lambda m: m is PASS)
    g = game(classic, [seat, Picks()], ScriptedDice("AIM"), StartAt(start("L< S^ M>", "L^/M^/S^", "L^/M^/S^")))
    before = g.state
    g.play_turn()
    assert g.state == before._replace(to_move=1)


def test_declining_by_reroll_rolls_again_for_the_same_player(classic_class):
    wiki = classic_class(ClassicRules(house_decline="reroll"))
    seat = Picks(lambda m: m is REROLL or m.target == "own")
    g = game(wiki, [seat, Picks()], ScriptedDice("AIM", "SWAP"), StartAt(start("L< S^ M>", "L^/M^/S^", "L^/M^/S^")))
    g.play_turn()
    assert [face for face, _ in seat.offered] == ["AIM", "SWAP"]
    assert g.state.trios[0] != parse_trio("L^/M^/S^") and g.state.to_move == 1


def test_a_win_ends_the_game_at_once(classic):
    # One AIM away from the House.
    seat = Picks(lambda m: m.result == parse_trio("L< S^ M>"))
    g = game(classic, [seat, Picks()], ScriptedDice("AIM"), StartAt(start("L< S^ M>", "L^ S^ M>", "L^/M^/S^")))
    assert g.play_turn() == Outcome((0,), "matched the House")
    assert g.over
    with pytest.raises(TreehouseError, match="over"):
        g.play_turn()


def test_turn_cap_ends_in_a_draw(classic, random_bot):
    g = Game(classic, [random_bot(), random_bot()], random.Random(3), turn_cap=2)
    outcome = g.play()
    assert outcome.is_draw and outcome.reason == "turn cap" and g.turn == 2


def test_a_seat_that_returns_an_illegal_move_is_refused(classic):
    class Cheat:
        name = "cheat"

        def choose(self, state, step, face, moves, rng):
            return "teleport"

    g = game(classic, [Cheat(), Picks()], ScriptedDice("HOP"))
    with pytest.raises(PluginError, match="seat 1 \\(cheat\\) chose 'teleport', which is not a legal move"):
        g.play_turn()


def test_player_count_is_checked(classic, random_bot):
    with pytest.raises(TreehouseError, match="2 to 4 players, not 5"):
        Game(classic, [random_bot()] * 5, random.Random(0))


def test_same_seed_same_game(classic, random_bot):
    def play(seed):
        record = Record()
        Game(classic, [random_bot(), random_bot()], random.Random(seed), record=record, turn_cap=500).play()
        return record.dumps()

    assert play(11) == play(11)
    assert play(11) != play(12)


@pytest.mark.parametrize("variant_name, seed", [("classic", 3), ("classic", 8), ("fences", 5)])
def test_a_whole_game_in_one_frame_is_the_game_played_turn_by_turn(plugins, random_bot, variant_name, seed):
    """``play()`` runs every turn in one frame (the simulation's hot loop);
    ``play_turn()`` one turn a call (th play): the same seed, the same record."""
    variant = plugins.variant(variant_name)()

    def record_of(whole_game):
        record = Record()
        game = Game(variant, [random_bot(), random_bot()], random.Random(seed), record=record, turn_cap=300)
        if whole_game:
            game.play()
        else:
            while not game.over:
                game.play_turn()
        return record.dumps()

    assert record_of(whole_game=True) == record_of(whole_game=False)


def test_a_seat_that_rerolls_forever_is_stopped(classic_class):
    rerolls = Picks(lambda move: move is REROLL)
    house_only = start("L< S^ M>", "L^/M^/S^", "L^/M^/S^")  # the tree has no AIM: AIM offers the House's moves, or the decline
    g = game(classic_class(ClassicRules(house_decline="reroll")), [rerolls, Picks()], StartAt(house_only), ScriptedDice(*["AIM"] * 1001))
    with pytest.raises(PluginError, match="1000 rolls in a row left nothing to play"):
        g.play_turn()


def test_a_house_rule_wrapper_can_filter_moves(classic, random_bot):
    class NoHouseMoves:
        name = "no-house-moves"

        @hookimpl(wrapper=True)
        def treehouse_legal_moves(self, state, step, face):
            moves = yield
            return tuple(m for m in moves if getattr(m, "target", "own") != "house" and m is not PASS)

    hooks = game_hooks(classic, house_rules=[NoHouseMoves()])
    g = Game(classic, [random_bot(), random_bot()], random.Random(5), hooks=hooks, record=Record(), turn_cap=200)
    g.play()
    assert all(getattr(e[4], "target", "own") == "own" for e in g.record.events if e[0] == "move")


def test_observer_sees_every_choice_and_step(classic, random_bot):
    class Count:
        choices = steps = 0

        def on_choice(self, game, mover, step, face, moves):
            self.choices += 1

        def on_step(self, game, mover, step, move, before, after, events):
            self.steps += 1
            assert before != after or move is PASS

    count = Count()
    g = Game(classic, [random_bot(), random_bot()], random.Random(9), observer=count, turn_cap=300)
    g.play()
    assert count.steps == g.turn and count.choices >= count.steps


def test_a_plugin_that_raises_is_named_in_one_line(classic, random_bot):
    class Broken:
        name = "broken-rule"

        @hookimpl(tryfirst=True)
        def treehouse_legal_moves(self, state, step, face):
            return {}["missing"]

    hooks = game_hooks(classic, house_rules=[Broken()])
    g = Game(classic, [random_bot(), random_bot()], random.Random(0), hooks=hooks)
    with pytest.raises(PluginError, match="^plugin 'broken-rule' failed in treehouse_legal_moves: KeyError: 'missing'$") as caught:
        g.play_turn()
    assert isinstance(caught.value.__cause__, KeyError)  # the bug keeps its traceback


def test_a_bot_that_raises_is_named_by_its_seat(classic, random_bot):
    class Crashing:
        name = "crashy"

        def choose(self, state, step, face, moves, rng):
            return 1 / 0

    g = Game(classic, [random_bot(), Crashing()], random.Random(0))
    with pytest.raises(PluginError, match="seat 2 \\(crashy\\) failed: ZeroDivisionError"):
        g.play()


# --------------------------------------------------------------------------
# apply and resolve share what a move did; resolve reports events
# --------------------------------------------------------------------------


class Said:
    """A test event: one line of words."""

    def __init__(self, words):
        self.words = words

    def describe(self):
        return self.words


class Tells:
    """A house rule that says what each classic move did (apply) and reports
    it as an event (resolve), to test the seam between the two hooks."""

    name = "tells"

    def __init__(self):
        self.effects = []

    @hookimpl(wrapper=True)
    def treehouse_apply_move(self, state, step, move):
        after = yield
        return Applied(after, ("did", move))

    @hookimpl(tryfirst=True)
    def treehouse_resolve(self, state, before, step, move, effect):
        self.effects.append(effect)
        return Resolved(state, (Said(f"{effect[0]} {effect[1]!r}"),) if effect else ())


def test_apply_hands_what_the_move_did_to_resolve_and_resolve_reports_events(plugins):
    variant = plugins.variant("classic")()
    tells = Tells()
    seen = []

    class Watch:
        def on_choice(self, game, mover, step, face, moves):
            pass

        def on_step(self, game, mover, step, move, before, after, events):
            seen.append((move, events))

    record = Record()
    game = Game(variant, [Picks(), Picks()], random.Random(3), house_rules=[tells], record=record, observer=Watch())
    for _ in range(3):
        game.play_turn()
    moves = [move for move, _events in seen if move is not PASS]
    assert tells.effects == [("did", move) if move is not PASS else None for move, _ in seen]
    assert [[e.describe() for e in events] for move, events in seen if move is not PASS] == [[f"did {m!r}"] for m in moves]
    # the engine hands the position on, not the Applied/Resolved values
    assert isinstance(game.state, ClassicPosition)
    resolved = [e for e in record.events if e[0] == "resolved"]
    assert len(resolved) == len(moves)
    lines = [line for line in record.lines() if line["event"] == "resolved"]
    assert lines[0]["happened"] == [f"did {moves[0]!r}"] and lines[0]["seat"] == 1


def test_play_move_applies_and_resolves_as_the_engine_does(plugins):
    variant = plugins.variant("classic")()
    hooks = game_hooks(variant, [Tells()])
    game = Game(variant, [Picks(), Picks()], random.Random(3))
    state = game.state
    step = hooks.treehouse_turn_steps(state)[0]
    move = hooks.treehouse_legal_moves(state, step, "DIG")[0]
    after, events = play_move(hooks, state, step, move)
    assert after == game_hooks(variant).treehouse_apply_move(state, step, move)
    assert [e.describe() for e in events] == [f"did {move!r}"]
    assert play_move(hooks, state, step, PASS) == (state, ())


def test_describe_event_uses_describe_else_str():
    assert describe_event(Said("a Hit")) == "a Hit"
    assert describe_event(42) == "42"


def test_the_conformance_kit_refuses_events_without_words(plugins):
    from treehouse.testing import _Checker

    class Mute:
        __hash__ = None

        def describe(self):
            return ""

    game = Game(plugins.variant("classic")(), [Picks(), Picks()], random.Random(3))
    checker = _Checker(game.variant, 2, "test")
    checker.check_events(game, PASS, (Said("a Hit"),))
    with pytest.raises(AssertionError, match="must be immutable, hashable values"):
        checker.check_events(game, PASS, (Mute(),))
    with pytest.raises(AssertionError, match="not a tuple"):
        checker.check_events(game, PASS, [Said("a Hit")])
