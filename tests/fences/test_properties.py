"""Property tests over random games with random seats and rule options.

After every step of every game: the 20 Fences are on the board (2 of each
size and colour); smalls in Stacks, destroyed and set aside total 10 (2 of
each colour); no square holds two pieces and each live Stack stands on one
Inside square (or, during the setup, has drawn nothing yet); positions and moves round-trip through the notation; every
legal move but PASS changes what it acts on (except the Dig of a Stack of
one colour, which the seed says is done and changes nothing); each Damaging
Hit takes one small, and under ``one_hit_per_piece`` no piece Hits a Stack
twice at one check (but a Swap with an Outside Fence, "in addition").  Every game ends (or hits the
turn cap) and its record replays to the same final position.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from treehouse.kernel.engine import PASS, Game
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.kernel.pieces import Pyramid, Size
from treehouse.variants.fences.board import INSIDE, SQUARES
from treehouse.variants.fences.hits import Cause, HitReport
from treehouse.variants.fences.moves import DIG
from treehouse.variants.fences.position import ALL_COLOURS, SETS

OPTION_SETS = [
    {},
    {"outside_attempts": True, "uniform_dig": "hit", "all_out_at_once": "tie"},  # the readings before the seed's defaults
    {"line_hits": "every_check"},
    {"draft": "distinct", "start": "random", "outside_attempts": False},
    {"uniform_dig": "reroll", "swap_outside_ignores_colour": False, "all_out_at_once": "draw"},
    {"turn_limit": 8, "turn_limit_scoring": "draw"},
    {"start": "corners"},
    {"start": "corners", "line_hits": "every_check", "draft": "distinct", "outside_attempts": True},
    {"draft": "distinct", "line_hits": "every_check"},
    {"sets": "rainbow-xeno"},
    {"sets": "rainbow-xeno", "start": "random", "uniform_dig": "hit"},
    {"swap_outside_considered_moved": False, "one_hit_per_piece": False},  # the readings before issue 22
    {"swap_outside_considered_moved": False, "line_hits": "every_check", "outside_attempts": True},
]


def check_position(variant, state):
    board = state.board
    each = SETS[variant.rules.sets]
    fences = Counter((c.size, c.colour) for c in board if isinstance(c, Pyramid))
    assert sum(fences.values()) == 20
    assert all(fences[size, colour] == each.get(colour, 0) for size in (Size.LARGE, Size.MEDIUM) for colour in ALL_COLOURS)
    smalls = Counter(c for s in state.stacks for c in s) + Counter(c for d in state.destroyed for c in d) + Counter(state.aside)
    assert sum(smalls.values()) == 10 and all(smalls[c] == each.get(c, 0) for c in ALL_COLOURS)
    assert all(board[s] is None for s in range(49) if s not in SQUARES)  # corners stay empty
    seats = [c for c in board if type(c) is int]
    unplaced = state.unplaced()
    if unplaced:  # the setup: the later seats have drawn nothing yet
        assert state.step_name == "place" and unplaced == tuple(range(unplaced[0], state.players))
    assert sorted(seats) == [i for i, s in enumerate(state.stacks) if s]  # one square per Stack
    for seat, stack in enumerate(state.stacks):
        if stack:
            assert state.square_of(seat) in INSIDE
            assert state.out[seat] == 0
        else:
            assert state.out[seat] > 0 or seat in unplaced
    assert variant.parse_position(variant.format_position(state)) == state


class Checker:
    """A game observer asserting the invariants at every choice and step."""

    def __init__(self, variant):
        self.variant = variant
        self.steps = 0

    def on_choice(self, game, mover, step, face, moves):
        variant = self.variant
        assert len(set(moves)) == len(moves)
        state = game.state
        sample = moves if len(moves) <= 60 else moves[:: max(1, len(moves) // 60)]
        for move in sample:
            if move is PASS:
                continue
            assert variant.parse_move(variant.format_move(move)) == move
            after = variant.treehouse_apply_move(state, step, move).state
            assert after != state
            # the board or a Stack changes, or the move makes a Hit (a bounce, a failed action),
            # or it is the Dig of a Stack of one colour (uniform_dig: noop: done, changing nothing)
            changed = after.board != state.board or after.stacks != state.stacks
            one_colour_dig = move.base() == DIG and len(set(state.stacks[state.to_move])) == 1
            assert changed or variant.hits(state, step, move) or one_colour_dig, variant.format_move(move)
            if one_colour_dig:
                assert variant.rules.uniform_dig == "noop"

    def on_step(self, game, mover, step, move, before, after, events):
        self.steps += 1
        check_position(self.variant, after)
        hits = [e.hit for e in events if isinstance(e, HitReport)]
        restored = getattr(move, "kind", None) == "dig" and move.arg is not None  # a destroyed small back under the Stack
        if not restored and not before.setting_up:
            lost = sum(len(b) - len(a) for b, a in zip(before.stacks, after.stacks))
            assert lost == sum(1 for e in events if isinstance(e, HitReport) and e.lost is not None)  # one small per Damaging Hit
        if self.variant.rules.one_hit_per_piece:  # one Hit per piece and Stack, but the Swap's, "in addition to any other"
            pieces = [(h.seat, h.source) for h in hits if h.source is not None and h.cause is not Cause.SWAP_OUTSIDE]
            assert len(pieces) == len(set(pieces))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), options=st.sampled_from(OPTION_SETS))
def test_random_games_keep_every_invariant_and_replay(plugins, seed, players, options):
    variant = plugins.variant("fences")(options)
    bot = plugins.bot("random").factory
    checker = Checker(variant)
    record = Record()
    game = Game(variant, [bot() for _ in range(players)], random.Random(seed), turn_cap=300, record=record, observer=checker)
    check_position(variant, game.state)
    outcome = game.play()
    assert checker.steps > 0
    assert outcome.reason == "turn cap" or outcome.winners or outcome.is_draw
    assert game.turn <= 300
    replayed = replay(Record.loads(record.dumps()), plugins)
    assert variant.format_position(replayed.state) == variant.format_position(game.state)
    assert replayed.outcome == outcome


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
@pytest.mark.parametrize("start", ["corners", "random", "chosen"])
@pytest.mark.parametrize("sets", ["two-rainbow", "rainbow-xeno"])
def test_setup_positions_are_legal_and_round_trip(plugins, seed, players, start, sets):
    variant = plugins.variant("fences")({"start": start, "sets": sets})
    state = variant.treehouse_setup(variant, players, random.Random(seed))
    check_position(variant, state)
