"""Bot specs: a bot's name with options, as users type them.

``greedy``, ``search(depth=3)``, ``search(depth=3, width=6, nodes=20000)``:
the name of a registered bot, then optionally, in parentheses, ``key=value``
pairs separated by commas (:mod:`treehouse.specs`, which house rules share).
A value is read as an int, a float, ``true`` or ``false``, or else kept as
text; the factory's signature then decides what is
accepted, and every mistake is one :class:`~treehouse.errors.TreehouseError`
line naming the bot, the option and what would be right.
"""

from __future__ import annotations

import inspect
import math
from typing import Any

from treehouse.errors import PluginError, TreehouseError
from treehouse.specs import format_spec, parse_spec

class BotOptionError(TreehouseError, ValueError):
    """A bot spec that does not parse, or options its bot does not take."""


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"search(depth=3)"`` -> ``("search", {"depth": 3})``."""
    return parse_spec(spec, "bot", "search(depth=3)", BotOptionError)


def _check(name: str, factory: Any, options: dict[str, Any], spec: str) -> dict[str, Any]:
    """Check ``options`` against the factory's parameters, converting ints to floats where a float is wanted."""
    if not options:
        return options  # nothing to check (and a builtin's signature costs a parse, at every game table)
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return options
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return options
    known = {key: p for key, p in parameters.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    checked = {}
    for key, value in options.items():
        parameter = known.get(key)
        if parameter is None:
            choices = ", ".join(known) or "(none)"
            raise BotOptionError(f"bot {name!r} has no option {key!r}; its options: {choices}")
        default = parameter.default
        if default is not inspect.Parameter.empty and default is not None:
            wanted = type(default)
            if wanted is float and type(value) is int:
                value = float(value)
            if type(value) is float and not math.isfinite(value):
                raise BotOptionError(f"bad value {value!r} for option {key!r} of bot {name!r}: expected a finite number, e.g. {key}={default!r}")
            elif type(value) is not wanted:
                raise BotOptionError(
                    f"bad value {value!r} for option {key!r} of bot {name!r} in {spec!r}: expected {wanted.__name__}, e.g. {key}={default!r}"
                )
        checked[key] = value
    return checked


def format_bot_spec(name: str, options: dict[str, Any]) -> str:
    """The spec of ``name`` with ``options``, as it is written back: ``search(depth=3, width=4)``."""
    return format_spec(name, options)


def _resolve(plugins: Any, spec: str) -> tuple[Any, dict[str, Any]]:
    """The registered bot a spec names and its checked options."""
    name, options = parse_bot_spec(spec)
    info = plugins.bot(name)
    return info, _check(name, info.factory, options, spec)


def _build(info: Any, options: dict[str, Any], spec: str) -> Any:
    try:
        bot = info.factory(**options)
    except TreehouseError:
        raise
    except (TypeError, ValueError) as error:
        raise BotOptionError(f"bot {spec!r}: {error}") from None
    except Exception as error:  # the factory's own bug: name the plugin that registered it, in one line
        raise PluginError(f"bot {spec!r} of plugin {getattr(info, 'plugin', '?')!r} failed to start: {type(error).__name__}: {error}") from None
    if not callable(getattr(bot, "choose", None)):
        raise PluginError(
            f"bot {spec!r} of plugin {getattr(info, 'plugin', '?')!r}: its factory returned {type(bot).__name__}, not a seat with a choose() method"
        )
    return bot


def make_bot(plugins: Any, spec: str) -> Any:
    """Build the seat a spec names, from the registered bots of ``plugins``."""
    return _build(*_resolve(plugins, spec), spec)


def bot_factory(plugins: Any, spec: str):
    """A no-argument factory for the seat a spec names (parsed and checked once, now)."""
    info, options = _resolve(plugins, spec)
    _build(info, options, spec)  # fail early, in one line
    return lambda: _build(info, options, spec)


def check_bot_spec(plugins: Any, spec: str) -> str:
    """Check a spec as a user typed it (the bot exists, takes these options and
    accepts their values) and return it in its canonical form, e.g.
    ``" Search( depth=2 )"`` -> ``"search(depth=2)"``.

    The canonical spec is plain text: it is what a command passes to worker
    processes and writes into records, and :func:`make_bot` rebuilds the same
    bot from it anywhere.
    """
    info, options = _resolve(plugins, spec)
    _build(info, options, spec)  # the factory's own checks (e.g. depth must be at least 1)
    return format_bot_spec(info.name, options)


def bot_name(spec: str) -> str:
    """The registered name in a spec: ``"search(depth=2)"`` -> ``"search"``."""
    return parse_bot_spec(spec)[0]
