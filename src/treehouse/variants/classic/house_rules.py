"""House rules for classic Treehouse: small plugins that change one rule each.

A rule set turns them on with ``house_rules: [name, ...]``; they are
registered by the classic plugin module and refused for any other variant.
"""

from __future__ import annotations

from treehouse.hookspecs import hookimpl
from treehouse.kernel.engine import Control
from treehouse.variants.classic.game import HOUSE_TARGET, outcome


class MirrorMatches:
    """A left-right mirror image of the House wins too (like the option mirror_matches: true)."""

    name = "mirror-matches"

    @hookimpl(tryfirst=True)
    def treehouse_outcome(self, state, mover):
        return outcome(state, mover, mirror_matches=True)


class NoHouseMoves:
    """Nobody may change the House: a roll that fits only the House is rolled again."""

    name = "no-house-moves"

    @hookimpl(wrapper=True)
    def treehouse_legal_moves(self, state, step, face):
        moves = yield
        # Declining exists only to turn down the House, so it goes with it.
        return tuple(m for m in moves if not isinstance(m, Control) and m.target != HOUSE_TARGET)


HOUSE_RULES = (MirrorMatches(), NoHouseMoves())
