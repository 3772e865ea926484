"""Classic search against search: CPU per game on the compiled core against the reference rules.

Run:  python benchmarks/bench_classic_tiers.py [--games N] [--rounds R] [--seed S] [--baseline SRC]

Each round runs ``th simulate --variant classic --seat search --seat search
--games N --jobs 1 --json`` (the command users run, one process) once on the
compiled core and once with ``TREEHOUSE_COMPILED=0`` (the reference rules,
every move played through the hooks), interleaved so both see the same load,
and checks that both print the same JSON (the time aside).  Each also runs
once with ``--games 1``: a command's CPU minus that run's, over ``N - 1``
games, is the CPU a game costs, start-up cancelled out (the start-up itself
is printed too).

``--baseline SRC`` adds a third contender: the same command with ``SRC``
(another checkout's ``src`` folder, e.g. main at fb0e67f, before the look
hook: ``git archive fb0e67f src | tar -x -C /tmp/fb0e67f``) first on
``PYTHONPATH``; its JSON is checked against the others' too.

Issue 22's target: classic search vs search at least 5x cheaper than main at
fb0e67f.  Figures are ratios within one run; absolute seconds depend on the
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


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def simulate(env: dict, games: int, seed: int) -> tuple[float, dict]:
    """One ``th simulate`` in its own process: its CPU seconds and its JSON (without the time)."""
    command = [sys.executable, "-m", "treehouse", "simulate", "--variant", "classic", "--seat", "search", "--seat", "search"]
    command += ["--games", str(games), "--seed", str(seed), "--jobs", "1", "--json"]
    before = cpu_of_children()
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    spent = cpu_of_children() - before
    if result.returncode != 0:
        raise SystemExit(f"th simulate failed: {result.stderr.strip()}")
    data = json.loads(result.stdout)
    data.pop("seconds", None)
    return spent, data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games a command plays (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", help="another checkout's src folder to measure too (main at fb0e67f, say)")
    args = parser.parse_args()
    base = {key: value for key, value in os.environ.items() if key != "TREEHOUSE_COMPILED"}
    contenders = {"core": base, "reference": {**base, "TREEHOUSE_COMPILED": "0"}}
    if args.baseline:
        path = os.pathsep.join(p for p in (os.path.abspath(args.baseline), base.get("PYTHONPATH")) if p)
        contenders["baseline"] = {**base, "PYTHONPATH": path, "TREEHOUSE_COMPILED": "0"}
    for env in contenders.values():
        simulate(env, 1, args.seed)  # warm: numba's cache, the OS's file cache
    per_game: dict[str, list[float]] = {name: [] for name in contenders}
    start_up: dict[str, list[float]] = {name: [] for name in contenders}
    for round_ in range(args.rounds):
        seed = args.seed + round_ * args.games
        answers = {}
        for name, env in contenders.items():
            one, _ = simulate(env, 1, seed)
            many, answers[name] = simulate(env, args.games, seed)
            per_game[name].append((many - one) / (args.games - 1))
            start_up[name].append(one)
        first = answers["core"]
        for name, data in answers.items():
            if data != first:
                raise SystemExit(f"round {round_ + 1}: {name}'s JSON differs from the core's: not the same games")
    print(f"classic search vs search, {args.games} games a command, {args.rounds} rounds; every round's JSON identical across {', '.join(contenders)}")
    print(f"{'':<11}{'CPU s/game':>11}{'  (min-max)':<18}{'1-game run s':>13}")
    for name in contenders:
        values = per_game[name]
        print(f"{name:<11}{statistics.median(values):>11.4f}  ({min(values):.4f}-{max(values):.4f}){statistics.median(start_up[name]):>10.2f}")
    for name in contenders:
        if name != "core":
            ratios = sorted(r / c for r, c in zip(per_game[name], per_game["core"]))
            print(f"{name}/core: median {statistics.median(ratios):.2f}x cheaper on the core (rounds {ratios[0]:.2f}-{ratios[-1]:.2f})")


if __name__ == "__main__":
    main()
