"""``th tune SPEC.yaml``: search rule values toward a designer's targets.

The search lives in :mod:`treehouse.playtest.tune`; this module reads the
options, plays the games where ``--jobs``/``--cluster`` say, and writes the
results (every file atomically, none overwritten unasked).
"""

from __future__ import annotations

import csv
import io
import json
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Callable, Iterator, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from treehouse.cli.common import err, looks_ahead, out, plugins, run_guarded, shown, shown_path, warned
from treehouse.cli.playtest import (
    MAX_GAMES, ClusterOption, JobsOption, RunOptions, SeedOption, TlsCaOption, TlsCertOption, TlsKeyOption, WorkerTimeoutOption, check_counts, chunk_pool,
)
from treehouse.errors import ConfigError
from treehouse.playtest import html
from treehouse.playtest import tune as tuning
from treehouse.playtest.work import run as play
from treehouse.textfiles import write_text_atomically

#: What one run writes into --out (the best rule sets are best-1.yaml, best-2.yaml, ...).
RESULT_FILES = ("trials.csv", "report.html", "tune.json")


def tune(
    spec: Annotated[Path, typer.Argument(help="The tuning spec (YAML): rule_set, seats, options, targets (docs/tuning.md).", dir_okay=False)],
    out_dir: Annotated[Path, typer.Option("--out", help="The folder for the results: best-N.yaml, trials.csv, report.html, tune.json.", file_okay=False)],
    budget_games: Annotated[int, typer.Option("--budget-games", help="Stop before playing more games than this (skill games count too).")] = 2000,
    budget_seconds: Annotated[Optional[float], typer.Option("--budget-seconds", help="Also stop after this long (the trials then depend on the machine's speed).")] = None,
    seed: SeedOption = 1,
    jobs: JobsOption = None,
    cluster: ClusterOption = None,
    best: Annotated[int, typer.Option("--best", help="How many of the best rule sets to write.")] = 3,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace the results of an earlier run in --out.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as one JSON object instead of a table.")] = False,
    tls_ca_file: TlsCaOption = None,
    tls_cert: TlsCertOption = None,
    tls_key: TlsKeyOption = None,
    worker_timeout: WorkerTimeoutOption = 60.0,
) -> None:
    """Search rule values toward targets (Optuna TPE, successive halving, common seeds); write the best rule sets.

    Example: th tune docs/fences-tune.yaml --out tuned
    """
    where = RunOptions(games=1, seed=seed, jobs=jobs, cluster=cluster, tls_ca_file=tls_ca_file, tls_cert=tls_cert, tls_key=tls_key, worker_timeout=worker_timeout)
    code = run_guarded(_tune, spec, out_dir, budget_games, budget_seconds, seed, jobs, where, best, overwrite, as_json)
    if code:
        raise typer.Exit(code)


def _planned_files(best: int) -> list[str]:
    return [*(f"best-{rank}.yaml" for rank in range(1, best + 1)), *RESULT_FILES]


def _check_out(out_dir: Path, best: int, overwrite: bool) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise ConfigError(f"--out {out_dir} is a file; name a folder for the results")
    if out_dir.is_dir() and not overwrite:
        taken = [name for name in _planned_files(best) if (out_dir / name).exists()]
        if taken:
            raise ConfigError(f"{out_dir} already holds {taken[0]} (an earlier run's results); choose another --out, or add --overwrite to replace them")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigError(f"cannot make the folder {out_dir}: {error.strerror or error}") from None


@contextmanager
def progress_bar(total: int) -> Iterator[Callable[[tuning.Search], None]]:
    if not err.is_terminal:
        yield lambda search: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("tune", total=total)

        def show(search: tuning.Search) -> None:
            ranked = search.ranked()
            label = f"tune: {len(search.trials)} trials, best loss {ranked[0].loss:.3f}" if ranked else "tune"
            bar.update(task, completed=search.games_played, description=label)

        yield show


def _tune(spec_path, out_dir, budget_games, budget_seconds, seed, jobs, where: RunOptions, best, overwrite, as_json) -> int:
    check_counts(1, jobs)
    if not 1 <= budget_games <= MAX_GAMES:
        raise ConfigError(f"--budget-games must be from 1 to {MAX_GAMES}, not {budget_games}")
    if budget_seconds is not None and not budget_seconds > 0:
        raise ConfigError(f"--budget-seconds must be above 0, not {budget_seconds}")
    if not 1 <= best <= 100:
        raise ConfigError(f"--best must be from 1 to 100, not {best}")
    spec = tuning.load_spec(spec_path, plugins())
    warned(spec.rules, looks_ahead([*spec.seats, *(spec.skill or ())]))  # the trials vary options, not house rules: said once
    _check_out(out_dir, best, overwrite)

    with chunk_pool(where) as pool, progress_bar(budget_games) as progress:

        def play_games(batch, games: int, first: int) -> Any:
            return play(batch, games, jobs, plugins=plugins(), chunk=spec.chunk, pool=pool, first=first).sides[0]

        search = tuning.run_search(spec, seed, budget_games, play_games, budget_seconds, progress)
    if not search.trials:
        if search.exit_code:
            err.print(f"{why_stopped(search)} before any trial was played; nothing written", markup=False)
            return search.exit_code
        raise ConfigError("no trial was played to the end of its first rung; nothing to write")
    result = tuning.result_json(search, best)
    written = _write_results(search, result, out_dir, best)
    if overwrite:  # an earlier run's best-N.yaml beyond this run's distinct rule sets would mislead
        for name in _planned_files(best):
            if name.startswith("best-") and out_dir / name not in written:
                (out_dir / name).unlink(missing_ok=True)
    if as_json:
        typer.echo(json.dumps({**result, "written": [str(p) for p in written]}))
    else:
        _print(search, result)
    # Where the files went, on standard error (standard output may be a table or JSON in a pipe), as the other commands say it.
    err.print(f"Wrote {len(written)} files to {shown_path(str(out_dir))}: {', '.join(p.name for p in written)}", markup=False, highlight=False)
    if search.exit_code:
        err.print(f"{why_stopped(search)}: the results of the trials played so far are written", markup=False)
        return search.exit_code
    return 0


def why_stopped(search: tuning.Search) -> str:
    """``interrupted`` (Ctrl-C or a signal), or why the search stopped itself (a cluster with no live worker)."""
    return "interrupted" if search.stopped_by == "Ctrl-C" else f"stopped, {search.stopped_by}"


def _write_results(search: tuning.Search, result: dict, out_dir: Path, best: int) -> list[Path]:
    written = []
    for rank, trial in enumerate(search.ranked()[:best], 1):
        written.append(write_text_atomically(out_dir / f"best-{rank}.yaml", tuning.best_rule_set(search, trial, rank, out_dir), ConfigError, "rule set"))
    header, rows = tuning.trial_rows(search)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    written.append(write_text_atomically(out_dir / "trials.csv", buffer.getvalue(), ConfigError, "trials CSV"))
    written.append(write_text_atomically(out_dir / "report.html", html.tune_report(result), ConfigError, "report"))
    written.append(write_text_atomically(out_dir / "tune.json", json.dumps(result, indent=1) + "\n", ConfigError, "results JSON"))
    return written


def _print(search: tuning.Search, result: dict) -> None:
    spec = search.spec
    out.print(
        f"[bold]{shown(spec.rules.name)}[/bold]: {len(search.trials)} trials, {search.games_played} games of {search.budget_games} budgeted, "
        f"seats {shown(', '.join(spec.seats))}, seed {search.seed}; stopped by {shown(result['stopped_by'])}; {search.seconds:.0f} s"
    )
    table = Table(title="The best rule sets (targets with 95% intervals; * met)", title_justify="left")
    for column in ("rank", "trial", "games", "loss", *(o.name for o in spec.options), *(f"{t.name} ({t.text})" for t in spec.targets)):
        table.add_column(shown(column), justify="right")
    for rank, trial in enumerate(search.ranked()[: len(result["best"])], 1):
        cells = [str(rank), str(trial.number), str(trial.games), f"{trial.loss:.4f}", *(shown(str(trial.params[o.name])) for o in spec.options)]
        for target in spec.targets:
            value, low, high = trial.values[target.name]
            text = "n/a" if value is None else f"{value:.3f}" + ("" if low is None else f" [{low:.3f}, {high:.3f}]")
            cells.append(text + (" *" if target.met(value) else ""))
        table.add_row(*cells)
    out.print(table)
