"""Specs: a registered name with options, as users type them.

``greedy``, ``search(depth=3)``, ``wild-repair(max=1)``: a name, then
optionally, in parentheses, ``key=value`` pairs separated by commas.  A value
is read as an int, a float, ``true`` or ``false``, or else kept as text.  Bots
(:mod:`treehouse.bots.options`) and house rules
(:meth:`treehouse.plugins.Plugins.house_rule`) are both named this way: one
parser, one way of writing a spec back.
"""

from __future__ import annotations

import re
from typing import Any

from treehouse.errors import TreehouseError

_SPEC = re.compile(r"^\s*([A-Za-z][\w.-]*)\s*(?:\((.*)\))?\s*$", re.S)
_KEY = re.compile(r"^[A-Za-z_]\w*$")


class SpecError(TreehouseError, ValueError):
    """A spec that does not parse."""


def spec_value(text: str) -> Any:
    """A value as typed in a spec: a bool, an int, a float, or text (quotes removed)."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def parse_spec(spec: str, kind: str = "bot", example: str = "search(depth=3)", error: type[TreehouseError] = SpecError) -> tuple[str, dict[str, Any]]:
    """``"search(depth=3)"`` -> ``("search", {"depth": 3})``; ``kind`` and
    ``example`` word the one-line ``error`` for a spec that does not parse."""
    if not isinstance(spec, str):
        raise error(f"bad {kind} {spec!r}: expected NAME or NAME(key=value, ...), e.g. {example}")
    match = _SPEC.match(spec or "")
    if match is None:
        raise error(f"bad {kind} {spec!r}: expected NAME or NAME(key=value, ...), e.g. {example}")
    name, inside = match.group(1).lower(), match.group(2)
    options: dict[str, Any] = {}
    if inside is not None and inside.strip():
        for part in inside.split(","):
            key, sep, raw = part.partition("=")
            key, raw = key.strip(), raw.strip()
            if not sep or not _KEY.match(key) or not raw:
                shown = example if example.startswith(name) else f"{name}(key=value)"
                raise error(f"bad option {part.strip()!r} in {kind} {spec!r}: expected key=value, e.g. {shown}")
            if key in options:
                raise error(f"option {key!r} is given twice in {kind} {spec!r}")
            options[key] = spec_value(raw)
    return name, options


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    return text if spec_value(text) == text and not set(text) & set(",()'\" ") else repr(text)


def format_spec(name: str, options: dict[str, Any]) -> str:
    """The spec of ``name`` with ``options``, as it is written back: ``search(depth=3, width=4)``."""
    if not options:
        return name
    return f"{name}({', '.join(f'{key}={_format_value(value)}' for key, value in options.items())})"
