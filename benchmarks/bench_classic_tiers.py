"""Classic search against search: CPU per game on the compiled core against the reference rules.

Run:  python benchmarks/bench_classic_tiers.py [--games N] [--rounds R] [--seed S] [--baseline SRC]

Each measurement is a fresh process that runs ``th simulate --variant
classic --seat search --seat search --games N --jobs 1 --json`` (the command
users run, through Typer's runner, every metric on) and counts the CPU
seconds (user + system) of that command alone.  Before it, the process
prepares its rules (for the core: loads the kernels from numba's cache) and
runs the same command once with ``--games 1``, so neither numba's import
nor the first game's imports count; the start-up of a whole process is
printed on its own (medians of 5 interleaved 1-game processes, and one more
row for the default, ``TREEHOUSE_COMPILED`` unset, where a run that short
stays on the reference rules).  (Measuring a whole process and subtracting a 1-game
run, as this benchmark once did, left the core's figure to the noise of a
1.5 s start-up: rounds ranged 0.04-0.10 s a game.)

The core (``TREEHOUSE_COMPILED=1``), the reference (``=0``: every move
played through the hooks) and, with ``--baseline SRC``, another checkout's
``src`` folder first on ``PYTHONPATH`` (main at fb0e67f, before the tiers:
``git worktree add --detach /tmp/fb0e67f fb0e67f`` and pass
``/tmp/fb0e67f/src``) are interleaved in ``R`` rounds of the same games, so
a busy machine slows all alike; each round's JSON (the time aside) must be
identical across them, or the benchmark stops.

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
import time

from alternate import checkout_src, print_ratios


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def command(games: int, seed: int) -> list[str]:
    return ["simulate", "--variant", "classic", "--seat", "search", "--seat", "search", "--games", str(games), "--seed", str(seed), "--jobs", "1", "--json"]


def worker(games: int, seed: int) -> None:
    """One measurement, in this process: print the command's CPU and its JSON (without the time)."""
    from typer.testing import CliRunner

    from treehouse.cli.app import app

    try:
        from treehouse.kernel.fast import compiled
    except ImportError:  # a --baseline checkout from before the tiers
        compiled = None
    if compiled is not None and compiled.enabled():
        try:
            from treehouse.variants.classic.fast.looks import prepare
        except ImportError:  # a checkout from before the compiled search
            from treehouse.variants.classic.fast.core import prepare
        prepare()
    runner = CliRunner()
    runner.invoke(app, command(1, seed))  # the first game's imports, out of the count
    started = cpu_seconds()
    result = runner.invoke(app, command(games, seed))
    spent = cpu_seconds() - started
    if result.exit_code != 0:
        raise SystemExit(f"th simulate failed: {result.output.strip()}")
    data = json.loads(result.stdout)
    data.pop("seconds", None)
    print(json.dumps({"cpu": spent, "data": data}))


def measure(env: dict, games: int, seed: int) -> tuple[float, dict]:
    """One measurement in a fresh process: its command's CPU seconds and its JSON."""
    done = subprocess.run([sys.executable, __file__, "--worker", "--games", str(games), "--seed", str(seed)], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"a measurement failed: {done.stderr.strip()}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return found["cpu"], found["data"]


def start_up(env: dict, seed: int) -> float:
    """A whole ``th simulate --games 1`` process, wall seconds."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "treehouse", *command(1, seed)], env=env, capture_output=True, check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games a command plays (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", help="another checkout (or its src folder) to measure too (main at fb0e67f, say)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.games, args.seed)
        return
    base = {key: value for key, value in os.environ.items() if key != "TREEHOUSE_COMPILED"}
    contenders = {"core": {**base, "TREEHOUSE_COMPILED": "1"}, "reference": {**base, "TREEHOUSE_COMPILED": "0"}}
    if args.baseline:
        path = os.pathsep.join(p for p in (str(checkout_src(args.baseline)), base.get("PYTHONPATH")) if p)
        contenders["baseline"] = {**base, "PYTHONPATH": path, "TREEHOUSE_COMPILED": "0"}
    per_game: dict[str, list[float]] = {name: [] for name in contenders}
    for round_ in range(args.rounds):
        answers = {}
        for name, env in contenders.items():
            cpu, answers[name] = measure(env, args.games, args.seed)
            per_game[name].append(cpu / args.games)
        first = answers["core"]
        for name, data in answers.items():
            if data != first:
                raise SystemExit(f"round {round_ + 1}: {name}'s JSON differs from the core's: not the same games")
    # whole 1-game processes, interleaved; 'default' leaves TREEHOUSE_COMPILED unset, as a user does (the core waits for the run's pace)
    starting = {**contenders, "default": base}
    timed: dict[str, list[float]] = {name: [] for name in starting}
    for _ in range(5):
        for name, env in starting.items():
            timed[name].append(start_up(env, args.seed))
    starts = {name: statistics.median(values) for name, values in timed.items()}
    print(f"classic search vs search, {args.games} games a command, {args.rounds} rounds; every round's JSON identical across {', '.join(contenders)}")
    print(f"{'':<11}{'CPU s/game':>11}{'  (min-max)':<18}{'1-game process s':>17}")
    for name in contenders:
        values = per_game[name]
        print(f"{name:<11}{statistics.median(values):>11.4f}  ({min(values):.4f}-{max(values):.4f}){starts[name]:>12.2f}")
    print_ratios(per_game, "core", " cheaper on the core")
    print(f"default    (TREEHOUSE_COMPILED unset){starts['default']:>24.2f}")


if __name__ == "__main__":
    main()
