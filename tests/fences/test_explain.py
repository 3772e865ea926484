"""explain.py names a rule for every move the move lists leave out.

The rules are written once, in rules.py: each condition a move must meet is
a ``*_breaks`` function that the move lists filter by and explain.py asks
about a typed move.  So a rule changed in rules.py changes both at once;
these tests fail where a move list leaves a move out for a reason explain.py
cannot name (a condition written into a list but not as a ``*_breaks``
function), or where a rule has no words.
"""

from __future__ import annotations

import random

import pytest

from seats import Recording
from treehouse.bots.random_bot import RandomBot
from treehouse.kernel.engine import Game
from treehouse.kernel.pieces import Direction
from treehouse.variants.fences.board import COMPASS, NEIGHBOUR
from treehouse.variants.fences.explain import ACTION_OF, WORDS, why_illegal
from treehouse.variants.fences.game import STEPS
from treehouse.variants.fences.moves import DIG, FencesMove, piece_key
from treehouse.variants.fences.position import ALL_COLOURS
from treehouse.variants.fences.rules import Broken, is_fence

FENCE, ACT, STACK = STEPS
FACES = ("TIP", "SWAP", "HOP", "DIG", "AIM", "WILD")


def test_every_rule_a_move_can_break_has_words():
    worded = {broken for _kind, broken in WORDS}
    assert worded == set(Broken), set(Broken) - worded


def candidates(state, step) -> list[FencesMove]:
    """Every well-formed move of the step's kinds on this board, legal or not."""
    if step is FENCE:
        return [
            FencesMove("move", piece_key(cell), f, NEIGHBOUR[f][d])
            for f, cell in enumerate(state.board)
            if is_fence(cell)
            for d in COMPASS
            if NEIGHBOUR[f][d] is not None
        ]
    if step is STACK:
        return [FencesMove("step", arg=d) for d in COMPASS]
    moves = [DIG, *(FencesMove("dig", arg=colour) for colour in ALL_COLOURS)]
    for f, cell in enumerate(state.board):
        if is_fence(cell):
            key = piece_key(cell)
            moves += [FencesMove("swap", key, f), FencesMove("hop", key, f), FencesMove("hopfence", key, f)]
            moves += [FencesMove("tip", key, f, d) for d in COMPASS]
            moves += [FencesMove("aim", arg=((key, f, d),)) for d in (Direction.UP, *COMPASS)]
    return moves


@pytest.mark.parametrize(
    "options", [{}, {"uniform_dig": "hit", "outside_attempts": True}, {"uniform_dig": "reroll", "start": "corners"}], ids=["seed", "hit", "reroll"]
)
@pytest.mark.parametrize("players", [2, 3])
def test_every_move_the_lists_leave_out_is_explained(fences_class, options, players):
    variant = fences_class(fences_class.Rules(**options))
    hooks = variant.hooks
    seen: list = []
    for seed in range(2):
        Game(variant, [Recording(RandomBot(), seen) for _ in range(players)], random.Random(seed), turn_cap=30).play()
    explained = 0
    for state, step, _face, _moves in seen[::2]:
        if step.setup:
            continue
        for face in FACES if step.rolls else (None,):
            legal = hooks.treehouse_legal_moves(state, step, face)
            if not legal:
                continue  # nothing to do: the face is rolled again, and nobody is asked
            for move in candidates(state, step):
                if step is ACT and face == "WILD":
                    move = move.reordered(state.stacks[state.to_move])
                elif step is ACT and ACTION_OF[move.kind] != face:
                    continue  # the wrong action for the roll: explained by the roll, not by a rule
                if move in legal:
                    continue
                said = why_illegal(state, step, face, move, legal, variant.rules)
                assert said, (variant.format_position(state), step.name, face, variant.format_move(move))
                assert "\n" not in said
                explained += 1
    assert explained > 400
