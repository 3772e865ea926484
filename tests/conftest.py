"""Shared fixtures: the installed plugins, found through the entry-point group as a user's would be."""

from __future__ import annotations

import pytest

from treehouse.plugins import load_plugins


@pytest.fixture(scope="session")
def plugins():
    return load_plugins()


@pytest.fixture(scope="session")
def classic_class(plugins):
    return plugins.variant("classic")


@pytest.fixture
def classic(classic_class):
    return classic_class()


@pytest.fixture(scope="session")
def random_bot(plugins):
    return plugins.bot("random").factory
