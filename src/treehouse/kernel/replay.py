"""Replaying a record through the same engine and hooks that played it.

The recorded faces stand in for the dice and the recorded moves for the seats;
everything else (legal moves, applying, resolving, the outcome) is computed
again, so a replay checks the record as well as reproducing it.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import ValidationError

from treehouse.errors import RecordError, TreehouseError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.engine import Game, format_move, parse_move
from treehouse.kernel.records import Notation, Record


class _EndOfRecord(BaseException):
    """The record stops here (a game saved before it ended).  A BaseException,
    like GeneratorExit: it is control flow, and the engine's net for plugin
    bugs (``except Exception``) must let it through."""


class _Script:
    """The record's events, consumed in order by the dice and the seats."""

    def __init__(self, record: Record, variant) -> None:
        self.events = record.events
        self.variant = variant
        self.index = 0

    def take(self, kind: str, game_turn: int) -> Any:
        if self.index >= len(self.events):
            raise _EndOfRecord
        event_kind, turn, _seat, _step, value = self.events[self.index]
        if event_kind != kind:
            raise RecordError(f"turn {turn}: the record has a {event_kind} where the game needs a {kind}")
        self.index += 1
        return value


class _RecordedDice:
    """A plugin that sets up the recorded position and rolls the recorded faces."""

    def __init__(self, script: _Script, initial) -> None:
        self.script = script
        self.initial = initial

    @hookimpl(tryfirst=True)
    def treehouse_setup(self, variant, players, rng):
        return self.initial

    @hookimpl(tryfirst=True)
    def treehouse_roll(self, state, step, die, rng):
        face = self.script.take("roll", 0)
        if face not in die.faces:
            raise RecordError(f"the record rolls {face!r}, which is not a face of the {die.name} die")
        return face


class _RecordedSeat:
    def __init__(self, script: _Script, name: str) -> None:
        self.script = script
        self.name = name

    def choose(self, state, step, face, moves, rng):
        text = self.script.take("move", 0)
        move = parse_move(self.script.variant, text) if isinstance(text, Notation) else text
        if move not in moves:
            legal = ", ".join(format_move(self.script.variant, m) for m in moves[:5])
            raise RecordError(f"the recorded move {text!r} is not legal there (legal: {legal}{', ...' if len(moves) > 5 else ''})")
        return move


def replay(record: Record, variants: Any) -> Game:
    """Play ``record`` back and return the game at its last event.

    ``variants`` is the loaded plugin set (:class:`treehouse.plugins.Plugins`)
    used to find the record's variant and house rules.  Raises
    :class:`RecordError` when the record is damaged, was made with rules this
    installation does not have, or does not reach its recorded end.
    """
    header = record.header or {}
    try:
        variant_cls = variants.variant(header["variant"])
        variant = variant_cls(rules=header.get("rules") or {})
        house_rules = [variants.house_rule(name, variant.name) for name in header.get("house_rules", [])]
        initial = variant.parse_position(header["position"])
        seat_names = list(header["seats"])
    except ValidationError as error:
        raise RecordError(f"the record was made with rules this {header.get('variant')} does not accept: {error.errors()[0]['msg']}") from None
    except KeyError as error:
        raise RecordError(f"damaged record: the start event has no {error}") from None
    except TreehouseError as error:
        raise RecordError(f"the record cannot be replayed here: {error}") from None
    from treehouse.plugins import game_hooks

    script = _Script(record, variant)
    hooks = game_hooks(variant, house_rules, extra=[_RecordedDice(script, initial)])
    seats = [_RecordedSeat(script, name) for name in seat_names]
    game = Game(variant, seats, random.Random(0), turn_cap=header.get("turn_cap"), hooks=hooks)
    try:
        game.play()
    except _EndOfRecord:
        pass
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
