"""``th simulate``: many games between bots, reported as outcomes, lengths, the die, the metrics and, with ``--skill``, the bot ladder."""

from __future__ import annotations

import textwrap
import time
from typing import Annotated, Any, Optional

import typer
from rich.table import Table

from treehouse.bots.options import check_bot_spec
from treehouse.cli.common import ConfigOption, SetOption, VariantOption, err, out, plugins, looks_ahead, run_guarded, shown, warned
from treehouse.cli.playtest import (
    MAX_GAMES, PARTIAL, RunOptions, check_counts, check_outputs, chunk_pool, emit_json, end_interrupted, interval, num, play_batch,
    print_definitions, progress_bar, run_options, save_outputs, seats_and_batch, seats_heading, seats_text, simulate_result,
)
from treehouse.config import EffectiveRules, resolve
from treehouse.errors import ConfigError
from treehouse.playtest import html, skill
from treehouse.playtest.metrics import SEAT_METRICS, SEATS_MEASURE_BOTS
from treehouse.playtest.work import Batch, Interrupted
from treehouse.playtest.work import run as play


def _print_simulate(result: dict) -> None:
    out.print(
        f"[bold]{shown(result['rule_set'])}[/bold] ({shown(result['variant'])}): {result['games']} games, "
        f"{shown(seats_text(result['seat_kinds'], result['seats_rotated']))}, seed {result['seed']}, {result['seconds']:.1f} s"
    )
    out.print(seats_heading(result["seats_rotated"], len(result["entrants"])), style="bold")
    table = Table(title="Win rates by seat (95% Wilson intervals)", title_justify="left")
    for column in ("seat", "bot", "wins", "win rate", "95% interval", "shared ties"):
        # a bot's spec wraps on a narrow terminal: cut short, mcts(simulations=200) would read as mcts(simulations=20…
        table.add_column(column, justify="right", overflow="fold" if column == "bot" else "ellipsis")
    for seat in result["seats"]:
        bot = "each in turn" if result["seats_rotated"] else result["seat_kinds"][seat["seat"] - 1]
        table.add_row(str(seat["seat"]), shown(bot), str(seat["wins"]), f"{seat['rate']:.3f}", interval(seat["low"], seat["high"]), str(seat["ties"]))
    out.print(table)
    seat_metrics = [(name, result["metrics"][name]) for name in SEAT_METRICS]
    out.print("  " + "; ".join(f"{name} {num(m['value'])} {interval(m['low'], m['high'])}".rstrip() for name, m in seat_metrics), highlight=False)
    if result["seat_metrics_measure_bots"]:
        for line in textwrap.wrap(f"Note: {SEATS_MEASURE_BOTS}.", min(out.width, 80) - 2):
            out.print("  " + line, style="yellow", markup=False, highlight=False)
    if result["entrants"]:
        out.print("Entrants: each bot over every seat it held", style="bold")
        table = Table(title="Score and edge over the field (95% intervals; wins: sole wins)", title_justify="left")
        for column in ("bot", "seats", "wins", "score", "95% interval", "edge", "95% interval"):
            table.add_column(column, justify="right", overflow="fold" if column == "bot" else "ellipsis")
        for entrant in result["entrants"]:
            table.add_row(
                shown(entrant["bot"]), str(entrant["seats"]), str(entrant["wins"]), num(entrant["score"]), interval(entrant["low"], entrant["high"]),
                f"{entrant['edge']:+.3f}", interval(entrant["edge_low"], entrant["edge_high"]),
            )
        out.print(table)
    out.print(f"ties {result['ties']}, draws {result['draws']}, turn-cap timeouts {result['timeouts']}")
    length = result["length"]
    out.print(f"[bold]Length[/bold] (turns): mean {num(length['mean'], 1)}, median {length['median']}, 90th percentile {length['p90']} (min {length['min']}, max {length['max']})")
    decisions = result["decisions"]
    out.print(f"[bold]Decisions[/bold]: {decisions['total']} made, {num(decisions['share_with_choice'])} of them with more than one legal move")
    table = Table(title="The die (shares of the rolls of each face)", title_justify="left")
    for column in ("face", "rolled", "forced", "impossible", "rerolled", "passed"):
        table.add_column(column, justify="right")
    for face in result["faces"]:
        table.add_row(face["face"], str(face["rolled"]), *(num(face[f"{c}_share"]) for c in ("forced", "impossible", "rerolled", "passed")))
    out.print(table)
    if result["variant_statistics"]:
        table = Table(title="Variant statistics", title_justify="left")
        for column in ("counter", "total", "per game", "95% interval"):
            table.add_column(column, justify="right")
        for name, stat in result["variant_statistics"].items():
            table.add_row(name, num(stat["total"], 0), num(stat["per_game"], 2), interval(stat["low"], stat["high"], 2))
        out.print(table)
        out.print("  each counter: the variant's own count of it (its treehouse_step_statistics), in all and per game", highlight=False)
    table = Table(title="Metrics of the games (each is defined below)", title_justify="left")
    for column in ("metric", "value", "95% interval"):
        table.add_column(column, justify="right")
    for name, metric in result["metrics"].items():
        if name in SEAT_METRICS:
            continue  # shown with the seats
        table.add_row(name, "n/a*" if metric["value"] is None else num(metric["value"]), interval(metric["low"], metric["high"]))
    out.print(table)
    if any(metric["value"] is None for metric in result["metrics"].values()):
        out.print("* n/a: the variant has no treehouse_evaluate hook to tell who leads")
    print_definitions([*result["metrics"], *(("score", "edge") if result["entrants"] else ())])
    if "skill" in result:
        data = result["skill"]
        table = Table(title=f"Skill: each stronger bot against each weaker, {data['games_per_pair']} games a pair on the same seeds, seats rotated", title_justify="left")
        for column in ("stronger", "weaker", "score", "95% interval", "edge"):
            table.add_column(column, justify="right", overflow="fold" if column in ("stronger", "weaker") else "ellipsis")
        for pair in data["pairs"]:
            table.add_row(shown(pair["strong"]), shown(pair["weak"]), f"{pair['score']:.3f}", interval(pair["low"], pair["high"]), f"{pair['edge']:+.3f}")
        out.print(table)
        out.print(f"[bold]SkillTrace[/bold] {num(data['SkillTrace'])}: the mean edge over adjacent rungs of {shown(' < '.join(data['ladder']))} (0: the dice decide, 1: skill always wins)")


def _simulate_csv(result: dict) -> tuple[list[str], list[list[Any]]]:
    rows: list[list[Any]] = [["games", "", result["games"], "", ""], ["turns_total", "", result["turns_total"], "", ""]]
    for seat in result["seats"]:
        rows.append(["win_rate", f"seat {seat['seat']}", seat["rate"], seat["low"], seat["high"]])
    for entrant in result["entrants"]:
        rows.append(["entrant_score", entrant["bot"], entrant["score"], entrant["low"], entrant["high"]])
        rows.append(["entrant_edge", entrant["bot"], entrant["edge"], entrant["edge_low"], entrant["edge_high"]])
        rows.append(["entrant_wins", entrant["bot"], entrant["wins"], "", ""])
    for key in ("ties", "draws", "timeouts"):
        rows.append([key, "", result[key], "", ""])
    for key, value in result["length"].items():
        rows.append(["length", key, value, "", ""])
    for face in result["faces"]:
        for column in ("rolled", "forced", "impossible", "rerolled", "passed"):
            rows.append(["face", f"{face['face']} {column}", face[column], "", ""])
    for name, metric in result["metrics"].items():
        rows.append(["metric", name, metric["value"], metric["low"], metric["high"]])
    for name, stat in result["variant_statistics"].items():
        rows.append(["variant_statistic", name, stat["per_game"], stat["low"], stat["high"]])
    return ["section", "name", "value", "low", "high"], rows


@run_options(games=1000)
def simulate(
    variant: VariantOption = None,
    config: ConfigOption = None,
    overrides: SetOption = None,
    measure_skill: Annotated[bool, typer.Option("--skill", help="Also play the bot ladder on the same seeds: each stronger bot against each weaker, and SkillTrace.")] = False,
    skill_games: Annotated[int, typer.Option("--skill-games", help="Games per pair of bots with --skill.")] = 200,
    skill_bots: Annotated[Optional[str], typer.Option("--skill-bots", help="The ladder with --skill, weakest first, e.g. random,greedy,search (default: every bot that can play it, by strength).")] = None,
    *,
    run: RunOptions,
) -> None:
    """Play many games between bots and report outcomes, lengths, the die and the metrics.

    Example: th simulate -v fences -n 500 --seat search --seat random
    """
    run_guarded(_simulate, variant, config, overrides, (measure_skill, skill_games, skill_bots), run)


def _skill_ladder(effective: EffectiveRules, players: int, games: int, names: str | None) -> tuple[str, ...]:
    if not 1 <= games <= MAX_GAMES:
        raise ConfigError(f"--skill-games must be from 1 to {MAX_GAMES}, not {games}")
    given = None
    if names is not None:
        given = tuple(check_bot_spec(plugins(), name) for name in names.split(",") if name.strip())
    bots = skill.ladder(plugins(), effective.variant(), players, given)
    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise ConfigError(f"--skill-bots needs at least two different bots, weakest first (e.g. random,greedy,search), not {names!r}")
    return bots


def _simulate(variant, config, overrides, skill_options, run: RunOptions) -> None:
    check_counts(run.games, run.jobs)
    check_outputs(run, [config])
    effective = warned(resolve(plugins(), variant=variant, config=config, overrides=overrides or ()), looks_ahead(run.seat))
    kinds, batch = seats_and_batch(run, [effective])
    measure_skill, skill_games, skill_bots = skill_options
    ladder = _skill_ladder(effective, len(kinds), skill_games, skill_bots) if measure_skill else ()
    began = time.perf_counter()
    with chunk_pool(run) as pool:
        with progress_bar(run.games, f"simulate {effective.name}") as progress:
            total, stopped = play_batch(batch, run.games, run, progress, pool)
        skill_result = None
        if ladder and stopped is None:
            spec = batch.rule_sets[0]
            pairs = skill.pairs(ladder)
            with progress_bar(skill_games * len(pairs), "skill ladder") as progress:
                done = []

                def play_pair(pair_batch: Batch, games: int):
                    offset = len(done) * games
                    done.append(1)
                    return play(pair_batch, games, run.jobs, plugins=plugins(), progress=lambda n: progress(offset + n), pool=pool).sides[0]

                try:
                    skill_result = skill.measure(spec, ladder, len(kinds), skill_games, run.seed, play_pair)
                except Interrupted as interrupted:
                    err.print("interrupted during the skill ladder: it is left out", markup=False)
                    stopped = interrupted
    result = simulate_result(effective, batch, total.sides[0], time.perf_counter() - began)
    if skill_result is not None:
        result["skill"] = skill_result
    save_outputs(run, result, stopped, lambda: _simulate_csv(result), html.simulate_report)
    if run.as_json:
        emit_json(result)
    else:
        if stopped is not None:
            out.print(f"{PARTIAL}the first {result['games']} of {run.games} games")
        _print_simulate(result)
    end_interrupted(stopped, result["games"], run.games)
