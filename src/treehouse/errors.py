"""Every error a user can cause, as one exception family.

The CLI prints ``str(error)`` as one line and exits non-zero; anything that is
not a :class:`TreehouseError` is a bug and keeps its traceback.
"""

from __future__ import annotations


class TreehouseError(Exception):
    """A mistake in what the user (or a plugin author) gave us."""


class NotationError(TreehouseError, ValueError):
    """Text that does not parse as a position or a move."""


class IllegalPositionError(TreehouseError, ValueError):
    """A position that parses but breaks a rule (e.g. a lying piece in a stack)."""


class IllegalMoveError(TreehouseError, ValueError):
    """A move that is not legal in the position it was played in."""


class UnknownNameError(TreehouseError, LookupError):
    """An unknown variant, action, option, bot or plugin; the message lists the known ones."""


class ConfigError(TreehouseError):
    """A rule set that cannot be loaded: malformed YAML, a bad value, a loop in ``extends``."""


class PluginError(TreehouseError):
    """A plugin that fails to import, implements an unknown hook, or breaks a hook's contract."""


class RecordError(TreehouseError):
    """A game record that is damaged, foreign, or does not replay."""


def unknown(kind: str, name: str, known, where: str = "") -> UnknownNameError:
    """Build the standard 'unknown X' error, listing what would have been right
    (``where`` narrows it: ``" for classic"``)."""
    choices = ", ".join(sorted(known)) or "(none)"
    return UnknownNameError(f"unknown {kind} {name!r}{where}; known: {choices}")
