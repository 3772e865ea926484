"""Per-game summaries and the mergeable aggregates they stream into.

Memory stays flat however many games are played: a game leaves behind only
counters, a histogram of lengths (at most one entry per turn up to the cap)
and the running sums of :class:`~treehouse.playtest.stats.Moments`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from treehouse.kernel.fast.compiled_game import FACE_COLUMNS, FORCED, IMPOSSIBLE, PASSED, REROLLED, ROLLED  # noqa: F401  (face usage columns, shared with the compiled playout)
from treehouse.playtest.stats import Moments


def distinct_bots(entrants: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The different bots among the --seat entrants (first named first), and each entrant's bot."""
    bots = tuple(dict.fromkeys(entrants))
    return bots, tuple(bots.index(entrant) for entrant in entrants)


def game_quantities(players: int, bots: int = 0) -> tuple[str, ...]:
    """The names of the per-game vector every game contributes to :class:`Moments`;
    with two or more different ``bots``, each one's score in the game too
    (``bot0`` ...: its results over the seats it held, win 1, k-way tie 1/k, per seat)."""
    return (
        *(f"score{s}" for s in range(players)),
        "decisive",  # exactly one winner
        "tie",  # several winners
        "draw",  # no winner, before the turn cap
        "timeout",  # the turn cap ended it
        "turns",
        "decisions",
        "multi",  # decisions with more than one legal move
        "won",  # decisive or tie: there was a winner
        "other_turn_win",  # a winner who did not make the last move
        "lead_change",  # changes of the sole leader / (evaluated steps - 1)
        "decided",  # share of steps after the winner led for good (0 without a winner)
        *(f"bot{b}" for b in range(bots if bots > 1 else 0)),
    )


@dataclass
class GameSummary:
    """What one game leaves behind (built by :class:`~treehouse.playtest.work.Observer`)."""

    winners: tuple[int, ...]
    reason: str
    timeout: bool
    turns: int
    decisions: int
    multi: int
    faces: dict[str, list[int]]
    counters: dict[str, float]
    last_mover: int | None
    lead_changes: int | None = None
    evaluated_steps: int = 0
    decided_share: float | None = None

    def vector(self, players: int) -> list[float]:
        winners = self.winners
        scores = [0.0] * players
        for w in winners:
            scores[w] = 1.0 / len(winners)
        won = 1.0 if winners else 0.0
        other = 1.0 if winners and self.last_mover not in winners else 0.0
        lead = self.lead_changes / (self.evaluated_steps - 1) if self.lead_changes is not None and self.evaluated_steps > 1 else 0.0
        return [
            *scores,
            1.0 if len(winners) == 1 else 0.0,
            1.0 if len(winners) > 1 else 0.0,
            1.0 if not winners and not self.timeout else 0.0,
            1.0 if self.timeout else 0.0,
            float(self.turns),
            float(self.decisions),
            float(self.multi),
            won,
            other,
            lead,
            self.decided_share or 0.0,
        ]


@dataclass
class Aggregate:
    """Everything a batch of games of one rule set adds up to; merge with :meth:`merge`."""

    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)  # sole wins, per seat (position)
    tie_shares: list[int] = field(default_factory=list)  # tied games a seat shared, per seat
    entrant_wins: list[int] = field(default_factory=list)  # sole wins, per --seat entrant
    ties: int = 0
    draws: int = 0
    timeouts: int = 0
    turns_total: int = 0  # game turns
    decisions_total: int = 0
    multi_total: int = 0
    lengths: dict[int, int] = field(default_factory=dict)
    faces: dict[str, list[int]] = field(default_factory=dict)
    counters: dict[str, float] = field(default_factory=dict)
    counters_sq: dict[str, float] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)
    evaluated: bool = False
    moments: Moments | None = None
    #: The --seat entrants (bot specs, one per entrant); with two or more
    #: different bots, each bot's score is a per-game quantity too.
    entrants: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        p = self.players
        self.wins = self.wins or [0] * p
        self.tie_shares = self.tie_shares or [0] * p
        self.entrant_wins = self.entrant_wins or [0] * p
        self.bots, self.entrant_bot = distinct_bots(self.entrants)
        self.copies = [self.entrant_bot.count(b) for b in range(len(self.bots))]
        if self.moments is None:
            self.moments = Moments(game_quantities(p, len(self.bots)))

    def add(self, game: GameSummary, entrants: tuple[int, ...] | None = None) -> list[float]:
        """Count one game; ``entrants[seat]`` is the --seat entrant in that seat.  Returns its vector."""
        self.games += 1
        winners = game.winners
        if len(winners) == 1:
            self.wins[winners[0]] += 1
            self.entrant_wins[entrants[winners[0]] if entrants else winners[0]] += 1
        elif winners:
            self.ties += 1
            for w in winners:
                self.tie_shares[w] += 1
        elif game.timeout:
            self.timeouts += 1
        else:
            self.draws += 1
        self.turns_total += game.turns
        self.decisions_total += game.decisions
        self.multi_total += game.multi
        self.lengths[game.turns] = self.lengths.get(game.turns, 0) + 1
        self.reasons[game.reason] = self.reasons.get(game.reason, 0) + 1
        for face, counts in game.faces.items():
            mine = self.faces.setdefault(face, [0] * len(FACE_COLUMNS))
            for i, c in enumerate(counts):
                mine[i] += c
        for key, value in game.counters.items():
            self.counters[key] = self.counters.get(key, 0) + value
            self.counters_sq[key] = self.counters_sq.get(key, 0) + value * value
        if game.lead_changes is not None:
            self.evaluated = True
        vector = game.vector(self.players)
        if len(self.bots) > 1:
            scores = [0.0] * len(self.bots)
            for seat, entrant in enumerate(entrants if entrants else range(self.players)):
                scores[self.entrant_bot[entrant]] += vector[seat]
            vector += [score / copies for score, copies in zip(scores, self.copies)]
        self.moments.add(vector)
        return vector

    def merge(self, other: Aggregate) -> Aggregate:
        if other.players != self.players or other.entrants != self.entrants:
            raise ValueError("cannot merge aggregates of different player counts or entrants")
        self.games += other.games
        for name in ("wins", "tie_shares", "entrant_wins"):
            setattr(self, name, [a + b for a, b in zip(getattr(self, name), getattr(other, name))])
        for name in ("ties", "draws", "timeouts", "turns_total", "decisions_total", "multi_total"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("lengths", "reasons", "counters", "counters_sq"):
            mine: dict[Any, Any] = getattr(self, name)
            for key, value in getattr(other, name).items():
                mine[key] = mine.get(key, 0) + value
        for face, counts in other.faces.items():
            mine_counts = self.faces.setdefault(face, [0] * len(FACE_COLUMNS))
            for i, c in enumerate(counts):
                mine_counts[i] += c
        self.evaluated = self.evaluated or other.evaluated
        self.moments.merge(other.moments)
        return self


@dataclass
class Paired:
    """Paired sums for a comparison: the joint vector (A's quantities then B's),
    and per variant counter the sums of the per-game differences B - A."""

    moments: Moments
    counter_diff: dict[str, float] = field(default_factory=dict)
    counter_diff_sq: dict[str, float] = field(default_factory=dict)

    @classmethod
    def empty(cls, players: int, bots: int = 0) -> Paired:
        names = game_quantities(players, bots)
        return cls(Moments(tuple(f"a.{n}" for n in names) + tuple(f"b.{n}" for n in names)))

    def add(self, vector_a: list[float], vector_b: list[float], counters_a: dict, counters_b: dict) -> None:
        self.moments.add(vector_a + vector_b)
        for key in sorted(set(counters_a) | set(counters_b)):
            d = counters_b.get(key, 0) - counters_a.get(key, 0)
            self.counter_diff[key] = self.counter_diff.get(key, 0) + d
            self.counter_diff_sq[key] = self.counter_diff_sq.get(key, 0) + d * d

    def merge(self, other: Paired) -> Paired:
        self.moments.merge(other.moments)
        for name in ("counter_diff", "counter_diff_sq"):
            mine = getattr(self, name)
            for key, value in getattr(other, name).items():
                mine[key] = mine.get(key, 0) + value
        return self


@dataclass
class ChunkResult:
    """What the work unit returns for games ``[start, stop)``: one aggregate per rule set, and the paired sums."""

    start: int
    stop: int
    sides: list[Aggregate]
    paired: Paired | None = None

    def merge(self, other: ChunkResult) -> ChunkResult:
        for mine, theirs in zip(self.sides, other.sides):
            mine.merge(theirs)
        if self.paired is not None and other.paired is not None:
            self.paired.merge(other.paired)
        self.stop = max(self.stop, other.stop)
        return self
