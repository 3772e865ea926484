"""Hints in words a person understands: never a raw internal score, always what to type now."""

from __future__ import annotations

import pytest

from treehouse.bots.lookahead import LOSS, WIN
from treehouse.cli.advice import Hint, compared_words, hint_lines, standing_words
from treehouse.cli.session import Session

SMALLS = ("small", 10.0)


@pytest.mark.parametrize(
    "value, unit, words",
    [
        (WIN + 3, SMALLS, "a sure win"),
        (LOSS - 3, SMALLS, "a sure loss"),
        (0.0, SMALLS, "about even"),
        (2.4, SMALLS, "about even"),
        (10.0, SMALLS, "about 1 small ahead"),
        (-15.2, SMALLS, "about 1.5 smalls behind"),
        (31.0, SMALLS, "about 3 smalls ahead"),
        (3.0, ("action", 1.0), "about 3 actions ahead"),
        (12.5, None, ""),
        (-WIN / 3, SMALLS, "loses the game on about 33% of the rolls"),
    ],
)
def test_where_a_value_leaves_the_player(value, unit, words):
    assert standing_words(value, unit) == words


@pytest.mark.parametrize(
    "value, best, unit, words",
    [
        (5.0, 5.0, SMALLS, "as good"),
        (1.0, 5.0, SMALLS, "close"),
        (-5.0, 5.0, SMALLS, "loses about 1 small"),
        (-20.0, 5.0, SMALLS, "loses about 2.5 smalls"),
        (LOSS, 5.0, SMALLS, "loses the game"),
        (WIN, WIN, SMALLS, "also wins"),
        (4.999, 5.0, None, "close"),
        (-3.0, 5.0, None, "worse"),
        (LOSS / 2, 5.0, SMALLS, "loses the game on about 50% of the rolls"),
        (5.0, WIN / 4, SMALLS, "gives up the chance to win"),
    ],
)
def test_how_a_move_compares_with_the_best(value, best, unit, words):
    assert compared_words(value, best, unit) == words


def test_a_search_hint_has_no_raw_score():
    moves = ("a", "b", "c")
    hint = Hint("search", "b", [-333333335.5, 2.0, -500000001.0], "search value")
    lines = hint_lines(hint, moves, lambda move, short=False: {"a": "1", "b": "2", "c": "3"}[move] + ("" if short else f" ({move})"), SMALLS)
    assert lines == ["Hint (search): 2 (b), about even.", "Next best: 1 loses the game on about 33% of the rolls, 3 loses the game on about 50% of the rolls."]


def test_the_variants_reason_follows_the_choice():
    moves = ("a", "b")
    label = lambda move, short=False: {"a": "1", "b": "2"}[move] + ("" if short else f" ({move})")  # noqa: E731
    hint = Hint("search", "a", [12.0, 2.0], "search value")
    lines = hint_lines(hint, moves, label, SMALLS, reason="leaves the line of M(red) at a2")
    assert lines == ["Hint (search): 1 (a), about 1 small ahead. Why: leaves the line of M(red) at a2.", "Next best: 2 loses about 1 small."]
    assert hint_lines(Hint("random", "b", None, ""), moves, label, reason="") == ["Hint (random): 2 (b)."]  # no reason: no Why


def test_the_number_to_type_names_the_page_and_the_second_question():
    """What the hint says to type: the entry's number, its page when that is
    not the one on screen, the second answer of a split move, and ``b`` first
    from the second question."""
    from types import SimpleNamespace

    from treehouse.cli.layout import Page
    from treehouse.cli.menu import Entry

    first = [Entry("one", "1", ["m1"]), Entry("two", "2", ["m2"]), Entry("wild", "2 ways", ["w1", "w2"]), Entry("four", "4", ["m4"])]
    menu = SimpleNamespace(first=first, entries=first, page=0, second_question=False)
    typed = Session._typed(menu, [Page(0, 2, 1), Page(2, 2, 1)])
    assert typed == {"m1": "1", "m2": "2", "w1": "3 (page 2) then 1", "w2": "3 (page 2) then 2", "m4": "4 (page 2)"}
    menu.page = 1
    assert Session._typed(menu, [Page(0, 2, 1), Page(2, 2, 1)])["m1"] == "1 (page 1)"
    orders = [Entry("first order", "w1", ["w1"]), Entry("second order", "w2", ["w2"])]
    menu = SimpleNamespace(first=first, entries=orders, page=0, second_question=True)
    typed = Session._typed(menu, [Page(0, 2, 1)])
    assert typed == {"w1": "1", "w2": "2", "m1": "b, then 1", "m2": "b, then 2", "m4": "b, then 4"}
