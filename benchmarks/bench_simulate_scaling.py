"""th simulate scaling: --jobs 1 against --jobs 2 and the default, measured in the same run.

Run:  python benchmarks/bench_simulate_scaling.py [--games N] [--rounds R] [--seat KIND] [--memory]

Each round plays the same batch (classic, two seats, the same seed) once with
one job, once with two and once with the default (no ``--jobs``: this
process while the run is short, then a worker per CPU), rotating which goes
first, and the figures that matter are the ratios of the wall times to one
job's (goal >= 1.7 on two idle cores).
The worker pool is started inside the timed region, as the command does.
The statistics of both runs are checked to be identical.

``--memory`` also runs ``th simulate --json`` in child processes for 10^3 and
10^4 games (``--memory-games`` to change) and prints each one's peak resident
memory: streaming aggregates keep it flat.

Measured on the shared 2-core development machine (random seats, classic):
one job 556-832 games/s (load varied); speed-up jobs 2 / jobs 1 median 1.84
and 1.96 in two runs of 3 alternations; peak memory of th simulate 65.8 MB
for 10^4 games and 67.5 MB for 10^5 (ratio 1.03).  Greedy seats and Fences
were not measured: neither was installed when this was written.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from treehouse.config import resolve
from treehouse.playtest.metrics import summary
from treehouse.playtest.work import Batch, RuleSpec, run
from treehouse.plugins import load_plugins


def timed(batch: Batch, games: int, jobs: int | None, plugins) -> tuple[float, dict]:
    began = time.perf_counter()
    total = run(batch, games, jobs, plugins=plugins)
    return time.perf_counter() - began, summary(total.sides[0])


def peak_memory_mb(games: int, seat: str) -> float:
    """Peak resident memory (MB) of a child process running th simulate."""
    code = (
        "import resource, sys; from typer.testing import CliRunner; from treehouse.cli import app; "
        f"r = CliRunner().invoke(app, ['simulate', '-v', 'classic', '-n', '{games}', '--seat', '{seat}', '--seat', '{seat}', '--jobs', '1', '--json']); "
        "assert r.exit_code == 0, r.output; "
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(result.stdout.strip().splitlines()[-1]) / 1024  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games per run (default 3000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each playing the three once (default 3)")
    parser.add_argument("--seat", default="random", help="the bot in both seats (default random)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory", action="store_true", help="also measure peak memory for two batch sizes")
    parser.add_argument("--memory-games", type=int, nargs=2, default=(1000, 10000), metavar=("SMALL", "LARGE"))
    args = parser.parse_args()

    plugins = load_plugins()
    batch = Batch((RuleSpec.from_effective(resolve(plugins, variant="classic")),), (args.seat, args.seat), args.seed)
    run(batch, 200, 1, plugins=plugins)  # warm the caches of this process
    print(f"cores available: {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}")
    labels = {1: "1", 2: "2", None: "default"}
    times: dict[int | None, list[float]] = {jobs: [] for jobs in labels}
    ratios: dict[int | None, list[float]] = {2: [], None: []}
    reference = None
    for round_ in range(args.rounds):
        order = list(labels)[round_ % 3 :] + list(labels)[: round_ % 3]
        seconds = {}
        for jobs in order:
            seconds[jobs], stats = timed(batch, args.games, jobs, plugins)
            times[jobs].append(seconds[jobs])
            if reference is None:
                reference = stats
            assert stats == reference, "--jobs changed the statistics"
        for jobs in ratios:
            ratios[jobs].append(seconds[1] / seconds[jobs])
    print(f"{'jobs':<9}{'games':>8}{'median s':>10}{'games/s':>10}")
    for jobs, values in times.items():
        median = statistics.median(values)
        print(f"{labels[jobs]:<9}{args.games:>8}{median:>10.2f}{args.games / median:>10,.0f}")
    print(f"games/s per core ({args.seat} seats, jobs 1): {args.games / statistics.median(times[1]):,.0f}")
    for jobs, values in ratios.items():
        print(
            f"speed-up jobs {labels[jobs]} / jobs 1: median {statistics.median(values):.2f} over {len(values)} rounds "
            f"(min {min(values):.2f}, max {max(values):.2f}); goal >= 1.7 on two cores; statistics identical"
        )
    if args.memory:
        small, large = args.memory_games
        mb_small, mb_large = peak_memory_mb(small, args.seat), peak_memory_mb(large, args.seat)
        print(f"peak memory: {small} games {mb_small:.1f} MB, {large} games {mb_large:.1f} MB, ratio {mb_large / mb_small:.2f} (goal about 1)")


if __name__ == "__main__":
    main()
