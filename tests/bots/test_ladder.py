"""Each stronger bot beats the weaker one over a seeded match, by a margin luck cannot explain.

Every match is seeded (so the test is deterministic) and pairs its games:
the same seed is played twice with the seats swapped.  A bot "beats" another
when the lower end of the one-sided 99.9% Wilson interval of its score
(wins, plus half of any draw) is above 1/2: a fair coin passes that less
than once in a thousand seeds.

Classic is a dice race: above greedy the rungs are close (perfect scores
0.518 against search over 10,000 raw games, docs/bots.md), so raw matches
that separate them take thousands of games.  Those rungs are checked on the
luck-adjusted score instead (treehouse.bots.match.luck_adjusted): the solved
table takes the dice's share out of each result, leaving an unbiased estimate
of the expected score with a far narrower spread.  The raw 600-pair
search-vs-greedy match runs with TREEHOUSE_SLOW_TESTS=1.
"""

from __future__ import annotations

import os
from statistics import mean, stdev

import pytest

from treehouse.bots.match import luck_adjusted, play_match, wilson
from treehouse.bots.options import make_bot

Z_999 = 3.09  # one-sided 99.9%
slow = pytest.mark.skipif(not os.environ.get("TREEHOUSE_SLOW_TESTS"), reason="long match: set TREEHOUSE_SLOW_TESTS=1")


def beats(result) -> bool:
    low, _ = wilson(result.a_wins + 0.5 * result.draws, result.games, Z_999)
    return low > 0.5


def test_wilson_interval_matches_a_known_value():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)


@pytest.mark.parametrize(
    "variant_name, stronger, weaker, pairs, seed",
    [
        ("classic", "greedy", "random", 40, 11),
        ("classic", "search(depth=2)", "random", 15, 12),
        ("fences", "greedy", "random", 30, 13),
        ("fences", "search", "greedy", 25, 14),
    ],
)
def test_the_stronger_bot_wins_a_raw_match(plugins, variant_name, stronger, weaker, pairs, seed):
    variant = plugins.variant(variant_name)()
    result = play_match(variant, lambda: make_bot(plugins, stronger), lambda: make_bot(plugins, weaker), pairs, seed=seed)
    assert beats(result), result


@slow
def test_classic_search_beats_greedy(plugins, classic):
    result = play_match(classic, lambda: make_bot(plugins, "search"), lambda: make_bot(plugins, "greedy"), 600, seed=15)
    assert beats(result), result


def adjusted_beats(scores) -> bool:
    """The lower end of a one-sided 99.9% normal interval of the mean luck-adjusted score is above 1/2."""
    return mean(scores) - Z_999 * stdev(scores) / len(scores) ** 0.5 > 0.5


def test_classic_search_beats_greedy_luck_adjusted(plugins, classic, solved_classic):
    # Both bots give winning chances away here, so this can go either way.
    scores = luck_adjusted(classic, lambda: make_bot(plugins, "search"), lambda: make_bot(plugins, "greedy"), 30, seed=17)
    assert adjusted_beats(scores), mean(scores)


def test_classic_perfect_beats_search_luck_adjusted(plugins, classic, solved_classic):
    # Perfect gives nothing away, so its adjusted score is the start value plus
    # all that search gave away: this checks that search's mistakes are large
    # and frequent enough to matter over 120 games.
    scores = luck_adjusted(classic, lambda: make_bot(plugins, "perfect"), lambda: make_bot(plugins, "search"), 60, seed=16)
    assert adjusted_beats(scores), mean(scores)


def test_luck_adjusted_scores_of_equal_bots_centre_on_a_half(plugins, classic, solved_classic):
    # The estimator is unbiased: perfect against itself loses nothing either
    # side, so each pair of games (seats swapped) scores exactly 1/2.
    scores = luck_adjusted(classic, lambda: make_bot(plugins, "perfect"), lambda: make_bot(plugins, "perfect"), 5, seed=18)
    assert len(scores) == 10
    assert [a + b for a, b in zip(scores[::2], scores[1::2])] == pytest.approx([1.0] * 5)
