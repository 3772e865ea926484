"""``th sweep``: every combination of rule values, one row of key metrics per point."""

from __future__ import annotations

import dataclasses
import re
import textwrap
import time
from typing import Annotated, Any, Optional

import typer
from rich.table import Table

from treehouse.cli.common import ConfigOption, SetOption, VariantOption, err, out, plugins, looks_ahead, run_guarded, shown, warned
from treehouse.cli.playtest import (
    PARTIAL, RunOptions, check_counts, check_outputs, chunk_pool, emit_json, end_interrupted, num, progress_bar, run_options,
    save_outputs, seats_and_batch, seats_text, simulate_result, why_stopped,
)
from treehouse.config import resolve
from treehouse.playtest import html, metrics
from treehouse.playtest.sweep import grid, overrides as point_overrides
from treehouse.playtest.work import Interrupted, RuleSpec
from treehouse.playtest.work import run as play


CHART_METRICS = ("AdvantageP1", "Balance", "Duration", "DecisionMoves", "Timeouts", "OtherTurnWins")


@run_options(games=1000)
def sweep(
    variant: VariantOption = None,
    config: ConfigOption = None,
    overrides: SetOption = None,
    param: Annotated[Optional[list[str]], typer.Option("--param", help="A rule and its values: rules.KEY=v1,v2,... (repeatable: a grid).")] = None,
    *,
    run: RunOptions,
) -> None:
    """Play every combination of rule values and print one row of key metrics per point.

    Example: th sweep -v classic --param rules.dig_in_place=true,false -n 500
    """
    run_guarded(_sweep, variant, config, overrides or [], param or [], run)


def point_folder(point: dict[str, str]) -> str:
    """The folder of a sweep point's records under --records: ``dig_in_place=true,house_decline=pass``."""
    return re.sub(r"[^\w.=,+-]", "_", ",".join(f"{key.removeprefix('rules.')}={value}" for key, value in point.items()))


@dataclasses.dataclass
class SweepPlan:
    """A sweep ready to play: its points, each point's rules and batch (the same seeds at every point), and the seats."""

    points: list[dict[str, str]]
    resolved: list[Any]
    batches: list[Any]
    kinds: tuple[str, ...]


def prepare_sweep(variant, config, overrides, params, run: RunOptions) -> SweepPlan:
    """Check everything ``th sweep`` was given and resolve every point, before any game (one line for any mistake)."""
    check_counts(run.games, run.jobs)
    check_outputs(run, [config])
    points = grid(params)
    resolved = [resolve(plugins(), variant=variant, config=config, overrides=[*overrides, *point_overrides(p)]) for p in points]
    if resolved:
        warned(resolved[0], looks_ahead(run.seat))  # the house rules are the same at every point: say it once
    batches = []
    for point, effective in zip(points, resolved):
        spec = RuleSpec.from_effective(effective)
        spec = dataclasses.replace(spec, name=f"{spec.name} with {point_folder(point).replace(',', ' ')}")
        records = run.records / point_folder(point) if run.records is not None else None
        kinds, batch = seats_and_batch(run, [effective], (spec,), records)
        batches.append(batch)
    return SweepPlan(points, resolved, batches, kinds)


def sweep_row(point: dict[str, str], effective, batch, total, partial: bool = False) -> dict[str, Any]:
    """One point's row of the result, from its games so far."""
    data = simulate_result(effective, batch, total.sides[0], 0.0)
    row = {"values": point, **{k: data[k] for k in ("games", "turns_total", "wins", "draws", "timeouts", "ties", "seats", "entrants", "length", "metrics", "variant_statistics", "lengths")}}
    if partial:
        row["partial"] = True
    return row


def sweep_result(plan: SweepPlan, rows: list[dict[str, Any]], games: int, seed, seconds: float) -> dict[str, Any]:
    """``th sweep``'s result (its ``--json``) from the points' rows."""
    return {
        "variant": plan.resolved[0].variant_class.name,
        "rule_set": plan.resolved[0].name,
        "seed": seed,
        "games": games,
        "seat_kinds": list(plan.kinds),
        "seats_rotated": plan.batches[0].rotate,
        "seat_metrics_measure_bots": not plan.batches[0].rotate and len(set(plan.kinds)) > 1,
        "points": rows,
        "chart_metrics": list(CHART_METRICS),
        "seconds": round(seconds, 3),
    }


def sweep_csv(plan: SweepPlan, rows: list[dict[str, Any]]) -> tuple[list[str], list[list[Any]]]:
    """``--csv``'s header and rows: one row per point."""
    keys, kinds = list(plan.points[0]), plan.kinds
    header = [*keys, "games", *(f"seat{s + 1}_win_rate" for s in range(len(kinds))), "p1_low", "p1_high", "draws", "timeouts", "mean_length", "median_length", "p90_length"]
    header += [f"{m}{suffix}" for m in CHART_METRICS for suffix in ("", "_low", "_high")]
    bots = [e["bot"] for e in rows[0]["entrants"]]
    header += [f"score {bot}{suffix}" for bot in bots for suffix in ("", "_low", "_high")]
    table_rows = []
    for r in rows:
        line = [*(r["values"][k] for k in keys), r["games"], *(s["rate"] for s in r["seats"]), r["seats"][0]["low"], r["seats"][0]["high"], r["draws"], r["timeouts"]]
        line += [r["length"]["mean"], r["length"]["median"], r["length"]["p90"]]
        for m in CHART_METRICS:
            line += [r["metrics"][m]["value"], r["metrics"][m]["low"], r["metrics"][m]["high"]]
        for entrant in r["entrants"]:
            line += [entrant["score"], entrant["low"], entrant["high"]]
        table_rows.append(line)
    return header, table_rows


def _sweep(variant, config, overrides, params, run: RunOptions) -> None:
    plan = prepare_sweep(variant, config, overrides, params, run)
    points, resolved, batches, kinds = plan.points, plan.resolved, plan.batches, plan.kinds
    games, seed = run.games, run.seed
    began = time.perf_counter()
    rows = []
    stopped: Interrupted | None = None
    with chunk_pool(run) as pool, progress_bar(games * len(points), "sweep") as progress:
        for i, (point, effective, batch) in enumerate(zip(points, resolved, batches)):
            try:
                total = play(batch, games, run.jobs, plugins=plugins(), progress=lambda done, i=i: progress(i * games + done), pool=pool)
            except Interrupted as interruption:
                stopped, total = interruption, interruption.partial
            if total is not None:
                rows.append(sweep_row(point, effective, batch, total, stopped is not None))
            if stopped is not None:
                break
    if not rows:
        err.print(f"{why_stopped(stopped) if stopped is not None else 'interrupted'} before any game finished", markup=False)
        raise typer.Exit(stopped.exit_code if stopped is not None else 2)
    seconds = time.perf_counter() - began
    result = sweep_result(plan, rows, games, seed, seconds)
    keys = list(points[0])
    played = sum(r["games"] for r in rows)
    save_outputs(run, result, stopped, lambda: sweep_csv(plan, rows), html.sweep_report)
    if run.as_json:
        emit_json(result)
        end_interrupted(stopped, played, games * len(points))
        return
    if stopped is not None:
        out.print(f"{PARTIAL}{len(rows)} of {len(points)} points, the last after {rows[-1]['games']} of {games} games")
    out.print(f"[bold]{shown(result['rule_set'])}[/bold]: {len(rows)} points x {games} games (the same seeds at every point), {shown(seats_text(kinds, batches[0].rotate))}, seed {seed}, {seconds:.1f} s")
    _print_sweep(keys, rows, kinds, batches[0].rotate)
    end_interrupted(stopped, played, games * len(points))


#: The sweep table's short column names and what they mean (printed as its key).
SWEEP_KEY = (
    ("P1 win", "seat 1's win rate ({bot}) [95% interval]"),
    ("draw", "draws"),
    ("cap", "games stopped by the turn cap"),
    ("turns", "game length in turns: mean/median/90th percentile"),
    ("DM", "DecisionMoves: " + metrics.definition("DecisionMoves")),
    ("Bal", "Balance [95%]: " + metrics.definition("Balance")),
)


def _short(value: float | None) -> str:
    """``0.57`` as ``.57`` (the interval's bounds, to keep the table narrow);
    ``n/a`` for a bound that does not exist (a metric no game could measure)."""
    if value is None:
        return "n/a"
    text = f"{value:.2f}"
    return text[1:] if text.startswith("0.") else text


def _sweep_cells(r: dict) -> list[str]:
    s1, balance = r["seats"][0], r["metrics"]["Balance"]
    return [
        f"{s1['rate']:.3f} [{_short(s1['low'])},{_short(s1['high'])}]",
        str(r["draws"]),
        str(r["timeouts"]),
        f"{r['length']['mean']:.0f}/{r['length']['median']}/{r['length']['p90']}",
        num(r["metrics"]["DecisionMoves"]["value"]),
        f"{num(balance['value'], 2)} [{_short(balance['low'])},{_short(balance['high'])}]" if balance["value"] is not None else "n/a",
    ]


def _print_sweep(keys: list[str], rows: list[dict], kinds: list[str] | tuple[str, ...], rotated: bool) -> None:
    """One row per point when it fits 80 columns (values never cut), else one block per point; a key either way."""
    names = [k.removeprefix("rules.") for k in keys]
    headers = [*names, *(short for short, _ in SWEEP_KEY)]
    lines = [[*(str(r["values"][k]) for k in keys), *_sweep_cells(r)] for r in rows]
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(headers)]
    width = min(out.width, 80)
    if sum(widths) + len(widths) - 1 <= width:
        table = Table(box=None, padding=(0, 1, 0, 0), pad_edge=False, show_edge=False, header_style="bold")
        for i, header in enumerate(headers):
            table.add_column(header, justify="left" if i < len(names) else "right", no_wrap=True, min_width=widths[i])
        for line in lines:
            table.add_row(*(shown(cell) for cell in line))
        out.print(table)
    else:  # too many parameters for one row each: two lines per point, the values never cut
        for number, (r, line) in enumerate(zip(rows, lines), start=1):
            out.print(f"[bold]#{number}[/bold] " + shown(", ".join(f"{n}={r['values'][k]}" for n, k in zip(names, keys))))
            facts, current = [], ""
            for (short, _), cell in zip(SWEEP_KEY, line[len(names):]):
                fact = f"{short} {cell}"
                if current and len(current) + 3 + len(fact) > width - 3:
                    facts.append(current)
                    current = fact
                else:
                    current = f"{current} · {fact}" if current else fact
            for text in [*facts, current]:
                out.print("   " + shown(text))
    seat_one = "averaged over the bots, rotated" if rotated else kinds[0]
    out.print("Key: " + "; ".join(f"{short}: {meaning.format(bot=seat_one)}" for short, meaning in SWEEP_KEY) + ".", style="dim", soft_wrap=False, width=min(out.width, 80))
    if not rotated and len(set(kinds)) > 1:
        for line in textwrap.wrap(f"Note: {metrics.SEATS_MEASURE_BOTS}.", min(out.width, 80)):
            out.print(line, style="yellow", markup=False, highlight=False)
    if rows[0]["entrants"]:
        _print_entrants(rows)


def _print_entrants(rows: list[dict]) -> None:
    """The entrants' part: each bot's score [95% interval] at each point."""
    table = Table(title="Entrants: each bot's score [95% interval] at each point", title_justify="left", box=None, padding=(0, 1, 0, 0), pad_edge=False, header_style="bold")
    table.add_column("point", justify="left", no_wrap=True)
    for entrant in rows[0]["entrants"]:
        table.add_column(shown(entrant["bot"]), justify="right", overflow="fold")
    for number, r in enumerate(rows, start=1):
        table.add_row(f"#{number}", *(f"{e['score']:.3f} [{_short(e['low'])},{_short(e['high'])}]" for e in r["entrants"]))
    out.print(table, width=min(out.width, 80))
    for line in textwrap.wrap("score: " + metrics.definition("score") + "; #N: the points above, in order.", min(out.width, 80)):
        out.print(line, style="dim", markup=False, highlight=False)
