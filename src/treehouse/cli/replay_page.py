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
at every step.
"""

from __future__ import annotations

import io
import json
from html import escape
from typing import Any, Callable

from rich.console import Console

from treehouse.cli.happened import describe_event
from treehouse.kernel.records import Record

GRAPH_WIDTH, GRAPH_HEIGHT, GRAPH_LEFT, GRAPH_BOTTOM = 640, 180, 56, 36


def _text_drawing(hooks: Any, position: Any) -> str:
    console = Console(width=80, record=True, file=io.StringIO(), color_system=None)
    console.print(hooks.treehouse_render(position, 80))
    return console.export_text()


def _events(frame: Any) -> list[str]:
    """The words of what a step set off (the events its resolution reported)."""
    return [describe_event(event) for event in frame.events]


def steps_data(walked: Any, record: Record, hooks: Any, who: Callable[[int], str], taken_back: dict[int, list[str]], chances: list[float] | None) -> list[dict]:
    """One dict per step (step 0 is the start) with everything the page shows."""
    variant = walked.variant

    def picture(position: Any) -> dict:
        svg = hooks.treehouse_render_svg(position)
        return {"svg": svg} if svg else {"text": _text_drawing(hooks, position)}

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
                "title": f"Turn {frame.turn}{step} · {who(frame.seat)}",
                "roll": ", then ".join(frame.rolls),
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
"""

SCRIPT = """
const steps = JSON.parse(document.getElementById('steps-data').textContent);
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
  put('roll', s.roll || '-');
  put('move', s.move ? (s.notation && s.notation !== s.move ? s.move + '  (' + s.notation + ')' : s.move) : '-');
  list('events', s.events);
  list('taken-back', (s.taken_back || []));
  put('result', current === steps.length - 1 ? (s.result || '') : '');
  put('position', s.position);
  const board = document.getElementById('board');
  if (s.svg) { board.innerHTML = s.svg; } else { board.innerHTML = ''; const pre = document.createElement('pre'); pre.textContent = s.text; board.appendChild(pre); }
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


def replay_page(title: str, steps: list[dict], chances: list[float] | None) -> str:
    """The whole page as one string."""
    data = json.dumps(steps, separators=(",", ":")).replace("</", "<\\/")
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
<div><span class="label">Roll</span><span id="roll"></span></div>
<div><span class="label">Move</span><span id="move"></span></div>
<ul id="events"></ul>
<ul id="taken-back"></ul>
<div id="result"></div>
<div id="board"></div>
<div><span class="label">Position</span><span id="position"></span></div>
{graph}
<script type="application/json" id="steps-data">{data}</script>
<script>{SCRIPT}</script>
</body></html>
"""
