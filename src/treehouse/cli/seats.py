"""Who sits in each seat of ``th play`` (and ``th serve``): a person or a bot, and the bots made ready.

The default seat is the strongest bot ready for the game (``best_bot``); a
stronger one that is not ready says what readies it in its own words (its
factory's ``offer``: ``perfect`` and ``th solve``), and one that needs
preparing first (``prepare``) shows its progress rather than freeze.
"""

from __future__ import annotations

import textwrap
from typing import Any

from rich.console import Console

from treehouse.bots.options import BotOptionError, bot_name, check_bot_spec, make_bot
from treehouse.cli.common import err, out, plugins
from treehouse.cli.human import HumanSeat
from treehouse.errors import TreehouseError, unknown
from treehouse.kernel.resume import HUMAN

def default_variant(reads: str | None = None) -> str:
    """The variant a command starts when none is named: the installed one of
    the highest ``default_rank`` (ties by name); with ``reads``, the highest
    whose notation reads that position (``th show 'L< S^ M>'``), and where
    none does, one line with each one's refusal."""
    loaded = plugins()
    ranked = sorted(loaded.variants.values(), key=lambda cls: (-cls.default_rank, cls.name))
    if not ranked:
        raise TreehouseError("no variant is installed: pip install a plugin that registers one")
    if reads is not None:
        refusals = []
        for cls in ranked:
            try:
                cls().render_text(reads)  # reads what th show reads: a whole position or a piece of one
            except TreehouseError as refusal:  # the notation's refusal: try the next variant
                refusals.append(f"{cls.name}: {refusal}")
                continue
            except Exception:  # it read the position, and a plugin failed drawing it: the command says so
                pass
            return cls.name
        raise TreehouseError(f"no installed variant reads {reads!r} (name one with --variant): {'; '.join(sorted(refusals, key=len))}")
    return ranked[0].name


def best_bot(variant: Any = None, players: int = 2) -> str:
    """The strongest registered bot that is ready for this game (ties: the first
    by name).  A bot factory may say it is not ready with ``ready(variant,
    players)``: ``perfect`` is ready only once ``th solve`` has cached its table."""
    bots = sorted(plugins().bots.values(), key=lambda info: info.name)
    bots = [info for info in bots if variant is None or getattr(info.factory, "ready", lambda v, n: True)(variant, players)]
    if not bots:
        raise TreehouseError("no bot is installed, so every seat must be --seat human")
    return max(bots, key=lambda info: info.strength).name

def seat_kind(text: str) -> str:
    """``human``, or a bot spec checked and in canonical form (``search(depth=2)``)."""
    if text.strip().lower() == HUMAN:
        return HUMAN
    try:
        name = bot_name(text)
    except BotOptionError:
        name = None  # check_bot_spec says what is wrong with it
    if name is not None and name not in plugins().bots:
        raise unknown("seat kind", name, {HUMAN, *plugins().bots})
    return check_bot_spec(plugins(), text)

def seat_kinds(variant: Any, players: int | None, kinds: list[str], watch: bool, bot: str | None = None) -> list[str]:
    """The kind of every seat: the ones given, then seat 1 human (not with --watch),
    then ``bot`` (a spec) or else the best bot."""
    kinds = [seat_kind(kind) for kind in kinds]
    filler = check_bot_spec(plugins(), bot) if bot is not None else None
    if watch and HUMAN in kinds:
        raise TreehouseError("--watch seats bots only; leave out --seat human (or --watch)")
    lo, hi = variant.player_range()
    count = players if players is not None else max(len(kinds), variant.default_players)
    if not lo <= count <= hi:
        raise TreehouseError(f"{variant.name} is played by {lo} to {hi} players, not {count}")
    if len(kinds) > count:
        raise TreehouseError(f"{len(kinds)} --seat options for {count} players; give at most one per player")
    if not kinds and not watch:
        kinds = [HUMAN]
    while len(kinds) < count:
        kinds.append(filler or best_bot(variant, count))
    return kinds

def prepare_bots(variant: Any, kinds: list[str]) -> None:
    """Let a bot that is not ready for this game (``perfect`` with no solved table)
    prepare before play starts: say so, and show its progress rather than freeze."""
    from treehouse.cli.solving import solve_progress
    from treehouse.kernel.fast.compiled import prepare_in_background

    if any(kind != HUMAN for kind in kinds):
        prepare_in_background(variant.prepare_compiled)  # no prompt or bot's decision waits for a compile
    for name in dict.fromkeys(bot_name(kind) for kind in kinds if kind != HUMAN):
        factory = plugins().bots[name].factory
        prepare = getattr(factory, "prepare", None)
        if prepare is None:
            continue
        tolerance = getattr(prepare, "tolerance", None)  # a solve's progress counts down to it; without one, no bar
        with solve_progress(tolerance() if tolerance else 0.0, quiet=tolerance is None) as progress:
            prepare(variant, len(kinds), lambda message, name=name: err.print(f"{name}: {message}", markup=False), progress)

def offer_to_prepare(variant: Any, players: int, ask: bool) -> bool:
    """Say what a stronger bot that is not ready for this game needs, in its own words
    (``offer(variant, players)`` on its factory: ``perfect`` and its exact hints come
    with ``th solve``), and with ``ask`` offer to prepare it now.  True when it was."""
    for info in sorted(plugins().bots.values(), key=lambda info: (-info.strength, info.name)):
        offer = getattr(info.factory, "offer", None)
        words = offer(variant, players) if offer is not None else None
        if not words:
            continue
        for line in textwrap.wrap(words, min(out.width, 80)):
            out.print(line, markup=False, soft_wrap=True)
        if not ask:
            return False
        try:
            answer = out.input("Start it now? (y and Enter: yes; Enter: play without it) ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            return False
        prepare_bots(variant, [info.name] * players)
        return True
    return False

def build_seat(kind: str, table: Any, console: Console, humans: int, index: int) -> Any:
    if kind == HUMAN:
        prompt = "Your move" if humans == 1 else f"Player {index + 1}, your move"
        return HumanSeat(table, console, prompt)
    return make_bot(plugins(), kind)
