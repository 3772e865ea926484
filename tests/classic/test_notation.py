"""The pinned trio notation, the 204 trios, and position/move notation."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from treehouse.errors import IllegalPositionError, NotationError
from treehouse.kernel.pieces import Direction, Pyramid, Size
from treehouse.variants.classic.actions import ACTIONS, results
from treehouse.variants.classic.game import ClassicMove, format_move, parse_move, parse_position, format_position
from treehouse.variants.classic.trio import HOUSE, TREE, all_trios, format_trio, mirror, parse_trio


def test_tree_and_house_notation():
    assert format_trio(TREE) == "L^/M^/S^"
    assert format_trio(HOUSE) == "L< S^ M>"
    assert HOUSE == ((Pyramid(Size.LARGE, Direction.LEFT),), (Pyramid(Size.SMALL),), (Pyramid(Size.MEDIUM, Direction.RIGHT),))


def test_input_may_omit_upright_and_use_lower_case_and_spaces():
    assert parse_trio("  l/m/s ") == TREE
    assert parse_trio("L<   S   M>") == HOUSE


def test_exactly_204_trios():
    trios = all_trios()
    assert len(trios) == 204 == len(set(trios))
    assert Counter(len(t) for t in trios) == {1: 6, 2: 36, 3: 162}


def test_every_trio_round_trips():
    for trio in all_trios():
        assert parse_trio(format_trio(trio)) == trio


def test_every_trio_is_reachable_from_the_tree():
    seen, frontier = {TREE}, [TREE]
    while frontier:
        trio = frontier.pop()
        for action in ACTIONS:
            for result, _ in results(trio, action):
                if result not in seen:
                    seen.add(result)
                    frontier.append(result)
    assert seen == set(all_trios())


@pytest.mark.parametrize(
    "text, words",
    [
        ("L^/M^/X^", "bad piece 'X^'"),
        ("L^/M^/S^^", "bad piece 'S^^'"),
        ("L^//S^", "bad stack 'L^//S^'"),
        ("", "empty trio"),
        ("L? S M", "bad piece 'L?'"),
    ],
)
def test_bad_notation_names_the_token(text, words):
    with pytest.raises(NotationError, match=re.escape(words)):
        parse_trio(text)


@pytest.mark.parametrize(
    "text, words",
    [
        ("L</M^/S^", "lying piece"),
        ("L^/M^ M^", "2 M pieces"),
        ("L^ M^", "no S"),
        ("L^ M^ S^ S^", "2 S pieces"),
    ],
)
def test_trios_that_break_a_rule(text, words):
    with pytest.raises(IllegalPositionError, match=words):
        parse_trio(text)


def test_mirror_reverses_the_line_and_flips_directions():
    assert format_trio(mirror(parse_trio("L< S^ M>"))) == "M< S^ L>"
    assert format_trio(mirror(parse_trio("L^/M^ S>"))) == "S< L^/M^"


def test_position_notation_round_trips():
    text = "L< S^ M> :: L^/M^/S^ | S^ L^/M^ :: 2"
    position = parse_position(text)
    assert position.to_move == 1
    assert format_position(position) == text


@pytest.mark.parametrize("text", ["L< S^ M> :: L^/M^/S^", "L< S^ M> :: L^/M^/S^ :: x", "L< S^ M> :: L^/M^/S^ :: 3"])
def test_bad_positions(text):
    with pytest.raises((NotationError, IllegalPositionError)):
        parse_position(text)


def test_move_notation_round_trips():
    for text in ("hop L^/M^ S^", "house:aim L< S^ M^"):
        assert format_move(parse_move(text)) == text
    move = ClassicMove("house", HOUSE, "SWAP", "swap")
    assert parse_move(format_move(move)) == move


def test_moves_are_equal_by_target_and_result():
    assert ClassicMove("own", TREE, "HOP") == ClassicMove("own", TREE, "SWAP")
    assert ClassicMove("own", TREE, "HOP") != ClassicMove("house", TREE, "HOP")
    with pytest.raises(AttributeError):
        ClassicMove("own", TREE).action = "TIP"


def test_bad_move_notation():
    with pytest.raises(NotationError):
        parse_move("trio:hop L^/M^/S^")
    with pytest.raises(LookupError, match="unknown action 'jump'"):
        parse_move("jump L^/M^/S^")
