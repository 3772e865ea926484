"""Each stronger bot beats the weaker one over a seeded match, by a margin luck cannot explain.

Every match is seeded (so the test is deterministic) and pairs its games:
the same seed is played twice with the seats swapped.  A bot "beats" another
when the lower end of the one-sided 99.9% Wilson interval of its score
(wins, plus half of any draw) is above 1/2: a fair coin passes that less
than once in a thousand seeds.

The classic rungs above greedy need many games (search and perfect are close
in a dice race: see docs/bots.md); they run with TREEHOUSE_SLOW_TESTS=1.
"""

from __future__ import annotations

import os

import pytest

from treehouse.bots.match import play_match, wilson
from treehouse.bots.options import make_bot

Z_999 = 3.09  # one-sided 99.9%
slow = pytest.mark.skipif(not os.environ.get("TREEHOUSE_SLOW_TESTS"), reason="long match: set TREEHOUSE_SLOW_TESTS=1")


def beats(result) -> bool:
    low, _ = wilson(result.a_wins + 0.5 * result.draws, result.games, Z_999)
    return low > 0.5


def test_wilson_interval_matches_a_known_value():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)


def test_classic_greedy_beats_random(plugins, classic):
    result = play_match(classic, lambda: make_bot(plugins, "greedy"), lambda: make_bot(plugins, "random"), 40, seed=11)
    assert beats(result), result


def test_classic_search_beats_random(plugins, classic):
    result = play_match(classic, lambda: make_bot(plugins, "search(depth=2)"), lambda: make_bot(plugins, "random"), 15, seed=12)
    assert beats(result), result


def test_fences_greedy_beats_random(plugins, fences_game):
    variant, hooks = fences_game
    result = play_match(variant, lambda: make_bot(plugins, "greedy"), lambda: make_bot(plugins, "random"), 30, seed=13, hooks=hooks)
    assert beats(result), result


def test_fences_search_beats_greedy(plugins, fences_game):
    variant, hooks = fences_game
    result = play_match(variant, lambda: make_bot(plugins, "search"), lambda: make_bot(plugins, "greedy"), 25, seed=14, hooks=hooks)
    assert beats(result), result


@slow
def test_classic_search_beats_greedy(plugins, classic):
    result = play_match(classic, lambda: make_bot(plugins, "search"), lambda: make_bot(plugins, "greedy"), 600, seed=15)
    assert beats(result), result


@slow
def test_classic_perfect_beats_search(plugins, classic):
    # Luck-adjusted with the solved table (see luck_adjusted): the lower end of
    # a one-sided 99.9% normal interval of perfect's mean score is above 1/2.
    from statistics import mean, stdev

    from treehouse.bots.match import luck_adjusted

    scores = luck_adjusted(classic, lambda: make_bot(plugins, "perfect"), lambda: make_bot(plugins, "search"), 60, seed=16)
    assert mean(scores) - Z_999 * stdev(scores) / len(scores) ** 0.5 > 0.5, mean(scores)
