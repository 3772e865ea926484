"""Fences' reference tier alone against another checkout's, in one run: the CPU of a game.

Run:  python benchmarks/bench_reference_tier.py --baseline CHECKOUT [--games N] [--rounds R] [--seed S] [--scenario NAME]

Issue 43's target: the reference rules alone (``TREEHOUSE_COMPILED=0``),
Fences greedy against search, cost no more CPU a game than main did at
fb0e67f, before the tiers (``git worktree add --detach /tmp/fb fb0e67f``,
then ``--baseline /tmp/fb``).

Each measurement is a fresh process running benchmarks/bench_tiers.py's
worker (the games as ``th simulate`` plays them, under the pinned options of
bench_fences_search.py) on the reference rules, this checkout's code and the
baseline's interleaved in ``R`` rounds, so a busy shared machine slows both
alike.  The rules have changed since fb0e67f, so the two sides play
different games: each side must give the same results in every round (its
games are seeded), and the CPU is given a game and a turn.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from alternate import checkout_src
from bench_tiers import SCENARIOS, measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, metavar="CHECKOUT", help="another checkout (a git worktree of main at fb0e67f, say)")
    parser.add_argument("--games", type=int, default=20, help="games per measurement (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="greedy-search")
    args = parser.parse_args()
    checkout_src(args.baseline)  # a wrong path stops here, in one line
    runs: dict[str, list[dict]] = {"this checkout": [], "baseline": []}
    for _round in range(args.rounds):
        runs["this checkout"].append(measure(args.scenario, args.games, args.seed, False))
        runs["baseline"].append(measure(args.scenario, args.games, args.seed, False, args.baseline))
    cost = {}
    for side, measured in runs.items():
        if len({run["result"] for run in measured}) != 1:
            sys.exit(f"{side}: the rounds gave different games")
        cpu = [run["cpu"] / args.games for run in measured]
        turns = measured[0]["turns"] / args.games
        cost[side] = statistics.median(cpu)
        print(
            f"{side}: {args.scenario}, reference tier, {args.games} games x {args.rounds} rounds: CPU a game {cost[side]:.3f} s"
            f" (rounds {', '.join(f'{c:.3f}' for c in cpu)}), {turns:.1f} turns a game, {1000 * cost[side] / turns:.1f} ms a turn"
        )
    print(f"this checkout / baseline, CPU a game: {cost['this checkout'] / cost['baseline']:.2f}")


if __name__ == "__main__":
    main()
