"""The ``th`` command: one Typer app, one module per command group.

:func:`main` is the console-script entry point.  A user's mistake (any
:class:`~treehouse.errors.TreehouseError`) prints one line to standard error
and exits with status 2; anything else is a bug and keeps its traceback
(set ``TREEHOUSE_DEBUG=1`` to see tracebacks for user errors too).
"""

from treehouse.cli.app import app, main

__all__ = ["app", "main"]
