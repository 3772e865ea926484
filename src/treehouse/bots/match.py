"""Seeded matches between two bots, seats swapped between paired games, and the Wilson interval.

Used by ``benchmarks/bot_ladder.py`` (the table in docs/bots.md) and the
ladder tests.  Game ``2k`` seats bot A first and game ``2k + 1`` seats bot B
first, both from seed ``seed + k``, so the first player's edge cancels and the
same dice fall in both games of a pair.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from treehouse.kernel.engine import Game


@dataclass
class MatchResult:
    a: str
    b: str
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0  # draws and shared wins, counted as half a win each

    def add(self, counts) -> None:
        """Add a chunk's ``(games, a_wins, b_wins, draws)``."""
        self.games += counts[0]
        self.a_wins += counts[1]
        self.b_wins += counts[2]
        self.draws += counts[3]

    @property
    def score(self) -> float:
        """A's share of the points: wins, plus half of every draw."""
        return (self.a_wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        return wilson(self.a_wins + 0.5 * self.draws, self.games, z)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (z = 1.96: 95%)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_match(
    variant: Any,
    make_a: Callable[[], Any],
    make_b: Callable[[], Any],
    pairs: int,
    seed: int = 1,
    *,
    hooks: Any = None,
    turn_cap: int = 1000,
    names: Sequence[str] = ("a", "b"),
) -> MatchResult:
    """Play ``pairs`` pairs of two-player games between fresh bots from ``make_a`` and ``make_b``."""
    result = MatchResult(*names)
    for k in range(pairs):
        for a_first in (True, False):
            a, b = make_a(), make_b()
            seats = [a, b] if a_first else [b, a]
            a_seat = 0 if a_first else 1
            game = Game(variant, seats, random.Random(seed + k), turn_cap=turn_cap, hooks=hooks)
            outcome = game.play()
            result.games += 1
            if len(outcome.winners) == 1:
                if outcome.winners[0] == a_seat:
                    result.a_wins += 1
                else:
                    result.b_wins += 1
            else:
                result.draws += 1
    return result


class _Judged:
    """A seat that plays as ``inner`` and adds up, from the solved table, the
    winning probability each of its choices gave away."""

    def __init__(self, inner: Any, judge: Any) -> None:
        self.inner, self.judge, self.lost = inner, judge, 0.0
        self.name = getattr(inner, "name", "bot")

    def seated(self, game: Any, index: int) -> None:
        seated = getattr(self.inner, "seated", None)
        if seated is not None:
            seated(game, index)

    def choose(self, state, step, face, moves, rng):
        move = self.inner.choose(state, step, face, moves, rng)
        values = [self.judge.move_value(state, m) for m in moves]
        self.lost += max(values) - self.judge.move_value(state, move)
        return move


def luck_adjusted(variant: Any, make_a: Callable[[], Any], make_b: Callable[[], Any], pairs: int, seed: int = 1) -> list[float]:
    """A's luck-adjusted score in each game of a paired two-player match of a
    variant with an exact table (``Variant.exact_odds``: two-player classic).

    With the exact table ``V``, a game's result is ``V(start)`` plus the luck
    of every roll (each of mean zero) minus what each player's choices gave
    away.  Dropping the luck leaves ``V(start) + lost(B) - lost(A)`` (from
    A's side): an unbiased estimate of A's expected score with a far smaller
    spread, as backgammon programs rate play.
    """
    judge = variant.exact_odds(2)  # the variant's solved table; one line why not where it has none
    first = judge.start_chance()
    scores = []
    for k in range(pairs):
        for a_first in (True, False):
            a, b = _Judged(make_a(), judge), _Judged(make_b(), judge)
            game = Game(variant, [a, b] if a_first else [b, a], random.Random(seed + k))
            game.play()
            start = first if a_first else 1.0 - first
            scores.append(start + b.lost - a.lost)
    return scores
