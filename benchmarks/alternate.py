"""The timing harness of the engine benchmarks: loops measured against a reference in the same run.

The machines are shared and noisy, so the loops run in short alternating
chunks (every loop on the same seeds in turn, so all see the same load), and
each ratio reported is the median over the chunks of loop rate / reference
rate, with its quartiles.  Absolute turns per second depend on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Callable

Loop = Callable[[int, int], int]  # (games, first seed) -> turns played


def arguments(description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=3000, help="games for each loop in all (default 3000)")
    parser.add_argument("--chunk", type=int, default=100, help="games per alternation (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args()


def checkout_src(path: str) -> Path:
    """The ``src`` folder of a ``--baseline`` checkout, given the checkout or
    its ``src``.  Anything else stops the benchmark in one line: a wrong path
    on PYTHONPATH silently measured the installed code as the baseline."""
    for folder in (Path(path), Path(path) / "src"):
        if (folder / "treehouse" / "__init__.py").is_file():
            return folder.resolve()
    raise SystemExit(f"--baseline {path}: no treehouse package in it or in its src folder; give a checkout (a git worktree of main at fb0e67f, say)")


def alternate(loops: dict[str, Loop], args: argparse.Namespace, reference: str = "bare", same_games: tuple[str, ...] = ()) -> None:
    """Time ``loops`` in alternating chunks and print their rates and their ratios to ``reference``.

    ``same_games`` names loops that must play the very same games as the
    reference (checked by their turn counts in every chunk).
    """
    for run in loops.values():
        run(args.chunk, args.seed)  # warm every loop's caches before timing
    ratios: dict[str, list[float]] = {name: [] for name in loops if name != reference}
    totals = {name: [0, 0.0] for name in loops}
    for start in range(0, args.games, args.chunk):
        seed = args.seed + start
        rates, played = {}, {}
        for name, run in loops.items():
            began = time.perf_counter()
            turns = run(args.chunk, seed)
            seconds = time.perf_counter() - began
            totals[name][0] += turns
            totals[name][1] += seconds
            rates[name], played[name] = turns / seconds, turns
        for name in same_games:
            if played[name] != played[reference]:
                raise SystemExit(f"seeds {seed}..: {name} played {played[name]} turns, {reference} {played[reference]}: not the same games")
        for name in ratios:
            ratios[name].append(rates[name] / rates[reference])
    print(f"{'loop':<15}{'games':>8}{'turns':>10}{'seconds':>9}{'turns/s':>12}")
    for name, (turns, seconds) in totals.items():
        print(f"{name:<15}{args.games:>8}{turns:>10}{seconds:>9.2f}{turns / seconds:>12,.0f}")
    for name, values in ratios.items():
        values.sort()
        print(
            f"ratio {name}/{reference}: median {statistics.median(values):.3f} over {len(values)} alternations "
            f"(quartiles {values[len(values) // 4]:.3f}-{values[3 * len(values) // 4]:.3f})"
        )
    if same_games:
        print(f"{', '.join(same_games)} and {reference} played the same games (same turns in every chunk)")


def print_ratios(per_round: dict[str, list[float]], reference: str, words: str = "") -> None:
    """Each contender's cost over ``reference``'s, round by round (both measured
    in the same round): the median and the range, ``words`` after the median."""
    for name, values in per_round.items():
        if name != reference:
            ratios = sorted(cost / base for cost, base in zip(values, per_round[reference]))
            print(f"{name}/{reference}: median {statistics.median(ratios):.2f}x{words} (rounds {ratios[0]:.2f}-{ratios[-1]:.2f})")
