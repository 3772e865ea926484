"""``th replay --check DIR``: every record in a folder replayed and checked, in one process.

Each ``*.jsonl`` file directly in the folder (sorted by name) is read and
replayed through the same engine and hooks (:func:`treehouse.kernel.replay.replay`:
every step's legal moves, positions and events computed again, the end
compared).  A bad record is one line, ``PATH: what is wrong``; then a summary
line; the exit status is 1 when any record is bad, 0 when all are good, and 2
for a mistake in the command (no such folder, no record in it).  One process
loads the plugins (and the compiled rules) once, which is what makes a
folder of hundreds of records quick.
"""

from __future__ import annotations

import os
from pathlib import Path

import typer

from treehouse.cli.common import DEBUG_ENV, err, fail, out, plugins, shown_path
from treehouse.errors import TreehouseError, clip
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.plugins import hook_failure


def check_folder(folder: Path) -> None:
    if not folder.is_dir():
        raise fail(f"{shown_path(str(folder))} is not a folder: --check replays every record (*.jsonl) in a folder")
    paths = sorted(path for path in folder.glob("*.jsonl") if path.is_file())
    if not paths:
        raise fail(f"no records (*.jsonl) in {shown_path(str(folder))}")
    loaded = plugins()
    bad = 0
    for path in paths:
        problem = _problem(path, loaded)
        if problem is not None:
            bad += 1
            err.print(f"{shown_path(str(path))}: {clip(problem)}", markup=False, highlight=False)
    good = len(paths) - bad
    out.print(f"{len(paths)} record{'s' if len(paths) != 1 else ''} checked in {shown_path(str(folder))}: {good} good, {bad} bad.", markup=False, highlight=False)
    if bad:
        raise typer.Exit(1)


def _problem(path: Path, loaded) -> str | None:
    """What is wrong with the record at ``path``, in one line, or ``None``."""
    try:
        replay(Record.read(path), loaded)
    except TreehouseError as error:
        return str(error)
    except Exception as error:  # a plugin's hook that failed while replaying: name it, and go on with the next record
        if os.environ.get(DEBUG_ENV):
            raise
        failure = hook_failure(error)
        return str(failure) if failure is not None else f"{type(error).__name__}: {error}"
    return None
