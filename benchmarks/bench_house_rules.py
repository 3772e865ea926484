"""A Fences compare with the example house rule large-fences-only on one side: CPU per game, this checkout against another.

Run:  python benchmarks/bench_house_rules.py --baseline CHECKOUT [--games N] [--rounds R] [--seed S] [--seats greedy,search]

Each round runs, in its own process,

    th compare fences fences --set-b 'house_rules=["large-fences-only"]' --seat greedy --seat search --games N --jobs 1 --json

(the command a designer runs to playtest the rule; ``--seats random,random``
gives the compare's default seats) on this checkout's core, on its
reference rules (``TREEHOUSE_COMPILED=0``) and, with ``--baseline``, on
another checkout (main at fb0e67f, before the tiers: ``git worktree add
--detach /tmp/base fb0e67f``), interleaved so all see the same load.  Each
also runs once with ``--games 1``: a command's CPU minus that run's, over
``N - 1`` games, is the CPU a game pair costs, start-up cancelled out.

Every contender must print the same JSON (bar its ``seconds``).  This
checkout pins ``swap_outside_considered_moved=false``, the reading before
issue 22 (the baseline has no such option and plays that reading), so the
games are the same ones.  Issue 22's target: at least 2x cheaper than main
at fb0e67f.  The ratios are within one run; absolute seconds depend on the
machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys

from alternate import checkout_src, print_ratios


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compare(env: dict, games: int, seed: int, seats: list[str], pin: bool) -> tuple[float, dict]:
    """One ``th compare`` in its own process: its CPU seconds and its JSON (without the time)."""
    command = [sys.executable, "-m", "treehouse", "compare", "fences", "fences", "--set-b", 'house_rules=["large-fences-only"]']
    command += ["--set", "swap_outside_considered_moved=false"] if pin else []
    for seat in seats:
        command += ["--seat", seat]
    command += ["--games", str(games), "--seed", str(seed), "--jobs", "1", "--json"]
    before = cpu_of_children()
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    spent = cpu_of_children() - before
    if result.returncode != 0:
        raise SystemExit(f"th compare failed: {result.stderr.strip()}")
    return spent, without_seconds(json.loads(result.stdout))


def without_seconds(data):
    """The report bar its ``seconds`` (the run's and each side's): the one measurement in it."""
    if isinstance(data, dict):
        return {key: without_seconds(value) for key, value in data.items() if key != "seconds"}
    if isinstance(data, list):
        return [without_seconds(value) for value in data]
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games a command plays (default 8; with random seats take 150)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--seats", default="greedy,search", help="the seats, comma-separated (default greedy,search)")
    parser.add_argument("--baseline", help="another checkout (its src, and its examples/fences-house-rules/src, go first on PYTHONPATH)")
    args = parser.parse_args()
    seats = args.seats.split(",")
    base = {key: value for key, value in os.environ.items() if key != "TREEHOUSE_COMPILED"}
    contenders = {"core": (base, True), "reference": ({**base, "TREEHOUSE_COMPILED": "0"}, True)}
    if args.baseline:
        root = checkout_src(args.baseline).parent
        path = os.pathsep.join(p for p in (str(root / "src"), str(root / "examples/fences-house-rules/src"), base.get("PYTHONPATH")) if p)
        contenders["baseline"] = ({**base, "PYTHONPATH": path, "TREEHOUSE_COMPILED": "0"}, False)
    for env, pin in contenders.values():
        compare(env, 1, args.seed, seats, pin)  # warm: numba's cache, the OS's file cache
    per_game: dict[str, list[float]] = {name: [] for name in contenders}
    for round_ in range(args.rounds):
        seed = args.seed + round_ * args.games
        answers = {}
        for name, (env, pin) in contenders.items():
            one, _ = compare(env, 1, seed, seats, pin)
            many, answers[name] = compare(env, args.games, seed, seats, pin)
            per_game[name].append((many - one) / (args.games - 1))
        first = answers["core"]
        for name, data in answers.items():
            if data != first:
                raise SystemExit(f"round {round_ + 1}: {name}'s JSON differs from the core's: not the same games")
    print(f"fences compare, B with large-fences-only, seats {' vs '.join(seats)}, {args.games} games a command, {args.rounds} rounds;"
          f" every round's JSON identical across {', '.join(contenders)}")
    for name in contenders:
        values = per_game[name]
        print(f"{name:<11}{statistics.median(values):>8.3f} CPU s a game pair ({min(values):.3f}-{max(values):.3f})")
    print_ratios(per_game, "core")


if __name__ == "__main__":
    main()
