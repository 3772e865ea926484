"""Hints and winning chances for ``th play``: what the strongest ready bot would play, and why.

The why has two parts: the bot's values in words (below), and the
variant's one-line reason for the move it chose
(:meth:`~treehouse.kernel.variant.Variant.hint_reason`).

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


def standing_words(value: float, unit: tuple[str, float] | None) -> str:
    """Where a search value leaves the player, in the game's own terms
    (``unit``: the variant's :meth:`~treehouse.kernel.variant.Variant.score_unit`,
    e.g. ``("small", 10.0)``): ``about 1.5 smalls ahead``; ``""`` without a unit.
    Never the raw score: its scale means nothing to a person."""
    if value >= WIN:
        return "a sure win"
    if value <= LOSS:
        return "a sure loss"
    if abs(value) >= DECIDED:
        return _rolls(value)
    if unit is None:
        return ""
    name, points = unit
    amount = value / points
    if abs(amount) < 0.25:
        return "about even"
    return f"about {_amount(abs(amount), name)} {'ahead' if amount > 0 else 'behind'}"


#: A search value this far from 0 is an average over rolls some of which end
#: the game (a win scores ``WIN``, a loss ``LOSS``): no evaluation comes near it.
DECIDED = WIN / 1000


def _rolls(value: float) -> str:
    """A value made mostly of finished games: the share of rolls that win or lose."""
    share = round(100 * abs(value) / WIN)
    return f"{'wins' if value > 0 else 'loses'} the game on about {share}% of the rolls"


def _amount(amount: float, name: str) -> str:
    rounded = round(amount * 2) / 2  # halves: the evaluation is an estimate
    if rounded == 1:
        return f"1 {name}"
    text = f"{rounded:.1f}".removesuffix(".0")
    return f"{text} {name}s"


def compared_words(value: float, best: float, unit: tuple[str, float] | None) -> str:
    """How a move compares with the best one, in plain words: ``as good``,
    ``close``, ``loses about 2 smalls``, ``loses the game``."""
    if value >= WIN:
        return "also wins"
    if value <= LOSS:
        return "loses the game"
    if abs(value) >= DECIDED:
        return _rolls(value)
    if best >= DECIDED:
        return "gives up the chance to win"
    gap = best - value
    scale = unit[1] if unit is not None else max(1.0, abs(best))
    if gap <= 1e-9 * scale:
        return "as good"
    if gap < 0.5 * scale:
        return "close"
    if unit is None:
        return "worse"
    return f"loses about {_amount(gap / unit[1], unit[0])}"


def hint_lines(hint: Hint, moves: tuple, label: Any, unit: tuple[str, float] | None = None, reason: str = "") -> list[str]:
    """Two lines at most: the choice (``label(move)`` says what to type now and
    names it as the menu does) and why (``reason``: the variant's
    :meth:`~treehouse.kernel.variant.Variant.hint_reason`), then the
    runners-up, each compared with it in words."""
    why = f" Why: {reason}." if reason else ""
    if hint.values is None:
        return [f"Hint ({hint.bot}): {label(hint.move)}.{why}"]
    best = moves.index(hint.move)
    value = hint.values[best]
    if hint.measure == "winning chance":
        first = f"Hint ({hint.bot}, winning chance {100 * value:.1f}%): {label(hint.move)}"
        words = lambda i: f"{100 * hint.values[i]:.1f}%"  # noqa: E731
    else:
        standing = standing_words(value, unit)
        first = f"Hint ({hint.bot}): {label(hint.move)}" + (f", {standing}" if standing else "")
        words = lambda i: compared_words(hint.values[i], value, unit)  # noqa: E731
    order = sorted((i for i in range(len(moves)) if i != best), key=lambda i: -hint.values[i])
    if not order:
        return [first + f" (the only move).{why}"]
    others = ", ".join(f"{label(moves[i], short=True)} {words(i)}" for i in order[:OTHERS])
    more = f" (and {len(order) - OTHERS} more)" if len(order) > OTHERS else ""
    return [first + f".{why}", f"Next best: {others}{more}."]
