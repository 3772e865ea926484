"""Fixtures for the bot tests: Fences with its evaluation wired in as a small plugin."""

from __future__ import annotations

import pytest

from treehouse.hookspecs import hookimpl
from treehouse.plugins import game_hooks
from treehouse.variants.fences.evaluate import evaluate


class FencesEvaluate:
    """treehouse_evaluate for Fences, until the variant answers it itself."""

    name = "fences-evaluate"

    @hookimpl
    def treehouse_evaluate(self, state, seat):
        return evaluate(state, seat)


@pytest.fixture(scope="session")
def fences_game(plugins):
    variant = plugins.variant("fences")()
    has_own = hasattr(type(variant), "treehouse_evaluate")
    hooks = game_hooks(variant) if has_own else game_hooks(variant, house_rules=[FencesEvaluate()])
    return variant, hooks
