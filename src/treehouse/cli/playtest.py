"""What ``th simulate``, ``th compare``, ``th sweep`` and ``th tune`` share: the options of a run, where
it plays (here or on a cluster), its progress bar, and the files and lines it writes.

The statistics live in :mod:`treehouse.playtest`; each command reads its own
options and prints its report (:mod:`treehouse.cli.simulate`,
:mod:`treehouse.cli.compare`, :mod:`treehouse.cli.sweep`, :mod:`treehouse.cli.tune`).
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

from treehouse.bots.options import check_bot_spec
from treehouse.cli.common import err, out, plugins, shown, shown_path, warned
from treehouse.config import EffectiveRules, resolve
from treehouse.errors import ConfigError
from treehouse.playtest import metrics
from treehouse.playtest.metrics import summary
from treehouse.playtest.work import Batch, Interrupted, RuleSpec, check_batch
from treehouse.playtest.work import run as play
from treehouse.textfiles import check_name, refuse_existing, same_file, write_text_atomically

GamesOption = Annotated[int, typer.Option("--games", "-n", help="Games to play.")]
SeatOption = Annotated[
    Optional[list[str]],
    typer.Option("--seat", help="The bot in the next seat, with options if any, e.g. search(depth=2) (repeatable; default: random in every seat)."),
]
PlayersOption = Annotated[Optional[int], typer.Option("--players", "-p", help="Players, when --seat is not given for each.")]
FixedSeatsOption = Annotated[
    bool,
    typer.Option(
        "--fixed-seats",
        help="Keep each bot in the seat its --seat gave it (default: where the seats hold different bots, they rotate, "
        "every bot playing every seat equally often on the same seeds, so the seat figures measure the game, not the bots).",
    ),
]
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
    fixed_seats: bool = False
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
    ("fixed_seats", FixedSeatsOption),
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


def check_counts(games: int, jobs: int | None) -> None:
    if not 1 <= games <= MAX_GAMES:
        raise ConfigError(f"--games must be from 1 to {MAX_GAMES}, not {games}")
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise ConfigError(f"--jobs must be from 1 to {MAX_JOBS} (this machine has {os.cpu_count() or 1} CPUs), not {jobs}")


#: How an earlier run's game records are named in a --records folder (game-000001.jsonl, a-game-…, b-game-…).
RECORD_NAME = re.compile(r"^(?:[ab]-)?game-\d{6,}\.jsonl$")


def check_outputs(run: RunOptions, reads: list[Path | str | None]) -> None:
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


def seats_and_batch(run: RunOptions, rule_sets: list[EffectiveRules], specs: tuple[RuleSpec, ...] | None = None, records: Path | None = None) -> tuple[tuple[str, ...], Batch]:
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
    batch = Batch(specs, kinds, run.seed, rotate=len(set(kinds)) > 1 and not run.fixed_seats, records=str(records) if records else None)
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


def rule_set_named(reference: str, overrides: list[str], playing: bool = False) -> EffectiveRules:
    """A rule set named on the command line: a YAML file, or a variant / shipped rule set name
    (``playing``: its bots look ahead, so a house rule keeping the core away is said)."""
    path = Path(reference)
    if path.suffix in (".yaml", ".yml") or path.is_file():
        return warned(resolve(plugins(), config=path, overrides=overrides), playing)
    return warned(resolve(plugins(), variant=reference, overrides=overrides), playing)


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None]]:
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


def play_batch(batch: Batch, games: int, run: RunOptions, progress: Callable[[int], None], pool: Any, stop: Any = None) -> tuple[Any, Interrupted | None]:
    """Play the batch; on Ctrl-C (or SIGTERM, SIGHUP) the games finished so far
    and the interruption, else the totals and ``None``.  Before any game
    finished, an interruption says so and exits at once."""
    try:
        return play(batch, games, run.jobs, plugins=plugins(), progress=progress, stop=stop, pool=pool), None
    except Interrupted as stopped:
        if stopped.partial is None:
            err.print(f"{why_stopped(stopped)} before any game finished", markup=False)
            raise typer.Exit(stopped.exit_code) from None
        return stopped.partial, stopped


def why_stopped(stopped: Interrupted) -> str:
    """Why a run stopped early, in words: ``interrupted``, or the run's own reason."""
    return f"stopped, {stopped.reason}" if stopped.reason else "interrupted"


def end_interrupted(stopped: Interrupted | None, done: int, asked: int) -> None:
    """After partial results: the line saying so, and the signal's exit status (130 for Ctrl-C)."""
    if stopped is None:
        return
    err.print(f"{why_stopped(stopped)}: {done} of {asked} games played; the results above are partial (--csv and --report were not written)", markup=False)
    raise typer.Exit(stopped.exit_code)


def save_outputs(run: RunOptions, result: dict, stopped: Interrupted | None, csv_table: Callable[[], tuple[list[str], list[list[Any]]]], report: Callable[[dict], str]) -> None:
    """Say where the records went, and write ``--csv`` and ``--report`` for a
    whole run only: a partial one is marked so and overwrites neither."""
    if run.records is not None:
        wrote("every game's record", run.records)
    if stopped is not None:
        result["partial"] = True
        return
    if run.csv_file is not None:
        write_csv(run.csv_file, *csv_table())
    if run.report is not None:
        write_text(run.report, report(result))


PARTIAL = "[bold]Partial results[/bold] (interrupted): "


def write_csv(path: Path, header: list[str], rows: list[list[Any]]) -> None:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    write_text_atomically(path, buffer.getvalue(), ConfigError)
    wrote("the CSV", path)


def write_text(path: Path, text: str) -> None:
    write_text_atomically(path, text, ConfigError)
    wrote("the report", path)


def wrote(what: str, path: Path) -> None:
    """Say where a file went, on standard error (standard output may be a table or JSON in a pipe)."""
    err.print(f"Wrote {what} to {shown_path(str(path))}", markup=False, highlight=False)


def emit_json(data: dict) -> None:
    typer.echo(json.dumps(data))


def num(value: Any, digits: int = 3) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def interval(low: Any, high: Any, digits: int = 3) -> str:
    return "" if low is None or high is None else f"[{low:.{digits}f}, {high:.{digits}f}]"


def seats_text(kinds: list[str] | tuple[str, ...], rotated: bool = False) -> str:
    """``seat 1 random, seat 2 greedy``: each seat with its bot (rotated: the bots take turns in each seat)."""
    if rotated:
        return "seats " + ", ".join(kinds) + " (rotated: each bot plays each seat in turn)"
    return ", ".join(f"seat {n} {kind}" for n, kind in enumerate(kinds, start=1))


def seats_heading(rotated: bool, bots: int) -> str:
    """What the seat part measures, given how the seats were filled."""
    if rotated:
        return "Seats: the game's balance, each seat averaged over the bots that sat in it (rotated)"
    if bots > 1:
        return "Seats (fixed, each with its own bot)"
    return "Seats: the game's balance, one bot in every seat"


def print_definitions(names: list[str]) -> None:
    """Under a table, what each of its rows measures (metrics.definition), one line each within 80 columns."""
    width = min(out.width, 80)
    defined = [(name, metrics.definition(name)) for name in dict.fromkeys(names)]
    defined = [(name, words) for name, words in defined if words]
    merged: list[tuple[str, str]] = []
    for name, words in defined:  # rows defined alike (each bot's score) share one line
        if merged and merged[-1][1] == words:
            merged[-1] = (f"{merged[-1][0]}, {name}", words)
        else:
            merged.append((name, words))
    defined = merged
    if not defined:
        return
    column = min(max(len(name) for name, _ in defined), 20) + 2
    out.print("What each row measures:", style="bold")
    for name, words in defined:
        text = f"  {name:<{column}}{words}" if len(name) < column else f"  {name}: {words}"
        for line in textwrap.wrap(text, width, subsequent_indent=" " * (column + 2)):
            out.print(shown(line), soft_wrap=True, highlight=False)


def faces_order(effective: EffectiveRules) -> tuple[str, ...]:
    return tuple(effective.variant_class.die.faces)


def simulate_result(effective: EffectiveRules, batch: Batch, aggregate, seconds: float) -> dict:
    result = {
        "variant": effective.variant_class.name,
        "rule_set": effective.name,
        "seed": batch.seed,
        "seat_kinds": list(batch.seats),
        "seats_rotated": batch.rotate,
        # fixed seats holding different bots: a seat's figures measure its bot as much as the game
        "seat_metrics_measure_bots": not batch.rotate and len(set(batch.seats)) > 1,
        **summary(aggregate, faces_order(effective)),
        "seconds": round(seconds, 3),
    }
    return result


