"""The Typer application and the console-script entry point."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

from treehouse import __version__
from treehouse.cli import authoring, catalog, compare, play, positions, replay, simulate, sweep
from treehouse.cli.common import DEBUG_ENV, fail, plugins
from treehouse.plugins import PLUGINS_DIR_ENV
from treehouse.cli.usage import OneLineErrors

app = typer.Typer(
    name="th",
    cls=OneLineErrors,  # usage errors (an unknown option, a bad number) are one line

    help="treehouse: play, write and playtest dice-and-pyramid games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=bool(os.environ.get(DEBUG_ENV)),
)

app.command("variants")(catalog.variants)
app.command("rules")(catalog.rules)
app.command("plugins")(catalog.plugins_command)
app.command("show")(positions.show)
app.command("moves")(positions.moves)
app.command("simulate")(simulate.simulate)
app.command("compare")(compare.compare)
app.command("sweep")(sweep.sweep)
app.command("tune")(__import__("treehouse.cli.tune", fromlist=["tune"]).tune)
app.command("play")(play.play)
app.command("replay")(replay.replay)
app.command("serve")(__import__("treehouse.cli.serve", fromlist=["serve"]).serve)
app.command("solve")(__import__("treehouse.cli.solve", fromlist=["solve"]).solve)
app.command("new-variant")(authoring.new_variant)


def _version(value: bool) -> None:
    if value:
        from treehouse.kernel.fast.compiled import tier

        typer.echo(f"treehouse {__version__}")
        typer.echo(tier())
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
    plugins_dir: Optional[list[str]] = typer.Option(
        None,
        "--plugins-dir",
        help="Also load every *.py module in this folder as a plugin (a house rule tried without packaging); repeatable.",
    ),
) -> None:
    """treehouse: play, write and playtest dice-and-pyramid games."""
    if plugins_dir:
        # Through the environment, so that worker processes (th simulate --jobs) load the same plugins.
        if any(not folder.strip() for folder in plugins_dir):  # an unset variable: not the working directory's every *.py
            raise fail("--plugins-dir was given an empty folder name; name a folder of *.py plugin modules (--plugins-dir . for this one)")
        folders = [str(Path(folder).resolve()) for folder in plugins_dir]
        for folder in folders:
            if not Path(folder).is_dir():
                raise fail(f"--plugins-dir {folder}: no such folder (give a folder of *.py plugin modules)")
        earlier = [part for part in os.environ.get(PLUGINS_DIR_ENV, "").split(os.pathsep) if part]
        os.environ[PLUGINS_DIR_ENV] = os.pathsep.join([*folders, *earlier])
        plugins.cache_clear()


#: OpenBLAS's worker threads, one per further CPU, spin for about a tenth of a
#: second after numpy's import, doing nothing: th's processes (the compiled
#: core's arrays, a learner's observations) do no linear algebra, so they keep
#: to one, unless the user set it.  Asked here, before numpy is imported, and
#: inherited by the workers a playtest starts.
BLAS_THREADS_ENV = "OPENBLAS_NUM_THREADS"


def main() -> None:
    os.environ.setdefault(BLAS_THREADS_ENV, "1")
    app()
