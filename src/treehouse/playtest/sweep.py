"""Sweep grids: ``--param rules.KEY=v1,v2,v3`` (repeatable) -> every combination of values."""

from __future__ import annotations

import itertools

from treehouse.errors import ConfigError

EXAMPLE = "--param rules.dig_in_place=true,false"


def parse_param(text: str) -> tuple[str, list[str]]:
    """``"rules.KEY=v1,v2"`` -> ``("rules.KEY", ["v1", "v2"])``; the values stay text (YAML is read later)."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    values = [v.strip() for v in raw.split(",")]
    if not sep or not key or not raw.strip() or any(not v for v in values):
        raise ConfigError(f"bad --param {text!r}: expected KEY=v1,v2,..., e.g. {EXAMPLE}")
    return key, values


def grid(params: list[str]) -> list[dict[str, str]]:
    """Every point of the grid, the first parameter varying slowest."""
    parsed = [parse_param(p) for p in params]
    if not parsed:
        raise ConfigError(f"a sweep needs at least one --param, e.g. {EXAMPLE}")
    keys = [k.removeprefix("rules.") for k, _ in parsed]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    if duplicates:
        raise ConfigError(f"--param {duplicates[0]} is given twice; list all its values in one --param")
    names = [k for k, _ in parsed]
    return [dict(zip(names, combo)) for combo in itertools.product(*(values for _, values in parsed))]


def overrides(point: dict[str, str]) -> list[str]:
    """A grid point as ``--set`` overrides."""
    return [f"{key}={value}" for key, value in point.items()]
