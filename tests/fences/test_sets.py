"""Option ``sets``: which two Treehouse sets the game is played with.

The seed needs "all 10 large and 10 medium pieces (Fences)" and "the pool of
10 small pieces": two Treehouse sets.  Two of one colour scheme give two of
each of five colours (the default, ``two-rainbow``); a Rainbow set with a Xeno
set gives ten colours, one of each (``rainbow-xeno``).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from treehouse.errors import IllegalPositionError
from treehouse.kernel.engine import Game
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.variants.fences.position import ALL_COLOURS, COLOURS, XENO, Pyramid


@pytest.fixture
def xeno(fences_class):
    return fences_class({"sets": "rainbow-xeno"})


def pieces_of(state):
    fences = Counter((c.size.value, c.colour) for c in state.board if isinstance(c, Pyramid))
    smalls = Counter(c for s in state.stacks for c in s) + Counter(state.aside) + Counter(c for d in state.destroyed for c in d)
    return fences, smalls


@pytest.mark.parametrize("start", ["chosen", "corners"])
def test_two_sets_of_one_scheme_give_two_of_each_of_five_colours(fences_class, start):
    variant = fences_class({"start": start})
    fences, smalls = pieces_of(variant.treehouse_setup(variant, 2, random.Random(1)))
    assert fences == Counter({(size, c): 2 for size in "LM" for c in COLOURS})
    assert smalls == Counter({c: 2 for c in COLOURS})


@pytest.mark.parametrize("start", ["chosen", "corners"])
def test_a_rainbow_and_a_xeno_set_give_ten_colours_one_of_each(fences_class, start):
    variant = fences_class({"sets": "rainbow-xeno", "start": start})
    state = variant.treehouse_setup(variant, 3, random.Random(1))
    fences, smalls = pieces_of(state)
    assert fences == Counter({(size, c): 1 for size in "LM" for c in ALL_COLOURS})
    assert smalls == Counter({c: 1 for c in ALL_COLOURS})
    assert variant.parse_position(variant.format_position(state)) == state


def test_a_position_must_match_the_sets_of_its_rules(fences, xeno):
    state = xeno.treehouse_setup(xeno, 2, random.Random(2))
    text = xeno.format_position(state)
    with pytest.raises(IllegalPositionError, match="sets: rainbow-xeno, but these rules play with sets: two-rainbow"):
        fences.parse_position(text)
    start = fences.format_position(fences.treehouse_setup(fences, 2, random.Random(2)))
    with pytest.raises(IllegalPositionError, match="sets: two-rainbow, but these rules play with sets: rainbow-xeno"):
        xeno.parse_position(start)


def test_mixed_counts_are_refused_in_one_line(xeno):
    text = xeno.format_position(xeno.treehouse_setup(xeno, 2, random.Random(2)))
    board, rest = text.split(" ", 1)
    first_xeno = next(letter for letter in "cpwkt" if f"L{letter}*" in board)
    broken = board.replace(f"L{first_xeno}*", "Lr*", 1) + " " + rest
    with pytest.raises(IllegalPositionError) as error:
        xeno.parse_position(broken)
    assert "exactly 1" in str(error.value) and "\n" not in str(error.value)


def test_with_ten_colours_a_stack_is_never_immune_to_another_stack(xeno):
    """Colour immunity depends on the sets: only repeated colours let two tops match."""
    game = Game(xeno, [_First() for _ in range(4)], random.Random(5))
    game.play_turn()
    tops = [s[-1] for s in game.state.stacks]
    assert len(set(tops)) == 4  # no two Stacks can share a top colour


class _First:
    name = "first"

    def choose(self, state, step, face, moves, rng):
        return moves[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_with_a_rainbow_and_a_xeno_set_play_and_replay(plugins, xeno, players):
    bot = plugins.bot("random").factory
    record = Record()
    game = Game(xeno, [bot() for _ in range(players)], random.Random(players), record=record, turn_cap=300)
    game.play()
    again = replay(Record.loads(record.dumps()), plugins)
    assert again.state == game.state and again.outcome == game.outcome
    assert any(c in XENO for c in game.state.aside + sum(game.state.stacks, ()) + sum(game.state.destroyed, ()))


def test_moves_name_xeno_colours_by_letter(xeno):
    move = xeno.parse_move("wild:ct dig")
    assert move.order == ("cyan", "clear") and xeno.format_move(move) == "wild:ct dig"
    assert xeno.format_move(xeno.parse_move("place k c3")) == "place k c3"
    assert xeno.describe_move(xeno.parse_move("draw p")) == "put the purple small drawn on top of the stack"
