"""Drawing classic positions in the terminal: each trio as stacks standing on its line."""

from __future__ import annotations

from rich.text import Text

from treehouse.kernel.pieces import Direction
from treehouse.variants.classic.trio import Trio, format_trio

#: Pictures of a piece by direction; the size letter goes with it.
GLYPHS = {Direction.UP: "▲", Direction.LEFT: "◀", Direction.RIGHT: "▶"}
SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan")
HOUSE_STYLE = "bold white"


def render_trio(trio: Trio, label: str, style: str, width: int = 12, height: int | None = None) -> Text:
    """A trio drawn bottom-up (as tall as its tallest stack, or ``height``), with its label and notation."""
    text = Text()
    height = height or max(len(stack) for stack in trio)
    for level in reversed(range(height)):
        text.append(f"{label if level == 0 else '':<{width}}", style=style if level == 0 else "")
        for stack in trio:
            cell = f"{stack[level].size.value}{GLYPHS[stack[level].direction]}" if level < len(stack) else ""
            text.append(f"{cell:<4}", style=style)
        if level == 0:
            text.append(f"   {format_trio(trio)}", style="dim")
        text.append("\n")
    return text


def render_position(state, console_width: int = 80) -> Text:
    """The House above every trio, each three rows high so the lines align; * marks the player to move."""
    text = render_trio(state.house, "House", HOUSE_STYLE, height=3)
    for seat, trio in enumerate(state.trios):
        marker = " *" if seat == state.to_move else ""
        text.append("\n")
        text.append_text(render_trio(trio, f"Player {seat + 1}{marker}", SEAT_STYLES[seat % len(SEAT_STYLES)], height=3))
    return text
