"""The strength ladder of docs/bots.md: every bot against every other, seeded and reproducible.

Run:  python benchmarks/bot_ladder.py [--pairs N] [--fences-pairs N] [--adjusted-pairs N] [--seed S] [--jobs J]
      python benchmarks/bot_ladder.py --top-only --top-pairs 5000   (perfect vs search, raw games only)
      python benchmarks/bot_ladder.py --mcts-only --mcts 'mcts(simulations=400)' --mcts-pairs 25
          (OpenSpiel's MCTS, the openspiel extra, against search and perfect in classic and search in Fences)

Each match plays pairs of two-player games from seeds S, S+1, ...: the same
seed twice, with the seats swapped, so the first player's edge cancels.  A
cell is the row bot's score against the column bot (wins plus half of any
draw, over all games) with its 95% Wilson interval.  For classic's adjacent
rungs it also prints the luck-adjusted score (treehouse.bots.match.luck_adjusted:
the solved table removes the dice's share of each result), whose interval is
far narrower for the same games.
Classic's top rung (perfect against search) needs thousands of raw games to
separate from 1/2; ``--top-pairs`` plays that many more pairs of it, from
``--top-seed``, and prints them as a table of their own.
The classic tables must be solved (th solve) or are solved on first use.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from statistics import mean, stdev

from treehouse.bots.match import MatchResult, luck_adjusted, play_match, wilson
from treehouse.bots.options import make_bot
from treehouse.plugins import load_plugins

LADDERS = {
    "classic": ("random", "greedy", "search", "perfect"),
    "fences": ("random", "greedy", "search"),
}


def _setup(variant_name: str):
    plugins = load_plugins()
    return plugins, plugins.variant(variant_name)()


def _match(job):
    variant_name, a, b, pairs, seed = job
    plugins, variant = _setup(variant_name)
    r = play_match(variant, lambda: make_bot(plugins, a), lambda: make_bot(plugins, b), pairs, seed, names=(a, b))
    return job, (r.games, r.a_wins, r.b_wins, r.draws)


def _adjusted(job):
    _name, a, b, pairs, seed = job
    plugins, variant = _setup("classic")
    return job, luck_adjusted(variant, lambda: make_bot(plugins, a), lambda: make_bot(plugins, b), pairs, seed)


def chunks(total: int, size: int = 25):
    for start in range(0, total, size):
        yield start, min(size, total - start)


def adjusted_interval(scores: list[float]) -> tuple[float, float, float]:
    """The mean luck-adjusted score and its 95% normal interval, kept inside
    [0, 1]: one game's adjusted score may fall outside, the expected score
    it estimates cannot."""
    m, half = mean(scores), 1.96 * stdev(scores) / len(scores) ** 0.5
    return m, max(0.0, m - half), min(1.0, m + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=300, help="game pairs per classic match (default 300)")
    parser.add_argument("--fences-pairs", type=int, default=100, help="game pairs per Fences match (default 100)")
    parser.add_argument("--adjusted-pairs", type=int, default=100, help="pairs per luck-adjusted classic match (default 100)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--top-pairs", type=int, default=0, help="extra raw pairs of perfect vs search (default 0)")
    parser.add_argument("--top-seed", type=int, default=100_000, help="first seed of the --top-pairs games (default 100000)")
    parser.add_argument("--top-only", action="store_true", help="play only the --top-pairs games")
    parser.add_argument("--mcts", action="append", default=[], help="an mcts bot spec to place on the ladder (repeatable)")
    parser.add_argument("--mcts-pairs", type=int, default=25, help="game pairs per classic mcts match, raw and luck-adjusted (default 25)")
    parser.add_argument("--mcts-fences-pairs", type=int, default=25, help="game pairs per Fences mcts match (default 25)")
    parser.add_argument("--mcts-only", action="store_true", help="play only the --mcts matches")
    args = parser.parse_args()
    if args.mcts_only:
        args.top_only, args.top_pairs = True, 0
    from treehouse.variants.classic.solver import solve_classic

    solve_classic()  # once, before the workers need it
    began = time.perf_counter()
    jobs = []
    top_jobs = [("classic", "perfect", "search", n, args.top_seed + start) for start, n in chunks(args.top_pairs, 100)]
    for variant_name, ladder in LADDERS.items():
        if args.top_only:
            break
        pairs = args.pairs if variant_name == "classic" else args.fences_pairs
        for i, a in enumerate(ladder):
            for b in ladder[:i]:
                for start, n in chunks(pairs):
                    jobs.append((variant_name, a, b, n, args.seed + start))
    adjusted_jobs = []
    ladder = LADDERS["classic"]
    for lower, upper in zip(ladder[1:], ladder[2:]) if not args.top_only else ():
        for start, n in chunks(args.adjusted_pairs):
            adjusted_jobs.append(("classic", upper, lower, n, args.seed + 100_000 + start))
    mcts_jobs, mcts_adjusted_jobs = [], []
    for spec in args.mcts:
        for opponent in ("search", "perfect"):
            for start, n in chunks(args.mcts_pairs, 5):
                mcts_jobs.append(("classic", spec, opponent, n, args.seed + start))
                mcts_adjusted_jobs.append(("classic", spec, opponent, n, args.seed + 100_000 + start))
        for start, n in chunks(args.mcts_fences_pairs, 5):
            mcts_jobs.append(("fences", spec, "search", n, args.seed + start))
    results: dict = {}
    adjusted: dict = {}
    top = MatchResult("perfect", "search")
    with ProcessPoolExecutor(args.jobs) as pool:
        for _job, counts in pool.map(_match, top_jobs):
            top.add(counts)
        for (variant_name, a, b, _n, _s), counts in pool.map(_match, jobs):
            r = results.setdefault((variant_name, a, b), MatchResult(a, b))
            r.add(counts)
        for (_v, a, b, _n, _s), scores in pool.map(_adjusted, adjusted_jobs):
            adjusted.setdefault((a, b), []).extend(scores)
        mcts_results: dict = {}
        for (variant_name, a, b, _n, _s), counts in pool.map(_match, mcts_jobs):
            r = mcts_results.setdefault((variant_name, a, b), MatchResult(a, b))
            r.add(counts)
        mcts_adjusted: dict = {}
        for (_v, a, b, _n, _s), scores in pool.map(_adjusted, mcts_adjusted_jobs):
            mcts_adjusted.setdefault((a, b), []).extend(scores)

    if top.games:
        points = top.a_wins + 0.5 * top.draws
        low, high = wilson(points, top.games)
        print(f"\n### classic, top rung in raw games (seeds {args.top_seed}-{args.top_seed + args.top_pairs - 1}, each twice)\n")
        print("| match | games | perfect's score | 95% interval |")
        print("|---|---|---|---|")
        print(f"| perfect vs search | {top.games} | {points / top.games:.4f} | {low:.4f}–{high:.4f} |")
    for variant_name, ladder in ({} if args.top_only else LADDERS).items():
        print(f"\n### {variant_name}: row's score against column (95% Wilson interval), games per cell in brackets\n")
        print("| | " + " | ".join(ladder) + " |")
        print("|---" * (len(ladder) + 1) + "|")
        for a in ladder:
            cells = []
            for b in ladder:
                if a == b:
                    cells.append("—")
                    continue
                r = results.get((variant_name, a, b))
                flipped = r is None
                if flipped:
                    r = results[(variant_name, b, a)]
                points = (r.b_wins if flipped else r.a_wins) + 0.5 * r.draws
                low, high = wilson(points, r.games)
                cells.append(f"{points / r.games:.3f} ({low:.3f}–{high:.3f}) [{r.games}]")
            print(f"| **{a}** | " + " | ".join(cells) + " |")
    if adjusted:
        print("\n### classic, luck-adjusted (mean ± 1.96 standard errors), adjacent rungs\n")
        print("| match | games | adjusted score | 95% interval |")
        print("|---|---|---|---|")
    for (a, b), scores in adjusted.items():
        m, low, high = adjusted_interval(scores)
        print(f"| {a} vs {b} | {len(scores)} | {m:.4f} | {low:.4f}–{high:.4f} |")
    if mcts_results:
        print("\n### OpenSpiel's MCTS: its score against each bot (95% interval)\n")
        print("| variant | match | games | raw score | 95% interval | luck-adjusted score | 95% interval |")
        print("|---|---|---|---|---|---|---|")
        for (variant_name, a, b), r in mcts_results.items():
            low, high = r.interval()
            cells = f"| {variant_name} | `{a}` vs {b} | {r.games} | {r.score:.3f} | {low:.3f}–{high:.3f} |"
            scores = mcts_adjusted.get((a, b)) if variant_name == "classic" else None
            if scores:
                m, low, high = adjusted_interval(scores)
                cells += f" {m:.4f} | {low:.4f}–{high:.4f} |"
            else:
                cells += " — | — |"
            print(cells)
    print(f"\n(seed {args.seed}; {time.perf_counter() - began:.0f} s with {args.jobs} jobs)")


if __name__ == "__main__":
    main()
