"""Classic positions drawn in SVG, for ``th replay --html``: the House above every trio.

Each trio stands on its line: stacks side by side, pieces bottom to top; an
upright piece is a triangle pointing up, a lying one points left or right.
Sizes are drawn to scale (small, medium, large) and lettered.
"""

from __future__ import annotations

from html import escape

from treehouse.kernel.pieces import Direction, Size
from treehouse.variants.classic.trio import format_trio

#: What the picture's symbols mean (the replay page's legend).
LEGEND = """\
The House is the top row, each player's trio a row below it, in seat order.
An upright pyramid is a triangle pointing up (stacked ones stand on each other);
a lying one points left or right. S, M and L mark small, medium and large."""

ROW = 130
SLOT = 70
LABEL = 90
SIDE = {Size.SMALL: 22, Size.MEDIUM: 30, Size.LARGE: 38}
SEAT_FILL = ("#d62728", "#1f5fbf", "#2ca02c", "#e6c700", "#9467bd", "#17becf")
HOUSE_FILL = "#bbbbbb"


def _piece(piece, cx: float, bottom: float, fill: str) -> tuple[str, float]:
    """One pyramid standing on ``bottom`` at ``cx``; returns the SVG and its height."""
    side = SIDE[piece.size]
    if piece.direction is Direction.UP:
        points = [(cx - side / 2, bottom), (cx + side / 2, bottom), (cx, bottom - side)]
        height = side
    else:
        sign = 1 if piece.direction is Direction.RIGHT else -1
        points = [(cx - sign * side / 2, bottom), (cx - sign * side / 2, bottom - side * 0.7), (cx + sign * side / 2, bottom - side * 0.35)]
        height = side * 0.7
    shape = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    mid_y = sum(y for _x, y in points) / 3
    return (
        f'<g class="piece"><title>{piece.size.value} {piece.direction.value}</title><polygon points="{shape}" fill="{fill}" stroke="#222"/>'
        f'<text x="{cx:.1f}" y="{mid_y + 4:.1f}" text-anchor="middle" font-size="10" fill="#fff">{piece.size.value}</text></g>',
        height,
    )


def _trio(trio, top: float, label: str, fill: str) -> str:
    base = top + ROW - 30
    parts = [f'<text x="8" y="{base - 4:.1f}" font-size="14" font-weight="bold">{escape(label)}</text>']
    parts.append(f'<line x1="{LABEL}" y1="{base:.1f}" x2="{LABEL + 3 * SLOT + 20}" y2="{base:.1f}" stroke="#555"/>')
    for index, stack in enumerate(trio):
        cx, bottom = LABEL + 10 + SLOT * index + SLOT / 2, base
        for piece in stack:
            svg, height = _piece(piece, cx, bottom, fill)
            parts.append(svg)
            bottom -= height
    parts.append(f'<text x="{LABEL}" y="{base + 18:.1f}" font-size="12" font-family="monospace" fill="#555">{escape(format_trio(trio))}</text>')
    return "".join(parts)


def render_svg(state) -> str:
    """The House and every trio as one ``<svg>`` element; ``*`` marks the player to move."""
    rows = 1 + len(state.trios)
    width, height = LABEL + 3 * SLOT + 60, rows * ROW
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" aria-label="classic position">']
    parts.append(_trio(state.house, 0, "House", HOUSE_FILL))
    for seat, trio in enumerate(state.trios):
        marker = " *" if seat == state.to_move else ""
        parts.append(_trio(trio, ROW * (seat + 1), f"Player {seat + 1}{marker}", SEAT_FILL[seat % len(SEAT_FILL)]))
    parts.append("</svg>")
    return "".join(parts)
