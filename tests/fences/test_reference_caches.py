"""The reference rules' shortcuts answer as the plain statements of their rules do.

The reference tier keeps a few answers in value-keyed caches of pure
functions (``functools.lru_cache``: the lines of a board and their Hits, a
placed Stack's value) and skips work that cannot change an answer (where
every Hit stands, a threat is harmless exactly when its Fence has the top
colour, so no Hit need be made).  Each is checked here against the general
statement it shortcuts, at every position and move of a few random games,
floats bit for bit.
"""

from __future__ import annotations

import random

import pytest

from seats import Recording
from treehouse.bots.random_bot import RandomBot
from treehouse.kernel.engine import Game
from treehouse.variants.fences.evaluate import _placed_value, _seat_value, _valued
from treehouse.variants.fences.hits import Cause, Hit, fence_source
from treehouse.variants.fences.position import ALL_COLOURS
from treehouse.variants.fences.rules import line_hits, lines


def positions(variant, players: int, seeds=range(2)):
    seen: list = []
    for seed in seeds:
        Game(variant, [Recording(RandomBot(), seen) for _ in range(players)], random.Random(seed), turn_cap=40).play()
    return [(state, step, moves) for state, step, _face, moves in seen]


def plain_line_hits(before, after, moved, every_check):
    """line_hits as the rule reads: every line after Hits if it is new, or its Stack was considered moved."""
    old = lines(before)
    hits = []
    for line in lines(after):
        source = fence_source(line.fence, line.fence_square)
        if every_check or line not in old:
            hits.append(Hit(line.seat, Cause.POINTED_AT, source))
        elif line.seat in moved:
            hits.append(Hit(line.seat, Cause.BOUNCED, source))
    return hits


@pytest.mark.parametrize("players", [2, 3])
def test_a_placed_stacks_value_where_every_hit_stands_is_the_judged_sum(fences_class, players):
    variant = fences_class(fences_class.Rules(start="corners"))
    checked = 0
    for state, _step, _moves in positions(variant, players):
        for seat in state.live():
            square = state.square_of(seat)
            for top in ALL_COLOURS[:5]:  # every top colour a WILD reorder might put there
                for smalls in (1, 4):
                    expected = _valued(state.board, square, seat, top, smalls, None).hex()
                    assert _placed_value(state.board, square, top, smalls).hex() == expected
                    assert _seat_value(state.board, seat, top, smalls).hex() == expected
                    assert _valued(state.board, square, seat, top, smalls, lambda hits: hits).hex() == expected
                    checked += 1
    assert checked > 500


@pytest.mark.parametrize("every_check", [False, True])
def test_line_hits_of_every_move_are_the_rules_plain_reading(fences_class, every_check):
    variant = fences_class(fences_class.Rules(start="corners"))
    checked = 0
    for state, step, moves in positions(variant, 2):
        for move in moves:
            if not hasattr(move, "kind"):
                continue  # PASS: no move to perform
            applied = variant.treehouse_apply_move(state, step, move)
            after, effect = applied.state, applied.effect
            for moved in (effect.bounced, frozenset(), frozenset(state.live())):
                assert line_hits(state, after, moved, every_check) == plain_line_hits(state, after, moved, every_check)
                checked += 1
    assert checked > 1000
