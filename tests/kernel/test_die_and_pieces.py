from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from treehouse.errors import UnknownNameError
from treehouse.kernel.die import TREEHOUSE_DIE, Die
from treehouse.kernel.pieces import Direction, Pyramid, Size, is_upright_stack, stands


def test_treehouse_die_is_a_fair_six_face_chance_node():
    outcomes = TREEHOUSE_DIE.outcomes()
    assert [face for face, _ in outcomes] == ["TIP", "SWAP", "HOP", "DIG", "AIM", "WILD"]
    assert all(p == Fraction(1, 6) for _, p in outcomes)


def test_weighted_die_probabilities_sum_to_one():
    die = Die("loaded", ("A", "B"), (1, 3))
    assert dict(die.outcomes()) == {"A": Fraction(1, 4), "B": Fraction(3, 4)}


def test_rolls_come_only_from_the_rng_passed_in():
    first = [TREEHOUSE_DIE.roll(random.Random(7)) for _ in range(3)]
    again = [TREEHOUSE_DIE.roll(random.Random(7)) for _ in range(3)]
    assert first == again
    rng = random.Random(1)
    counts = Counter(TREEHOUSE_DIE.roll(rng) for _ in range(6000))
    assert set(counts) == set(TREEHOUSE_DIE.faces)
    assert all(800 < n < 1200 for n in counts.values())  # each face ~1000; 6 sigma is ~170


def test_weighted_rolls_follow_the_weights():
    rng = random.Random(2)
    counts = Counter(Die("loaded", ("A", "B"), (1, 3)).roll(rng) for _ in range(4000))
    assert 850 < counts["A"] < 1150


def test_face_lookup_is_case_insensitive_and_lists_faces():
    assert TREEHOUSE_DIE.face("hop") == "HOP"
    with pytest.raises(UnknownNameError, match="unknown action 'jump'; known: aim, dig, hop, swap, tip, wild"):
        TREEHOUSE_DIE.face("jump")


def test_bad_dice():
    with pytest.raises(ValueError):
        Die("empty", ())
    with pytest.raises(ValueError):
        Die("odd", ("A",), (1, 2))


def test_directions_on_a_line_are_compass_directions():
    assert Direction.LEFT is Direction.WEST and Direction.RIGHT is Direction.EAST
    assert Direction.NORTH.opposite is Direction.SOUTH and Direction.LEFT.opposite is Direction.RIGHT


def test_pyramids_are_immutable_values():
    small = Pyramid(Size.SMALL, Direction.LEFT, "red")
    assert small.pointing(Direction.UP) == Pyramid(Size.SMALL, Direction.UP, "red")
    assert hash(small) == hash(Pyramid(Size.SMALL, Direction.LEFT, "red"))
    with pytest.raises(AttributeError):
        small.size = Size.LARGE
    assert Size.LARGE.pips == 3


def test_stacks_stand_up():
    stack = (Pyramid(Size.LARGE, Direction.LEFT),)
    assert not is_upright_stack(stack)
    assert is_upright_stack(stands(stack))
