"""The entry-point module of classic Treehouse (``treehouse.variants.classic.plugin``):
the variant, its house rules, and the ``perfect`` bot that plays two-player
classic from the exact table (variants/classic/solver.py, perfect.py)."""

from treehouse.hookspecs import hookimpl
from treehouse.variants.classic.game import Classic
from treehouse.variants.classic.house_rules import register_house_rules


@hookimpl
def treehouse_register_variants(register):
    register(Classic)


@hookimpl
def treehouse_register_house_rules(register):
    register_house_rules(register)


def perfect():
    """The perfect bot (two-player classic only; no options)."""
    from treehouse.variants.classic.perfect import PerfectBot

    return PerfectBot()


def _perfect_ready(variant, players) -> bool:
    from treehouse.variants.classic.perfect import PerfectBot

    return PerfectBot.ready(variant, players)


def _perfect_prepare(variant, players, announce, progress=None) -> None:
    """Solve and cache the table the bot will need, if it is not cached yet:
    ``announce(message)`` first, then ``progress(sweep, change)`` during the solve."""
    from treehouse.variants.classic.solver import solve_classic, table_path

    if not isinstance(variant, Classic) or players != 2 or _perfect_ready(variant, players):
        return  # nothing to solve: a table is cached, or the bot plays as search here
    announce(f"no solved table for these rules yet: solving it now, once (it is saved to {table_path(variant.rules)})")
    solve_classic(variant.rules, progress=progress)


def _perfect_offer(variant, players) -> str | None:
    """What th play's first screen says when this game has a table to make and it is not made yet."""
    from treehouse.variants.classic.perfect import SOLVE_TIME, PerfectBot

    if not PerfectBot.solvable(variant, players) or PerfectBot.ready(variant, players):
        return None
    return (
        "The perfect bot and exact hints (each move's winning chance) come with the solved table:"
        f" th solve makes it ({SOLVE_TIME}). Until then the search bot plays and hints."
    )


def _tolerance() -> float:
    from treehouse.variants.classic.solver import DEFAULT_TOLERANCE

    return DEFAULT_TOLERANCE


perfect.ready = _perfect_ready  # th play seats it by default only when its table is cached
perfect.prepare = _perfect_prepare  # th play runs it first, with the solve's progress on screen
perfect.offer = _perfect_offer  # th play's first screen says what solving brings, and offers to start it
_perfect_prepare.tolerance = _tolerance  # what the solve's progress bar counts down to


@hookimpl
def treehouse_register_bots(register):
    register("perfect", perfect, "two-player classic from the exact solved table (th solve)", strength=30)
