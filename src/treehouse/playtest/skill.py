"""Luck and skill: how much better a stronger bot does than a weaker one, on the same dice.

For a rule set and a ladder of bots from weak to strong (``random``,
``greedy``, ``search``, and ``perfect`` where its table exists), every
stronger bot meets every weaker one: the strong bot in one seat and the weak
one in the others, the seats rotated over games that share a seed, so every
entrant meets the same dice from every chair.  A bot's **score** is its sole
wins plus an equal share of every game nobody won alone (a tie, a draw, a
turn-cap timeout), over the games; its **edge** rescales the score so that 0
is what a copy of the weaker bot would get (``1/players``) and 1 is winning
every game.  **SkillTrace**, the summary, is the mean edge over the adjacent
rungs of the ladder (random→greedy, greedy→search, ...): near 0 when the dice
decide everything, near 1 when each step of skill always wins.
``docs/playtesting.md`` defines them for readers.

The matches are ordinary :class:`~treehouse.playtest.work.Batch` es played by
whatever runs the caller's games (``--jobs``, ``--cluster``), so they are as
reproducible as everything else.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable

from treehouse.playtest.aggregate import Aggregate
from treehouse.playtest.stats import Z95, wilson
from treehouse.playtest.work import Batch, RuleSpec


@dataclass(frozen=True)
class SkillPair:
    """One match of the ladder: ``strong`` against ``weak`` on the same seeds."""

    strong: str
    weak: str
    games: int
    score: float
    low: float
    high: float
    edge: float
    edge_low: float
    edge_high: float


def ladder(plugins: Any, variant: Any, players: int, names: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The bots to measure with, weakest first: ``names`` as given, or every
    registered bot by its strength, less those that cannot play ``variant``
    here and now (a bot with a ``ready(variant, players)`` that says no:
    ``perfect`` without its solved table)."""
    if names is not None:
        return names
    infos = sorted(plugins.bots.values(), key=lambda info: (info.strength, info.name))
    chosen = []
    for info in infos:
        ready = getattr(info.factory, "ready", None)
        if ready is not None and not ready(variant, players):
            continue
        chosen.append(info.name)
    return tuple(chosen)


def pairs(bots: tuple[str, ...]) -> list[tuple[str, str]]:
    """Every (stronger, weaker) pair of a ladder, the adjacent rungs first."""
    return [(bots[j + step], bots[j]) for step in range(1, len(bots)) for j in range(len(bots) - step)]


def batch(spec: RuleSpec, strong: str, weak: str, players: int, seed: int | str) -> Batch:
    """The games of one match: ``strong`` in seat 1, ``weak`` in the others, seats rotated."""
    return Batch((spec,), (strong, *(weak,) * (players - 1)), seed, rotate=True)


def edge_of(score: float, players: int) -> float:
    """0 for a weak bot's share (``1/players``), 1 for winning every game."""
    return (score - 1 / players) / (1 - 1 / players)


def pair_result(aggregate: Aggregate, strong: str, weak: str) -> SkillPair:
    """The strong entrant's score over a match's games (entrant 0 is the strong bot)."""
    games, players = aggregate.games, aggregate.players
    wins = aggregate.entrant_wins[0]
    unshared = games - sum(aggregate.entrant_wins)  # ties, draws, timeouts: the point is shared
    points = wins + unshared / players
    low, high = wilson(points, games)
    score = points / games if games else 0.0
    return SkillPair(strong, weak, games, score, low, high, edge_of(score, players), edge_of(low, players), edge_of(high, players))


def measure(spec: RuleSpec, bots: tuple[str, ...], players: int, games: int, seed: int | str, play: Callable[[Batch, int], Aggregate]) -> dict:
    """Play every match of the ladder (``play(batch, games)`` returns its
    aggregate) and return the pairs and SkillTrace as JSON-ready data."""
    results = [pair_result(play(batch(spec, strong, weak, players, seed), games), strong, weak) for strong, weak in pairs(bots)]
    adjacent = [r for r in results if bots.index(r.strong) == bots.index(r.weak) + 1]
    trace = sum(r.edge for r in adjacent) / len(adjacent) if adjacent else None
    return {
        "ladder": list(bots),
        "games_per_pair": games,
        "pairs": [asdict(r) for r in results],
        "SkillTrace": trace,
    }


def gap(aggregate: Aggregate) -> tuple[float, float, float]:
    """``skill_gap`` of ``th tune``: the strong entrant's sole-win rate minus a
    weak entrant's (the mean over the weak seats), with its 95% interval.
    Per game the difference is +1, -1/(k) or 0 (k weak seats), so its
    variance follows from the three shares."""
    games, players = aggregate.games, aggregate.players
    if not games:
        return 0.0, -1.0, 1.0
    weak_seats = players - 1
    p_strong = aggregate.entrant_wins[0] / games
    p_weak = sum(aggregate.entrant_wins[1:]) / games
    value = p_strong - p_weak / weak_seats
    second_moment = p_strong + p_weak / weak_seats**2
    variance = max(second_moment - value * value, 0.0)
    half = Z95 * (variance / games) ** 0.5
    return value, max(-1.0, value - half), min(1.0, value + half)
