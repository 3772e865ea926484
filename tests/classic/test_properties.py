"""Invariants over random classic games (hypothesis chooses seeds, rules and player counts)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from treehouse.kernel.engine import PASS, REROLL, Game
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.variants.classic.game import HOUSE_TARGET, ClassicRules
from treehouse.variants.classic.trio import check_trio, format_trio, parse_trio

rules = st.builds(
    ClassicRules,
    dig_in_place=st.booleans(),
    house_decline=st.sampled_from(["pass", "reroll"]),
    mirror_matches=st.booleans(),
)


class Invariants:
    """An observer that checks every step of a game."""

    def __init__(self, variant):
        self.variant = variant
        self.steps = 0

    def on_choice(self, game, mover, step, face, moves):
        assert len(set(moves)) == len(moves), "legal moves are distinct"

    def on_step(self, game, mover, step, move, before, after, events):
        self.steps += 1
        for trio in (after.house, *after.trios):
            check_trio(trio)  # one S, one M, one L; stacked pieces upright; 1-3 stacks
            assert sum(len(stack) for stack in trio) == 3
            assert parse_trio(format_trio(trio)) == trio
        assert self.variant.parse_position(self.variant.format_position(after)) == after
        if move is PASS:
            assert after == before
            return
        assert move is not REROLL
        acted_on = before.house if move.target == HOUSE_TARGET else before.trios[mover]
        assert move.result != acted_on, "a move never leaves its trio as it was"
        assert self.variant.parse_move(self.variant.format_move(move)) == move


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), rules=rules, players=st.integers(2, 4))
def test_random_games_keep_every_invariant_and_replay(classic_class, random_bot, plugins, seed, rules, players):
    variant = classic_class(rules)
    watcher = Invariants(variant)
    record = Record(meta={"seed": seed})
    game = Game(variant, [random_bot() for _ in range(players)], random.Random(seed), record=record, turn_cap=300, observer=watcher)
    game.play()
    assert watcher.steps >= 1
    again = replay(Record.loads(record.dumps()), plugins)
    assert again.state == game.state and again.outcome == game.outcome


class EverySeat:
    """Checks the playtest's one-call evaluation against the hook, seat by seat, at every step."""

    def __init__(self, variant):
        self.variant = variant

    def on_choice(self, game, mover, step, face, moves):
        pass

    def on_step(self, game, mover, step, move, before, after, events):
        players = len(after.trios)
        hooks = game.hooks
        assert "classic" in hooks.implementers("treehouse_evaluate_seats")  # the one call, not the kernel's seat by seat
        assert hooks.treehouse_evaluate_seats(after, players) == [hooks.treehouse_evaluate(after, seat) for seat in range(players)]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), rules=rules, players=st.integers(2, 4))
def test_evaluate_seats_is_the_hook_for_every_seat(plugins, seed, rules, players):
    variant = plugins.variant("classic")(rules)
    bot = plugins.bot("random").factory
    Game(variant, [bot() for _ in range(players)], random.Random(seed), turn_cap=300, observer=EverySeat(variant)).play()
