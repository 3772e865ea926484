"""Game records: every roll, choice and outcome as an event, as JSON lines.

A ``resolved`` line follows a step whose resolution reported events (a Hit,
a loss, a player out: see ``treehouse_resolve``), with each event's words; a
replay derives the events again and checks them against these words.

A record is enough to replay a game exactly: :func:`treehouse.kernel.replay.replay`
plays the recorded faces and moves back through the same engine and hooks,
checking each move is legal, and compares the final position.

Format (one JSON object per line, seats numbered from 1 as players say them)::

    {"event": "start", "format": "treehouse-record/1", "variant": "classic",
     "rules": {...}, "house_rules": [], "seats": ["random", "random"],
     "turn_cap": 1000, "position": "<variant notation>", "meta": {...}}
    {"event": "roll", "turn": 1, "seat": 1, "step": "act", "face": "HOP"}
    {"event": "move", "turn": 1, "seat": 1, "step": "act", "move": "<move notation>"}
    {"event": "resolved", "turn": 1, "seat": 1, "step": "act", "happened": ["<words>", ...]}
    ...
    {"event": "end", "turn": 31, "winners": [2], "reason": "...", "position": "..."}

Moves a person took back (``th play``'s ``u``) stay in the record where they
were played, marked ``"undone": N`` (the N-th takeback of the game); replaying
and resuming skip them, ``th replay`` shows them::

    {"event": "move", "turn": 5, "seat": 1, "step": "act", "move": "...", "undone": 1}
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
    #: / ("resolved", turn, seat, step_name, events): the events a step's
    #: resolution reported (the values themselves in a live game's record,
    #: their words in one read from a file)
    events: list[tuple] = field(default_factory=list)
    footer: dict[str, Any] | None = None
    #: Taken-back events: (where they stood in ``events``, the events), one block per takeback, in order.
    undone: list[tuple[int, list[tuple]]] = field(default_factory=list)
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
        from treehouse.kernel.turn import format_move

        if self.header is None:
            raise RecordError("the record has no start event")
        yield self.header

        def line(event: tuple, undone: int = 0) -> dict[str, Any]:
            kind, turn, seat, step, value = event
            out = {"event": kind, "turn": turn, "seat": seat + 1, "step": step}
            if kind == "roll":
                out["face"] = value
            elif kind == "resolved":
                out["happened"] = happened(value)
            else:
                out["move"] = value if isinstance(value, Notation) else format_move(self._variant, value)
            if undone:
                out["undone"] = undone
            return out

        blocks = sorted(((at, number, events) for number, (at, events) in enumerate(self.undone, start=1)), key=lambda b: (b[0], b[1]))
        pending = 0
        for index, event in enumerate(self.events):
            while pending < len(blocks) and blocks[pending][0] <= index:
                yield from (line(e, blocks[pending][1]) for e in blocks[pending][2])
                pending += 1
            yield line(event)
        for _at, number, events in blocks[pending:]:
            yield from (line(e, number) for e in events)
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
        """Read JSON lines back.  Moves stay as notation until replayed.

        Anything that is not an event of this format (not JSON, not an object,
        a field of the wrong type) raises :class:`RecordError` naming the line.
        """
        record = cls()
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                event = json.loads(line)
                if not isinstance(event, dict):
                    raise ValueError(f"a JSON {_json_type(event)}, not an event object")
                kind = event["event"]
                if record.header is None and kind != "start" and kind in _KINDS:
                    raise RecordError(f"{source}, line {number}: damaged record: a {kind} event before the start event")
                if record.footer is not None and kind in _KINDS:
                    raise RecordError(f"{source}, line {number}: damaged record: a {kind} event after the end event (a record holds one game)")
                if kind == "start":
                    if record.header is not None:
                        raise RecordError(f"{source}, line {number}: damaged record: a second start event (a record holds one game, and starts once)")
                    if event.get("format") != FORMAT:
                        raise RecordError(f"{source}: not a treehouse record (format {event.get('format')!r}, expected {FORMAT!r})")
                    _check_fields(event, _START_FIELDS)
                    _check_fields(event.get("meta") or {}, _META_FIELDS, prefix="meta.")
                    record.header = event
                    record.meta = event.get("meta") or {}
                elif kind in ("roll", "move", "resolved"):
                    if kind == "resolved":
                        _check_fields(event, {**_STEP_FIELDS, "happened": (_texts, "a list of words")}, required=True)
                        value = tuple(event["happened"])
                    else:
                        _check_fields(event, {**_STEP_FIELDS, ("face" if kind == "roll" else "move"): _TEXT}, required=True)
                        value = event["face"] if kind == "roll" else Notation(event["move"])
                    step = (kind, event["turn"], event["seat"] - 1, event["step"], value)
                    if "undone" in event:
                        _check_fields(event, _UNDONE_FIELDS)
                        record.take_back(event["undone"], len(record.events), step)
                    else:
                        record.events.append(step)
                elif kind == "end":
                    _check_fields(event, _END_FIELDS)
                    record.footer = event
                else:
                    raise KeyError(kind)
            except RecordError:
                raise
            except RecursionError:
                raise RecordError(f"{source}, line {number}: damaged record event (nested too deeply)") from None
            except (ValueError, KeyError, TypeError) as error:
                raise RecordError(f"{source}, line {number}: damaged record event ({error})") from None
        if record.header is None:
            raise RecordError(f"{source}: damaged record: no start event")
        _check_seat_counts(record, source)
        return record

    def take_back(self, number: int, at: int, event: tuple) -> None:
        """File a taken-back ``event`` under takeback ``number`` (1-based), cut at ``at``."""
        while len(self.undone) < number:
            self.undone.append((at, []))
        self.undone[number - 1][1].append(event)

    @classmethod
    def read(cls, path: str | Path) -> Record:
        return cls.loads(read_text(path, RecordError, "record"), source=str(path))


def happened(events: Iterable[Any]) -> list[str]:
    """The words of a step's events (words read from a file stay as they are)."""
    from treehouse.kernel.turn import describe_event

    return [event if isinstance(event, str) else describe_event(event) for event in events]


# --------------------------------------------------------------------------
# the shape of each event, checked by Record.loads
# --------------------------------------------------------------------------


def _json_type(value: Any) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "true/false", type(None): "null", int: "number", float: "number"}
    return names.get(type(value), type(value).__name__)


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _whole(minimum: int):
    def check(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= minimum

    return check


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _mapping(value: Any) -> bool:
    return isinstance(value, dict)


def _wholes(value: Any) -> bool:
    return isinstance(value, list) and all(_whole(1)(item) for item in value)


# (check, what a value must be), for the error's words
_TEXT = (_text, "a string")
_START_FIELDS = {
    "variant": _TEXT,
    "rules": (_mapping, "an object of rule options"),
    "house_rules": (_texts, "a list of house-rule names"),
    "seats": (_texts, "a list of seat names"),
    "turn_cap": (_whole(1), "a whole number from 1"),
    "position": _TEXT,
    "meta": (_mapping, "an object"),
}
#: th play's own entries in the start event's meta (any other entry is free)
_META_FIELDS = {"seats": (_texts, "a list of seat kinds")}
#: the fields that may be null (the others, when present, must be what they say)
_NULLABLE = frozenset({"rules", "house_rules", "turn_cap", "meta"})
_STEP_FIELDS = {"turn": (_whole(0), "a whole number from 0"), "seat": (_whole(1), "a whole number from 1"), "step": _TEXT}
_UNDONE_FIELDS = {"undone": (_whole(1), "the number of the takeback, from 1")}
_END_FIELDS = {"turn": (_whole(0), "a whole number from 0"), "winners": (_wholes, "a list of seat numbers"), "reason": _TEXT, "position": _TEXT}


_KINDS = frozenset({"start", "roll", "move", "resolved", "end"})


def _check_seat_counts(record: Record, source: str) -> None:
    """The number of seats agrees everywhere: the start event's seats, th
    play's meta.seats, and every seat an event or the end names."""
    seats = (record.header or {}).get("seats")
    if not isinstance(seats, list):
        return  # no seats: the replay names what is missing
    count = len(seats)
    kinds = (record.meta or {}).get("seats")
    if isinstance(kinds, list) and len(kinds) != count:
        raise RecordError(f"{source}: damaged record: the start event names {count} seats, but meta.seats names {len(kinds)}")
    for kind, turn, seat, _step, _value in (*record.events, *(e for _at, block in record.undone for e in block)):
        if not 0 <= seat < count:
            raise RecordError(f"{source}: damaged record: a {kind} on turn {turn} by seat {seat + 1}, but the game has {count} seats")
    winners = (record.footer or {}).get("winners") or []
    if any(not 1 <= winner <= count for winner in winners):
        raise RecordError(f"{source}: damaged record: the end event names winners {winners}, but the game has {count} seats")


def _check_fields(event: dict, fields: dict, required: bool = False, prefix: str = "") -> None:
    """Raise ``ValueError`` for the first field of ``event`` that is not what
    ``fields`` says (``KeyError`` for a missing one, when ``required``; the
    start event's missing fields are left to the replay, which names them)."""
    for key, (check, what) in fields.items():
        if key not in event:
            if required:
                raise KeyError(key)
            continue
        value = event[key]
        if value is None and key in _NULLABLE:
            continue
        if not check(value):
            raise ValueError(f"{prefix}{key} must be {what}, not {json.dumps(value)[:40]}")
