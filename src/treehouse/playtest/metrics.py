"""From aggregates to the numbers a designer reads: every metric with its interval.

Each metric is a function of the mean per-game vector (see
:func:`~treehouse.playtest.aggregate.game_quantities`), so one definition
gives its value, its 95% interval (delta method) and, on the paired vector
of a comparison, the interval of the difference B - A.  The definitions are
written out in ``docs/playtesting.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from treehouse.playtest.aggregate import FACE_COLUMNS, Aggregate, Paired, game_quantities
from treehouse.playtest.stats import Z95, Estimate, delta_interval, holm, quantile, wilson

Means = Callable[[str], float]


@dataclass(frozen=True)
class Metric:
    name: str
    description: str
    function: Callable[[Means, int], float | None]
    #: Needs the variant's ``treehouse_evaluate`` hook.
    needs_evaluation: bool = False
    #: The range the metric lives in; its interval is clipped to it.
    bounds: tuple[float, float] | None = (0.0, 1.0)


def _ratio(top: float, bottom: float) -> float | None:
    return top / bottom if bottom > 0 else None


def _balance(m: Means, players: int) -> float:
    scores = [m(f"score{s}") for s in range(players)]
    return 1.0 - (max(scores) - min(scores))


METRICS: tuple[Metric, ...] = (
    Metric("AdvantageP1", "seat 1's mean score (win 1, k-way tie 1/k); fair for two: 0.5", lambda m, p: m("score0")),
    Metric("Balance", "1 - (best seat's mean score - worst seat's); 1: all alike", _balance),
    Metric("Completion", "share of games won (alone or tied): no draw, no turn cap", lambda m, p: m("won")),
    Metric("Drawishness", "share of games ending with no winner before the turn cap", lambda m, p: m("draw")),
    Metric("Timeouts", "share of games stopped by the turn cap", lambda m, p: m("timeout")),
    Metric("Duration", "mean game length, in turns", lambda m, p: m("turns"), bounds=(0.0, math.inf)),
    Metric("DecisionMoves", "share of decisions with more than one legal move", lambda m, p: _ratio(m("multi"), m("decisions"))),
    Metric("LeadChange", "mean share of a game's steps where the sole leader changed", lambda m, p: m("lead_change"), True),
    Metric("Decisiveness", "share of a won game played after the winner led for good", lambda m, p: _ratio(m("decided"), m("decisive")), True),
    Metric("OtherTurnWins", "share of won games won on another player's turn", lambda m, p: _ratio(m("other_turn_win"), m("won"))),
    Metric("DecisionsPerGame", "mean decisions per game (choices among 1 or more moves)", lambda m, p: m("decisions"), bounds=(0.0, math.inf)),
)

#: The entrants' figures (a bot's results over every seat it held), defined as the metrics are.
ENTRANT_TERMS = {
    "score": "a bot's mean result per seat it held: win 1, k-way tie 1/k, no winner 0",
    "edge": "a bot's score minus the mean score of the other seats in its games (0: even; +1 for two bots: it won them all)",
    "skill gap": "the strongest bot's score minus the weakest's, the bots ranked by their declared strength",
}

#: The metrics of the seats part of a report (the game's balance between its seats); the others describe the games.
SEAT_METRICS = ("AdvantageP1", "Balance")

#: Said wherever seat figures are shown for fixed seats that hold different bots.
SEATS_MEASURE_BOTS = "the seats are fixed (--fixed-seats) and hold different bots: these seat figures measure the bots as much as the game"

#: The metrics that are the mean of one per-game quantity (so an SPRT can test
#: their per-game differences): metric -> quantity.
MEAN_METRICS = {
    "AdvantageP1": "score0", "Completion": "won", "Drawishness": "draw", "Timeouts": "timeout", "Duration": "turns",
    "LeadChange": "lead_change", "DecisionsPerGame": "decisions",
}

_DEFINED = {metric.name: metric.description for metric in METRICS} | ENTRANT_TERMS


def definition(name: str) -> str:
    """What a row of a report measures, in one short line: a metric, a seat's
    win rate (``win rate seat 2``) or a variant's counter (``passes per game``)."""
    if name in _DEFINED:
        return _DEFINED[name]
    if name.startswith("win rate seat "):
        return f"seat {name.removeprefix('win rate seat ').split()[0]}'s mean score (win 1, k-way tie 1/k)"
    for term in ("score", "edge", "skill gap"):
        if name.startswith(term + " "):  # a bot's row in a comparison: ``score search``, ``skill gap (search - random)``
            return ENTRANT_TERMS[term]
    if name.endswith(" per game"):
        return f"the variant's count of {name.removesuffix(' per game')}, per game"
    return ""


def _lookup(names: Sequence[str], means: Sequence[float], prefix: str = "") -> Means:
    index = {name: i for i, name in enumerate(names)}
    return lambda key: means[index[prefix + key]]


def metric_estimates(aggregate: Aggregate) -> dict[str, Estimate]:
    """Every metric of one rule set, with its 95% interval (``None`` where not defined)."""
    names, players = aggregate.moments.names, aggregate.players
    result = {}
    for metric in METRICS:
        if metric.needs_evaluation and not aggregate.evaluated:
            result[metric.name] = Estimate(None)
            continue

        def function(means, metric=metric):
            return metric.function(_lookup(names, means), players)

        result[metric.name] = _clip(delta_interval(function, aggregate.moments), metric.bounds)
    return result


def _clip(estimate: Estimate, bounds: tuple[float, float] | None) -> Estimate:
    """Keep a symmetric delta-method interval inside the metric's range."""
    if bounds is None or estimate.low is None or estimate.high is None:
        return estimate
    lo, hi = bounds
    return Estimate(estimate.value, max(lo, estimate.low), min(hi, estimate.high))


def length_summary(aggregate: Aggregate) -> dict[str, float | int | None]:
    games = aggregate.games
    return {
        "mean": aggregate.turns_total / games if games else None,
        "median": quantile(aggregate.lengths, 0.5),
        "p90": quantile(aggregate.lengths, 0.9),
        "min": min(aggregate.lengths) if aggregate.lengths else None,
        "max": max(aggregate.lengths) if aggregate.lengths else None,
    }


def counter_estimates(aggregate: Aggregate) -> dict[str, Estimate]:
    """Each variant counter as a mean per game with a normal 95% interval."""
    n = aggregate.games
    result = {}
    for key in sorted(aggregate.counters):
        total, squares = aggregate.counters[key], aggregate.counters_sq[key]
        mean = total / n
        variance = (squares - n * mean * mean) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(max(variance, 0.0) / n) if n > 1 else None
        result[key] = Estimate(mean, None if half is None else mean - half, None if half is None else mean + half)
    return result


def seat_rates(aggregate: Aggregate) -> list[dict[str, Any]]:
    """Win rate of each seat with its Wilson interval."""
    rows = []
    for seat, wins in enumerate(aggregate.wins):
        low, high = wilson(wins, aggregate.games)
        rows.append({"seat": seat + 1, "wins": wins, "rate": wins / aggregate.games, "low": low, "high": high, "ties": aggregate.tie_shares[seat]})
    return rows


def _entrant_functions(aggregate: Aggregate, bot: int) -> tuple[Callable[[Means, int], float], Callable[[Means, int], float]]:
    """A bot's score and its edge over the field as functions of the mean vector.
    Every won game's seat scores add up to 1, so the other seats' mean score
    is (won - copies * score) / (players - copies)."""
    copies = aggregate.copies[bot]

    def score(m: Means, players: int) -> float:
        return m(f"bot{bot}")

    def edge(m: Means, players: int) -> float:
        return m(f"bot{bot}") - (m("won") - copies * m(f"bot{bot}")) / (players - copies)

    return score, edge


def entrant_estimates(aggregate: Aggregate) -> list[dict[str, Any]]:
    """Each different bot's results over every seat it held, with 95% intervals
    (the delta method over the games); none where every seat holds the same bot."""
    if len(aggregate.bots) < 2:
        return []
    names, players = aggregate.moments.names, aggregate.players
    rows = []
    for bot, name in enumerate(aggregate.bots):
        score, edge = (
            _clip(delta_interval(lambda means, f=f: f(_lookup(names, means), players), aggregate.moments), bounds)
            for f, bounds in zip(_entrant_functions(aggregate, bot), ((0.0, 1.0), (-1.0, 1.0)))
        )
        wins = sum(w for entrant, w in enumerate(aggregate.entrant_wins) if aggregate.entrant_bot[entrant] == bot)
        rows.append({
            "bot": name, "seats": aggregate.copies[bot], "games": aggregate.games, "wins": wins,
            "score": score.value, "low": score.low, "high": score.high, "edge": edge.value, "edge_low": edge.low, "edge_high": edge.high,
        })
    return rows


def face_usage(aggregate: Aggregate, faces_order: Sequence[str] = ()) -> list[dict[str, Any]]:
    order = [f for f in faces_order if f in aggregate.faces] + sorted(f for f in aggregate.faces if f not in faces_order)
    rows = []
    for face in order:
        counts = aggregate.faces[face]
        row = {"face": face, **dict(zip(FACE_COLUMNS, counts))}
        rolled = counts[0]
        for column in FACE_COLUMNS[1:]:
            row[f"{column}_share"] = row[column] / rolled if rolled else None
        rows.append(row)
    return rows


def summary(aggregate: Aggregate, faces_order: Sequence[str] = ()) -> dict[str, Any]:
    """One rule set's results as JSON-ready data (everything but timing)."""
    games = aggregate.games
    return {
        "games": games,
        "turns_total": aggregate.decisions_total,
        "game_turns_total": aggregate.turns_total,
        "wins": list(aggregate.wins),
        "ties": aggregate.ties,
        "draws": aggregate.draws,
        "timeouts": aggregate.timeouts,
        "entrant_wins": list(aggregate.entrant_wins),
        "seats": seat_rates(aggregate),
        "entrants": entrant_estimates(aggregate),
        "length": length_summary(aggregate),
        "decisions": {
            "total": aggregate.decisions_total,
            "with_choice": aggregate.multi_total,
            "share_with_choice": aggregate.multi_total / aggregate.decisions_total if aggregate.decisions_total else None,
        },
        "faces": face_usage(aggregate, faces_order),
        "metrics": {name: _estimate_json(e) for name, e in metric_estimates(aggregate).items()},
        "variant_statistics": {name: {"total": aggregate.counters[name], **_estimate_json(e, "per_game")} for name, e in counter_estimates(aggregate).items()},
        "reasons": dict(sorted(aggregate.reasons.items())),
        "lengths": {str(k): v for k, v in sorted(aggregate.lengths.items())},
    }


def _estimate_json(estimate: Estimate, key: str = "value") -> dict[str, Any]:
    return {key: estimate.value, "low": estimate.low, "high": estimate.high}


# --------------------------------------------------------------------------
# paired differences
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    name: str
    a: float | None
    b: float | None
    diff: Estimate
    p_value: float | None
    significant: bool = False


def differences(a: Aggregate, b: Aggregate, paired: Paired, alpha: float = 0.05, ladder: tuple[str, ...] = ()) -> list[Difference]:
    """B - A for every seat win rate, metric, entrant score and variant counter, over the paired games.

    The rows come in three parts: the seats (each seat's win rate,
    AdvantageP1, Balance), the entrants (each different bot's score and,
    with a ``ladder`` of the bots weakest first, the skill gap: the
    strongest bot's score minus the weakest's), then the games.
    Intervals use the paired per-game vectors (the games share their seeds),
    so the noise the two rule sets have in common cancels.  A difference is
    flagged significant by Holm's procedure over all the rows at family-wise
    level ``alpha``: comparing a rule set with itself flags nothing.
    """
    players = a.players
    names = paired.moments.names
    rows: list[tuple[str, Callable]] = []
    for seat in range(players):
        rows.append((f"win rate seat {seat + 1}", lambda m, p, seat=seat: m(f"score{seat}")))
    rows += [(metric.name, metric.function) for metric in METRICS if metric.name in SEAT_METRICS]
    if len(a.bots) > 1:
        for bot, name in enumerate(a.bots):
            rows.append((f"score {name}", lambda m, p, bot=bot: m(f"bot{bot}")))
        if len(ladder) > 1:
            strong, weak = a.bots.index(ladder[-1]), a.bots.index(ladder[0])
            rows.append((f"skill gap ({ladder[-1]} - {ladder[0]})", lambda m, p, strong=strong, weak=weak: m(f"bot{strong}") - m(f"bot{weak}")))
    for metric in METRICS:
        if metric.name in SEAT_METRICS or (metric.needs_evaluation and not (a.evaluated and b.evaluated)):
            continue
        rows.append((metric.name, metric.function))
    result: list[Difference] = []
    for name, function in rows:
        def diff(means, function=function):
            fb = function(_lookup(names, means, "b."), players)
            fa = function(_lookup(names, means, "a."), players)
            return None if fa is None or fb is None else fb - fa

        means = paired.moments.means()
        estimate = delta_interval(diff, paired.moments)
        result.append(
            Difference(name, function(_lookup(names, means, "a."), players), function(_lookup(names, means, "b."), players), estimate, estimate.p_value())
        )
    n = paired.moments.n
    for key in sorted(set(a.counters) | set(b.counters)):
        total, squares = paired.counter_diff.get(key, 0.0), paired.counter_diff_sq.get(key, 0.0)
        mean = total / n
        variance = (squares - n * mean * mean) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(max(variance, 0.0) / n)
        if half < 1e-12:
            half = 0.0
        estimate = Estimate(mean, mean - half, mean + half)
        result.append(Difference(f"{key} per game", a.counters.get(key, 0) / a.games, b.counters.get(key, 0) / b.games, estimate, estimate.p_value()))
    flags = holm([d.p_value for d in result], alpha)
    return [Difference(d.name, d.a, d.b, d.diff, d.p_value, flag) for d, flag in zip(result, flags)]


def paired_differences(paired: Paired, quantity: str) -> tuple[int, float, float]:
    """``(n, sum, sum of squares)`` of the per-pair differences B - A in one
    per-game quantity (``score0``: the first seat's score; ``bot1``: a bot's)."""
    names = paired.moments.names
    k = len(names)
    ia, ib = names.index(f"a.{quantity}"), names.index(f"b.{quantity}")
    s2 = paired.moments.s2
    total = paired.moments.s1[ib] - paired.moments.s1[ia]
    squares = s2[ib * k + ib] - 2 * s2[ia * k + ib] + s2[ia * k + ia]
    return paired.moments.n, total, squares


__all__ = ["METRICS", "MEAN_METRICS", "SEAT_METRICS", "Metric", "Difference", "differences", "entrant_estimates", "metric_estimates", "paired_differences", "summary", "game_quantities"]
