"""The board as ``th play`` draws it, for the environments' ``render`` (docs/interop.md).

The drawing is the game's ``treehouse_render`` hook (the variant's own, or a
house rule's that answers first), printed by ``rich`` as ``th play`` prints
it, then one line saying what is pending (the step, the face rolled, the
end).  ``human`` prints it to the terminal; ``ansi`` returns it as text with
the terminal's colour codes.  ``rgb_array`` is not offered: a picture would
need an SVG rasteriser the project does not depend on.
"""

from __future__ import annotations

import io
import sys
from typing import Any

from treehouse.errors import ConfigError
from treehouse.interop.flow import GameFlow, Node

#: The render modes the environments offer.
RENDER_MODES = ("human", "ansi")
#: Columns the board is drawn in (``th play`` draws in at most 80).
WIDTH = 80


def check_render_mode(who: str, render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ConfigError(f"{who}: render_mode {render_mode!r} is not offered; the modes offered are {', '.join(map(repr, RENDER_MODES))} (or None)")


def draw(flow: GameFlow, node: Node, pending: str, mode: str) -> str | None:
    """Print the board at ``node`` (``human``) or return it as text (``ansi``)."""
    from rich.console import Console

    human = mode == "human"
    out = sys.stdout if human else io.StringIO()
    console = Console(file=out, width=WIDTH, force_terminal=True if not human else None, color_system="standard" if not human else "auto", highlight=False)
    if node.position is not None:
        drawing: Any = flow._call(flow.hooks.treehouse_render, node.position, WIDTH)
        console.print(drawing)
    console.print(pending, markup=False)
    return None if human else out.getvalue()
