"""Seats the tests share.  (``tests`` is on pytest's path: ``import seats``.)"""

from __future__ import annotations


class Recording:
    """A seat that notes every decision it is asked to take, ``(state, step,
    face, moves)`` in ``seen``, and lets ``bot`` take it."""

    def __init__(self, bot, seen: list):
        self.bot, self.seen = bot, seen
        self.name = getattr(bot, "name", "recording")

    def __getattr__(self, name):
        return getattr(self.bot, name)

    def choose(self, state, step, face, moves, rng):
        self.seen.append((state, step, face, moves))
        return self.bot.choose(state, step, face, moves, rng)
