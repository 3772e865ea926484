"""Fences on its two rules tiers: the compiled core against the reference rules, in one run.

Run:  python benchmarks/bench_tiers.py [--games N] [--rounds R] [--seed S] [--profile]

Plays the games of issue 22's Fences targets as ``th simulate`` plays them
(:func:`treehouse.playtest.work.play_chunk`: the observer and every metric
on), under the pinned rule options of benchmarks/bench_fences_search.py:

* ``greedy-search``: greedy against search, two players, seats rotated;
* ``search-4``: four search seats.

Each measurement is a fresh process with ``TREEHOUSE_COMPILED`` set to 1
(the core) or 0 (the reference), the two interleaved in ``R`` rounds, so a
busy shared machine slows both alike.  A process prepares its rules first
(for the core: loads its build from the cache folder) and then counts the
CPU seconds (user + system) of the games only; the start-up is measured on
its own below.  Every pair of runs must give the same results (the games'
statistics, compared exactly), or the benchmark stops.

Then the start-up, for the core compiled ahead of time and, as on a machine
without a C compiler, just in time: a cold build (an empty cache folder), a
warm start (the cache filled), and a worker process of a pool started after
the parent prepared (it loads the build, never builds again).
``--startup-python`` runs the first two under another environment's
interpreter (this checkout's code still), one made by the README's first
command, say.  ``--profile`` prints cProfile's top five (by own time) of
the core tier.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import multiprocessing
import os
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from alternate import checkout_src

HERE = Path(__file__).resolve().parent
STARTUP_ROUNDS = 5
SCENARIOS = {"greedy-search": ("greedy", "search"), "search-4": ("search",) * 4}


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def batch(seats: tuple, seed: int):
    sys.path.insert(0, str(HERE))
    from bench_fences_search import RULES

    from treehouse.playtest.work import Batch, RuleSpec
    from treehouse.plugins import load_plugins

    cls = load_plugins().variant("fences")
    rules = cls.Rules(**{k: v for k, v in RULES.items() if k in cls.Rules.model_fields})
    spec = RuleSpec("fences-pinned", "fences", tuple(sorted(rules.model_dump(mode="json").items())), 500)
    return Batch((spec,), seats, seed=seed, rotate=len(set(seats)) > 1)


def prepare_rules() -> None:
    """What a process does before its first look: the core's kernels loaded (or the reference chosen)."""
    try:
        from treehouse.kernel.fast import compiled
    except ImportError:  # a --baseline checkout from before the tiers
        return
    if compiled.enabled():
        from treehouse.variants.fences.fast import looks

        looks.prepare()


def worker(scenario: str, games: int, seed: int) -> None:
    """One measurement, in this process: print the games' CPU and their results as JSON."""
    from treehouse.playtest.work import play_chunk

    work = batch(SCENARIOS[scenario], seed)
    prepare_rules()
    started = cpu_seconds()
    result = play_chunk(work, 0, games, on_game=lambda: None)
    cpu = cpu_seconds() - started
    side = result.sides[0]
    print(json.dumps({"cpu": cpu, "games": games, "turns": side.turns_total, "result": repr(vars(side))}))


def measure(scenario: str, games: int, seed: int, on: bool, baseline: str | None = None) -> dict:
    """One measurement in a fresh process: the core (``on``), the reference, or the code of a ``baseline`` checkout."""
    # as th's main() sets it (treehouse.cli.app.BLAS_THREADS_ENV): numpy's idle OpenBLAS threads would spin in the games' time
    env = {"OPENBLAS_NUM_THREADS": "1", **os.environ, "TREEHOUSE_COMPILED": "1" if on else "0"}
    if baseline:
        env["PYTHONPATH"] = str(checkout_src(baseline))
    command = [sys.executable, __file__, "--worker", scenario, "--games", str(games), "--seed", str(seed)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def startup(python: str) -> None:
    """Cold build, warm start and a pool worker's first look, each in a fresh
    process; the first two under ``python`` (this checkout's code on its
    path), which may be another environment's (one made by the README's
    first command, say), and both ways the core is compiled: ahead of time
    (a C compiler at hand, the default) and just in time (``CC`` pointing
    nowhere, as on a machine without a compiler)."""
    probe = "import time; t = time.perf_counter(); import sys; sys.path.insert(0, %r); from bench_tiers import prepare_rules; prepare_rules(); print(time.perf_counter() - t, 'numba' in sys.modules)" % str(HERE)

    def run(env: dict) -> tuple[float, float, bool]:
        started = time.perf_counter()
        done = subprocess.run([python, "-c", probe], env=env, capture_output=True, text=True, check=True)
        seconds, numba = done.stdout.split()
        return float(seconds), time.perf_counter() - started, numba == "True"

    print(f"start-up under {python} (warm: the median of {STARTUP_ROUNDS}, interleaved with the reference tier):")
    for way, extra in (("ahead of time", {}), ("just in time", {"CC": "/nonexistent/cc"})):
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, **extra, "NUMBA_CACHE_DIR": cache, "TREEHOUSE_COMPILED": "1", "PYTHONPATH": str(HERE.parent / "src")}
            cold = run(env)
            warm, off = [], []
            for _ in range(STARTUP_ROUNDS):
                warm.append(run(env))
                off.append(run({**env, "TREEHOUSE_COMPILED": "0"})[0])
            prepared, process = statistics.median(w[0] for w in warm), statistics.median(w[1] for w in warm)
            reference = statistics.median(off)
            print(f"{way}: cold, the core built in {cold[0]:.2f} s (process {cold[1]:.2f} s); warm, prepared in {prepared:.2f} s"
                  f" (process {process:.2f} s), {prepared - reference:+.2f} s against the reference tier; numba imported: {warm[0][2]}")
    # a fresh worker process (spawned: nothing inherited from a parent that had the kernels loaded)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        seconds, numba, built = pool.submit(_worker_first_look).result()
    print(f"a worker process's preparing, under {sys.executable}: {seconds:.2f} s; numba imported: {numba}; built again: {built}")


def _worker_first_look() -> tuple[float, bool, bool]:
    from treehouse.kernel.fast import ahead, compiled

    before = ahead.builds(compiled.ahead_folder()) if compiled.ahead_folder().is_dir() else []
    started = time.perf_counter()
    prepare_rules()
    seconds = time.perf_counter() - started
    return seconds, "numba" in sys.modules, ahead.builds(compiled.ahead_folder()) != before


def profile(scenario: str, games: int, seed: int) -> None:
    from treehouse.playtest.work import play_chunk

    work = batch(SCENARIOS[scenario], seed)
    prepare_rules()
    profiler = cProfile.Profile()
    profiler.runcall(play_chunk, work, 0, games, on_game=lambda: None)
    print(f"profile of the core tier, {scenario}, {games} games: the top five by own time")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per measurement (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of core and reference (default 3)")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), action="append", help="default: both")
    parser.add_argument("--profile", action="store_true", help="also print cProfile's top five of the core tier")
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up times")
    parser.add_argument(
        "--baseline", metavar="CHECKOUT", help="also measure the code of another checkout (a git worktree of main before the tiers), interleaved"
    )
    parser.add_argument(
        "--startup-python", metavar="PYTHON", default=sys.executable,
        help="the interpreter of the cold and warm start (default this one), e.g. a venv made by the README's first command",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.games, args.seed)
        return
    if args.baseline:
        checkout_src(args.baseline)  # a wrong path stops here, in one line
    for scenario in args.scenario or sorted(SCENARIOS):
        runs = {True: [], False: [], "baseline": []}
        for _round in range(args.rounds):
            for on in (False, True):
                runs[on].append(measure(scenario, args.games, args.seed, on))
            if args.baseline:
                runs["baseline"].append(measure(scenario, args.games, args.seed, False, args.baseline))
        results = {run["result"] for tier in runs.values() for run in tier}
        if len(results) != 1:
            sys.exit(f"{scenario}: the tiers gave different games: {len(results)} distinct results")
        core = statistics.median(run["cpu"] for run in runs[True]) / args.games
        reference = statistics.median(run["cpu"] for run in runs[False]) / args.games
        print(
            f"{scenario}: {args.games} games x {args.rounds} rounds, identical results; CPU a game: core {core:.3f} s,"
            f" reference {reference:.3f} s: {reference / core:.1f}x cheaper ({runs[True][0]['turns'] / args.games:.1f} turns a game)"
        )
        if args.baseline:
            base = statistics.median(run["cpu"] for run in runs["baseline"]) / args.games
            print(f"{scenario}: the baseline checkout {base:.3f} s a game: the core {base / core:.1f}x cheaper, the reference {base / reference:.2f}x")
        if args.profile:
            profile(scenario, args.games, args.seed)
    if not args.no_startup:
        startup(args.startup_python)


if __name__ == "__main__":
    main()
