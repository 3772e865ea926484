"""Fences, greedy against search: the CPU cost of a game, and search's margin over greedy.

Run:  python benchmarks/bench_fences_search.py [--games N] [--seed S] [--jobs J]

Plays N two-player Fences games (default 200) under explicitly pinned rule
options, as ``th simulate`` plays them (:func:`treehouse.playtest.work.play_chunk`,
observer and metrics on), with the seats alternated: each seed is played
twice, greedy first then search first, so the first player's edge cancels.
Prints

* CPU seconds per game (user + system of the workers: the machine is shared,
  so wall time says little) and turns per game;
* search's score against greedy (wins plus half of any draw or tie) with its
  95% Wilson interval.

Issue 12's goal: a game at least 10x cheaper than before the speed work, with
the same strength (the same margin within its interval).  The speedups keep
every choice the same (tests/test_pinned_outputs.py), so the margin is the
same by construction; this measures it anyway.
"""

from __future__ import annotations

import argparse
import resource
import time
from concurrent.futures import ProcessPoolExecutor

from treehouse.bots.match import wilson
from treehouse.playtest.work import Batch, RuleSpec, play_chunk

RULES = {
    "stack_height_2p": 4, "stack_height_3p": 3, "stack_height_4p": 2, "draft": "random", "start": "corners", "line_hits": "new",
    "outside_attempts": True, "swap_outside_ignores_colour": True, "swap_outside_considered_moved": False, "uniform_dig": "hit",
    "all_out_at_once": "tie",
    "turn_limit": 0, "turn_limit_scoring": "most_smalls",
}


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def batch(seed: int) -> Batch:
    from treehouse.plugins import load_plugins

    cls = load_plugins().variant("fences")
    rules = cls.Rules(**{k: v for k, v in RULES.items() if k in cls.Rules.model_fields})
    spec = RuleSpec("fences-pinned", "fences", tuple(sorted(rules.model_dump(mode="json").items())), 500)
    return Batch((spec,), ("greedy", "search"), seed=seed, rotate=True)


def play(job):
    seed, start, stop = job
    return play_chunk(batch(seed), start, stop).sides[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games in all, an even number (default 200)")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    jobs = [(args.seed, start, min(start + 10, args.games)) for start in range(0, args.games, 10)]
    cpu, wall = cpu_seconds(), time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            sides = list(pool.map(play, jobs))
    else:
        sides = [play(job) for job in jobs]
    cpu, wall = cpu_seconds() - cpu, time.perf_counter() - wall
    games = sum(s.games for s in sides)
    turns = sum(s.turns_total for s in sides)
    entrant = [sum(s.entrant_wins[i] for s in sides) for i in range(2)]  # [greedy, search], whatever the seat
    shared = games - sum(entrant)  # draws and ties: half a point each
    score = entrant[1] + shared / 2
    low, high = wilson(score, games)
    print(f"{games} games greedy vs search (seats alternated), seed {args.seed}: {turns / games:.1f} turns a game")
    print(f"CPU {cpu:.1f} s ({cpu / games:.3f} s a game), wall {wall:.1f} s")
    print(f"search's score against greedy: {score / games:.3f} (95% interval {low:.3f}-{high:.3f}); greedy {entrant[0]}, search {entrant[1]}, shared {shared}")


if __name__ == "__main__":
    main()
