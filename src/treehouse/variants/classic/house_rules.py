"""House rules for classic Treehouse: small plugins that change one rule each.

A rule set turns them on with ``house_rules: [name, ...]``.  Each is
registered as a factory (a class taking ``(variant, options)``), so the
plugin a game gets sees that game's rules.
"""

from __future__ import annotations

from treehouse.hookspecs import hookimpl
from treehouse.kernel.engine import Control
from treehouse.variants.classic.game import HOUSE_TARGET, outcome


class MirrorMatches:
    """A left-right mirror image of the House wins too (like the option mirror_matches: true)."""

    def __init__(self, variant, options) -> None:
        self.variant = variant

    @hookimpl(tryfirst=True)
    def treehouse_outcome(self, state, mover):
        return outcome(state, mover, mirror_matches=True)


class NoHouseMoves:
    """Nobody may change the House: a roll that fits only the House is rolled again.

    It filters moves by their ``target`` (classic's moves say whether they act
    on the House); it is declared for classic, the variant with a House.
    """

    def __init__(self, variant, options) -> None:
        pass

    @hookimpl(wrapper=True)
    def treehouse_legal_moves(self, state, step, face):
        moves = yield
        kept = tuple(m for m in moves if getattr(m, "target", None) != HOUSE_TARGET)
        if len(kept) == len(moves):
            return moves  # nothing acts on the House (or the variant has none): unchanged
        # Declining exists only to turn down the House, so it goes with it.
        return tuple(m for m in kept if not isinstance(m, Control))


def register_house_rules(register) -> None:
    """Register classic's house rules (called by the classic plugin module)."""
    register("mirror-matches", MirrorMatches, variants="classic", description=MirrorMatches.__doc__.splitlines()[0])
    # A rule about the House: it fits classic (the variant with a House), so it is
    # neither offered for Fences nor played there by the conformance kit.
    register("no-house-moves", NoHouseMoves, variants="classic", description=NoHouseMoves.__doc__.splitlines()[0])
