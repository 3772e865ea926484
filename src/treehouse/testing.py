"""A conformance kit for variant authors: one call checks a variant against every contract.

Use it from your plugin's tests::

    from treehouse.testing import check_variant

    def test_my_variant_conforms():
        check_variant("race")

It loads the variant through the entry points (as ``th`` would), plays random
games for each player count and seat kind, and after every step checks that:

* positions and moves round-trip through the variant's notation;
* legal moves are a tuple of distinct, hashable values, and none is a pass
  (every move changes the position; only the explicit ``PASS`` declines);
* the hooks return what their contracts promise (steps, the player to move,
  outcomes naming real seats);
* every game ends, by a result or the turn cap;
* every game's record replays to the same final position and outcome.

A failure raises ``AssertionError`` with one line saying what broke, where.
With ``unwritten="xfail"`` (what ``th new-variant`` writes) a hook or notation
method that still raises ``NotImplementedError`` marks the test as an expected
failure naming it, instead of failing it.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from treehouse.config import resolve
from treehouse.kernel.engine import Control, Outcome, Step, format_move, parse_move
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.plugins import Plugins, load_plugins


@dataclass
class ConformanceReport:
    """What the kit played: handy for a test that wants to say more."""

    variant: str
    games: int = 0
    steps: int = 0
    outcomes: Counter = field(default_factory=Counter)


class _Checker:
    """Observes a game and checks every contract at every step."""

    def __init__(self, variant: Any, players: int, where: str) -> None:
        self.variant, self.players, self.where = variant, players, where
        self.steps = 0

    def fail(self, what: str) -> None:
        raise AssertionError(f"{self.variant.name} ({self.where}): {what}")

    def check_position(self, state: Any, label: str) -> None:
        text = self.variant.format_position(state)
        if self.variant.parse_position(text) != state:
            self.fail(f"{label} position {text!r} does not round-trip through parse_position")
        to_move = getattr(state, "to_move", None)
        if not isinstance(to_move, int) or not 0 <= to_move < self.players:
            self.fail(f"{label} position has to_move={to_move!r}, not a seat from 0 to {self.players - 1}")

    def on_choice(self, game, mover, step, face, moves) -> None:
        if not isinstance(moves, tuple):
            self.fail(f"treehouse_legal_moves returned {type(moves).__name__}, not a tuple")
        if len(set(moves)) != len(moves):
            self.fail(f"treehouse_legal_moves returned the same move twice for face {face}")
        for move in moves:
            if isinstance(move, Control):
                continue
            text = format_move(self.variant, move)
            if parse_move(self.variant, text) != move:
                self.fail(f"move {text!r} does not round-trip through parse_move")

    def on_step(self, game, mover, step, move, before, after, events) -> None:
        self.steps += 1
        if not isinstance(step, Step):
            self.fail(f"treehouse_turn_steps gave {step!r}, not a Step")
        if move is not Control.PASS and after == before:
            self.fail(f"move {format_move(self.variant, move)!r} left the position unchanged: a pass is not a move")
        self.check_position(after, f"after {format_move(self.variant, move)!r},")


def check_variant(
    variant: str,
    *,
    games: int = 6,
    seed: int = 0,
    players: Iterable[int] | None = None,
    seat_kinds: Iterable[str] = ("random",),
    turn_cap: int = 300,
    overrides: Iterable[str] = (),
    plugins: Plugins | None = None,
    unwritten: str = "fail",
) -> ConformanceReport:
    """Check ``variant`` (a name or rule set ``th`` knows) against every contract.

    Plays ``games`` seeded games for each player count (default: every count
    the variant allows, up to four counts) and each seat kind (a registered
    bot name); ``overrides`` are ``--set`` strings for the rule set.
    ``unwritten="xfail"`` turns a ``NotImplementedError`` into ``pytest.xfail``.
    """
    if unwritten not in ("fail", "xfail"):
        raise ValueError(f"unwritten must be 'fail' or 'xfail', not {unwritten!r}")
    try:
        return _check_variant(variant, games, seed, players, seat_kinds, turn_cap, overrides, plugins or load_plugins())
    except Exception as error:
        stub = _not_implemented(error)
        if stub is None or unwritten == "fail":
            raise
        import pytest

        pytest.xfail(f"not written yet: {stub}")


def _not_implemented(error: BaseException | None) -> NotImplementedError | None:
    """The NotImplementedError behind ``error`` (plugin errors chain the hook's exception), if any."""
    while error is not None:
        if isinstance(error, NotImplementedError):
            return error
        error = error.__cause__ or error.__context__
    return None


def _check_variant(variant, games, seed, players, seat_kinds, turn_cap, overrides, plugins) -> ConformanceReport:
    effective = resolve(plugins, variant=variant, overrides=[*overrides, f"turn_cap={turn_cap}"])
    cls = effective.variant_class
    report = ConformanceReport(cls.name)
    _check_metadata(cls)
    lo, hi = effective.variant().player_range()
    counts = list(players) if players is not None else list(range(lo, hi + 1))[:4]
    for kind in seat_kinds:
        factory = plugins.bot(kind).factory
        for count in counts:
            for index in range(games):
                game_seed = seed + 1000 * count + index
                checker = _Checker(effective.variant(), count, f"{count} players, {kind} seats, seed {game_seed}")
                record = Record(meta={"seed": game_seed})
                game = effective.new_game(plugins, [factory() for _ in range(count)], random.Random(game_seed), record=record, observer=checker)
                checker.check_position(game.state, "the initial")
                outcome = game.play()
                if not isinstance(outcome, Outcome) or any(not 0 <= w < count for w in outcome.winners):
                    checker.fail(f"treehouse_outcome returned {outcome!r}: winners must be seats from 0 to {count - 1}")
                again = replay(Record.loads(record.dumps()), plugins)
                if again.state != game.state or again.outcome != game.outcome:
                    checker.fail("the record does not replay to the same final position and outcome")
                report.games += 1
                report.steps += checker.steps
                report.outcomes[outcome.reason] += 1
    return report


def _check_metadata(cls: type) -> None:
    where = f"variant class {cls.__name__}"
    assert isinstance(cls.name, str) and cls.name, f"{where}: name must be a non-empty string"
    assert 1 <= cls.min_players <= cls.max_players, f"{where}: needs 1 <= min_players <= max_players"
    assert cls.Rules.model_config.get("extra") == "forbid", f"{where}: its Rules model must forbid unknown keys"
    total = sum(p for _, p in cls.die.outcomes())
    assert total == 1, f"{where}: the die's probabilities sum to {total}, not 1"
