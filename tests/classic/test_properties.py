"""Invariants over random classic games (hypothesis chooses seeds, rules and player counts)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from treehouse.kernel.engine import PASS, REROLL, Game
from treehouse.kernel.hooks import game_hooks
from treehouse.kernel.pieces import Pyramid
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.kernel.turn import ONE_ROLLED_STEP
from treehouse.variants.classic.game import HOUSE_TARGET, ClassicPosition, ClassicRules
from treehouse.variants.classic.trio import all_trios, check_trio, format_trio, parse_trio, trio_rank

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


def _rebuilt(trio):
    """The same trio as new objects, piece by piece: equal, never identical."""
    return tuple(tuple(Pyramid(piece.size, piece.direction, piece.colour) for piece in stack) for stack in trio)


@settings(max_examples=60, deadline=None)
@given(house=st.sampled_from(all_trios()), table=st.lists(st.sampled_from(all_trios()), min_size=2, max_size=4), rules=rules, face=st.sampled_from(["TIP", "SWAP", "HOP", "DIG", "AIM", "WILD"]))
def test_a_position_of_equal_new_trios_plays_as_the_same_position(plugins, house, table, rules, face):
    """The rules know trios by their value alone: a position whose trios are
    new objects (a record read back, a plugin's own) has the same rank, legal
    moves, evaluation and looks as the one it equals."""
    hooks = game_hooks(plugins.variant("classic")(rules))
    state = ClassicPosition(house, tuple(table), 0)
    twin = ClassicPosition(_rebuilt(house), tuple(map(_rebuilt, table)), 0)
    assert twin == state and twin.house is not state.house
    assert [trio_rank(trio) for trio in (twin.house, *twin.trios)] == [trio_rank(trio) for trio in (state.house, *state.trios)]
    moves = hooks.treehouse_legal_moves(state, ONE_ROLLED_STEP[0], face)
    assert hooks.treehouse_legal_moves(twin, ONE_ROLLED_STEP[0], face) == moves
    for seat in range(len(table)):
        assert hooks.treehouse_evaluate(twin, seat) == hooks.treehouse_evaluate(state, seat)
        board = [move for move in moves if move not in (PASS, REROLL)]
        if board:
            assert hooks.treehouse_look_moves(twin, ONE_ROLLED_STEP[0], face, board, seat) == hooks.treehouse_look_moves(state, ONE_ROLLED_STEP[0], face, board, seat)
