"""The exact classic solver: time and peak memory of a full solve, against a reference loop.

Run:  python benchmarks/bench_solver.py [--rules classic|classic-wiki|...] [--iterations N]

A full solve (value iteration over 204 x 204 x 204 positions until no value
moves by more than 1e-10) must take under 10 minutes and 2 GB on a 2-core
machine.  The script solves without the cache (nothing is saved), then prints

* wall time, iterations, the time per iteration and the first player's value;
* peak memory: the process's maximum resident set size (ru_maxrss), and the
  peak of numpy's allocations traced by tracemalloc in a second, short run;
* the reference: ``--iterations`` plain numpy passes over an array of the
  table's size (one np.maximum per successor, as the solver does), measured in
  the same run, and the ratio of one solver iteration to one such pass.
  Absolute seconds depend on the machine; the ratio much less.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import tracemalloc

import numpy as np

from treehouse.bots.solver import _plan, bellman, classic_game, start_value, value_iteration
from treehouse.config import resolve
from treehouse.plugins import load_plugins


def reference_pass(game, V: np.ndarray) -> float:
    """One elementwise maximum over the table for every successor entry: the solver's bare work."""
    began = time.perf_counter()
    out = np.empty_like(V[:, 0, :])
    for f in range(len(game.faces)):
        if game.wild[f]:
            continue
        for a, successors in enumerate(game.own[f]):
            for s in successors:
                np.maximum(out, V[:, s, :], out=out)
        for h, successors in enumerate(game.house[f]):
            for s in successors:
                np.maximum(out, V[s], out=out)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic", help="a classic rule set (default classic)")
    parser.add_argument("--iterations", type=int, default=3, help="reference passes and traced iterations (default 3)")
    args = parser.parse_args()
    rules = resolve(load_plugins(), variant=args.rules).rules
    game = classic_game(rules)

    solution = value_iteration(game)
    per_iteration = solution.seconds / solution.iterations
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
    print(f"rules {args.rules}: first player wins {start_value(solution):.6f}")
    print(f"solve: {solution.seconds:.1f} s, {solution.iterations} iterations ({per_iteration:.2f} s each), last change {solution.residual:.1e}")
    print(f"peak resident memory of the process: {rss_mb:.0f} MB")

    tracemalloc.start()
    V = np.full((game.size,) * 3, 0.5)
    Q = np.empty_like(V)
    plan = _plan(game)
    for _ in range(args.iterations):
        V = bellman(game, V, Q, plan)
    _now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"peak traced numpy allocations during {args.iterations} iterations: {peak / 2**20:.0f} MB")

    reference = min(reference_pass(game, V) for _ in range(args.iterations))
    print(f"reference pass (bare np.maximum per successor): {reference:.2f} s; solver iteration / reference = {per_iteration / reference:.2f}")
    print("goal: under 600 s and 2048 MB on 2 cores", file=sys.stderr)


if __name__ == "__main__":
    main()
