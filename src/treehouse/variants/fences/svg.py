"""Fences positions drawn in SVG, for ``th replay --html``: the 5x5 Inside, the Outside ring, Fences and Stacks.

A Pointing Fence is a triangle pointing its way; a Standing Fence is a square
with its diagonals (a pyramid seen from above); a Large Fence is drawn bigger
than a Medium one.  A Stack is a disc with its seat number, ringed by its
smalls, top colour outermost.  Every square is labelled (``a1``, ``N3``).
"""

from __future__ import annotations

from html import escape

from treehouse.kernel.pieces import Direction, Size
from treehouse.variants.fences.board import NAMES, SIZE, SQUARES, INSIDE, xy

CELL = 56
MARGIN = 24
FILL = {"red": "#d62728", "orange": "#ff7f0e", "yellow": "#e6c700", "green": "#2ca02c", "blue": "#1f5fbf"}
#: Unit vectors (SVG's y grows downward) of each pointing direction.
VECTOR = {Direction.NORTH: (0, -1), Direction.EAST: (1, 0), Direction.SOUTH: (0, 1), Direction.WEST: (-1, 0)}


def _centre(square: int) -> tuple[float, float]:
    x, y = xy(square)
    return MARGIN + x * CELL + CELL / 2, MARGIN + (SIZE - 1 - y) * CELL + CELL / 2


def _fence(cell, cx: float, cy: float) -> str:
    half = (CELL * (0.36 if cell.size is Size.LARGE else 0.26))
    colour = FILL.get(cell.colour, "#888")
    title = f"<title>{cell.size.value}({cell.colour}) {cell.direction.value}</title>"
    if cell.direction is Direction.UP:
        x0, y0, x1, y1 = cx - half, cy - half, cx + half, cy + half
        return (
            f'<g class="fence">{title}<rect x="{x0:.1f}" y="{y0:.1f}" width="{2 * half:.1f}" height="{2 * half:.1f}" fill="{colour}" stroke="#222"/>'
            f'<path d="M{x0:.1f},{y0:.1f}L{x1:.1f},{y1:.1f}M{x1:.1f},{y0:.1f}L{x0:.1f},{y1:.1f}" stroke="#222" stroke-width="1"/></g>'
        )
    dx, dy = VECTOR[cell.direction]
    tip = (cx + dx * half, cy + dy * half)
    base = ((cx - dx * half - dy * half * 0.8, cy - dy * half + dx * half * 0.8), (cx - dx * half + dy * half * 0.8, cy - dy * half - dx * half * 0.8))
    points = " ".join(f"{px:.1f},{py:.1f}" for px, py in (tip, *base))
    return f'<g class="fence">{title}<polygon points="{points}" fill="{colour}" stroke="#222"/></g>'


def _stack(seat: int, colours: tuple, cx: float, cy: float) -> str:
    parts = [f'<g class="stack"><title>player {seat + 1}: {escape(", ".join(reversed(colours)))} (top first)</title>']
    radius = CELL * 0.42
    step = (radius - CELL * 0.16) / max(1, len(colours))
    for depth, colour in enumerate(reversed(colours)):  # top colour outermost
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius - depth * step:.1f}" fill="{FILL.get(colour, "#888")}" stroke="#222"/>')
    parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{CELL * 0.15:.1f}" fill="#fff" stroke="#222"/>')
    parts.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" text-anchor="middle" font-size="12" font-weight="bold">{seat + 1}</text></g>')
    return "".join(parts)


#: What the picture's symbols mean (the replay page's legend).
LEGEND = """\
Squares: a1 (south-west) to e5 inside; N1-N5, E1-E5, S1-S5, W1-W5 the Outside ring.
A triangle is a Pointing Fence, pointing its way; a square with its diagonals is a Standing Fence.
A bigger Fence is a Large one, a smaller one a Medium; each is drawn in its colour.
A disc with a number is that player's Stack: its rings are its smalls, the top colour outermost."""


def seat_panel(state, seat: int) -> list[tuple[str, str]]:
    """One seat at a glance, in words: its Stack's height and top colour, the smalls destroyed, in or out."""
    stack, destroyed = state.stacks[seat], state.destroyed[seat]
    if state.out[seat]:
        turn = (state.out[seat] - 1) // 3 + 1  # a check is 3 x completed turns + the step (1-3)
        status = f"out (on turn {turn})"
    elif not stack:
        status = "drawing its Stack"
    else:
        status = "in"
    return [
        ("Stack", f"{len(stack)} small{'s' if len(stack) != 1 else ''}" + (f", {', '.join(reversed(stack))} (top first)" if stack else "")),
        ("Top colour", stack[-1] if stack else "-"),
        ("Destroyed", ", ".join(destroyed) if destroyed else "none"),
        ("Status", status),
    ]


def render_svg(state) -> str:
    """The whole board as one ``<svg>`` element."""
    side = 2 * MARGIN + SIZE * CELL
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" width="{side}" height="{side}" role="img" aria-label="Fences board">']
    for square in SQUARES:
        x, y = xy(square)
        left, top = MARGIN + x * CELL, MARGIN + (SIZE - 1 - y) * CELL
        fill = "#f4efe1" if square in INSIDE else "#d9d4c7"
        parts.append(f'<rect x="{left}" y="{top}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#8a8474"/>')
    for square in SQUARES:
        cell = state.board[square]
        if cell is None:
            continue
        cx, cy = _centre(square)
        if type(cell) is int:
            parts.append(_stack(cell, state.stacks[cell], cx, cy))
        else:
            parts.append(_fence(cell, cx, cy))
    # the square names last, over the pieces, with a halo: a Large Fence no longer hides its square's name
    for square in SQUARES:
        x, y = xy(square)
        left, top = MARGIN + x * CELL, MARGIN + (SIZE - 1 - y) * CELL
        parts.append(
            f'<text x="{left + 3}" y="{top + 11}" font-size="9" fill="#6b665a" stroke="#f4efe1" stroke-width="2.5" paint-order="stroke">{NAMES[square]}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
