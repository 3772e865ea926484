"""``th replay FILE --html OUT.html``: a recorded game as one self-contained web page.

The page needs no network: its styles, its script and every step's data are
inline.  Each step carries the board drawn by the variant
(``treehouse_render_svg``; the terminal drawing as text where a variant has
no picture), the roll, the move in words and notation, what the move set off
(its events, where the engine records them), the moves taken back there, and
the position's notation.  A slider, step buttons and the arrow keys move
through the game; ``#step=N`` in the address opens step N (and is kept up to
date, so a step can be linked).  Where the exact table is known (two-player
classic once ``th solve`` has run), a graph shows Player 1's winning chance
at every step.  Beside the board, a panel per player (the variant's
:meth:`~treehouse.kernel.variant.Variant.seat_panel`) and a legend of the
picture (:meth:`~treehouse.kernel.variant.Variant.picture_legend`); the
position's notation opens on request.

The page stays small: the drawings of a game repeat most of their parts from
step to step (the board's squares, the Fences that did not move), so each
distinct part (an SVG tag, a line of a text drawing) is written once, and
each step lists its parts by number (:func:`shared_parts`).
"""

from __future__ import annotations

import io
import json
import re
from html import escape
from typing import Any, Callable

from rich.console import Console

from treehouse.cli.story import when
from treehouse.kernel.engine import describe_event
from treehouse.kernel.records import Record

GRAPH_WIDTH, GRAPH_HEIGHT, GRAPH_LEFT, GRAPH_BOTTOM = 640, 180, 56, 36


def _text_drawing(hooks: Any, position: Any) -> str:
    console = Console(width=80, record=True, file=io.StringIO(), color_system=None)
    console.print(hooks.treehouse_render(position, 80))
    return console.export_text()


def _events(frame: Any) -> list[str]:
    """The words of what a step set off (the events its resolution reported)."""
    return [describe_event(event) for event in frame.events]


_PART = re.compile(r"(?=<)|(?<=\n)")


class SharedParts:
    """The distinct parts of a game's drawings, each kept once: a drawing is
    stored as the numbers of its parts, in order (SVG split before each tag,
    a text drawing after each line), and the page joins them again."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self._number: dict[str, int] = {}

    def numbers(self, drawing: str) -> list[int]:
        numbers = []
        for part in _PART.split(drawing):
            if part:
                number = self._number.get(part)
                if number is None:
                    number = self._number[part] = len(self.parts)
                    self.parts.append(part)
                numbers.append(number)
        return numbers


def steps_data(
    walked: Any, record: Record, hooks: Any, who: Callable[[int], str], taken_back: dict[int, list[str]], chances: list[float] | None, shared: SharedParts
) -> list[dict]:
    """One dict per step (step 0 is the start) with everything the page shows;
    the drawings' parts go to ``shared``."""
    variant = walked.variant
    players = len(record.header["seats"])

    def picture(position: Any) -> dict:
        svg = hooks.treehouse_render_svg(position)
        drawing = {"svg": shared.numbers(svg)} if svg else {"text": shared.numbers(_text_drawing(hooks, position))}
        panels = [variant.seat_panel(position, seat) for seat in range(players)]
        if any(panels):
            drawing["seats"] = [[who(seat), [list(pair) for pair in panel]] for seat, panel in enumerate(panels)]
        return drawing

    steps = [
        {
            "title": "Start",
            "roll": "",
            "move": "",
            "notation": "",
            "events": [],
            "position": variant.format_position(walked.start),
            **picture(walked.start),
        }
    ]
    for frame in walked.frames:
        step = "" if frame.step == "act" else f" · {frame.step}"
        steps.append(
            {
                "title": f"{when(frame.turn)}{step} · {who(frame.seat)}",
                "roll": ", then ".join(frame.rolls),
                "draw": frame.turn == 0,  # a setup step draws (Fences: a small from the bag), it does not roll
                "move": frame.words,
                "notation": frame.notation,
                "events": _events(frame),
                "position": variant.format_position(frame.after),
                **picture(frame.after),
            }
        )
    for index, lines in taken_back.items():
        if index < len(steps):
            steps[index]["taken_back"] = lines
    footer = record.footer
    if footer is not None:
        winners = footer.get("winners") or []
        result = f"Player {' and '.join(map(str, winners))} won" if winners else "A draw"
        steps[-1]["result"] = f"{result} on turn {footer.get('turn')}: {footer.get('reason', '')}."
    else:
        steps[-1]["result"] = "The record stops here: the game was saved before it ended."
    if chances is not None:
        for data, chance in zip(steps, chances):
            data["chance"] = chance
    return steps


def _graph(chances: list[float]) -> str:
    """Player 1's winning chance at every step, with axes, ticks and the 0.5 line."""
    width, height, left, bottom = GRAPH_WIDTH, GRAPH_HEIGHT, GRAPH_LEFT, GRAPH_BOTTOM
    plot_w, plot_h, top = width - left - 16, height - bottom - 12, 12
    last = max(1, len(chances) - 1)
    x = lambda i: left + plot_w * i / last  # noqa: E731
    y = lambda p: top + plot_h * (1 - p)  # noqa: E731
    points = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p in enumerate(chances))
    parts = [
        f'<svg id="chance-graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" aria-label="Player 1 winning chance by step">',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#333"/>',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#333"/>',
        f'<line x1="{left}" y1="{y(0.5):.1f}" x2="{left + plot_w}" y2="{y(0.5):.1f}" stroke="#999" stroke-dasharray="4 3"/>',
    ]
    for p in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<text x="{left - 6}" y="{y(p) + 4:.1f}" text-anchor="end" font-size="11">{int(p * 100)}%</text>')
    ticks = sorted({0, last, *range(0, last + 1, max(1, last // 8))})
    for i in ticks:
        parts.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 16}" text-anchor="middle" font-size="11">{i}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" text-anchor="middle" font-size="12">step</text>')
    parts.append(f'<text x="14" y="{top + plot_h / 2:.1f}" text-anchor="middle" font-size="12" transform="rotate(-90 14 {top + plot_h / 2:.1f})">P1 wins</text>')
    parts.append(f'<polyline points="{points}" fill="none" stroke="#d62728" stroke-width="2"/>')
    parts.append(f'<circle id="chance-marker" cx="{x(0):.1f}" cy="{y(chances[0]):.1f}" r="5" fill="#d62728" stroke="#fff"/>')
    parts.append("</svg>")
    return "".join(parts)


STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 60em; }
h1 { font-size: 1.3em; } #controls { display: flex; gap: .5em; align-items: center; margin: 1em 0; }
#slider { flex: 1; } button { font-size: 1em; padding: .2em .7em; }
#board svg { max-width: 100%; height: auto; } #board pre { font-size: 13px; }
.label { color: #666; display: inline-block; min-width: 5.5em; } #events li, #taken-back li { margin: .1em 0; }
#position { font-family: monospace; font-size: 12px; color: #555; word-break: break-all; }
#taken-back { color: #8a5a00; } #result { font-weight: bold; }
#table { display: flex; gap: 1.5em; flex-wrap: wrap; align-items: flex-start; }
#seats { display: flex; flex-direction: column; gap: .6em; min-width: 14em; }
.seat h3 { font-size: 1em; margin: 0 0 .2em 0; } .seat td { padding: 0 .6em 0 0; } .seat td:first-child { color: #666; }
#legend { font-size: .9em; color: #444; white-space: pre-wrap; }
"""

SCRIPT = """
const steps = JSON.parse(document.getElementById('steps-data').textContent);
const parts = JSON.parse(document.getElementById('parts-data').textContent);
function drawing(numbers) { return numbers.map((n) => parts[n]).join(''); }
const slider = document.getElementById('slider');
const graph = document.getElementById('chance-graph');
let current = 0;
function put(id, text) { document.getElementById(id).textContent = text; }
function list(id, items) {
  const ul = document.getElementById(id); ul.innerHTML = '';
  for (const item of items || []) { const li = document.createElement('li'); li.textContent = item; ul.appendChild(li); }
}
function show(index) {
  current = Math.max(0, Math.min(steps.length - 1, index));
  const s = steps[current];
  slider.value = current;
  put('counter', 'step ' + current + ' of ' + (steps.length - 1));
  put('title', s.title);
  put('roll-label', s.draw ? 'Drew' : 'Roll');
  put('roll', s.roll || '-');
  put('move', s.move ? (s.notation && s.notation !== s.move ? s.move + '  (' + s.notation + ')' : s.move) : '-');
  list('events', s.events);
  list('taken-back', (s.taken_back || []));
  put('result', current === steps.length - 1 ? (s.result || '') : '');
  put('position', s.position);
  const board = document.getElementById('board');
  if (s.svg) { board.innerHTML = drawing(s.svg); } else { board.innerHTML = ''; const pre = document.createElement('pre'); pre.textContent = drawing(s.text); board.appendChild(pre); }
  const seats = document.getElementById('seats'); seats.innerHTML = '';
  for (const [name, rows] of (s.seats || [])) {
    const panel = document.createElement('div'); panel.className = 'seat';
    const head = document.createElement('h3'); head.textContent = name; panel.appendChild(head);
    const table = document.createElement('table');
    for (const [label, value] of rows) {
      const tr = table.insertRow(); tr.insertCell().textContent = label; tr.insertCell().textContent = value;
    }
    panel.appendChild(table); seats.appendChild(panel);
  }
  if (graph && s.chance !== undefined) {
    put('chance', (100 * s.chance).toFixed(1) + '%');
    const marker = document.getElementById('chance-marker');
    const last = Math.max(1, steps.length - 1);
    marker.setAttribute('cx', (GRAPH.left + GRAPH.w * current / last).toFixed(1));
    marker.setAttribute('cy', (GRAPH.top + GRAPH.h * (1 - s.chance)).toFixed(1));
  }
  history.replaceState(null, '', '#step=' + current);
}
document.getElementById('first').onclick = () => show(0);
document.getElementById('prev').onclick = () => show(current - 1);
document.getElementById('next').onclick = () => show(current + 1);
document.getElementById('last').onclick = () => show(steps.length - 1);
slider.oninput = () => show(parseInt(slider.value, 10));
document.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowRight') show(current + 1);
  else if (e.key === 'ArrowLeft') show(current - 1);
  else if (e.key === 'Home') show(0);
  else if (e.key === 'End') show(steps.length - 1);
});
const wanted = /step=(\\d+)/.exec(location.hash);
show(wanted ? parseInt(wanted[1], 10) : 0);
"""


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":")).replace("</", "<\\/")


def replay_page(title: str, steps: list[dict], chances: list[float] | None, shared: SharedParts, legend: str = "") -> str:
    """The whole page as one string (``legend``: what the picture's symbols mean)."""
    data = _json(steps)
    graph = ""
    if chances is not None:
        plot_w, plot_h = GRAPH_WIDTH - GRAPH_LEFT - 16, GRAPH_HEIGHT - GRAPH_BOTTOM - 12
        graph = (
            f'<h2>Player 1\'s winning chance: <span id="chance"></span></h2>{_graph(chances)}'
            f"<script>const GRAPH = {{left: {GRAPH_LEFT}, top: 12, w: {plot_w}, h: {plot_h}}};</script>"
        )
    last = len(steps) - 1
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title><style>{STYLE}</style></head>
<body>
<h1>{escape(title)}</h1>
<div id="controls">
<button id="first" title="the start (Home)">Start</button><button id="prev" title="previous step (&#x2190;)">&#x25C0;</button>
<input id="slider" type="range" min="0" max="{last}" value="0" aria-label="step">
<button id="next" title="next step (&#x2192;)">&#x25B6;</button><button id="last" title="the end (End)">End</button>
<span id="counter"></span>
</div>
<h2 id="title"></h2>
<div><span class="label" id="roll-label">Roll</span><span id="roll"></span></div>
<div><span class="label">Move</span><span id="move"></span></div>
<ul id="events"></ul>
<ul id="taken-back"></ul>
<div id="result"></div>
<div id="table"><div id="board"></div><div id="seats"></div></div>
{f'<details open><summary>Legend</summary><div id="legend">{escape(legend)}</div></details>' if legend else ""}
<details><summary>Position (notation)</summary><span id="position"></span></details>
{graph}
<script type="application/json" id="steps-data">{data}</script>
<script type="application/json" id="parts-data">{_json(shared.parts)}</script>
<script>{SCRIPT}</script>
</body></html>
"""
