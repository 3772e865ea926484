"""The kernel's setup phase, driven through a small test variant.

``Bid`` has a setup in which every seat, in turn, picks a number from 1 to 3
(a setup step without a roll), then one rolled turn each; the highest pick
wins.  The setup steps are played before turn 1, recorded as turn 0, seen by
the observer, replayed from a record and resumed from a record that stops in
the middle of the setup, like any move.  (Fences' setup, with its blind draws
as chance nodes, is tested in tests/fences/test_setup.py.)
"""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest

from treehouse.errors import PluginError, RecordError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.engine import Game, Step
from treehouse.kernel.records import Notation, Record
from treehouse.kernel.replay import replay
from treehouse.kernel.resume import finish_catch_up, resume_game, saved_game, walk
from treehouse.kernel.variant import Variant
from treehouse.plugins import game_hooks

PICK = Step("pick", rolls=False, setup=True)


class BidPosition(NamedTuple):
    picks: tuple  # per seat: the number picked, 0 before the pick
    to_move: int = 0
    turns: int = 0


class Bid(Variant):
    name = "bid"
    description = "Each seat picks 1-3 at setup; after a round of turns the highest pick wins."

    def format_position(self, state):
        return f"{''.join(map(str, state.picks))} {state.to_move + 1} {state.turns}"

    def parse_position(self, text):
        picks, seat, turns = text.split()
        return BidPosition(tuple(int(c) for c in picks), int(seat) - 1, int(turns))

    def format_move(self, move):
        return f"pick {move}" if isinstance(move, int) else move

    def parse_move(self, text):
        word, _, number = text.partition(" ")
        return int(number) if word == "pick" else text

    @hookimpl
    def treehouse_setup(self, variant, players, rng):
        return BidPosition((0,) * players)

    @hookimpl
    def treehouse_setup_step(self, state):
        return PICK if 0 in state.picks else None

    @hookimpl
    def treehouse_legal_moves(self, state, step, face):
        if step.setup:
            return (1, 2, 3)
        return ("tap",)

    @hookimpl
    def treehouse_apply_move(self, state, step, move):
        if step.setup:
            picks = list(state.picks)
            picks[state.to_move] = move
            return state._replace(picks=tuple(picks), to_move=(state.to_move + 1) % len(picks))
        return state._replace(turns=state.turns + 1)

    @hookimpl
    def treehouse_outcome(self, state, mover):
        if state.turns < len(state.picks):
            return None
        best = max(state.picks)
        return _outcome(tuple(i for i, p in enumerate(state.picks) if p == best))

    @hookimpl
    def treehouse_end_turn(self, state):
        return state._replace(to_move=(state.to_move + 1) % len(state.picks))


def _outcome(winners):
    from treehouse.kernel.engine import Outcome

    return Outcome(winners, "highest pick")


class Plugins:
    """The two look-ups replay and resume make, for the test variant only."""

    def variant(self, name):
        assert name == "bid"
        return Bid

    def house_rule(self, name, variant):  # pragma: no cover - the test records name none
        raise AssertionError(name)


class Picker:
    """A seat picking from a seeded stream; it counts what it was asked."""

    name = "picker"

    def __init__(self):
        self.asked = []

    def choose(self, state, step, face, moves, rng):
        self.asked.append(step.name)
        return moves[int(rng.random() * len(moves))]


class Steps:
    def __init__(self):
        self.seen = []

    def on_choice(self, game, mover, step, face, moves):
        pass

    def on_step(self, game, mover, step, move, before, after, events):
        self.seen.append((game.turn, mover, step.name, move, game.setting_up))


def new_game(players, seed=1, record=None, observer=None):
    variant = Bid()
    return Game(variant, [Picker() for _ in range(players)], random.Random(seed), record=record, observer=observer)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_setup_steps_come_before_turn_1_in_seat_order_as_turn_0(players):
    steps = Steps()
    record = Record(meta={"seed": 1, "seats": ["picker"] * players})
    game = new_game(players, record=record, observer=steps)
    assert game.setting_up and game.turn == 0
    assert game.play_turn() is None  # the first call plays the whole setup, and no turn
    assert not game.setting_up and game.turn == 0
    assert [s[:3] for s in steps.seen] == [(0, seat, "pick") for seat in range(players)]
    assert all(s[4] for s in steps.seen)  # the observer sees them while the game is setting up
    assert all(p in (1, 2, 3) for p in game.state.picks)
    assert [e[:4] for e in record.events] == [("move", 0, seat, "pick") for seat in range(players)]
    outcome = game.play()
    assert game.turn == players and outcome.reason == "highest pick"
    assert [seat.asked for seat in game.seats] == [["pick", "act"]] * players


def test_a_variant_without_setup_steps_has_no_setup_phase(classic):
    game = Game(classic, [Picker(), Picker()], random.Random(1))
    assert not game.setting_up
    game.play_turn()
    assert game.turn == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_setup_is_recorded_and_replayed_like_any_move(players):
    record = Record(meta={"seed": 4, "seats": ["picker"] * players})
    game = new_game(players, seed=4, record=record)
    game.play()
    again = replay(Record.loads(record.dumps()), Plugins())
    assert again.state == game.state and again.outcome == game.outcome
    walked = walk(Record.loads(record.dumps()), Plugins())
    assert [(f.turn, f.step, f.notation) for f in walked.frames[:players]] == [
        (0, "pick", f"pick {p}") for p in game.state.picks
    ]


def test_an_edited_setup_move_is_refused_on_replay():
    record = Record(meta={"seed": 4, "seats": ["picker"] * 2})
    new_game(2, seed=4, record=record).play()
    text = record.dumps().replace('"move":"pick ', '"move":"pick 9', 1)
    with pytest.raises(RecordError, match="is not legal there"):
        replay(Record.loads(text), Plugins())


@pytest.mark.parametrize("players, stop", [(2, 1), (3, 1), (3, 2), (4, 3)])
def test_a_game_saved_in_the_middle_of_the_setup_resumes_exactly(players, stop):
    whole = Record(meta={"seed": 9, "seats": ["picker"] * players})
    new_game(players, seed=9, record=whole).play()
    part = Record.loads(whole.dumps())
    part.events = part.events[:stop]  # saved after ``stop`` setup choices
    part.footer = None
    saved = saved_game(part, Plugins())
    again = Record(meta=dict(part.meta))
    game, check = resume_game(part, saved, [Picker() for _ in range(players)], new_record=again)
    assert game.setting_up
    finish_catch_up(game, check)
    assert not check.pending
    game.play()
    assert Record.loads(again.dumps()).events == Record.loads(whole.dumps()).events


def test_a_resumed_setup_that_differs_from_the_record_names_the_difference():
    whole = Record(meta={"seed": 9, "seats": ["picker"] * 2})
    new_game(2, seed=9, record=whole).play()
    part = Record.loads(whole.dumps())
    first = part.events[0]
    other = 2 if first[4] == "pick 1" else 1
    part.events = [first[:4] + (Notation(f"pick {other}"),)]  # not what the seat's seeded stream picks
    part.footer = None
    game, check = resume_game(part, saved_game(part, Plugins()), [Picker(), Picker()])
    with pytest.raises(RecordError, match="where the record has"):
        finish_catch_up(game, check)


class Stuck(Bid):
    """A broken setup: its step offers nothing, or changes nothing."""

    @hookimpl
    def treehouse_legal_moves(self, state, step, face):
        return () if step.setup else ("tap",)


class Idle(Bid):
    @hookimpl
    def treehouse_apply_move(self, state, step, move):
        return state


@pytest.mark.parametrize("variant, fault", [(Stuck, "offers seat 1 no move"), (Idle, "left the position unchanged")])
def test_a_broken_setup_is_named_in_one_line(variant, fault):
    game = Game(variant(), [Picker(), Picker()], random.Random(1), hooks=game_hooks(variant()))
    with pytest.raises(PluginError, match=fault):
        game.play_turn()
