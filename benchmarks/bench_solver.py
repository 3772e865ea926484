"""The exact classic solver: CPU time and peak memory of a full solve, against a reference loop.

Run:  python benchmarks/bench_solver.py [--rules classic|classic-wiki|...] [--passes N]

Goal (issue 12): a full solve (Gauss-Seidel sweeps over 204 x 204 x 204
positions until no value moves by more than 1e-10) in at most 60 s and
400 MB on an idle 2-core machine.  The machine is usually shared, so the
figures are CPU seconds (user + system, from getrusage), which load hardly
changes, rather than wall time.  The script solves without the cache
(nothing is saved), then prints

* CPU and wall time, sweeps, CPU per sweep and the first player's value;
* peak memory: the process's maximum resident set size (ru_maxrss);
* the reference: ``--passes`` bare numpy passes (one np.maximum of a
  204x204 slab per successor entry, the solver's irreducible work), timed in
  the same run, and the ratio of one sweep to one such pass.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

import numpy as np

from treehouse.variants.classic.solver import _plan, classic_game, start_value, value_iteration
from treehouse.config import resolve
from treehouse.plugins import load_plugins


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def reference_pass(game, V: np.ndarray, houses: list[int]) -> float:
    """One elementwise maximum of a slab for every successor entry of the houses a sweep computes."""
    began = cpu_seconds()
    out = np.empty_like(V[0])
    for f in range(len(game.faces)):
        if game.wild[f]:
            continue
        for h in houses:
            for successors in game.own[f]:
                for s in successors:
                    np.maximum(out[0], V[h, s], out=out[0])
            for s in game.house[f][h]:
                np.maximum(out, V[s], out=out)
    return cpu_seconds() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic", help="a classic rule set (default classic)")
    parser.add_argument("--passes", type=int, default=1, help="reference passes (default 1)")
    args = parser.parse_args()
    rules = resolve(load_plugins(), variant=args.rules).rules
    game = classic_game(rules)

    cpu, wall = cpu_seconds(), time.perf_counter()
    solution = value_iteration(game)
    cpu, wall = cpu_seconds() - cpu, time.perf_counter() - wall
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
    print(f"rules {args.rules}: first player wins {start_value(solution):.6f}")
    print(f"solve: {cpu:.1f} s CPU ({wall:.1f} s wall), {solution.iterations} sweeps ({cpu / solution.iterations:.2f} s CPU each), last change {solution.residual:.1e}")
    print(f"peak resident memory of the process: {rss_mb:.0f} MB")
    houses = _plan(game).houses
    reference = min(reference_pass(game, solution.table, houses) for _ in range(args.passes))
    print(f"reference pass (bare np.maximum per successor): {reference:.2f} s CPU; sweep / reference = {cpu / solution.iterations / reference:.2f}")
    print("goal (issue 12): at most 60 s and 400 MB on an idle 2-core machine", file=sys.stderr)


if __name__ == "__main__":
    main()
