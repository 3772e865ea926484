"""A short run's cost a game against a long run's: classic search vs search on the compiled core.

Run:  python benchmarks/bench_short_runs.py [--short 12] [--long 400] [--rounds 3] [--seed 1]

Issue 44's question: does a short ``th simulate`` pay more a game than a
long one?  Each round runs, each in a fresh process as a user types it,

    th simulate --variant classic --seat search --seat search --games N --jobs 1 --seed S --json

for N = 1, the short run and the long run (interleaved, so all see the same
load), and counts each process's CPU (user + system).  Two figures:

* **a game, start-up apart**: ``(CPU(N) - CPU(1)) / (N - 1)``.  What every
  process pays once whatever it plays (Python, the command's imports, numpy,
  loading the core and making its tables) is in the 1-game run too, so it
  cancels; this is what a game of the run costs.
* **a game, start-up included**: ``CPU(N) / N``, where a short run carries
  the whole start-up over few games.

The medians over the rounds are printed, and the short run's per game as a
multiple of the long run's.  Issue 44's target: a 12-game run within 1.5x
of a 400-game run's cost a game.  The core must be built (a first run
builds it); the first round is a warm-up and is not counted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys


def cpu_of(games: int, seed: int) -> float:
    """The CPU seconds of one ``th simulate`` process of ``games`` games."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = [sys.executable, "-m", "treehouse", "simulate", "--variant", "classic", "--seat", "search", "--seat", "search"]
    command += ["--games", str(games), "--jobs", "1", "--seed", str(seed), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "TREEHOUSE_COMPILED": "1"})
    if done.returncode != 0:
        raise SystemExit(f"th simulate --games {games} failed: {done.stderr.strip()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", type=int, default=12)
    parser.add_argument("--long", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sizes = (1, args.short, args.long)
    for games in sizes:
        cpu_of(games, args.seed)  # warm-up: the core built and the files in the page cache
    measured: dict[int, list[float]] = {games: [] for games in sizes}
    for round_number in range(args.rounds):
        for games in sizes:
            measured[games].append(cpu_of(games, args.seed))
        print(f"round {round_number + 1}: " + ", ".join(f"{games} games {measured[games][-1]:.3f} s" for games in sizes), flush=True)
    one = statistics.median(measured[1])
    print(f"\nstart-up and one game: {one:.3f} s CPU (median of {args.rounds})")
    print(f"{'run':>10} | {'a game, start-up apart':>23} | {'a game, start-up included':>26}")
    apart, included = {}, {}
    for games in sizes[1:]:
        apart[games] = statistics.median([(cpu - first) / (games - 1) for cpu, first in zip(measured[games], measured[1])])
        included[games] = statistics.median(measured[games]) / games
        print(f"{games:>4} games | {apart[games]:>21.4f} s | {included[games]:>24.4f} s")
    print(
        f"\n{args.short} games against {args.long}, a game: {apart[args.short] / apart[args.long]:.2f}x start-up apart,"
        f" {included[args.short] / included[args.long]:.2f}x start-up included (target: at most 1.5x)"
    )


if __name__ == "__main__":
    main()
