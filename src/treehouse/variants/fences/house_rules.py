"""House rules for Fences: small plugins that change one rule each.

A rule set turns them on with ``house_rules: [name, ...]``.  Each is
registered as a factory (a class taking ``(variant, options)``): the plugin
a game gets holds that game's variant object, so it reads the rule options
in force (``variant.rules``) and asks the variant for the rest of the rules
unchanged.  Both compose with each other and with every rule option.
"""

from __future__ import annotations

from treehouse.hookspecs import hookimpl
from treehouse.variants.fences.hits import JudgedBySource, Verdict
from treehouse.variants.fences.rules import action_moves


class DigRestoresAny:
    """A Dig may put back any destroyed small at any height, not only under a lone small."""

    def __init__(self, variant, options) -> None:
        self.variant = variant

    @hookimpl(tryfirst=True)
    def treehouse_legal_moves(self, state, step, face):
        seat = state.to_move
        if step.name != "act" or not state.stacks[seat]:
            return None  # the variant's own answer
        return action_moves(state, seat, face, self.variant.rules.uniform_dig, dig_restores_any=True)

    @hookimpl(tryfirst=True)
    def treehouse_explain_illegal(self, state, step, face, move, moves):
        """Why a typed move is not legal, with this rule's Digs in mind."""
        from treehouse.variants.fences.explain import why_illegal

        return why_illegal(state, step, face, move, moves, self.variant.rules, restores_any=True)


class NoColourImmunity(JudgedBySource):
    """Every Hit Damages: a top colour matching the Fence or Stack no longer protects."""

    def verdict(self, size, cause):
        """Every Hit stands as a Hit that ignores colour (the bots' evaluation asks the same hook)."""
        return Verdict.IGNORES_COLOUR


def register_house_rules(register) -> None:
    """Register Fences' house rules (called by the Fences plugin module)."""
    for name, factory in (("dig-restores-any", DigRestoresAny), ("no-colour-immunity", NoColourImmunity)):
        register(name, factory, variants="fences", description=factory.__doc__.splitlines()[0])
