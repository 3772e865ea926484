"""``th solve``: the exact solve of two-player classic Treehouse (docs/bots.md)."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from treehouse.cli.common import ConfigOption, SetOption, VariantOption, effective_rules, fail, out, run_guarded


def solve(
    variant: VariantOption = None,
    config: ConfigOption = None,
    overrides: SetOption = None,
    players: Annotated[int, typer.Option("--players", "-p", help="Players (only 2 can be solved).")] = 2,
    fresh: Annotated[bool, typer.Option("--fresh", help="Solve again even if the table is cached.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines on standard error.")] = False,
) -> None:
    """Solve two-player classic exactly: the first player's winning probability under optimal play.

    The table (every own trio x opponent trio x House) is saved in the user's
    cache directory, keyed by the rules; a later run, and the perfect bot, reuse it.
    """
    if variant is None and config is None:
        variant = "classic"
    effective = run_guarded(effective_rules, variant, config, overrides)
    if effective.variant_class.name != "classic":
        raise fail(f"th solve solves only classic, not {effective.variant_class.name}")
    if players != 2:
        raise fail(f"th solve solves only 2 players, not {players} (the table would be 204**{players + 1} positions)")
    from treehouse.bots.solver import DEFAULT_TOLERANCE, solve_classic, start_value
    from treehouse.cli.solving import solve_progress

    rules = effective.rules
    began = time.perf_counter()
    with solve_progress(DEFAULT_TOLERANCE, quiet) as progress:
        solution = run_guarded(solve_classic, rules, use_cache=not fresh, progress=progress)
    seconds = time.perf_counter() - began
    value = start_value(solution)
    out.print(f"rule set: {effective.name}")
    out.print(f"first player wins with probability {value:.6f} under optimal play (second: {1 - value:.6f})")
    if solution.cached:
        out.print(f"table: {solution.path} (cached; loaded in {seconds:.1f} s; solved in {solution.seconds:.1f} s, {solution.iterations} sweeps)")
    else:
        where = solution.path if solution.path is not None else "(not saved)"
        out.print(f"table: {where} (solved in {seconds:.1f} s, {solution.iterations} sweeps, last change {solution.residual:.1e})")
