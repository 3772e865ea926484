"""Game records: every roll, choice and outcome as an event, as JSON lines.

A record is enough to replay a game exactly: :func:`treehouse.kernel.replay.replay`
plays the recorded faces and moves back through the same engine and hooks,
checking each move is legal, and compares the final position.

Format (one JSON object per line, seats numbered from 1 as players say them)::

    {"event": "start", "format": "treehouse-record/1", "variant": "classic",
     "rules": {...}, "house_rules": [], "seats": ["random", "random"],
     "turn_cap": 1000, "position": "<variant notation>", "meta": {...}}
    {"event": "roll", "turn": 1, "seat": 1, "step": "act", "face": "HOP"}
    {"event": "move", "turn": 1, "seat": 1, "step": "act", "move": "<move notation>"}
    ...
    {"event": "end", "turn": 31, "winners": [2], "reason": "...", "position": "..."}
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from treehouse.errors import RecordError
from treehouse.textfiles import read_text, write_text_atomically

FORMAT = "treehouse-record/1"


class Notation(str):
    """A move as written in a record read from a file (a live game's record
    holds the move values themselves); replaying parses it."""


@dataclass
class Record:
    """The events of one game.  In memory, events stay cheap tuples until written."""

    meta: dict[str, Any] = field(default_factory=dict)
    header: dict[str, Any] | None = None
    #: ("roll", turn, seat, step_name, face) / ("move", turn, seat, step_name, move)
    events: list[tuple] = field(default_factory=list)
    footer: dict[str, Any] | None = None
    _variant: Any = None

    # -- written by the engine --------------------------------------------

    def start(self, variant, seats, state, turn_cap, house_rules=()) -> None:
        self._variant = variant
        self.header = {
            "event": "start",
            "format": FORMAT,
            "variant": variant.name,
            "rules": variant.rules.model_dump(mode="json"),
            "house_rules": list(house_rules),
            "seats": [seat.name for seat in seats],
            "turn_cap": turn_cap,
            "position": variant.format_position(state),
            "meta": self.meta,
        }

    def end(self, turn: int, outcome, state) -> None:
        self.footer = {
            "event": "end",
            "turn": turn,
            "winners": [w + 1 for w in outcome.winners],
            "reason": outcome.reason,
            "position": self._variant.format_position(state),
        }

    # -- reading and writing ----------------------------------------------

    def lines(self) -> Iterable[dict[str, Any]]:
        """Every event as a JSON-ready dict, in order."""
        from treehouse.kernel.engine import format_move

        if self.header is None:
            raise RecordError("the record has no start event")
        yield self.header
        for kind, turn, seat, step, value in self.events:
            event = {"event": kind, "turn": turn, "seat": seat + 1, "step": step}
            if kind == "roll":
                event["face"] = value
            else:
                event["move"] = value if isinstance(value, Notation) else format_move(self._variant, value)
            yield event
        if self.footer is not None:
            yield self.footer

    def dumps(self) -> str:
        return "".join(json.dumps(event, separators=(",", ":")) + "\n" for event in self.lines())

    def write(self, path: str | Path) -> Path:
        """Write the whole record to ``path``, atomically: an interrupted write
        leaves the file as it was, never half a record."""
        return write_text_atomically(path, self.dumps(), RecordError, "record")

    @classmethod
    def loads(cls, text: str, source: str = "<record>") -> Record:
        """Read JSON lines back.  Moves stay as notation until replayed."""
        record = cls()
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                event = json.loads(line)
                kind = event["event"]
                if kind == "start":
                    if event.get("format") != FORMAT:
                        raise RecordError(f"{source}: not a treehouse record (format {event.get('format')!r}, expected {FORMAT!r})")
                    record.header = event
                    record.meta = event.get("meta", {})
                elif kind in ("roll", "move"):
                    value = event["face"] if kind == "roll" else Notation(event["move"])
                    record.events.append((kind, int(event["turn"]), int(event["seat"]) - 1, str(event["step"]), value))
                elif kind == "end":
                    record.footer = event
                else:
                    raise KeyError(kind)
            except RecordError:
                raise
            except (ValueError, KeyError, TypeError) as error:
                raise RecordError(f"{source}, line {number}: damaged record event ({error})") from None
        if record.header is None:
            raise RecordError(f"{source}: damaged record: no start event")
        return record

    @classmethod
    def read(cls, path: str | Path) -> Record:
        return cls.loads(read_text(path, RecordError, "record"), source=str(path))
