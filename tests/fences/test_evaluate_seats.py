"""evaluate_seats (the playtest's lead tracking) equals evaluate seat by seat, float for float."""

from __future__ import annotations

import random

import pytest

from treehouse.bots.random_bot import RandomBot
from treehouse.kernel.engine import Game
from treehouse.plugins import game_hooks
from treehouse.variants.fences.evaluate import evaluate, evaluate_seats


class Watching(RandomBot):
    def __init__(self, seen):
        super().__init__()
        self.seen = seen

    def choose(self, state, step, face, moves, rng):
        self.seen.append(state)
        return super().choose(state, step, face, moves, rng)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_of_random_games_setup_included(plugins, players):
    cls = plugins.variant("fences")
    variant = game_hooks(cls(cls.Rules())).variant
    seen = []
    for seed in range(3):
        Game(variant, [Watching(seen) for _ in range(players)], random.Random(seed), turn_cap=60).play()
    assert any(state.setting_up for state in seen) and any(not state.live()[1:] or len(state.live()) < players for state in seen)
    for state in seen:
        expected = [evaluate(state, seat).hex() for seat in range(players)]
        assert [value.hex() for value in evaluate_seats(state)] == expected
        assert [value.hex() for value in variant.treehouse_evaluate_seats(state, players)] == expected
