"""Every error a user can cause, as one exception family.

The CLI prints ``str(error)`` as one line and exits non-zero; anything that is
not a :class:`TreehouseError` is a bug and keeps its traceback.
"""

from __future__ import annotations

import re


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
    return UnknownNameError(f"unknown {kind} {quote(name)}{where}; known: {clip(choices)}")


#: The longest line an error or warning prints: a 1 MB bad line must not become a 2 MB message.
MAX_LINE = 300
#: The longest quotation of a user's value inside an error.
MAX_QUOTE = 60


#: Characters a terminal acts on rather than shows: C0 and C1 controls (ESC starts
#: a terminal command: a title, a colour, a cursor move) and the bidirectional overrides.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with every control character written as its escape (``\\x1b``):
    what a file or a record supplies is shown, never obeyed by the terminal."""
    return _CONTROL.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), str(text))


def clip(text: str, limit: int = MAX_LINE) -> str:
    """``text`` as one printable line of at most ``limit`` characters (cut with an ellipsis)."""
    text = printable(" ".join(str(text).splitlines()))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quote(value, limit: int = MAX_QUOTE) -> str:
    """The ``repr`` of a user's value for an error, cut short: ``reprlib`` stops
    at a few items and levels, so even a YAML alias bomb quotes in microseconds."""
    import reprlib

    shortener = reprlib.Repr()
    shortener.maxlevel, shortener.maxdict, shortener.maxlist = 2, 4, 4
    shortener.maxstring = shortener.maxother = shortener.maxlong = limit
    try:
        text = shortener.repr(value)
    except ValueError:  # an integer past Python's 4,300-digit limit for str()
        text = f"<a number of more than {MAX_QUOTE} digits>"
    return clip(text, limit)
