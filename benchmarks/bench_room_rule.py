"""The search bot with Fences' room rule of issue 46 against the same bot with the rule before it.

Run:  python benchmarks/bench_room_rule.py [--pairs N] [--seed S] [--jobs J] [--bot SPEC]

The evaluation (variants/fences/evaluate.py) gives a Stack 0.5 for each
neighbouring square it can step onto unharmed, and takes 2 from one with
none.  Before issue 46 it counted Outside Fences of the Stack's top colour
among those squares, though step 3 never goes Outside (``outside_attempts``
off) or is Damaged whenever it tries (on): a Stack in a corner was believed
to have four squares when it had two.  Here one seat searches with today's
rule and the other with the old one, on the same seeds with the seats
swapped (play_match's pairs), so the first player's edge cancels.  The
result is the new rule's score (wins plus half of any draw) with its 95%
Wilson interval.

Both bots run on the reference tier (``TREEHOUSE_COMPILED=0``): the old rule
exists only here, as a correction of the reference evaluation (the compiled
core has only today's).  A bot's choice runs with its own rule in force: the
wrapper switches the rule for the time of its ``choose``.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache

os.environ["TREEHOUSE_COMPILED"] = "0"  # before treehouse is imported: both seats on the reference tier

from treehouse.bots.match import MatchResult, play_match  # noqa: E402
from treehouse.bots.options import make_bot  # noqa: E402
from treehouse.plugins import load_plugins  # noqa: E402
from treehouse.variants.fences import evaluate as evaluation  # noqa: E402
from treehouse.variants.fences.board import AROUND, INSIDE  # noqa: E402
from treehouse.variants.fences.hits import immune  # noqa: E402

#: Today's placed_value, kept before the old rule is wrapped around it.
NEW_PLACED_VALUE = evaluation.placed_value
#: Which rule the bot choosing now uses (one process plays one game at a time).
RULE = {"old": False}


@lru_cache(maxsize=8192)
def old_placed_value(board: tuple, square: int, seat: int, top: str, smalls: int) -> float:
    """placed_value as before issue 46: Outside Fences of the top colour counted as room too."""
    value = NEW_PLACED_VALUE(board, square, seat, top, smalls)
    _lines, onto = evaluation.threatened_hits(board, square, seat)
    outside = sum(1 for hit in onto if hit.source.square not in INSIDE and immune(hit, top))
    if outside:
        room = sum(1 for n in AROUND[square] if n in INSIDE and board[n] is None)
        room += sum(1 for hit in onto if hit.source.square in INSIDE and immune(hit, top))
        value += evaluation.ROOM * outside + (evaluation.BOXED_IN if room == 0 else 0.0)
    return value


def placed_value(board, square, seat, top, smalls, stand=None):
    if RULE["old"] and stand is None:  # no house rule here: every Hit stands
        return old_placed_value(board, square, seat, top, smalls)
    return NEW_PLACED_VALUE(board, square, seat, top, smalls, stand)


evaluation.placed_value = placed_value  # stack_value looks it up in its module at each call


class WithRule:
    """A bot that chooses with the old room rule (``old``) or today's."""

    def __init__(self, bot, old: bool) -> None:
        self.bot, self.old, self.name = bot, old, bot.name

    def seated(self, game, index) -> None:
        self.bot.seated(game, index)

    def choose(self, state, step, face, moves, rng):
        RULE["old"] = self.old
        try:
            return self.bot.choose(state, step, face, moves, rng)
        finally:
            RULE["old"] = False


def play(job):
    spec, pairs, seed = job
    plugins = load_plugins()
    variant = plugins.variant("fences")()
    result = play_match(variant, lambda: WithRule(make_bot(plugins, spec), False), lambda: WithRule(make_bot(plugins, spec), True), pairs, seed, names=("new", "old"))
    return result.games, result.a_wins, result.b_wins, result.draws


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100, help="game pairs (default 100: about 3 minutes on two cores)")
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bot", default="search", help="the bot both seats run (default: search)")
    args = parser.parse_args()
    chunk = 5
    jobs = [(args.bot, min(chunk, args.pairs - start), args.seed + start) for start in range(0, args.pairs, chunk)]
    started = time.perf_counter()
    total = MatchResult("new", "old")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for counts in pool.map(play, jobs):  # in seed order: the same sums for any --jobs
            total.add(counts)
    low, high = total.interval()
    print(f"fences, {args.bot} with the room rule of issue 46 (new) against the rule before it (old), seeds {args.seed}..{args.seed + args.pairs - 1}, seats swapped")
    print(f"games {total.games}: new won {total.a_wins}, old won {total.b_wins}, draws or shared {total.draws}")
    print(f"new's score {total.score:.3f}, 95% interval [{low:.3f}, {high:.3f}]  ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
