"""Usage errors (an unknown option, a missing argument, a bad number) as one line.

Click finds these mistakes while it reads the command line, before any of our
code runs, and Typer would draw them as a box of several lines.  The ``th``
group catches them where Click raises them (reading the group's own options,
and reading a command's, which happens inside the group's ``invoke``) and
prints one line instead::

    error: no such option '--bogus' for 'th simulate'; see th simulate --help

then exits with status 2, like every other mistake.  ``th`` with no command
still prints the help.
"""

from __future__ import annotations

import sys
from typing import Any

import typer
from typer.core import TyperGroup

from treehouse.cli.common import INTERRUPTED, err, fail

# Click's exceptions as Typer raises them: newer Typers carry their own copy of
# Click (``typer._click``), older ones use ``click``; ask Typer which.
click = sys.modules[typer.BadParameter.__module__]
_NO_ARGS_IS_HELP = getattr(click, "NoArgsIsHelpError", ())  # `th` alone: Typer prints the help


def _sentence(text: str) -> str:
    """Click's message as part of a line: one line, lower-case start, no full stop."""
    text = " ".join(text.split())
    if text[:1].isupper() and not text[1:2].isupper():
        text = text[0].lower() + text[1:]
    return text.rstrip(".")


def usage_line(error: click.ClickException, path: str = "") -> str:
    """The one line (without ``error: ``) for a mistake Click found on the command line.

    ``path`` is the command (``th simulate``) when the error does not carry it.
    """
    ctx = getattr(error, "ctx", None)
    path = ctx.command_path if ctx is not None else path
    is_root = " " not in path
    if isinstance(error, click.NoSuchOption):
        message = f"no such option {error.option_name!r}"
        if not is_root:
            message += f" for {path!r}"
        if error.possibilities:
            message += f" (did you mean {', '.join(sorted(error.possibilities))}?)"
    elif isinstance(error, click.MissingParameter):
        message = _sentence(error.format_message())
        if not is_root:
            message += f" for {path!r}"
    else:
        message = _sentence(error.format_message())
    if isinstance(error, click.UsageError) and path:
        message += f"; see {path} --help"
    return message


_COMMAND = "treehouse.command"  # where the group notes, in its context, the command being read


#: Placeholders in ``--help`` that say what to type, where the type alone would not
#: (``SEAT``, ``KEY=VALUE``, ``SECONDS``; not ``<list[str]>`` or ``<float range>``).
METAVARS = {
    "--set": "KEY=VALUE", "--set-b": "KEY=VALUE", "--param": "rules.KEY=V1,V2", "--variant": "NAME", "--skill-bots": "BOT,BOT",
    "--delay": "SECONDS", "--budget-seconds": "SECONDS", "--sprt-alpha": "RATE", "--sprt-beta": "RATE",
    "--sprt-delta": "CHANGE", "--sprt-delta0": "CHANGE", "--port": "PORT",
    "--config": "FILE", "--csv": "FILE", "--html": "FILE", "--record": "FILE", "--report": "FILE", "--resume": "FILE", "--out": "FILE",
    "--dir": "DIR", "--records": "DIR", "--plugins-dir": "DIR",
}
def name_metavars(command: Any) -> None:
    """Give every option and argument of ``command`` a conventional placeholder
    (an explicit ``metavar=`` stays): a flag none, a count ``N``, a word its own
    name in capitals (``--seat SEAT``), and the few in :data:`METAVARS`; an
    argument its name in capitals, with no type beside it."""
    help_option = command.get_help_option(typer.Context(command))  # made once and kept: --help's flag too
    for param in [*command.params, *([help_option] if help_option is not None else [])]:
        if param.param_type_name == "argument":
            param.metavar = param.metavar or param.name.upper()
            param.display_type_rich = lambda ctx: None  # its name (FILE, A) says it; not "<str>" beside it
            continue
        if param.metavar is not None:
            continue
        option = next((opt for opt in param.opts if opt.startswith("--")), param.opts[0])
        if param.is_flag:
            param.metavar = ""
        elif option in METAVARS:
            param.metavar = METAVARS[option]
        elif param.bare_type() == "int":
            param.metavar = "N"
        elif param.bare_type() == "float":
            param.metavar = "NUMBER"
        else:
            param.metavar = option.lstrip("-").upper()


class OneLineErrors(TyperGroup):
    """The ``th`` group: Click's usage errors become one line and exit status 2;
    every option's placeholder in ``--help`` is a conventional one (:func:`name_metavars`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in (self, *self.commands.values()):
            name_metavars(command)

    def make_context(self, info_name: str | None, args: list[str], parent: typer.Context | None = None, **extra: Any) -> typer.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except _NO_ARGS_IS_HELP:
            raise
        except click.ClickException as error:
            raise fail(usage_line(error, info_name or ""), error.exit_code) from None

    def resolve_command(self, ctx: typer.Context, args: list[str]) -> Any:
        name, command, rest = super().resolve_command(ctx, args)
        ctx.meta[_COMMAND] = name
        return name, command, rest

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # Ctrl-C where a command does not report partial work itself (loading
            # the plugins, say): one line and the shell's 130, not Click's "Aborted!" and 1
            err.print("interrupted", markup=False)
            raise typer.Exit(INTERRUPTED) from None
        except _NO_ARGS_IS_HELP:
            raise
        except click.ClickException as error:
            name = ctx.meta.get(_COMMAND)
            raise fail(usage_line(error, f"{ctx.command_path} {name}" if name else ctx.command_path), error.exit_code) from None
