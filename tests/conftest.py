"""Shared fixtures: the installed plugins, found through the entry-point group as a user's would be."""

from __future__ import annotations

import os

import pytest

from treehouse.plugins import load_plugins


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory):
    """Tests never see (or write) the user's cache of solved tables: what a
    test does must not depend on whether this machine ran ``th solve``."""
    if os.environ.get("TREEHOUSE_SLOW_TESTS"):
        yield  # the slow tests may reuse the real cached table
        return
    previous = os.environ.get("TREEHOUSE_CACHE_DIR")
    os.environ["TREEHOUSE_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if previous is None:
        del os.environ["TREEHOUSE_CACHE_DIR"]
    else:
        os.environ["TREEHOUSE_CACHE_DIR"] = previous


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


@pytest.fixture(scope="session")
def solved_classic(classic_class):
    """The exact table of two-player classic under its default rules, solved
    once per test session into the session's private cache (about 30 s of CPU),
    where the perfect bot and the luck-adjusted matches find it."""
    from treehouse.variants.classic.solver import solve_classic

    return solve_classic(classic_class().rules)
