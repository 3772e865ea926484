"""The classic rules tests run on both tiers of rules."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def both_tiers(rules_tier):
    """Every rules test here runs on the compiled core and on the reference rules (tests/conftest.py)."""
    return rules_tier
