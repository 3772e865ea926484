"""``th simulate``, ``th compare`` and ``th sweep``: playtest rule sets with bots.

The statistics live in :mod:`treehouse.playtest`; this module reads the
options, runs the work with a progress bar, and prints or writes the results.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import inspect
import io
import json
import os
import re
import textwrap
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Callable, Iterator, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from treehouse.bots.options import check_bot_spec
from treehouse.cli.common import ConfigOption, SetOption, VariantOption, err, out, plugins, run_guarded, shown, shown_path, warned
from treehouse.config import EffectiveRules, parse_override, resolve
from treehouse.errors import ConfigError, TreehouseError
from treehouse.playtest import html, metrics, skill
from treehouse.playtest.metrics import differences, first_seat_differences, summary
from treehouse.playtest.stats import SPRT, p_text
from treehouse.playtest.sweep import grid, overrides as point_overrides
from treehouse.playtest.work import Batch, RuleSpec, check_batch
from treehouse.playtest.work import Interrupted
from treehouse.playtest.work import run as play
from treehouse.textfiles import check_name, refuse_existing, same_file, write_text_atomically

GamesOption = Annotated[int, typer.Option("--games", "-n", help="Games to play.")]
SeatOption = Annotated[
    Optional[list[str]],
    typer.Option("--seat", help="The bot in the next seat, with options if any, e.g. search(depth=2) (repeatable; default: random in every seat)."),
]
PlayersOption = Annotated[Optional[int], typer.Option("--players", "-p", help="Players, when --seat is not given for each.")]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed of the whole run: the same seed gives the same games.")]
JobsOption = Annotated[
    Optional[int],
    typer.Option(
        "--jobs", "-j",
        help="Worker processes (default: none for a short run, one per CPU once a run takes over a second; the results do not depend on it).",
        show_default=False,
    ),
]
ClusterOption = Annotated[
    Optional[str],
    typer.Option("--cluster", help="Play on a Dask cluster: a scheduler address (tcp://host:8786), or 'local' for --jobs worker processes here (the results do not change).", metavar="ADDRESS"),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of the report.")]
CsvOption = Annotated[Optional[Path], typer.Option("--csv", help="Also write the results as CSV to FILE.", dir_okay=False)]
RecordsOption = Annotated[Optional[Path], typer.Option("--records", help="Write every game's record (JSON lines) into DIR.", file_okay=False)]
ReportOption = Annotated[Optional[Path], typer.Option("--report", help="Write a self-contained HTML report with plots to FILE (exactly that name).", dir_okay=False)]
TlsCaOption = Annotated[Optional[str], typer.Option("--tls-ca-file", help="With a tls:// --cluster: the CA certificate (PEM) the scheduler's certificate is signed by.", metavar="FILE")]
TlsCertOption = Annotated[Optional[str], typer.Option("--tls-cert", help="With a tls:// --cluster: this client's certificate (PEM).", metavar="FILE")]
TlsKeyOption = Annotated[Optional[str], typer.Option("--tls-key", help="With a tls:// --cluster: this client's private key (PEM).", metavar="FILE")]
WorkerTimeoutOption = Annotated[
    float,
    typer.Option("--worker-timeout", help="With --cluster: wait this long for a first worker, and stop a run (results so far kept) that has had no live worker this long.", metavar="SECONDS"),
]
ForceOption = Annotated[bool, typer.Option("--force", help="Let --csv and --report replace a file that exists, and --records a folder holding an earlier run's records.")]


@dataclasses.dataclass(frozen=True)
class RunOptions:
    """The options every playtest command takes, gathered by :func:`run_options`."""

    games: int
    seat: list[str] | None = None
    players: int | None = None
    seed: int = 1
    jobs: int | None = None  # None: as long as the run is (playtest.work.run_chunks)
    cluster: str | None = None
    as_json: bool = False
    csv_file: Path | None = None
    records: Path | None = None
    report: Path | None = None
    force: bool = False
    tls_ca_file: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    worker_timeout: float = 60.0


#: (parameter, Typer annotation) of each field of RunOptions, in the order --help lists them.
_RUN_PARAMETERS = (
    ("games", GamesOption),
    ("seat", SeatOption),
    ("players", PlayersOption),
    ("seed", SeedOption),
    ("jobs", JobsOption),
    ("cluster", ClusterOption),
    ("tls_ca_file", TlsCaOption),
    ("tls_cert", TlsCertOption),
    ("tls_key", TlsKeyOption),
    ("worker_timeout", WorkerTimeoutOption),
    ("as_json", JsonOption),
    ("csv_file", CsvOption),
    ("records", RecordsOption),
    ("report", ReportOption),
    ("force", ForceOption),
)


def run_options(games: int) -> Callable:
    """Give a command the shared options (``--games`` defaulting to ``games``,
    ``--seat``, ``--players``, ``--seed``, ``--jobs``, ``--cluster``, ``--json``, ``--csv``,
    ``--records``, ``--report``) and pass them to it as one ``run: RunOptions``."""
    defaults = {f.name: f.default for f in dataclasses.fields(RunOptions)} | {"games": games}

    def decorate(function: Callable) -> Callable:
        own = [p for p in inspect.signature(function, eval_str=True).parameters.values() if p.name != "run"]
        shared = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=defaults[name], annotation=kind) for name, kind in _RUN_PARAMETERS]

        @functools.wraps(function)
        def command(*args: Any, **kwargs: Any) -> Any:
            run = RunOptions(**{name: kwargs.pop(name, defaults[name]) for name, _ in _RUN_PARAMETERS})
            return function(*args, **kwargs, run=run)

        del command.__wrapped__  # Typer reads the signature below, not the function's own
        command.__signature__ = inspect.Signature([*own, *shared])
        command.__annotations__ = {p.name: p.annotation for p in (*own, *shared)}
        return command

    return decorate


# --------------------------------------------------------------------------
# shared
# --------------------------------------------------------------------------


#: The most games one run plays (the runner lists its chunks up front).
MAX_GAMES = 100_000_000
#: The most worker processes: more than a few per CPU only queue for the CPUs.
MAX_JOBS = max(64, 4 * (os.cpu_count() or 1))


def _check_counts(games: int, jobs: int | None) -> None:
    if not 1 <= games <= MAX_GAMES:
        raise ConfigError(f"--games must be from 1 to {MAX_GAMES}, not {games}")
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise ConfigError(f"--jobs must be from 1 to {MAX_JOBS} (this machine has {os.cpu_count() or 1} CPUs), not {jobs}")


#: How an earlier run's game records are named in a --records folder (game-000001.jsonl, a-game-…, b-game-…).
RECORD_NAME = re.compile(r"^(?:[ab]-)?game-\d{6,}\.jsonl$")


def _check_outputs(run: RunOptions, reads: list[Path | str | None]) -> None:
    """Before any game: refuse to replace an existing --csv or --report file
    unless --force, ever to write over a file the command reads, and a
    --records folder holding an earlier run's records unless --force (which
    removes those records just before the first game, so that the folder
    holds this run's only: :func:`_clear_earlier_records`)."""
    inputs = [Path(r) for r in reads if r is not None and Path(r).is_file()]
    for option, path in (("--csv", run.csv_file), ("--report", run.report)):
        if path is not None:
            refuse_existing(path, run.force, ConfigError, option, inputs)
    if run.csv_file is not None and run.report is not None and same_file(run.csv_file, run.report):
        raise ConfigError(f"--csv and --report both name {run.csv_file}; give each its own file")
    if run.records is None:
        return
    check_name(run.records, ConfigError, "--records")
    earlier = _earlier_records(run.records)
    if earlier and not run.force:
        raise ConfigError(
            f"--records {run.records} already holds an earlier run's records ({shown_path(str(earlier[0]))}, …); "
            "choose another folder, or add --force to remove them first"
        )


def _clear_earlier_records(run: RunOptions) -> None:
    """With --force, remove an earlier run's records from --records (after
    every check has passed, just before the first game)."""
    if run.records is None or not run.force:
        return
    for path in _earlier_records(run.records):
        try:
            path.unlink()
        except OSError as error:
            raise ConfigError(f"--force: cannot remove the earlier record {path}: {error.strerror or error}") from None


def _earlier_records(folder: Path) -> list[Path]:
    """The game records in ``folder`` and its point folders (th sweep writes one per point)."""
    if not folder.is_dir():
        return []
    found = []
    try:
        for place in (folder, *(child for child in folder.iterdir() if child.is_dir() and not child.is_symlink())):
            found += sorted(path for path in place.iterdir() if RECORD_NAME.match(path.name) and (path.is_file() or path.is_symlink()))
    except OSError as error:
        raise ConfigError(f"cannot read the records folder {folder}: {error.strerror or error}") from None
    return found


def _seat_kinds(seat: list[str] | None, players: int | None, effective: EffectiveRules) -> tuple[str, ...]:
    """The bot spec of every seat, checked and in canonical form (``search(depth=2)``)."""
    loaded = plugins()
    if seat:
        kinds = tuple(check_bot_spec(loaded, spec) for spec in seat)
        if players is not None and players != len(kinds):
            raise ConfigError(f"--players {players} but {len(kinds)} --seat options; give one --seat per player, or --players alone")
        return kinds
    count = players if players is not None else effective.variant_class.default_players
    lo, hi = effective.variant().player_range()
    if not lo <= count <= hi:
        raise ConfigError(f"{effective.variant_class.name} is played by {lo} to {hi} players, not {count}")
    return (loaded.bot("random").name,) * count


def _seats_and_batch(run: RunOptions, rule_sets: list[EffectiveRules], specs: tuple[RuleSpec, ...] | None = None, records: Path | None = None) -> tuple[tuple[str, ...], Batch]:
    """What simulate, compare and sweep all read once the rules are known: the seats
    (sized by the first rule set) and the batch of ``rule_sets``, checked."""
    kinds = _seat_kinds(run.seat, run.players, rule_sets[0])
    specs = specs if specs is not None else tuple(RuleSpec.from_effective(e) for e in rule_sets)
    records = records if records is not None else run.records
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ConfigError(f"cannot write the records to {records}: {error.strerror or error}") from None
    batch = Batch(specs, kinds, run.seed, rotate=len(specs) > 1 and len(set(kinds)) > 1, records=str(records) if records else None)
    check_batch(batch, plugins())
    return kinds, batch


@contextmanager
def chunk_pool(run: RunOptions) -> Iterator[Any]:
    """Where the chunks are played: ``None`` (this machine, ``--jobs`` processes),
    or a Dask cluster with ``--cluster`` (imported only then).  Entered just
    before the first game, so it is where --force clears --records."""
    _clear_earlier_records(run)
    if run.cluster is None:
        yield None
        return
    if run.records is not None and run.cluster != "local":
        raise ConfigError("--records writes each game on the disk of the worker that played it; use it without --cluster, or with --cluster local")
    if not 0 < run.worker_timeout <= 7 * 24 * 3600:  # also refuses nan
        raise ConfigError(f"--worker-timeout is in seconds, above 0 and at most a week, not {run.worker_timeout}")
    from treehouse.playtest import cluster

    settings = cluster.ClusterSettings(run.tls_ca_file, run.tls_cert, run.tls_key, run.worker_timeout, say=lambda line: err.print(line, markup=False))
    with cluster.connect(run.cluster, run.jobs, plugins(), settings) as pool:
        err.print(f"playing on {pool.description} ({pool.threads()} worker threads)", markup=False)
        yield pool


def _rule_set(reference: str, overrides: list[str]) -> EffectiveRules:
    """A rule set named on the command line: a YAML file, or a variant / shipped rule set name."""
    path = Path(reference)
    if path.suffix in (".yaml", ".yml") or path.is_file():
        return warned(resolve(plugins(), config=path, overrides=overrides))
    return warned(resolve(plugins(), variant=reference, overrides=overrides))


@contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A progress bar on standard error, only when it is a terminal."""
    if not err.is_terminal:
        yield lambda done: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task(label, total=total)
        shown = 0.0

        def update(done: int) -> None:  # called per game: redraw at most ten times a second
            nonlocal shown
            now = time.monotonic()
            if now - shown >= 0.1 or done >= total:
                shown = now
                bar.update(task, completed=done)

        yield update


def _play(batch: Batch, games: int, run: RunOptions, progress: Callable[[int], None], pool: Any, stop: Any = None) -> tuple[Any, Interrupted | None]:
    """Play the batch; on Ctrl-C (or SIGTERM, SIGHUP) the games finished so far
    and the interruption, else the totals and ``None``.  Before any game
    finished, an interruption says so and exits at once."""
    try:
        return play(batch, games, run.jobs, plugins=plugins(), progress=progress, stop=stop, pool=pool), None
    except Interrupted as stopped:
        if stopped.partial is None:
            err.print(f"{_why(stopped)} before any game finished", markup=False)
            raise typer.Exit(stopped.exit_code) from None
        return stopped.partial, stopped


def _why(stopped: Interrupted) -> str:
    """Why a run stopped early, in words: ``interrupted``, or the run's own reason."""
    return f"stopped, {stopped.reason}" if stopped.reason else "interrupted"


def _end_interrupted(stopped: Interrupted | None, done: int, asked: int) -> None:
    """After partial results: the line saying so, and the signal's exit status (130 for Ctrl-C)."""
    if stopped is None:
        return
    err.print(f"{_why(stopped)}: {done} of {asked} games played; the results above are partial (--csv and --report were not written)", markup=False)
    raise typer.Exit(stopped.exit_code)


def _save_outputs(run: RunOptions, result: dict, stopped: Interrupted | None, csv_table: Callable[[], tuple[list[str], list[list[Any]]]], report: Callable[[dict], str]) -> None:
    """Say where the records went, and write ``--csv`` and ``--report`` for a
    whole run only: a partial one is marked so and overwrites neither."""
    if run.records is not None:
        _wrote("every game's record", run.records)
    if stopped is not None:
        result["partial"] = True
        return
    if run.csv_file is not None:
        _write_csv(run.csv_file, *csv_table())
    if run.report is not None:
        _write_text(run.report, report(result))


PARTIAL = "[bold]Partial results[/bold] (interrupted): "


def _write_csv(path: Path, header: list[str], rows: list[list[Any]]) -> None:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    write_text_atomically(path, buffer.getvalue(), ConfigError)
    _wrote("the CSV", path)


def _write_text(path: Path, text: str) -> None:
    write_text_atomically(path, text, ConfigError)
    _wrote("the report", path)


def _wrote(what: str, path: Path) -> None:
    """Say where a file went, on standard error (standard output may be a table or JSON in a pipe)."""
    err.print(f"Wrote {what} to {shown_path(str(path))}", markup=False, highlight=False)


def _emit_json(data: dict) -> None:
    typer.echo(json.dumps(data))


def _num(value: Any, digits: int = 3) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _interval(low: Any, high: Any, digits: int = 3) -> str:
    return "" if low is None or high is None else f"[{low:.{digits}f}, {high:.{digits}f}]"


def seats_text(kinds: list[str] | tuple[str, ...], rotated: bool = False) -> str:
    """``seat 1 random, seat 2 greedy``: each seat with its bot (rotated: the bots take turns in each seat)."""
    if rotated:
        return "seats " + ", ".join(kinds) + " (rotated: each bot plays each seat in turn)"
    return ", ".join(f"seat {n} {kind}" for n, kind in enumerate(kinds, start=1))


def print_definitions(names: list[str]) -> None:
    """Under a table, what each of its rows measures (metrics.definition), one line each within 80 columns."""
    width = min(out.width, 80)
    defined = [(name, metrics.definition(name)) for name in dict.fromkeys(names)]
    defined = [(name, words) for name, words in defined if words]
    if not defined:
        return
    column = min(max(len(name) for name, _ in defined), 20) + 2
    out.print("What each row measures:", style="bold")
    for name, words in defined:
        text = f"  {name:<{column}}{words}" if len(name) < column else f"  {name}: {words}"
        for line in textwrap.wrap(text, width, subsequent_indent=" " * (column + 2)):
            out.print(shown(line), soft_wrap=True, highlight=False)


def _faces_order(effective: EffectiveRules) -> tuple[str, ...]:
    return tuple(effective.variant_class.die.faces)


def _simulate_result(effective: EffectiveRules, kinds: tuple[str, ...], seed: int, aggregate, seconds: float) -> dict:
    result = {
        "variant": effective.variant_class.name,
        "rule_set": effective.name,
        "seed": seed,
        "seat_kinds": list(kinds),
        **summary(aggregate, _faces_order(effective)),
        "seconds": round(seconds, 3),
    }
    return result


def _print_simulate(result: dict) -> None:
    out.print(
        f"[bold]{shown(result['rule_set'])}[/bold] ({shown(result['variant'])}): {result['games']} games, "
        f"{shown(seats_text(result['seat_kinds']))}, seed {result['seed']}, {result['seconds']:.1f} s"
    )
    table = Table(title="Outcomes (95% Wilson intervals)", title_justify="left")
    for column in ("seat", "bot", "wins", "win rate", "95% interval", "shared ties"):
        # a bot's spec wraps on a narrow terminal: cut short, mcts(simulations=200) would read as mcts(simulations=20…
        table.add_column(column, justify="right", overflow="fold" if column == "bot" else "ellipsis")
    for seat in result["seats"]:
        table.add_row(str(seat["seat"]), shown(result["seat_kinds"][seat["seat"] - 1]), str(seat["wins"]), f"{seat['rate']:.3f}", _interval(seat["low"], seat["high"]), str(seat["ties"]))
    out.print(table)
    out.print(f"ties {result['ties']}, draws {result['draws']}, turn-cap timeouts {result['timeouts']}")
    length = result["length"]
    out.print(f"[bold]Length[/bold] (turns): mean {_num(length['mean'], 1)}, median {length['median']}, 90th percentile {length['p90']} (min {length['min']}, max {length['max']})")
    decisions = result["decisions"]
    out.print(f"[bold]Decisions[/bold]: {decisions['total']} made, {_num(decisions['share_with_choice'])} of them with more than one legal move")
    table = Table(title="The die (shares of the rolls of each face)", title_justify="left")
    for column in ("face", "rolled", "forced", "impossible", "rerolled", "passed"):
        table.add_column(column, justify="right")
    for face in result["faces"]:
        table.add_row(face["face"], str(face["rolled"]), *(_num(face[f"{c}_share"]) for c in ("forced", "impossible", "rerolled", "passed")))
    out.print(table)
    if result["variant_statistics"]:
        table = Table(title="Variant statistics", title_justify="left")
        for column in ("counter", "total", "per game", "95% interval"):
            table.add_column(column, justify="right")
        for name, stat in result["variant_statistics"].items():
            table.add_row(name, _num(stat["total"], 0), _num(stat["per_game"], 2), _interval(stat["low"], stat["high"], 2))
        out.print(table)
    table = Table(title="Metrics (each is defined under the table)", title_justify="left")
    for column in ("metric", "value", "95% interval"):
        table.add_column(column, justify="right")
    for name, metric in result["metrics"].items():
        table.add_row(name, "n/a*" if metric["value"] is None else _num(metric["value"]), _interval(metric["low"], metric["high"]))
    out.print(table)
    if any(metric["value"] is None for metric in result["metrics"].values()):
        out.print("* n/a: the variant has no treehouse_evaluate hook to tell who leads")
    print_definitions(list(result["metrics"]))
    if "skill" in result:
        data = result["skill"]
        table = Table(title=f"Skill: each stronger bot against each weaker, {data['games_per_pair']} games a pair on the same seeds, seats rotated", title_justify="left")
        for column in ("stronger", "weaker", "score", "95% interval", "edge"):
            table.add_column(column, justify="right", overflow="fold" if column in ("stronger", "weaker") else "ellipsis")
        for pair in data["pairs"]:
            table.add_row(shown(pair["strong"]), shown(pair["weak"]), f"{pair['score']:.3f}", _interval(pair["low"], pair["high"]), f"{pair['edge']:+.3f}")
        out.print(table)
        out.print(f"[bold]SkillTrace[/bold] {_num(data['SkillTrace'])}: the mean edge over adjacent rungs of {shown(' < '.join(data['ladder']))} (0: the dice decide, 1: skill always wins)")


def _simulate_csv(result: dict) -> tuple[list[str], list[list[Any]]]:
    rows: list[list[Any]] = [["games", "", result["games"], "", ""], ["turns_total", "", result["turns_total"], "", ""]]
    for seat in result["seats"]:
        rows.append(["win_rate", f"seat {seat['seat']}", seat["rate"], seat["low"], seat["high"]])
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


# --------------------------------------------------------------------------
# th simulate
# --------------------------------------------------------------------------


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
    _check_counts(run.games, run.jobs)
    _check_outputs(run, [config])
    effective = warned(resolve(plugins(), variant=variant, config=config, overrides=overrides or ()))
    kinds, batch = _seats_and_batch(run, [effective])
    measure_skill, skill_games, skill_bots = skill_options
    ladder = _skill_ladder(effective, len(kinds), skill_games, skill_bots) if measure_skill else ()
    began = time.perf_counter()
    with chunk_pool(run) as pool:
        with _progress(run.games, f"simulate {effective.name}") as progress:
            total, stopped = _play(batch, run.games, run, progress, pool)
        skill_result = None
        if ladder and stopped is None:
            spec = batch.rule_sets[0]
            pairs = skill.pairs(ladder)
            with _progress(skill_games * len(pairs), "skill ladder") as progress:
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
    result = _simulate_result(effective, kinds, run.seed, total.sides[0], time.perf_counter() - began)
    if skill_result is not None:
        result["skill"] = skill_result
    _save_outputs(run, result, stopped, lambda: _simulate_csv(result), html.simulate_report)
    if run.as_json:
        _emit_json(result)
    else:
        if stopped is not None:
            out.print(f"{PARTIAL}the first {result['games']} of {run.games} games")
        _print_simulate(result)
    _end_interrupted(stopped, result["games"], run.games)


# --------------------------------------------------------------------------
# th compare
# --------------------------------------------------------------------------


@run_options(games=2000)
def compare(
    a: Annotated[str, typer.Argument(help="Rule set A: a YAML file, a variant or a shipped rule set name.")],
    b: Annotated[Optional[str], typer.Argument(help="Rule set B (default: A again, changed by --set-b).")] = None,
    overrides: SetOption = None,
    overrides_b: Annotated[Optional[list[str]], typer.Option("--set-b", help="Change one setting of B only: key=value (repeatable).")] = None,
    sprt: Annotated[bool, typer.Option("--sprt", help="Stop as soon as the SPRT on the first seat's win rate decides (--games is then the most played).")] = False,
    sprt_delta: Annotated[float, typer.Option("--sprt-delta", help="H1: the first seat's win rate differs by this much (B - A).")] = 0.05,
    sprt_delta0: Annotated[float, typer.Option("--sprt-delta0", help="H0: the difference is this (usually 0).")] = 0.0,
    sprt_alpha: Annotated[float, typer.Option("--sprt-alpha", help="False-positive rate of the SPRT.")] = 0.05,
    sprt_beta: Annotated[float, typer.Option("--sprt-beta", help="False-negative rate of the SPRT.")] = 0.05,
    *,
    run: RunOptions,
) -> None:
    """Play two rule sets on the same seeds and report every difference with its interval.

    Example: th compare classic --set-b dig_in_place=false -n 5000 --sprt
    """
    run_guarded(_compare, a, b, overrides or [], overrides_b or [], (sprt_delta, sprt_delta0, sprt_alpha, sprt_beta) if sprt else None, run)


def _compare(a, b, overrides, overrides_b, sprt_args, run: RunOptions) -> None:
    _check_counts(run.games, run.jobs)
    _check_outputs(run, [a, b])
    if b is None and not overrides_b:
        raise ConfigError("name a second rule set B, or change A with --set-b key=value (e.g. th compare classic --set-b dig_in_place=false)")
    for text in overrides_b:
        parse_override(text, "--set-b")  # a malformed one is named as --set-b, not --set
    rules_a = _rule_set(a, overrides)
    rules_b = _rule_set(b if b is not None else a, [*overrides, *overrides_b])
    name_b = rules_b.name if b is not None else rules_a.name
    if overrides_b:
        name_b += " with " + " ".join(overrides_b)
    spec_a = RuleSpec.from_effective(rules_a)
    spec_b = dataclasses.replace(RuleSpec.from_effective(rules_b), name=name_b)
    if spec_b.name == spec_a.name:
        spec_b = dataclasses.replace(spec_b, name=spec_b.name + " (B)")
    if rules_a.variant_class is not rules_b.variant_class:
        err.print(
            f"warning: A plays {rules_a.variant_class.name} and B plays {rules_b.variant_class.name}: "
            "the same seeds give unrelated games, so the comparison is unpaired in effect (valid, but wider)",
            markup=False,
        )
    kinds, batch = _seats_and_batch(run, [rules_a, rules_b], (spec_a, spec_b))
    games, seed = run.games, run.seed

    test: SPRT | None = None
    if sprt_args is not None:
        delta1, delta0, alpha, beta = sprt_args
        for option, delta in (("--sprt-delta", delta1), ("--sprt-delta0", delta0)):
            if not -1 <= delta <= 1:  # also refuses nan
                raise ConfigError(f"{option} is a change in the first seat's win rate, from -1 to 1, not {delta}")
        try:
            test = SPRT(delta1, delta0, alpha, beta)
        except ValueError as error:
            raise ConfigError(f"--sprt: {error}") from None

    def stop(total) -> bool:
        return test is not None and test.update_sums(*first_seat_differences(total.paired)) is not None

    began = time.perf_counter()
    with chunk_pool(run) as pool, _progress(games, f"compare {spec_a.name} / {spec_b.name}") as progress:
        total, stopped = _play(batch, games, run, progress, pool, stop)
    seconds = time.perf_counter() - began
    side_a = _simulate_result(rules_a, kinds, seed, total.sides[0], seconds)
    side_b = _simulate_result(rules_b, kinds, seed, total.sides[1], seconds)
    side_a["rule_set"], side_b["rule_set"] = spec_a.name, spec_b.name
    rows = [
        {"name": d.name, "a": d.a, "b": d.b, "diff": d.diff.value, "low": d.diff.low, "high": d.diff.high, "p_value": d.p_value, "significant": d.significant}
        for d in differences(total.sides[0], total.sides[1], total.paired)
    ]
    result: dict[str, Any] = {
        "games": total.sides[0].games,
        "seed": seed,
        "seat_kinds": list(kinds),
        "seats_rotated": batch.rotate,
        "a": side_a,
        "b": side_b,
        "differences": rows,
        "significant": [r["name"] for r in rows if r["significant"]],
        "sprt": None,
        "seconds": round(seconds, 3),
    }
    if test is not None:
        decision = test.decision()
        verdict = {
            "H1": f"H1 accepted: the first seat's win rate changes by {test.delta1:+g} (B - A)",
            "H0": f"H0 accepted: a change of {test.delta1:+g} is ruled out (consistent with {test.delta0:+g})",
            None: "inconclusive: interrupted before the test decided" if stopped else "inconclusive: --games ran out before the test decided",
        }[decision]
        result["sprt"] = {
            "decision": decision, "verdict": verdict, "llr": test.llr(), "lower": test.lower, "upper": test.upper, "pairs": test.n,
            "delta0": test.delta0, "delta1": test.delta1, "alpha": test.alpha, "beta": test.beta,
        }
    compare_csv = ["metric", "a", "b", "diff", "low", "high", "p_value", "significant"], [list(r.values()) for r in rows]
    _save_outputs(run, result, stopped, lambda: compare_csv, html.compare_report)
    if run.as_json:
        _emit_json(result)
        _end_interrupted(stopped, result["games"], games)
        return
    if stopped is not None:
        out.print(f"{PARTIAL}the first {result['games']} of {games} pairs of games")
    out.print(
        f"[bold]A[/bold] = {shown(spec_a.name)}, [bold]B[/bold] = {shown(spec_b.name)}: {result['games']} paired games on the same seeds, "
        f"{shown(seats_text(kinds, batch.rotate))}, seed {seed}, {seconds:.1f} s"
    )
    width = min(out.width, 80)
    out.print("B - A with 95% intervals; * significant after Holm's correction over all rows", style="bold", width=width)
    table = Table(box=None, padding=(0, 1, 0, 0), pad_edge=False, header_style="bold")
    table.add_column("metric", justify="left", overflow="fold")
    for column in ("A", "B", "B - A", "95% interval", "p", ""):
        table.add_column(column, justify="right", no_wrap=True)

    def label(name: str) -> str:  # a seat's row names its bot, where one bot keeps the seat
        if name.startswith("win rate seat ") and not batch.rotate:
            return f"{name} ({kinds[int(name.rsplit(' ', 1)[1]) - 1]})"
        return name

    for r in rows:
        table.add_row(shown(label(r["name"])), _num(r["a"]), _num(r["b"]), _num(r["diff"]), _interval(r["low"], r["high"]), p_text(r["p_value"]), "*" if r["significant"] else "")
    out.print(table, width=width)
    flagged = result["significant"]
    out.print(f"significant: {', '.join(flagged)}" if flagged else "no significant difference")
    print_definitions([r["name"] for r in rows])
    if result["sprt"]:
        s = result["sprt"]
        out.print(f"SPRT: {s['verdict']} (LLR {s['llr']:.2f}, bounds [{s['lower']:.2f}, {s['upper']:.2f}], {s['pairs']} pairs)")
    _end_interrupted(stopped, result["games"], games)


# --------------------------------------------------------------------------
# th sweep
# --------------------------------------------------------------------------

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


def _sweep(variant, config, overrides, params, run: RunOptions) -> None:
    _check_counts(run.games, run.jobs)
    _check_outputs(run, [config])
    games, seed = run.games, run.seed
    points = grid(params)
    resolved = [resolve(plugins(), variant=variant, config=config, overrides=[*overrides, *point_overrides(p)]) for p in points]
    if resolved:
        warned(resolved[0])  # the house rules are the same at every point: say it once
    batches = []
    for point, effective in zip(points, resolved):
        spec = RuleSpec.from_effective(effective)
        spec = dataclasses.replace(spec, name=f"{spec.name} with {point_folder(point).replace(',', ' ')}")
        records = run.records / point_folder(point) if run.records is not None else None
        kinds, batch = _seats_and_batch(run, [effective], (spec,), records)
        batches.append(batch)
    began = time.perf_counter()
    rows = []
    stopped: Interrupted | None = None
    with chunk_pool(run) as pool, _progress(games * len(points), "sweep") as progress:
        for i, (point, effective, batch) in enumerate(zip(points, resolved, batches)):
            try:
                total = play(batch, games, run.jobs, plugins=plugins(), progress=lambda done, i=i: progress(i * games + done), pool=pool)
            except Interrupted as interruption:
                stopped, total = interruption, interruption.partial
            if total is not None:
                data = _simulate_result(effective, kinds, seed, total.sides[0], 0.0)
                rows.append({"values": point, **{k: data[k] for k in ("games", "turns_total", "wins", "draws", "timeouts", "ties", "seats", "length", "metrics", "variant_statistics", "lengths")}})
                if stopped is not None:
                    rows[-1]["partial"] = True
            if stopped is not None:
                break
    if not rows:
        err.print(f"{_why(stopped) if stopped is not None else 'interrupted'} before any game finished", markup=False)
        raise typer.Exit(stopped.exit_code if stopped is not None else 2)
    seconds = time.perf_counter() - began
    result = {
        "variant": resolved[0].variant_class.name,
        "rule_set": resolved[0].name,
        "seed": seed,
        "games": games,
        "seat_kinds": list(kinds),
        "points": rows,
        "chart_metrics": list(CHART_METRICS),
        "seconds": round(seconds, 3),
    }
    keys = list(points[0])
    header = [*keys, "games", *(f"seat{s + 1}_win_rate" for s in range(len(kinds))), "p1_low", "p1_high", "draws", "timeouts", "mean_length", "median_length", "p90_length"]
    header += [f"{m}{suffix}" for m in CHART_METRICS for suffix in ("", "_low", "_high")]
    table_rows = []
    for r in rows:
        line = [*(r["values"][k] for k in keys), r["games"], *(s["rate"] for s in r["seats"]), r["seats"][0]["low"], r["seats"][0]["high"], r["draws"], r["timeouts"]]
        line += [r["length"]["mean"], r["length"]["median"], r["length"]["p90"]]
        for m in CHART_METRICS:
            line += [r["metrics"][m]["value"], r["metrics"][m]["low"], r["metrics"][m]["high"]]
        table_rows.append(line)
    played = sum(r["games"] for r in rows)
    _save_outputs(run, result, stopped, lambda: (header, table_rows), html.sweep_report)
    if run.as_json:
        _emit_json(result)
        _end_interrupted(stopped, played, games * len(points))
        return
    if stopped is not None:
        out.print(f"{PARTIAL}{len(rows)} of {len(points)} points, the last after {rows[-1]['games']} of {games} games")
    out.print(f"[bold]{shown(result['rule_set'])}[/bold]: {len(rows)} points x {games} games (the same seeds at every point), {shown(seats_text(kinds))}, seed {seed}, {seconds:.1f} s")
    _print_sweep(keys, rows, kinds)
    _end_interrupted(stopped, played, games * len(points))


#: The sweep table's short column names and what they mean (printed as its key).
SWEEP_KEY = (
    ("P1 win", "seat 1's ({bot}) win rate [95% interval]"),
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
        _num(r["metrics"]["DecisionMoves"]["value"]),
        f"{_num(balance['value'], 2)} [{_short(balance['low'])},{_short(balance['high'])}]" if balance["value"] is not None else "n/a",
    ]


def _print_sweep(keys: list[str], rows: list[dict], kinds: list[str] | tuple[str, ...]) -> None:
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
    out.print("Key: " + "; ".join(f"{short}: {meaning.format(bot=kinds[0])}" for short, meaning in SWEEP_KEY) + ".", style="dim", soft_wrap=False, width=min(out.width, 80))


__all__ = ["simulate", "compare", "sweep", "metrics", "TreehouseError"]
