"""House rules for Fences: small plugins that change one rule each.

A rule set turns them on with ``house_rules: [name, ...]``; they are
registered by the Fences plugin module and refused for any other variant.

A house rule holds no rule options of its own and cannot see the variant's,
so neither rewrites the variant's answers.  Each wraps
``treehouse_turn_steps`` and turns one switch of the steps it returns
(:class:`~treehouse.variants.fences.game.FencesStep`); the variant reads the
switch where the rule lives, so the rule keeps one code path with or
without the house rule, and every other rule option still applies.  The
switched steps reach every hook that takes a step (the engine and the
looking-ahead bots get the steps from this hook), and the two rules compose.
"""

from __future__ import annotations

from treehouse.hookspecs import hookimpl
from treehouse.variants.fences.evaluate import evaluate
from treehouse.variants.fences.game import switched


class StepSwitch:
    """A house rule that turns switches of every step the variant gives
    (``switches``: :class:`~treehouse.variants.fences.game.FencesStep`
    field -> value)."""

    name: str
    switches: dict[str, bool] = {}

    @hookimpl(wrapper=True)
    def treehouse_turn_steps(self, state):
        steps = yield
        return tuple(switched(step, **self.switches) for step in steps)


class DigRestoresAny(StepSwitch):
    """A Dig may put back any destroyed small at any height, not only under a lone small."""

    name = "dig-restores-any"
    switches = {"dig_restores_any": True}


class NoColourImmunity(StepSwitch):
    """Every Hit Damages: a top colour matching the Fence or Stack no longer protects."""

    name = "no-colour-immunity"
    switches = {"colour_immunity": False}

    @hookimpl(tryfirst=True)
    def treehouse_evaluate(self, state, seat):
        """The bots' score, with no Fence of the top colour counted as a shield."""
        return evaluate(state, seat, colour_immunity=False)


HOUSE_RULES = (DigRestoresAny(), NoColourImmunity())
