"""Strong-bot games in bare-loop units: issue 44's targets, measured in one run.

Run:  python benchmarks/bench_units.py [--games 100] [--search4-games 12] [--rounds 2] [--seed 12] [--baseline CHECKOUT]

The unit is the CPU of one game of the bare classic random loop
(bench_classic_engine.py's ``bare_games``: the rules as tables, a random
choice per roll, no engine), measured in this process between the game
measurements, so a busy machine inflates both.  The games are those of
bench_tiers.py's worker (``th simulate``'s path: ``play_chunk`` over a
batch of the pinned options, on the compiled core), each in a fresh
process:

* Fences greedy against search, ``--games`` games (target: 300 units);
* Fences with four search seats, ``--search4-games`` games (target: 450 units).

With ``--baseline``, the same games on another checkout's code (main
before the work, say) are interleaved and given in units too; the two
sides' results must be the same.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_classic_engine import bare_games, successor_tables  # noqa: E402
from bench_tiers import measure  # noqa: E402

TARGETS = {"greedy-search": 300, "search-4": 450}


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def unit(tables, games: int = 2000) -> float:
    """The CPU of one bare-loop game, over ``games`` games."""
    started = cpu()
    bare_games(games, random.randrange(1 << 30), tables)
    return (cpu() - started) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--search4-games", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--baseline", help="another checkout, measured interleaved")
    args = parser.parse_args()
    tables = successor_tables()
    unit(tables, 500)  # warm
    games = {"greedy-search": args.games, "search-4": args.search4_games}
    sides = {"this checkout": None, **({"baseline": args.baseline} if args.baseline else {})}
    units: list[float] = []
    per_game: dict[tuple[str, str], list[float]] = {(side, s): [] for side in sides for s in games}
    results: dict[tuple[str, str], set] = {(side, s): set() for side in sides for s in games}
    for round_number in range(args.rounds):
        for scenario, count in games.items():
            units.append(unit(tables))
            for side, checkout in sides.items():
                found = measure(scenario, count, args.seed, True, checkout)
                per_game[side, scenario].append(found["cpu"] / found["games"])
                results[side, scenario].add(found["result"])
        units.append(unit(tables))
        print(f"round {round_number + 1} done", file=sys.stderr, flush=True)
    one = statistics.median(units)
    print(f"bare-loop unit: {one * 1e6:.0f} us a game (median of {len(units)} measurements between the games)")
    for scenario in games:
        if args.baseline and results["this checkout", scenario] != results["baseline", scenario]:
            print(f"  {scenario}: the two sides played different games (their rules differ); compare the CPU, not the results")
        for side in sides:
            if len(results[side, scenario]) != 1:
                raise SystemExit(f"{side} {scenario}: the rounds gave different results")
            seconds = statistics.median(per_game[side, scenario])
            print(f"{side:>14} {scenario:>14}: {seconds:.4f} s a game = {seconds / one:,.0f} units (target {TARGETS[scenario]})")


if __name__ == "__main__":
    main()
