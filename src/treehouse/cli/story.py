"""The story of a game in words for the terminal: each step, what it set off, and the result.

``th play`` tells the story since a person's last decision on its steady
screen, ``th replay`` under each step, ``th serve`` in its log.  The CLI
knows no game: a move's words are the variant's (``describe_move``), a
roll's its ``describe_face``, and an event's its ``describe()``
(:func:`~treehouse.kernel.engine.describe_event`), kept on the step by the
engine from the variant's ``treehouse_resolve`` (a Hit, a small lost, a
player out); an event whose ``eliminated`` attribute is a seat says that
player went out.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any, Iterable

from treehouse.kernel.engine import describe_event
from treehouse.kernel.resume import describe
from treehouse.kernel.turn import chance_verb

if TYPE_CHECKING:
    from treehouse.cli.menu import Menu
    from treehouse.kernel.engine import Game

#: How an event is set under the move that caused it.
INDENT = "  "


def when(turn: int) -> str:
    """A step's place in the game for people: its turn, or the setup (turn 0,
    the kernel's setup phase, before the first turn)."""
    return f"Turn {turn}" if turn else "Setup"


def step_line(game: Game, step: Any, who: str, faces: list[str], move: Any) -> str:
    """One step in words: ``Turn 3 (fence) · Player 1 rolled HOP: ...`` (``th play``'s transcript, ``th serve``'s log)."""
    rolled = ", then ".join(faces)
    words = describe(game.variant, move)
    steps = "" if step.name == "act" else f" ({step.name})"
    return f"{when(game.turn)}{steps} · {who}" + (f" {chance_verb(step)} {rolled}: {words}" if rolled else f": {words}")


def roll_line(hooks: Any, faces: list[str], step: Any, face: str | None, menu: Menu, board_above: bool = False) -> str:
    """The roll of a decision and what its face lets the player do (``faces``: the step's rolls so far,
    ending with ``face``), as the game's hooks say; ``th serve``'s pages say the same.  ``board_above``:
    the position is drawn just above the line (``th play``), so a setup draw says that its bag still
    counts the small drawn (the position is the one before the move that places it)."""
    earlier = faces[:-1] if face is not None else faces
    line = f"Rolled {', '.join(earlier)} first (nothing to do, or declined), then rolled again. " if earlier else ""
    if face is not None:
        meaning = hooks.treehouse_describe_face(face) or ""
        if getattr(step, "setup", False):  # a setup step draws (Fences: a small from the bag)
            # the position above is the one before the move, so its bag still holds the small drawn
            line += f"Drew {face}" + (" (the bag above still counts it until it is placed)" if board_above else "") + (f": {meaning}." if meaning else ".")
        else:
            line += f"Rolled {face}" + (f": {meaning}." if meaning else ".")
    else:
        line += f"No roll in this step ({step.name})."
    if menu.second_question or any(len(entry.moves) > 1 for entry in menu.entries):
        first, second = hooks.variant.choice_questions(face)
        line = f"{face or step.name}: {menu.opened.words}. {second}; b goes back." if menu.second_question else f"{line} {first}"
    return line


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


def result_words(outcome: Any, who: Any) -> str:
    """``Player 1 wins``, ``Player 1 and Player 2 tie`` or ``A draw`` (``who(seat)`` names a seat)."""
    if not outcome.winners:
        return "A draw"
    names = " and ".join(who(w) for w in outcome.winners)
    return f"{names} {'wins' if len(outcome.winners) == 1 else 'tie'}"


def story_lines(story: list[str], width: int, room: int) -> list[str]:
    """The lines of ``story`` wrapped at words to ``width``, at most ``room`` rows: when they
    are more, the oldest fold into one line saying how many, and where the rest is (the log)."""
    lines = [part for line in story for part in (textwrap.wrap(line, width, subsequent_indent="    ") or [""])]
    if len(lines) <= room:
        return lines
    if room <= 0:
        return []
    kept = lines[len(lines) - (room - 1) :] if room > 1 else []
    folded = len(lines) - len(kept)
    return [f"… {folded} earlier line{'s' if folded != 1 else ''} (g: the log)", *kept]
