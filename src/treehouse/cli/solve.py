"""``th solve``: the exact solve of a variant that has one (two-player classic; docs/bots.md).

The command asks the variant for its solver (``exact_solver()``); the words
and the solve are the variant's."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from treehouse.cli.common import ConfigOption, SetOption, VariantOption, effective_rules, fail, out, plugins, run_guarded
from treehouse.cli.seats import default_variant


def solve(
    variant: VariantOption = None,
    config: ConfigOption = None,
    overrides: SetOption = None,
    players: Annotated[int, typer.Option("--players", "-p", help="Players (only 2 can be solved).")] = 2,
    fresh: Annotated[bool, typer.Option("--fresh", help="Solve again even if the table is cached.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines on standard error.")] = False,
) -> None:
    """Solve a game exactly (two-player classic): the first player's winning probability under optimal play.

    The variant solves it (its exact solver); classic's table (every own trio x opponent trio x House) is saved in the user's
    cache directory, keyed by the rules; a later run, and the perfect bot, reuse it.

    Example: th solve --set mirror_matches=true
    """
    if variant is None and config is None:  # the first variant, by rank, that can be solved
        solvable = [cls for cls in sorted(plugins().variants.values(), key=lambda cls: (-cls.default_rank, cls.name)) if _solver_of(cls()) is not None]
        variant = solvable[0].name if solvable else default_variant()
    effective = run_guarded(effective_rules, variant, config, overrides)
    solver = _solver_of(effective.variant())
    if solver is None:
        solvable = sorted(name for name, cls in plugins().variants.items() if _solver_of(cls()) is not None)
        raise fail(f"th solve solves only {', '.join(solvable) or 'variants with an exact solver'}, not {effective.variant_class.name}")
    refused = solver.refuses(players)
    if refused:
        raise fail(refused)
    from treehouse.cli.solving import solve_progress

    began = time.perf_counter()
    with solve_progress(solver.tolerance, quiet) as progress:
        solution = run_guarded(solver.solve, use_cache=not fresh, progress=progress)
    seconds = time.perf_counter() - began
    value = solver.start_value(solution)
    out.print(f"rule set: {effective.name}")
    out.print(f"first player wins with probability {value:.6f} under optimal play (second: {1 - value:.6f})")
    if solution.cached:
        out.print(f"table: {solution.path} (cached; loaded in {seconds:.1f} s; solved in {solution.seconds:.1f} s, {solution.iterations} sweeps)")
    else:
        where = solution.path if solution.path is not None else "(not saved)"
        out.print(f"table: {where} (solved in {seconds:.1f} s, {solution.iterations} sweeps, last change {solution.residual:.1e})")


def _solver_of(variant):
    """The variant's exact solver, or ``None`` (``Variant.exact_solver``)."""
    return variant.exact_solver()
