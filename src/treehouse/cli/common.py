"""What every command shares: consoles, the loaded plugins, rule-set options, errors."""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from treehouse.config import EffectiveRules, resolve
from treehouse.errors import TreehouseError, clip, printable
from treehouse.plugins import Plugins, hook_failure, load_plugins

DEBUG_ENV = "TREEHOUSE_DEBUG"

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


@lru_cache(maxsize=1)
def plugins() -> Plugins:
    """The installed plugins, loaded once per command; problems become
    warnings, except a local plugin's (--plugins-dir) that failed to load:
    the user asked for it, so the command stops with that one line."""
    loaded = load_plugins()
    if loaded.local_failures:
        raise fail(loaded.local_failures[0])
    for problem in loaded.problems:
        err.print(f"warning: {clip(problem)}", markup=False)
    return loaded


#: The exit status after Ctrl-C (128 + SIGINT), as the shell reports it.
INTERRUPTED = 130


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one line of error (cut to a sane length) and return the exit to raise."""
    err.print(f"error: {clip(message)}", markup=False)
    return typer.Exit(code)


def run_guarded(function, *args, **kwargs):
    """Call ``function``; a user's mistake becomes one line and exit status 2."""
    try:
        return function(*args, **kwargs)
    except (TreehouseError, NotImplementedError) as error:
        # NotImplementedError: a variant's hook or notation method not written
        # yet (th new-variant writes them so); its message says what it must do.
        if os.environ.get(DEBUG_ENV):
            raise
        raise fail(str(error) if isinstance(error, TreehouseError) else f"not written yet: {error}") from None
    except Exception as error:  # a plugin's hook that raised outside a game (drawing, listing moves): one line naming it
        failure = hook_failure(error)
        if failure is None or os.environ.get(DEBUG_ENV):
            raise
        raise fail(str(failure)) from None


def shown(text: object) -> str:
    """Text a file or a record supplied, ready for ``out.print``: control
    characters escaped (:func:`~treehouse.errors.printable`), markup escaped."""
    from rich.markup import escape

    return escape(printable(str(text)))


def shown_path(path: str) -> str:
    """A path as short as it can be shown: relative to the working directory when inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return path


VariantOption = Annotated[
    Optional[str],
    typer.Option("--variant", "-v", help="A variant (classic) or a shipped rule set (classic-wiki)."),
]
ConfigOption = Annotated[
    Optional[Path],
    typer.Option("--config", "-c", help="A YAML rule-set file.", dir_okay=False),
]
SetOption = Annotated[
    Optional[list[str]],
    typer.Option("--set", "-s", help="Override one setting: key=value (repeatable), e.g. dig_in_place=false."),
]


def effective_rules(variant: str | None, config: Path | None, overrides: list[str] | None, playing: bool = False) -> EffectiveRules:
    """The rules in force for a command's --variant/--config/--set; what is
    worth a warning (two house rules answering one hook; for a command that
    plays games, a house rule keeping the compiled core away) is said on standard error."""
    return warned(resolve(plugins(), variant=variant, config=config, overrides=overrides or ()), playing)


def looks_ahead(seats: list[str] | None) -> bool:
    """Does one of the ``--seat`` specs name a bot that looks ahead (any bot
    stronger than ``random``)?  Only then does the compiled core matter."""
    from treehouse.bots.options import bot_name

    bots = plugins().bots
    for spec in seats or ():
        try:
            info = bots.get(bot_name(spec))
        except TreehouseError:
            continue  # a bad spec is named by the command itself
        if info is not None and info.strength > 0:
            return True
    return False


def warned(effective: EffectiveRules, playing: bool = False) -> EffectiveRules:
    """``effective``, once its warnings (two house rules answering one hook)
    are said on standard error; and by a command that seats bots that look
    ahead (``playing``: simulate, compare, sweep, tune, play, serve), the
    line naming the house rules that keep their looks off the compiled core."""
    for warning in effective.warnings + (effective.slow if playing else []):
        err.print(f"warning: {warning}", markup=False)
    return effective


def stdout_is_plain() -> bool:
    return not sys.stdout.isatty()
