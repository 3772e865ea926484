"""The search's cut-offs choose as the full search does, for fixed seeds (issue 12).

:meth:`SearchBot.choose` searches with a cut-off (alpha): a move that cannot
be among the best may get a number below the best instead of its value.
:meth:`SearchBot.advise` (the hints) searches every move in full.  The best
moves and their value must be the same, so the choice is.
"""

from __future__ import annotations

import random

import pytest

from treehouse.bots.greedy import GreedyBot
from treehouse.bots.lookahead import REROLL
from treehouse.bots.search import SearchBot
from treehouse.kernel.engine import Game

BENCH = {"stack_height_2p": 4, "start": "corners", "outside_attempts": True, "uniform_dig": "hit", "all_out_at_once": "tie"}


@pytest.fixture(scope="module")
def fences_class(plugins):
    return plugins.variant("fences")


class Recorder(GreedyBot):
    def __init__(self, seen):
        super().__init__()
        self.seen = seen

    def choose(self, state, step, face, moves, rng):
        self.seen.append((state, step, face, moves))
        return super().choose(state, step, face, moves, rng)


class FullSearch(SearchBot):
    """The search without cut-offs: it chooses from :meth:`advise`'s values."""

    def choose(self, state, step, face, moves, rng):
        if len(moves) == 1:
            return moves[0]
        scores = self.advise(state, step, face, moves)
        top = max(scores)
        best = [m for m, s in zip(moves, scores) if s == top]
        return best[0] if len(best) == 1 else best[int(rng.random() * len(best))]


@pytest.mark.parametrize("players, options", [(2, BENCH), (3, {}), (2, {"line_hits": "every_check", "start": "chosen"})])
def test_cut_off_values_keep_the_best_moves_and_their_value(fences_class, players, options):
    variant = fences_class(fences_class.Rules(**options))
    seen: list = []
    game = Game(variant, [Recorder(seen) for _ in range(players)], random.Random(5), turn_cap=40)
    game.play()
    bot = SearchBot()
    bot.seated(game, 0)
    checked = 0
    for state, step, face, moves in seen[::2]:
        if len(moves) < 2:
            continue
        bot.seated(game, state.to_move)
        full = bot.advise(state, step, face, moves)
        cut = bot._values(state, step, face, moves, prune=True)
        top = max(full)
        assert max(cut) == top
        assert [s == top for s in cut] == [s == top for s in full]
        assert all(c == f or (c < top and f < top) for c, f in zip(cut, full))
        checked += 1
    assert checked >= 10


def moves_of(game_seats, variant, seed):
    record = []

    class Watch:
        def on_choice(self, *args):
            pass

        def on_step(self, game, mover, step, move, before, after, events):
            record.append((mover, step.name, move))

    game = Game(variant, game_seats, random.Random(seed), turn_cap=30, observer=Watch())
    game.play()
    return record


@pytest.mark.parametrize("seed", [1, 2])
def test_games_with_cut_offs_are_the_games_without(fences_class, seed):
    variant = fences_class(fences_class.Rules(**BENCH))
    fast = moves_of([GreedyBot(), SearchBot()], variant, seed)
    plain = moves_of([GreedyBot(), FullSearch()], variant, seed)
    assert fast == plain and len(fast) > 20


def test_the_reference_tier_looks_at_an_opponents_last_face_only_until_the_cut(fences_class, monkeypatch):
    """Without a look at every face in one call (the reference rules), an
    opponent's last searched step looks at its last face's moves one by one
    and stops at the cut: the same values, bounds included, as looking at
    every move first, with fewer moves played."""
    from treehouse.kernel.fast import compiled

    monkeypatch.setenv(compiled.COMPILED_ENV, "0")
    compiled.reset_for_tests()
    try:
        variant = fences_class(fences_class.Rules(**BENCH))
        seen: list = []
        game = Game(variant, [Recorder(seen) for _ in range(2)], random.Random(5), turn_cap=30)
        game.play()
        lazy, eager = SearchBot(), SearchBot()
        lazy_nodes = eager_nodes = checked = 0
        for state, step, face, moves in seen:
            if len(moves) < 2 or step.name != "stack":
                continue  # the search looks past its turn (to the opponent's rolled step) from the Stack's step
            lazy.seated(game, state.to_move)
            eager.seated(game, state.to_move)
            model = eager.model
            model.look_all_at_once = lambda state, step, faces, seat, model=model: everything_looked(model, state, step, faces, seat)
            assert lazy._values(state, step, face, moves, prune=True) == eager._values(state, step, face, moves, prune=True)
            lazy_nodes += lazy.last_nodes
            eager_nodes += eager.last_nodes
            checked += 1
        assert checked >= 10 and lazy_nodes < eager_nodes
    finally:
        compiled.reset_for_tests()


def everything_looked(model, state, step, faces, seat):
    """Every legal move of every face looked at, as a variant's one call would (the count bar rerolls)."""
    answers, played = [], 0
    for face in faces:
        moves = model.hooks.treehouse_legal_moves(state, step, face)
        answers.append(model.look(state, step, face, moves, seat) if moves else [])
        played += sum(1 for move in moves if move is not REROLL)
    return answers, played
