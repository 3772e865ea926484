"""Fixtures for the Fences tests: the variant found through the entry point,
and builders for scenario positions written in Fences notation
(:mod:`treehouse.variants.fences.scenario`)."""

from __future__ import annotations

import pytest

from treehouse.kernel.engine import play_move
from treehouse.variants.fences.scenario import complete


@pytest.fixture(scope="session")
def fences_class(plugins):
    return plugins.variant("fences")


@pytest.fixture
def fences(fences_class):
    return fences_class()


@pytest.fixture
def pos(fences):
    """Build and parse a scenario position: ``pos(rows, stacks=..., ...)``."""

    def build(rows, **kwargs):
        return fences.parse_position(complete(rows, **kwargs))

    return build


@pytest.fixture
def play(fences):
    """Apply and resolve one move of one step: ``play(state, step, move_text)``."""

    def run(state, step, move, variant=None):
        variant = variant or fences
        if isinstance(move, str):
            move = variant.parse_move(move)
        return play_move(variant, state, step, move)[0]

    return run


@pytest.fixture(autouse=True)
def both_tiers(rules_tier):
    """Every rules test here runs on the compiled core and on the reference rules (tests/conftest.py)."""
    return rules_tier
