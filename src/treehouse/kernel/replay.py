"""Replaying a record through the same engine and hooks that played it.

The recorded faces stand in for the dice and the recorded moves for the seats;
everything else (legal moves, applying, resolving, the outcome) is computed
again, so a replay checks the record as well as reproducing it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from treehouse.errors import RecordError, TreehouseError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.engine import Game, format_move, parse_move
from treehouse.kernel.hooks import game_hooks
from treehouse.kernel.records import Notation, Record, happened


class EndOfRecord(BaseException):
    """The record stops here (a game saved before it ended).  A BaseException,
    like GeneratorExit: it is control flow, and the engine's net for plugin
    bugs (``except Exception``) must let it through."""


# --------------------------------------------------------------------------
# what the start event says
# --------------------------------------------------------------------------


@dataclass
class RecordedStart:
    """The start event of a record, read with this installation's plugins."""

    variant: Any
    house_rules: list[Any]
    house_rule_names: list[str]
    position: Any
    seat_names: list[str]


def recorded_start(record: Record, plugins: Any, subject: str = "the record", purpose: str = "replayed") -> RecordedStart:
    """The variant with the recorded rules, the house rules, the starting
    position and the seats' names of ``record``.

    Raises :class:`RecordError` (one line, ``subject`` first) when the start
    event lacks one of them or names rules or plugins this installation does
    not have (``... cannot be {purpose} here``).
    """
    header = record.header or {}
    try:
        variant = plugins.variant(header["variant"])(rules=header.get("rules") or {})
        specs = list(header.get("house_rules") or [])
        house_rules = [plugins.house_rule(spec, type(variant)) for spec in specs]
        names = [rule.spec for rule in house_rules]
        position = variant.parse_position(header["position"])
        seat_names = list(header["seats"])
    except KeyError as error:
        raise RecordError(f"{subject} is damaged: its start event has no {error}") from None
    except ValidationError as error:
        raise RecordError(f"{subject} was made with rules this {header.get('variant')} does not accept: {error.errors()[0]['msg']}") from None
    except TreehouseError as error:
        raise RecordError(f"{subject} cannot be {purpose} here: {error}") from None
    players = variant.players_in(position)
    if players is not None and players != len(seat_names):
        raise RecordError(f"{subject} is damaged: the start event names {len(seat_names)} seats, but its position is for {players} players")
    return RecordedStart(variant, house_rules, names, position, seat_names)


# --------------------------------------------------------------------------
# the recorded events as a script
# --------------------------------------------------------------------------


class Script:
    """A record's events, consumed in order (by the dice and the seats of a
    replay, or by the checks of a resumed game)."""

    def __init__(self, record: Record, variant: Any) -> None:
        # the choices to play back; what resolution reported is checked apart (check_happened)
        self.events = [event for event in record.events if event[0] != "resolved"]
        self.variant = variant
        self.index = 0

    @property
    def pending(self) -> bool:
        """Are there events left?"""
        return self.index < len(self.events)

    def take(self, kind: str, seat: int | None = None) -> Any:
        """The next event's value, which must be a ``kind`` (by ``seat``, when
        given, counted from 0); :class:`EndOfRecord` past the last."""
        if not self.pending:
            raise EndOfRecord
        event_kind, turn, recorded_seat, _step, value = self.events[self.index]
        if event_kind != kind:
            raise RecordError(f"turn {turn}: the record has a {event_kind} where the game needs a {kind}")
        if seat is not None and recorded_seat != seat:
            raise RecordError(f"turn {turn}: the record gives this {kind} to seat {recorded_seat + 1}, but seat {seat + 1} is to move")
        self.index += 1
        return value

    def move(self, text: Any, moves: tuple, turn: int) -> Any:
        """The recorded move ``text`` as the legal move it is (an equal element of ``moves``)."""
        try:
            move = parse_move(self.variant, text) if isinstance(text, Notation) else text
        except TreehouseError as error:
            raise RecordError(f"turn {turn}: the recorded move {text!r} cannot be read: {error}") from None
        if move not in moves:
            legal = ", ".join(format_move(self.variant, m) for m in moves[:5])
            raise RecordError(f"turn {turn}: the recorded move {text!r} is not legal there (legal: {legal}{', ...' if len(moves) > 5 else ''})")
        return moves[moves.index(move)]


class _RecordedDice:
    """A plugin that sets up the recorded position and rolls the recorded faces."""

    def __init__(self, script: Script, initial) -> None:
        self.script = script
        self.initial = initial

    @hookimpl(tryfirst=True)
    def treehouse_setup(self, variant, players, rng):
        return self.initial

    @hookimpl(tryfirst=True)
    def treehouse_roll(self, state, step, outcomes, rng):
        face = self.script.take("roll", state.to_move)
        possible = [outcome for outcome, _p in outcomes]
        if face not in possible:
            raise RecordError(f"the record rolls {face!r}, which cannot come up there (it can be: {', '.join(possible)})")
        return face


class _RecordedSeat:
    def __init__(self, script: Script, name: str) -> None:
        self.script = script
        self.name = name
        self.game: Game | None = None
        self.index = 0

    def seated(self, game: Game, index: int) -> None:
        self.game, self.index = game, index

    def choose(self, state, step, face, moves, rng):
        text = self.script.take("move", self.index)
        return self.script.move(text, moves, self.game.turn if self.game is not None else 0)


def check_happened(record: Record, again: Record) -> None:
    """Raise :class:`RecordError` where the events a replay's resolution
    reports differ from the words ``record`` wrote for them (an edited
    record, or another version of a rule).  A record without any
    ``resolved`` line (one written before they existed) is not checked."""
    written = [event for event in record.events if event[0] == "resolved"]
    if not written:
        return
    derived = [event for event in again.events if event[0] == "resolved"]
    for old, new in zip(written, derived):
        if old[:4] != new[:4] or happened(old[4]) != happened(new[4]):
            turn, seat = old[1], old[2]
            raise RecordError(
                f"turn {turn}: the record says {'; '.join(happened(old[4]))!r} happened (player {seat + 1}, {old[3]}),"
                f" but the replay finds {'; '.join(happened(new[4])) or 'nothing'!r} (turn {new[1]}, player {new[2] + 1}, {new[3]})"
            )
    if len(written) > len(derived):
        old = written[len(derived)]
        raise RecordError(f"turn {old[1]}: the record says {'; '.join(happened(old[4]))!r} happened, but the replay finds nothing there")


def check_steps(record: Record, again: Record) -> None:
    """Raise :class:`RecordError` where a recorded roll or move carries another
    turn number or step label than the replay gives it (an edited record:
    the game's own counts are the replay's)."""
    recorded = [event for event in record.events if event[0] != "resolved"]
    derived = [event for event in again.events if event[0] != "resolved"]
    for old, new in zip(recorded, derived):
        kind, turn, _seat, step, _value = old
        if turn != new[1]:
            raise RecordError(f"turn {new[1]}: the record numbers this {kind} turn {turn}, but the game is on turn {new[1]} there")
        if step != new[3]:
            raise RecordError(f"turn {new[1]}: the record labels this {kind} step {step!r}, but the game is at step {new[3]!r} there")


def replay(record: Record, variants: Any, *, observer: Any = None) -> Game:
    """Play ``record`` back and return the game at its last event.

    ``variants`` is the loaded plugin set (:class:`treehouse.plugins.Plugins`)
    used to find the record's variant and house rules.  ``observer`` (a
    :class:`~treehouse.kernel.engine.GameObserver`) sees every recorded
    choice and step as it is played back.  A record that stops before the
    game ends (a game saved in play) is played up to its last event.

    Raises :class:`RecordError` when the record is damaged, was made with
    rules this installation does not have, or does not reach its recorded end.
    """
    start = recorded_start(record, variants)
    variant = start.variant
    script = Script(record, variant)
    hooks = game_hooks(variant, start.house_rules, extra=[_RecordedDice(script, start.position)])
    seats = [_RecordedSeat(script, name) for name in start.seat_names]
    again = Record()
    game = Game(variant, seats, random.Random(0), turn_cap=(record.header or {}).get("turn_cap"), hooks=hooks, observer=observer, record=again)
    script.variant = game.variant  # the game's own: recorded moves of a house rule's kind read too
    try:
        game.play()
    except EndOfRecord:
        pass
    check_steps(record, again)
    check_happened(record, again)
    footer = record.footer
    if footer is not None:
        final = variant.format_position(game.state)
        if game.outcome is None:
            raise RecordError(f"the record says the game ended on turn {footer.get('turn')}, but the replay has not ended")
        if final != footer.get("position"):
            raise RecordError(f"the replay ends at {final!r}, but the record says {footer.get('position')!r}")
        if [w + 1 for w in game.outcome.winners] != footer.get("winners"):
            raise RecordError(f"the replay's winners {[w + 1 for w in game.outcome.winners]} differ from the record's {footer.get('winners')}")
    elif game.outcome is not None:
        raise RecordError("the replay ended the game, but the record has no end event")
    return game
