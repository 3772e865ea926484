"""What happened at a step, in words for the terminal.

The events come from the variant's ``treehouse_resolve`` (a Hit, a small
lost, a player out), kept on the step by the engine: ``th play`` prints them
as they happen, ``th replay`` under each step.  The CLI knows no game: an
event's words are its ``describe()`` (:func:`~treehouse.kernel.engine.describe_event`),
and an event whose ``eliminated`` attribute is a seat says that player went out.
"""

from __future__ import annotations

from typing import Any, Iterable

from treehouse.kernel.engine import describe_event

#: How an event is set under the move that caused it.
INDENT = "  "


def event_lines(events: Iterable[Any]) -> list[str]:
    """One indented line per event of a step."""
    return [INDENT + describe_event(event) for event in events]


def how_it_ended(events: Iterable[Any]) -> str:
    """How the last player(s) went out at the final step (the words of the
    events that put a player out), or ``""`` when none did."""
    return "; ".join(describe_event(event) for event in events if getattr(event, "eliminated", None) is not None)


def game_over_line(result: str, turn: int, reason: str, final_events: Iterable[Any] = ()) -> str:
    """``Player 1 wins on turn 12: last stack standing. Player 2 is out: ...``"""
    line = f"{result} on turn {turn}: {reason}."
    fell = how_it_ended(final_events)
    return f"{line} {fell}." if fell else line
