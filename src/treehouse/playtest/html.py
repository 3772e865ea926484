"""The ``--report FILE.html`` page: one self-contained file, plots drawn as inline SVG.

No plotting library is needed: the charts are a few rectangles and lines,
written here by hand, so the page opens anywhere without a network.
"""

from __future__ import annotations

import html
import math
import json
from typing import Any, Sequence

from treehouse.playtest.metrics import SEAT_METRICS, SEATS_MEASURE_BOTS, definition
from treehouse.playtest.stats import p_text

PALETTE = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#eeca3b", "#9d755d")
FACE_PARTS = (("forced", "#f58518"), ("impossible", "#e45756"), ("rerolled", "#b279a2"), ("passed", "#eeca3b"))

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:980px;color:#222;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:.9rem;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:right}
th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}td{white-space:nowrap}td.words,th.words{text-align:left;white-space:normal}.sig{background:#fff3c4;font-weight:600}
svg{display:block;margin:.5rem 0}.note{color:#666;font-size:.85rem}.legend span{display:inline-block;margin-right:1rem}
.legend i{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:middle}
"""


def esc(value: Any) -> str:
    return html.escape(str(value))


def fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def page(title: str, sections: Sequence[str], data: Any = None) -> str:
    embedded = ""
    if data is not None:
        payload = json.dumps(data).replace("</", "<\\/")
        embedded = f'<script type="application/json" id="data">{payload}</script>'
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{esc(title)}</title>"
        f"<style>{STYLE}</style></head><body><h1>{esc(title)}</h1>{''.join(sections)}{embedded}</body></html>\n"
    )


def _words(cell: Any) -> str:
    """A cell of prose (a definition) reads left-aligned and wraps; numbers and names stay on one line."""
    return ' class="words"' if isinstance(cell, str) and cell.count(" ") >= 3 else ""


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], highlight: Sequence[bool] = ()) -> str:
    prose = [any(i < len(row) and _words(row[i]) for row in rows) for i in range(len(headers))]  # a column of prose: its header reads left too
    head = "".join(("<th class=words>" if prose[i] else "<th>") + f"{esc(h)}</th>" for i, h in enumerate(headers))
    body = []
    for i, row in enumerate(rows):
        cls = ' class="sig"' if i < len(highlight) and highlight[i] else ""
        body.append(f"<tr{cls}>" + "".join(f"<td{_words(c)}>{esc(fmt(c))}</td>" for c in row) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def legend(items: Sequence[tuple[str, str]]) -> str:
    return '<div class="legend">' + "".join(f'<span><i style="background:{c}"></i>{esc(n)}</span>' for n, c in items) + "</div>"


def _binned(series: Sequence[tuple[str, dict]], bins: int) -> tuple[int, int, list[list[float]]]:
    """Shared bins for several histograms of game lengths: ``(first value, bin size, each series' shares per bin)``."""
    values = [int(k) for _, hist in series for k in hist]
    lo, hi = min(values), max(values)
    size = max(1, -(-(hi - lo + 1) // bins))
    count = (hi - lo) // size + 1
    counted = []
    for _, hist in series:
        total = sum(hist.values()) or 1
        row = [0.0] * count
        for k, v in hist.items():
            row[(int(k) - lo) // size] += v / total
        counted.append(row)
    return lo, size, counted


def histogram(series: Sequence[tuple[str, dict]], bins: int = 40, width: int = 900, height: int = 220) -> str:
    """Game lengths of one series (several: :func:`histograms`, small multiples)."""
    if len(series) != 1:
        return histograms(series, bins)
    if not any(hist for _, hist in series):
        return "<p class=note>no games</p>"
    lo, size, counted = _binned(series, bins)
    return _histogram_svg(series[0][0], lo, size, counted[0], max(counted[0]) or 1, PALETTE[0], width, height, titled=False)


def histograms(series: Sequence[tuple[str, dict]], bins: int = 30, width: int = 440, height: int = 200) -> str:
    """Game lengths of several series as small multiples: one chart each, side
    by side, on the same bins and the same scale, so they compare at a glance
    without hiding each other."""
    series = [(name, hist) for name, hist in series if hist]
    if not series:
        return "<p class=note>no games</p>"
    lo, size, counted = _binned(series, bins)
    top = max(max(row) for row in counted) or 1
    return "<div>" + "".join(
        _histogram_svg(name, lo, size, row, top, PALETTE[i % len(PALETTE)], width, height, titled=True) for i, ((name, _), row) in enumerate(zip(series, counted))
    ) + "</div>"


def _histogram_svg(name: str, lo: int, size: int, row: Sequence[float], top: float, color: str, width: int, height: int, titled: bool) -> str:
    """One histogram: bars of the share of games per bin of turns, with both axes, their ticks and names."""
    left, bottom, head = 64, 40, 22 if titled else 10
    count = len(row)
    w, h = width - left - 10, height - bottom - head
    inline = ' style="display:inline-block;vertical-align:top"' if titled else ""
    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="game length histogram: {esc(name)}"{inline}>']
    if titled:
        parts.append(f'<text x="{left}" y="14" font-size="12" font-weight="600">{esc(name)}</text>')
    parts.append(f'<line x1="{left}" y1="{head + h}" x2="{left + w}" y2="{head + h}" stroke="#888"/>')
    bar = w / count
    for i, share in enumerate(row):
        if share:
            bh = share / top * h
            parts.append(
                f'<rect x="{left + i * bar:.1f}" y="{head + h - bh:.1f}" width="{max(bar - 1, 1):.1f}" height="{bh:.1f}" '
                f'fill="{color}" fill-opacity="0.85"><title>{lo + i * size}-{lo + (i + 1) * size - 1} turns: {share:.1%}</title></rect>'
            )
    every = max(1, -(-count * 40 // w))  # a tick label per 40 pixels at most: they never overlap
    for i in range(0, count + 1, every):
        x = left + i * bar
        parts.append(f'<text x="{x:.1f}" y="{height - 14}" font-size="11" text-anchor="middle">{lo + i * size}</text>')
    parts.append(f'<text x="{left + w / 2:.1f}" y="{height - 4}" font-size="11" text-anchor="middle">turns</text>')
    # the y axis: the share of games in each bin
    parts.append(f'<line x1="{left}" y1="{head}" x2="{left}" y2="{head + h}" stroke="#888"/>')
    for share in (0.0, top / 2, top):
        ty = head + h - share / top * h
        parts.append(f'<line x1="{left - 4}" y1="{ty:.1f}" x2="{left}" y2="{ty:.1f}" stroke="#888"/>')
        parts.append(f'<text x="{left - 6}" y="{ty + 4:.1f}" font-size="11" text-anchor="end">{share:.1%}</text>')
    parts.append(f'<text x="12" y="{head + h / 2:.1f}" font-size="11" text-anchor="middle" transform="rotate(-90 12 {head + h / 2:.1f})">games</text>')
    parts.append("</svg>")
    return "".join(parts)


def label_width(labels: Sequence[str], font_size: int = 12) -> float:
    """Room for the longest label, left of a chart (a generous 0.62 em a character: never cut)."""
    return max((len(label) for label in labels), default=0) * font_size * 0.62 + 16


def interval_bars(
    rows: Sequence[tuple[str, float, float, float]],
    width: int = 900,
    scale: tuple[float, float] = (0.0, 1.0),
    colors: Sequence[str] = (),
    reference: float | None = None,
    axis: str = "",
) -> str:
    """Horizontal bars (value) with interval whiskers (low-high), one per row,
    the value and interval written beside each; ``reference`` draws a dashed
    line there (0.5: an even game between two); ``axis`` names the x axis.
    The left margin fits the longest label."""
    lo, hi = scale
    left, row_h = max(80.0, label_width([label for label, *_ in rows])), 24
    w = max(width - left - 170, 200)
    width = int(left + w + 170)
    base = row_h * len(rows) + 8
    height = base + 22 + (16 if axis else 0)
    x = lambda v: left + (min(max(v, lo), hi) - lo) / ((hi - lo) or 1) * w  # noqa: E731
    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="{esc(axis or "values with intervals")}">']
    for i, (label, value, low, high) in enumerate(rows):
        y = 4 + i * row_h
        color = colors[i % len(colors)] if colors else PALETTE[0]
        parts.append(f'<text x="{left - 8:.1f}" y="{y + 15}" font-size="12" text-anchor="end">{esc(label)}</text>')
        start = x(max(lo, min(0.0, hi))) if lo < 0 else x(lo)
        parts.append(f'<rect x="{min(start, x(value)):.1f}" y="{y + 4}" width="{abs(x(value) - start):.1f}" height="{row_h - 10}" fill="{color}" fill-opacity="0.75"/>')
        if low is not None and high is not None:
            parts.append(f'<line x1="{x(low):.1f}" y1="{y + row_h / 2:.1f}" x2="{x(high):.1f}" y2="{y + row_h / 2:.1f}" stroke="#222" stroke-width="2"/>')
            for end in (low, high):
                parts.append(f'<line x1="{x(end):.1f}" y1="{y + 6}" x2="{x(end):.1f}" y2="{y + row_h - 6}" stroke="#222"/>')
            parts.append(f'<text x="{left + w + 8:.1f}" y="{y + 15}" font-size="11">{value:.3f} [{low:.3f}, {high:.3f}]</text>')
        else:
            parts.append(f'<text x="{left + w + 8:.1f}" y="{y + 15}" font-size="11">{value:.3f}</text>')
    parts.append(f'<line x1="{left:.1f}" y1="{base}" x2="{left + w:.1f}" y2="{base}" stroke="#888"/>')
    parts.append(f'<line x1="{x(lo):.1f}" y1="2" x2="{x(lo):.1f}" y2="{base}" stroke="#888"/>')
    if reference is not None:
        parts.append(f'<line x1="{x(reference):.1f}" y1="2" x2="{x(reference):.1f}" y2="{base}" stroke="#e45756" stroke-dasharray="5 4"><title>even: {reference:g}</title></line>')
    for k in range(5):
        tick = lo + (hi - lo) * k / 4
        parts.append(f'<line x1="{x(tick):.1f}" y1="{base}" x2="{x(tick):.1f}" y2="{base + 4}" stroke="#888"/>')
        parts.append(f'<text x="{x(tick):.1f}" y="{base + 15}" font-size="11" text-anchor="middle">{tick:g}</text>')
    if axis:
        parts.append(f'<text x="{left + w / 2:.1f}" y="{height - 5}" font-size="11" text-anchor="middle">{esc(axis)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def face_bars(faces: Sequence[dict], width: int = 900) -> str:
    """Per face: how its rolls went (shares of the times it was rolled),
    stacked, on a 0-100% axis, with the shares written beside each bar."""
    left, row_h, right = 70, 24, 380
    w = width - left - right
    base = row_h * len(faces) + 6
    height = base + 34
    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="how each face\'s rolls went">']
    for i, face in enumerate(faces):
        y = 4 + i * row_h
        parts.append(f'<text x="{left - 8}" y="{y + 15}" font-size="12" text-anchor="end">{esc(face["face"])}</text>')
        parts.append(f'<rect x="{left}" y="{y + 3}" width="{w}" height="{row_h - 8}" fill="#e8eef6"><title>rolled {face["rolled"]}</title></rect>')
        x = float(left)
        said = []
        for part, color in FACE_PARTS:
            share = face.get(f"{part}_share") or 0.0
            if share:
                parts.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{share * w:.1f}" height="{row_h - 8}" fill="{color}"><title>{part}: {share:.1%}</title></rect>')
                x += share * w
                said.append(f"{part} {share:.1%}")
        text = f"rolled {face['rolled']}" + (": " + ", ".join(said) if said else ": all by choice")
        parts.append(f'<text x="{left + w + 8}" y="{y + 15}" font-size="11">{esc(text)}</text>')
    parts.append(f'<line x1="{left}" y1="{base}" x2="{left + w}" y2="{base}" stroke="#888"/>')
    for k in range(5):
        tx = left + w * k / 4
        parts.append(f'<line x1="{tx:.1f}" y1="{base}" x2="{tx:.1f}" y2="{base + 4}" stroke="#888"/>')
        parts.append(f'<text x="{tx:.1f}" y="{base + 15}" font-size="11" text-anchor="middle">{25 * k}%</text>')
    parts.append(f'<text x="{left + w / 2:.1f}" y="{height - 5}" font-size="11" text-anchor="middle">share of the face\'s rolls</text>')
    parts.append("</svg>")
    return "".join(parts) + legend([("played by choice", "#e8eef6"), *FACE_PARTS])


def seat_label(result: dict, seat: int) -> str:
    """``seat 1``, with its bot where one bot kept the seat and the bots differ."""
    return f"seat {seat} ({result['seat_kinds'][seat - 1]})" if result.get("seat_metrics_measure_bots") else f"seat {seat}"


def seats_part(result: dict) -> list[str]:
    """The game's balance: each seat's win rate and the seat metrics, with what they measure."""
    seats = result["seats"]
    how = _seats_said(result)
    return [
        "<h2>Seats: the game's balance</h2>",
        f"<p class=note>{esc(how)}</p>",
        "<h3>Win rate of each seat (95% Wilson intervals)</h3>",
        interval_bars([(seat_label(result, s["seat"]), s["rate"], s["low"], s["high"]) for s in seats], colors=PALETTE, reference=_even(seats), axis="win rate (sole wins / games)"),
        table(
            ["metric", "value", "low", "high", "what it measures"],
            [[k, result["metrics"][k]["value"], result["metrics"][k]["low"], result["metrics"][k]["high"], definition(k)] for k in SEAT_METRICS if k in result["metrics"]],
        ),
    ]


def entrants_part(result: dict) -> list[str]:
    """Each bot over every seat it held: its score and its edge over the field."""
    entrants = result.get("entrants") or []
    if not entrants:
        return []
    return [
        "<h2>Entrants: each bot over every seat it held</h2>",
        f"<p class=note><b>score</b>: {esc(definition('score'))}.  <b>edge</b>: {esc(definition('edge'))}.</p>",
        "<h3>Score of each bot (95% intervals)</h3>",
        interval_bars([(e["bot"], e["score"], e["low"], e["high"]) for e in entrants], colors=PALETTE, reference=1 / len(result["seats"]), axis="score (mean result per seat held)"),
        table(
            ["bot", "seats held", "sole wins", "score", "low", "high", "edge", "low", "high"],
            [[e["bot"], e["seats"], e["wins"], e["score"], e["low"], e["high"], e["edge"], e["edge_low"], e["edge_high"]] for e in entrants],
        ),
    ]


def simulate_sections(result: dict) -> list[str]:
    sections = [
        f"<p>{esc(result['rule_set'])} ({esc(result['variant'])}), {result['games']} games, seats: {esc(', '.join(result['seat_kinds']))}"
        f"{' (rotated)' if result.get('seats_rotated') else ''}, seed {esc(result['seed'])}.</p>",
        *seats_part(result),
        *entrants_part(result),
        f"<p class=note>ties {result['ties']}, draws {result['draws']}, turn-cap timeouts {result['timeouts']}</p>",
        "<h2>Game length (turns)</h2>",
        histogram([(result["rule_set"], result["lengths"])]),
        table(["mean", "median", "p90", "min", "max"], [[result["length"][k] for k in ("mean", "median", "p90", "min", "max")]]),
        "<h2>The die</h2>",
        face_bars(result["faces"]),
        table(["face", "rolled", "forced", "impossible", "rerolled", "passed"], [[f["face"], f["rolled"], f["forced"], f["impossible"], f["rerolled"], f["passed"]] for f in result["faces"]]),
        "<h2>Metrics of the games</h2>",
        table(["metric", "value", "low", "high", "what it measures"], [[k, v["value"], v["low"], v["high"], definition(k)] for k, v in result["metrics"].items() if k not in SEAT_METRICS]),
    ]
    if result["variant_statistics"]:
        sections += [
            "<h2>Variant statistics (per game)</h2>",
            table(["counter", "total", "per game", "low", "high", "what it measures"], [[k, v["total"], v["per_game"], v["low"], v["high"], definition(f"{k} per game")] for k, v in result["variant_statistics"].items()]),
        ]
    if result.get("skill"):
        data = result["skill"]
        sections += [
            "<h2>Luck and skill</h2>",
            f"<p>Each stronger bot against each weaker one, {data['games_per_pair']} games a pair on the same seeds, seats rotated: "
            f"the stronger bot's score (a win 1, a shared result its share) with its 95% interval.  "
            f"<b>SkillTrace {fmt(data['SkillTrace'])}</b>: the mean edge over the adjacent rungs of {esc(' < '.join(data['ladder']))} "
            "(0: the dice decide everything, 1: each step of skill always wins; docs/playtesting.md).</p>",
            interval_bars([(f"{p['strong']} vs {p['weak']}", p["score"], p["low"], p["high"]) for p in data["pairs"]], colors=PALETTE),
            table(["stronger", "weaker", "games", "score", "low", "high", "edge"], [[p["strong"], p["weak"], p["games"], p["score"], p["low"], p["high"], p["edge"]] for p in data["pairs"]]),
        ]
    return sections


def simulate_report(result: dict) -> str:
    return page(f"th simulate: {result['rule_set']}", simulate_sections(result), result)


#: The parts of a comparison's rows (``part`` in the JSON), with what each measures.
COMPARE_PARTS = (
    ("seats", "Seats: the game's balance"),
    ("entrants", "Entrants: each bot over every seat it held"),
    ("games", "Games: the metrics of the games"),
)


def compare_report(result: dict) -> str:
    a, b = result["a"], result["b"]
    rows = result["differences"]
    seat_rows, colors = [], []
    for s in range(len(a["seats"])):
        for side, name, color in ((a, "A", PALETTE[0]), (b, "B", PALETTE[1])):
            seat = side["seats"][s]
            seat_rows.append((f"{name}: {seat_label(side, s + 1)}", seat["rate"], seat["low"], seat["high"]))
            colors.append(color)
    entrant_rows, entrant_colors = [], []
    for i, entrant in enumerate(a.get("entrants") or []):
        for side, name, color in ((a, "A", PALETTE[0]), (b, "B", PALETTE[1])):
            mine = side["entrants"][i]
            entrant_rows.append((f"{name}: {mine['bot']}", mine["score"], mine["low"], mine["high"]))
            entrant_colors.append(color)
    how = _seats_said(a)
    sections = [
        f"<p>A = {esc(a['rule_set'])}, B = {esc(b['rule_set'])}; {result['games']} paired games (common random numbers), seed {esc(result['seed'])}.</p>",
        legend([(f"A: {a['rule_set']}", PALETTE[0]), (f"B: {b['rule_set']}", PALETTE[1])]),
        "<h2>Differences B - A (95% intervals; highlighted: significant after Holm's correction over all rows)</h2>",
    ]
    for part, heading in COMPARE_PARTS:
        mine = [r for r in rows if r.get("part", "games") == part]
        if not mine:
            continue
        sections += [
            f"<h3>{esc(heading)}</h3>",
            f"<p class=note>{esc(how)}</p>" if part == "seats" else "",
            table(
                ["row", "A", "B", "B - A", "low", "high", "p", "what it measures"],
                [[r["name"], r["a"], r["b"], r["diff"], r["low"], r["high"], p_text(r["p_value"]), definition(r["name"])] for r in mine],
                [r["significant"] for r in mine],
            ),
        ]
    sections += [
        "<h2>Win rate of each seat (95% Wilson intervals)</h2>",
        interval_bars(seat_rows, colors=colors, reference=_even(a["seats"]), axis="win rate (sole wins / games)"),
    ]
    if entrant_rows:
        sections += [
            "<h2>Score of each bot (95% intervals)</h2>",
            interval_bars(entrant_rows, colors=entrant_colors, reference=1 / len(a["seats"]), axis="score (mean result per seat held)"),
        ]
    sections += [
        "<h2>Game length (turns)</h2>",
        histograms([("A: " + a["rule_set"], a["lengths"]), ("B: " + b["rule_set"], b["lengths"])]),
        "<h2>The die: A</h2>",
        face_bars(a["faces"]),
        "<h2>The die: B</h2>",
        face_bars(b["faces"]),
    ]
    if result.get("sprt"):
        s = result["sprt"]
        asks = f" on {s['question']}: {s['asks']}" if "question" in s else ""
        sections.insert(1, f"<p><b>SPRT</b>{esc(asks)} {esc(s['verdict'])} (LLR {s['llr']:.2f}, bounds [{s['lower']:.2f}, {s['upper']:.2f}], {s['pairs']} pairs)</p>")
    return page(f"th compare: {a['rule_set']} vs {b['rule_set']}", sections, result)


def point_chart(title: str, labels: Sequence[str], values: Sequence[tuple[float | None, float | None, float | None]], width: int = 440, height: int = 220) -> str:
    """One metric at each sweep point: a dot with its interval whisker and its
    value written beside it, both axes with their ticks.  The points are
    categories (rule values), so nothing joins them; ``labels`` are short
    (``#1``), the page's key names the parameters."""
    points = [(i, v, lo, hi) for i, (v, lo, hi) in enumerate(values) if v is not None]
    if not points:
        return f"<p class=note>{esc(title)}: not measured (the variant has no treehouse_evaluate hook)</p>"
    ys = [y for _, v, lo, hi in points for y in (v, lo if lo is not None else v, hi if hi is not None else v)]
    ymin, ymax = min(ys), max(ys)
    if ymax - ymin < 1e-12:
        ymin, ymax = ymin - 0.5, ymax + 0.5
    left, bottom, top = 58, 40, 24
    w, h = width - left - 20, height - bottom - top
    step = w / len(labels)
    x = lambda i: left + (i + 0.5) * step  # noqa: E731
    y = lambda v: top + h - (v - ymin) / (ymax - ymin) * h  # noqa: E731
    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="{esc(title)}" style="display:inline-block">']
    parts.append(f'<text x="{left}" y="14" font-size="12" font-weight="600">{esc(title)}</text>')
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + h}" stroke="#888"/>')
    parts.append(f'<line x1="{left}" y1="{top + h}" x2="{left + w}" y2="{top + h}" stroke="#888"/>')
    for tick in (ymin, (ymin + ymax) / 2, ymax):
        parts.append(f'<line x1="{left - 4}" y1="{y(tick):.1f}" x2="{left}" y2="{y(tick):.1f}" stroke="#888"/>')
        parts.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" font-size="11" text-anchor="end">{tick:.3g}</text>')
    if ymin < 0.5 < ymax and title in HALF_METRICS:
        parts.append(f'<line x1="{left}" y1="{y(0.5):.1f}" x2="{left + w}" y2="{y(0.5):.1f}" stroke="#e45756" stroke-dasharray="5 4"><title>even: 0.5</title></line>')
    values_shown = step >= 44  # room for a value beside each dot
    for i, v, lo, hi in points:
        if lo is not None and hi is not None:
            parts.append(f'<line x1="{x(i):.1f}" y1="{y(lo):.1f}" x2="{x(i):.1f}" y2="{y(hi):.1f}" stroke="#222"/>')
            for end in (lo, hi):
                parts.append(f'<line x1="{x(i) - 4:.1f}" y1="{y(end):.1f}" x2="{x(i) + 4:.1f}" y2="{y(end):.1f}" stroke="#222"/>')
        parts.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="4" fill="{PALETTE[0]}"><title>{esc(labels[i])}: {v:.4g} [{fmt(lo)}, {fmt(hi)}]</title></circle>')
        if values_shown:
            parts.append(f'<text x="{x(i) + 7:.1f}" y="{y(v) + 4:.1f}" font-size="10">{v:.3g}</text>')
    every = max(1, -(-len(labels) * 36 // w))  # one label per 36 pixels at most: they never overlap
    for i, label in enumerate(labels):
        if i % every == 0 or i == len(labels) - 1:
            parts.append(f'<text x="{x(i):.1f}" y="{top + h + 16}" font-size="11" text-anchor="middle">{esc(label)}</text>')
    parts.append(f'<text x="{left + w / 2:.1f}" y="{height - 4}" font-size="11" text-anchor="middle">sweep point (see the key)</text>')
    parts.append("</svg>")
    return "".join(parts)


#: Metrics whose even value is 0.5 (the reference line of their charts).
HALF_METRICS = ("AdvantageP1",)


def _even(seats: Sequence[dict]) -> float | None:
    """The win rate of an even game: 0.5 between two seats (with more, 1/n)."""
    return 1 / len(seats) if seats else None


def point_key(points: Sequence[dict]) -> str:
    """The table naming every parameter of every point (``#1``, ``#2``, ...)."""
    keys = list(points[0]["values"]) if points else []
    rows = [[f"#{i + 1}", *(p["values"][k] for k in keys)] for i, p in enumerate(points)]
    return table(["point", *keys], rows)


def sweep_report(result: dict) -> str:
    points = result["points"]
    labels = [f"#{i + 1}" for i in range(len(points))]
    charts = [point_chart(name, labels, [(p["metrics"][name]["value"], p["metrics"][name]["low"], p["metrics"][name]["high"]) for p in points]) for name in result["chart_metrics"]]
    seat_rows, colors = [], []
    for i, p in enumerate(points):
        for seat in p["seats"]:
            seat_rows.append((f"{labels[i]}: {seat_label(result, seat['seat'])}", seat["rate"], seat["low"], seat["high"]))
            colors.append(PALETTE[(seat["seat"] - 1) % len(PALETTE)])
    entrant_rows, entrant_colors = [], []
    for i, p in enumerate(points):
        for b, entrant in enumerate(p.get("entrants") or []):
            entrant_rows.append((f"{labels[i]}: {entrant['bot']}", entrant["score"], entrant["low"], entrant["high"]))
            entrant_colors.append(PALETTE[b % len(PALETTE)])
    rotated = " (rotated)" if result.get("seats_rotated") else ""
    sections = [
        f"<p>{esc(result['variant'])}: {len(points)} points x {result['games']} games, seats: {esc(', '.join(result.get('seat_kinds', [])))}{rotated}, "
        f"seed {esc(result['seed'])} (every point plays the same seeds).</p>",
        "<h2>The points</h2>",
        point_key(points),
        "<h2>Metrics across the sweep (95% intervals)</h2>",
        "".join(charts),
        table(["metric", "what it measures"], [[name, definition(name)] for name in result["chart_metrics"]]),
        "<h2>Seats: win rate of each seat (95% Wilson intervals)</h2>",
        f"<p class=note>{esc(_seats_said(result))}</p>",
        interval_bars(seat_rows, colors=colors, reference=_even(points[0]["seats"]) if points else None, axis="win rate (sole wins / games)"),
    ]
    if entrant_rows:
        sections += [
            "<h2>Entrants: score of each bot (95% intervals)</h2>",
            f"<p class=note><b>score</b>: {esc(definition('score'))}.</p>",
            interval_bars(entrant_rows, colors=entrant_colors, reference=1 / len(points[0]["seats"]), axis="score (mean result per seat held)"),
        ]
    sections += [
        "<h2>Game length (turns)</h2>",
        histograms([(f"{labels[i]}: " + ", ".join(f"{k.removeprefix('rules.')}={v}" for k, v in p["values"].items()), p["lengths"]) for i, p in enumerate(points)]),
    ]
    return page(f"th sweep: {result['variant']}", sections, result)


def _seats_said(result: dict) -> str:
    """How the seats were filled, and so what their figures measure."""
    if result.get("seats_rotated"):
        return "The bots were rotated through the seats on the same seeds: each seat's figures are averaged over the bots that sat in it."
    if result.get("seat_metrics_measure_bots"):
        return SEATS_MEASURE_BOTS[0].upper() + SEATS_MEASURE_BOTS[1:] + "."
    return "One bot in every seat: the seat figures measure the game."


# --------------------------------------------------------------------------
# th tune
# --------------------------------------------------------------------------


def scatter(
    title: str,
    points: Sequence[tuple[Any, float, str, str]],
    band: tuple[float | None, float | None] | None = None,
    line: Sequence[tuple[Any, float]] = (),
    categories: Sequence[Any] | None = None,
    width: int = 440,
    height: int = 220,
    x_label: str = "",
    y_label: str = "",
) -> str:
    """Points ``(x, y, tooltip, colour)``; ``band`` shades a target's range,
    ``line`` draws a step line (the best so far); with ``categories`` (the
    ``repr`` of each choice, in the order they are drawn) the x values are
    choices, spread evenly.  ``x_label`` and ``y_label`` name the axes."""
    shown = [(x, y, tip, c) for x, y, tip, c in points if y is not None and math.isfinite(y)]
    if not shown:
        return f"<p class=note>{esc(title)}: nothing measured</p>"
    position = {c: i for i, c in enumerate(categories)} if categories is not None else None
    xs = [position[repr(x)] if position is not None else float(x) for x, *_ in shown]
    ys = [y for _, y, _, _ in shown] + [y for _, y in line if math.isfinite(y)]
    if band is not None:
        ys += [b for b in band if b is not None and math.isfinite(b)]
    xmin, xmax = (-0.5, len(categories) - 0.5) if categories is not None else (min(xs), max(xs))
    if xmax - xmin < 1e-12:
        xmin, xmax = xmin - 0.5, xmax + 0.5
    ymin, ymax = min(ys), max(ys)
    if ymax - ymin < 1e-12:
        ymin, ymax = ymin - 0.5, ymax + 0.5
    left, bottom, top = 64, 44, 22
    w, h = width - left - 14, height - bottom - top
    X = lambda v: left + (v - xmin) / (xmax - xmin) * w  # noqa: E731
    Y = lambda v: top + h - (min(max(v, ymin), ymax) - ymin) / (ymax - ymin) * h  # noqa: E731
    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="{esc(title)}" style="display:inline-block">']
    parts.append(f'<text x="{left}" y="14" font-size="12" font-weight="600">{esc(title)}</text>')
    if band is not None:
        low = band[0] if band[0] is not None and math.isfinite(band[0]) else ymin
        high = band[1] if band[1] is not None and math.isfinite(band[1]) else ymax
        if high >= ymin and low <= ymax:
            parts.append(f'<rect x="{left}" y="{Y(high):.1f}" width="{w}" height="{max(Y(low) - Y(high), 1):.1f}" fill="#54a24b" fill-opacity="0.15"><title>target</title></rect>')
    parts.append(f'<line x1="{left}" y1="{top + h}" x2="{left + w}" y2="{top + h}" stroke="#888"/>')
    parts.append(f'<text x="{left - 6}" y="{top + 4}" font-size="10" text-anchor="end">{ymax:.3g}</text>')
    parts.append(f'<text x="{left - 6}" y="{top + h}" font-size="10" text-anchor="end">{ymin:.3g}</text>')
    if line:
        path = " ".join(f"{'M' if k == 0 else 'L'}{X(float(x)):.1f},{Y(y):.1f}" for k, (x, y) in enumerate(line) if math.isfinite(y))
        parts.append(f'<path d="{path}" fill="none" stroke="#222" stroke-width="1.5"/>')
    for (x, y, tip, colour), px in zip(shown, xs):
        parts.append(f'<circle cx="{X(px):.1f}" cy="{Y(y):.1f}" r="3.5" fill="{colour}" fill-opacity="0.8"><title>{esc(tip)}</title></circle>')
    tick_y = top + h + 14
    if categories is not None:
        for label, i in position.items():
            parts.append(f'<text x="{X(i):.1f}" y="{tick_y}" font-size="10" text-anchor="middle">{esc(label.strip(chr(39)))}</text>')
    else:
        for tick in (xmin, (xmin + xmax) / 2, xmax):
            parts.append(f'<text x="{X(tick):.1f}" y="{tick_y}" font-size="10" text-anchor="middle">{tick:.3g}</text>')
    if x_label:
        parts.append(f'<text class="axis" x="{left + w / 2:.1f}" y="{height - 4}" font-size="11" text-anchor="middle">{esc(x_label)}</text>')
    if y_label:
        parts.append(f'<text class="axis" transform="rotate(-90)" x="{-(top + h / 2):.1f}" y="12" font-size="11" text-anchor="middle">{esc(y_label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def tune_report(result: dict) -> str:
    """The th tune page: the best rule sets, the search's progress, each option's effect."""
    trials = result["trials"]
    rungs = sorted({t["rung"] for t in trials})
    colour = {r: PALETTE[i % len(PALETTE)] for i, r in enumerate(rungs)}
    games_of = {t["rung"]: t["games"] for t in trials}
    by_number = {t["trial"]: t for t in trials}
    sections = [
        f"<p>{esc(result['rule_set'])} ({esc(result['variant'])}), seats {esc(', '.join(result['seats']))}, seed {result['seed']}: "
        f"{len(trials)} trials, {result['games_played']} of {result['budget_games']} games budgeted; stopped by {esc(result['stopped_by'])}; "
        f"{result['seconds']:.0f} s.</p>"
    ]
    targets = result["targets"]
    headers = ["rank", "trial", "games", "loss", *(o["name"] for o in result["options"]), *(f"{t['name']} [95%] (target {t['target']})" for t in targets)]
    rows = []
    for rank, number in enumerate(result["best"], 1):
        t = by_number[number]
        cells = [rank, number, t["games"], f"{t['loss']:.4f}", *(t["params"][o["name"]] for o in result["options"])]
        for target in targets:
            v = t["values"][target["name"]]
            cells.append("n/a" if v["value"] is None else f"{v['value']:.3f}" + ("" if v["low"] is None else f" [{v['low']:.3f}, {v['high']:.3f}]"))
        rows.append(cells)
    sections.append("<h2>Best rule sets</h2>" + table(headers, rows) + "<p class=note>best-1.yaml, best-2.yaml, ... in this folder hold them, ready to use.</p>")
    ordered = sorted(trials, key=lambda t: t["trial"])
    best_line, best = [], math.inf
    for t in ordered:
        if t["rung"] == max(rungs):
            best = min(best, t["loss"])
        if math.isfinite(best):
            best_line.append((t["trial"], best))
    points = [(t["trial"], t["loss"], f"trial {t['trial']}: loss {t['loss']:.4f} after {t['games']} games", colour[t["rung"]]) for t in ordered]
    sections.append(
        "<h2>Progress of the search</h2>"
        + scatter("loss of each trial (lower is better)", points, line=best_line, width=900, height=260, x_label="trial", y_label="loss")
        + legend([(f"stopped after {games_of[r]} games" if r < max(rungs) else f"{games_of[r]} games (the last rung)", colour[r]) for r in rungs])
        + "<p class=note>The line is the best loss so far among trials that reached the last rung.  "
        "Trials are asked from a seeded TPE sampler; each plays the same seeds; the best third of every bracket plays more games.</p>"
    )
    effects = []
    for option in result["options"]:
        name = option["name"]
        categories = None
        if option["kind"] == "choice":
            # the declared order (a report written before it was kept: the order the trials met them)
            declared = option.get("choices") or [t["params"][name] for t in ordered]
            categories = list(dict.fromkeys(repr(choice) for choice in declared))
        charts = [scatter(f"loss by {name}", [(t["params"][name], t["loss"], f"trial {t['trial']}", colour[t["rung"]]) for t in ordered], categories=categories, x_label=name, y_label="loss")]
        for target in targets:
            tn = target["name"]
            charts.append(
                scatter(
                    f"{tn} by {name}",
                    [(t["params"][name], t["values"][tn]["value"], f"trial {t['trial']}: {tn} {t['values'][tn]['value']}", colour[t["rung"]]) for t in ordered],
                    band=(target["low"], target["high"]),
                    categories=categories,
                    x_label=name,
                    y_label=tn,
                )
            )
        effects.append(f"<h3>{esc(name)} ({esc(option['range'])})</h3>" + "".join(charts))
    sections.append("<h2>Each option's effect</h2><p class=note>Every trial at its last rung; the green band is the target.</p>" + "".join(effects))
    return page(f"th tune: {result['rule_set']}", sections, result)
