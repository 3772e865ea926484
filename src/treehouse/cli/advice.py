"""Hints and winning chances for ``th play``: what the strongest ready bot would play, and why.

A bot may explain itself with ``advise(state, step, face, moves)``, the value
of every move as it weighs them, and ``measure``, what those numbers are
(``"winning chance"``: exact probabilities, as the ``perfect`` bot's table
gives for two-player classic; ``"search value"``: the ``search`` bot's
expectimax score).  A bot without ``advise`` still gives its choice.  The
hint bot has its own seeded stream, so asking for a hint never changes the
game's dice or any seat's choices.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from treehouse.bots.lookahead import LOSS, WIN
from treehouse.bots.options import make_bot
from treehouse.kernel.seats import seat_in

#: How many other moves a hint lists after the best.
OTHERS = 3


@dataclass
class Hint:
    """The bot's choice, and every move's value where the bot gives them."""

    bot: str
    move: Any
    values: list[float] | None
    measure: str


def hint_bot(plugins: Any, bot_spec: str, game: Any, seat: int) -> Any:
    """A ``bot_spec`` bot seated in ``seat`` of ``game``, to ask for hints (keep it: ``perfect`` loads its table once)."""
    bot = make_bot(plugins, bot_spec)
    seat_in(bot, game, seat)
    return bot


def advise(bot: Any, state: Any, step: Any, face: str | None, moves: tuple) -> Hint:
    """What ``bot`` (seated by :func:`hint_bot`) would play at this decision, and why."""
    rng = random.Random(0)  # its own stream: a hint never moves the game's
    advise_moves = getattr(bot, "advise", None)
    if advise_moves is None:
        return Hint(bot.name, bot.choose(state, step, face, moves, rng), None, "")
    values = list(advise_moves(state, step, face, moves))
    best = max(range(len(moves)), key=lambda i: values[i])
    return Hint(bot.name, moves[best], values, getattr(bot, "measure", "value"))


def value_words(value: float, measure: str) -> str:
    """A move's value in words: ``62.4%`` for a chance, else the search's score."""
    if measure == "winning chance":
        return f"{100 * value:.1f}%"
    if value >= WIN:
        return "a sure win"
    if value <= LOSS:
        return "a sure loss"
    return f"{value:+.2f}"


def hint_lines(hint: Hint, moves: tuple, label: Any) -> list[str]:
    """Two lines at most: the choice (``label(move)`` names it as the menu does), then the runners-up."""
    if hint.values is None:
        return [f"Hint ({hint.bot}): {label(hint.move)}."]
    best = moves.index(hint.move)
    first = f"Hint ({hint.bot}, {hint.measure} {value_words(hint.values[best], hint.measure)}): {label(hint.move)}"
    order = sorted((i for i in range(len(moves)) if i != best), key=lambda i: -hint.values[i])
    if not order:
        return [first + " (the only move)."]
    others = ", ".join(f"{label(moves[i], short=True)} {value_words(hint.values[i], hint.measure)}" for i in order[:OTHERS])
    more = f" (and {len(order) - OTHERS} more)" if len(order) > OTHERS else ""
    return [first + ".", f"Next best: {others}{more}."]
