"""Fences' one Hit per piece: how often a Fence's second Hit on a Stack at one check is merged away, and what it would have cost.

Run:  python benchmarks/measure_one_hit_per_piece.py [--games N] [--seed S] [--seats random|greedy] [--players P]

Plays N games (default 390) under the default rules (``variants/fences.yaml``,
``one_hit_per_piece: true``), as the engine plays them, and at every check
compares the Hits that stand with the Hits the same check finds when each
rule a piece meets counts (``one_hit_per_piece: false``, everything else
the same).  The games themselves are played by the default rules, so the
figures are those of real default games.  Prints

* merges: Hits dropped because the same piece had already Hit that Stack at
  that check, how many games had one, and their causes (the Hit kept, then
  the Hit dropped);
* damaging: how many more smalls those checks would have taken with every
  Hit counted (a dropped Hit Damages unless colour saves the Stack or no
  small is left), and how many of the dropped Hits colour would have saved.

This is a count, not a timing: it is exact for its seeds on any machine.
docs/rules/fences.md (Hits, "One piece, one Hit per check") quotes it.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from treehouse.kernel.engine import PASS, Game
from treehouse.plugins import load_plugins
from treehouse.variants.fences.hits import immune
from treehouse.variants.fences.rules import check_hits, resolve_damage


def smalls_lost(state, hits) -> int:
    return sum(1 for event in resolve_damage(state, hits, 0)[1] if getattr(event, "lost", None) is not None)


class Tally:
    def __init__(self) -> None:
        self.checks = self.merges = self.damaging = self.saved = 0
        self.games: set[int] = set()
        self.causes: Counter = Counter()


class WatchMerges:
    """A game observer: at every check, the Hits the default rules keep against
    those found with every rule counted, the move applied again through the
    game's hooks (they are pure) for what it did."""

    def __init__(self, variant, tally: Tally) -> None:
        self.variant, self.tally, self.game = variant, tally, 0
        self.counted = variant.rules.model_copy(update={"one_hit_per_piece": False})

    def on_choice(self, game, mover, step, face, moves) -> None:
        pass

    def on_step(self, game, mover, step, move, before, after, events) -> None:
        if move is PASS or before.setting_up:
            return  # a passed step makes no attempt, and lines never repeat a piece; the setup is not checked
        state, effect = game.hooks.treehouse_apply_move(before, step, move)
        kept = check_hits(before, state, effect, self.variant.rules)
        every = check_hits(before, state, effect, self.counted)
        tally = self.tally
        tally.checks += 1
        if len(every) > len(kept):
            dropped = list(every)
            for hit in kept:
                dropped.remove(hit)
            tally.merges += len(dropped)
            tally.games.add(self.game)
            for hit in dropped:
                stack = state.stacks[hit.seat]
                self.tally.saved += bool(stack) and immune(hit, stack[-1])
                first = next(k for k in kept if k.seat == hit.seat and k.source == hit.source)
                tally.causes[f"{first.cause.value} + {hit.cause.value}"] += 1
            tally.damaging += smalls_lost(state, every) - smalls_lost(state, kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=390)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", choices=("random", "greedy"), default="random")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    plugins = load_plugins()
    variant = plugins.variant("fences")()
    assert variant.rules.one_hit_per_piece, "the default rules merge a piece's Hits"
    tally = Tally()
    watch = WatchMerges(variant, tally)
    bot = plugins.bot(args.seats).factory
    turns = 0
    for index in range(args.games):
        watch.game = index
        game = Game(variant, [bot() for _ in range(args.players)], random.Random(f"{args.seed}:{index}"), turn_cap=500, observer=watch)
        game.play()
        turns += game.turn
    print(f"{args.games} default games, {args.players} {args.seats} seats, seed {args.seed}: {turns} turns, {tally.checks} checks")
    print(f"merged Hits: {tally.merges}, in {len(tally.games)} games ({len(tally.games) / args.games:.0%} of games)")
    print(f"smalls the merged Hits would have taken: {tally.damaging}; merged Hits colour would have saved anyway: {tally.saved}")
    for causes, n in tally.causes.most_common():
        print(f"  {n:5d}  {causes}")


if __name__ == "__main__":
    main()
