"""The strength ladder of docs/bots.md: every bot against every other, seeded and reproducible.

Run:  python benchmarks/bot_ladder.py [--pairs N] [--fences-pairs N] [--adjusted-pairs N] [--seed S] [--jobs J]

Each match plays pairs of two-player games from seeds S, S+1, ...: the same
seed twice, with the seats swapped, so the first player's edge cancels.  A
cell is the row bot's score against the column bot (wins plus half of any
draw, over all games) with its 95% Wilson interval.  For classic's adjacent
rungs it also prints the luck-adjusted score (treehouse.bots.match.luck_adjusted:
the solved table removes the dice's share of each result), whose interval is
far narrower for the same games.  Fences is played with its evaluation wired
in as a plugin when the variant does not answer treehouse_evaluate itself.
The classic tables must be solved (th solve) or are solved on first use.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from statistics import mean, stdev

from treehouse.bots.match import MatchResult, luck_adjusted, play_match, wilson
from treehouse.bots.options import make_bot
from treehouse.hookspecs import hookimpl
from treehouse.plugins import game_hooks, load_plugins

LADDERS = {
    "classic": ("random", "greedy", "search", "perfect"),
    "fences": ("random", "greedy", "search"),
}


class FencesEvaluate:
    name = "fences-evaluate"

    @hookimpl
    def treehouse_evaluate(self, state, seat):
        from treehouse.variants.fences.evaluate import evaluate

        return evaluate(state, seat)


def _setup(variant_name: str):
    plugins = load_plugins()
    variant = plugins.variant(variant_name)()
    hooks = None
    if variant_name == "fences" and not hasattr(type(variant), "treehouse_evaluate"):
        hooks = game_hooks(variant, house_rules=[FencesEvaluate()])
    return plugins, variant, hooks


def _match(job):
    variant_name, a, b, pairs, seed = job
    plugins, variant, hooks = _setup(variant_name)
    r = play_match(variant, lambda: make_bot(plugins, a), lambda: make_bot(plugins, b), pairs, seed, hooks=hooks, names=(a, b))
    return job, (r.games, r.a_wins, r.b_wins, r.draws)


def _adjusted(job):
    _name, a, b, pairs, seed = job
    plugins, variant, _hooks = _setup("classic")
    return job, luck_adjusted(variant, lambda: make_bot(plugins, a), lambda: make_bot(plugins, b), pairs, seed)


def chunks(total: int, size: int = 25):
    for start in range(0, total, size):
        yield start, min(size, total - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=300, help="game pairs per classic match (default 300)")
    parser.add_argument("--fences-pairs", type=int, default=100, help="game pairs per Fences match (default 100)")
    parser.add_argument("--adjusted-pairs", type=int, default=100, help="pairs per luck-adjusted classic match (default 100)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    from treehouse.bots.solver import solve_classic

    solve_classic()  # once, before the workers need it
    began = time.perf_counter()
    jobs = []
    for variant_name, ladder in LADDERS.items():
        pairs = args.pairs if variant_name == "classic" else args.fences_pairs
        for i, a in enumerate(ladder):
            for b in ladder[:i]:
                for start, n in chunks(pairs):
                    jobs.append((variant_name, a, b, n, args.seed + start))
    adjusted_jobs = []
    ladder = LADDERS["classic"]
    for lower, upper in zip(ladder[1:], ladder[2:]):
        for start, n in chunks(args.adjusted_pairs):
            adjusted_jobs.append(("classic", upper, lower, n, args.seed + 100_000 + start))
    results: dict = {}
    adjusted: dict = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for (variant_name, a, b, _n, _s), counts in pool.map(_match, jobs):
            r = results.setdefault((variant_name, a, b), MatchResult(a, b))
            r.games += counts[0]
            r.a_wins += counts[1]
            r.b_wins += counts[2]
            r.draws += counts[3]
        for (_v, a, b, _n, _s), scores in pool.map(_adjusted, adjusted_jobs):
            adjusted.setdefault((a, b), []).extend(scores)

    for variant_name, ladder in LADDERS.items():
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
    print("\n### classic, luck-adjusted (mean ± 1.96 standard errors), adjacent rungs\n")
    print("| match | games | adjusted score | 95% interval |")
    print("|---|---|---|---|")
    for (a, b), scores in adjusted.items():
        m, half = mean(scores), 1.96 * stdev(scores) / len(scores) ** 0.5
        print(f"| {a} vs {b} | {len(scores)} | {m:.4f} | {m - half:.4f}–{m + half:.4f} |")
    print(f"\n(seed {args.seed}; {time.perf_counter() - began:.0f} s with {args.jobs} jobs)")


if __name__ == "__main__":
    main()
