"""The ``random`` bot: a uniform choice among the legal moves.

This module is also the plugin that registers it, through the same
entry-point group a third party's bot would use.
"""

from __future__ import annotations

import random

from treehouse.hookspecs import hookimpl


class RandomBot:
    """Picks uniformly among the legal moves, from its own seeded stream."""

    name = "random"

    def choose(self, state, step, face, moves, rng: random.Random):
        return moves[int(rng.random() * len(moves))]  # as fair as randrange, at C speed


@hookimpl
def treehouse_register_bots(register):
    register("random", RandomBot, "a uniform choice among the legal moves")
