"""Fixtures for the bot tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def solved_classic(classic_class):
    """The exact table of two-player classic under its default rules, solved
    once per test session into the session's private cache (about 2 minutes),
    where the perfect bot and the luck-adjusted matches find it."""
    from treehouse.bots.solver import solve_classic

    return solve_classic(classic_class().rules)
