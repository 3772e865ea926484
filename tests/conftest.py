"""Shared fixtures: the installed plugins, found through the entry-point group as a user's would be."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from treehouse.plugins import load_plugins

#: The example packages a test may need (``@pytest.mark.example("fences-house-rules")``),
#: by folder under examples/ and the distribution it installs.
EXAMPLES = {"pyramid-race": "treehouse-pyramid-race", "fences-house-rules": "treehouse-fences-house-rules"}


def pytest_configure(config):
    config.addinivalue_line("markers", "example(name, ...): the test needs the example package examples/<name> installed")


def pytest_runtest_setup(item):
    """A test that needs an example package not installed fails at once
    saying which to install, not deep inside a game with an unknown name."""
    import importlib.metadata

    for marker in item.iter_markers("example"):
        for name in marker.args:
            try:
                importlib.metadata.distribution(EXAMPLES[name])
            except importlib.metadata.PackageNotFoundError:
                pytest.fail(f"this test needs the example package {name}: pip install -e ./examples/{name} (the README's test command installs both)", pytrace=False)


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


@pytest.fixture(autouse=True)
def environment_restored():
    """No test leaves the environment changed for the next: a command run in
    this process (Typer's runner) may set variables its worker processes
    read (``th --plugins-dir`` sets ``TREEHOUSE_PLUGINS_DIR``), and a later
    test's ``th`` process would load those plugins too."""
    saved = dict(os.environ)
    yield
    if os.environ != saved:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(scope="session")
def plugins():
    return load_plugins()


@pytest.fixture(params=["core", "reference"])
def rules_tier(request, monkeypatch):
    """The rules tier a test runs on (docs/rules/tiers.md): the compiled core,
    or the reference rules alone (``TREEHOUSE_COMPILED=0``).  The Fences and
    classic rules tests use it for every test, so each runs on both; the
    differential tests (test_tiers.py, test_compiled_search.py) compare the two in one run instead."""
    from treehouse.kernel.fast import compiled

    if request.param == "reference":
        if request.module.__name__.endswith(("test_tiers", "test_compiled_search")):
            pytest.skip("compares both tiers in one run")
        monkeypatch.setenv(compiled.COMPILED_ENV, "0")
    else:
        monkeypatch.delenv(compiled.COMPILED_ENV, raising=False)  # the core, where numba can be imported
    compiled.reset_for_tests()
    yield request.param
    compiled.reset_for_tests()


@pytest.fixture
def compiled_core(monkeypatch):
    """The compiled core on, whatever the environment says (tests of the core
    itself, or of both tiers compared in one run)."""
    from treehouse.kernel.fast import compiled
    from treehouse.kernel.hooks import TRACE_ENV

    monkeypatch.delenv(compiled.COMPILED_ENV, raising=False)
    monkeypatch.delenv(TRACE_ENV, raising=False)
    compiled.reset_for_tests()
    yield
    compiled.reset_for_tests()


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


@pytest.fixture
def at_once():
    """``at_once(f, g, ...)``: call the functions in threads at once, the
    interpreter switching between them as often as it can, so that a race
    shows up in a test run rather than at a ``th serve`` table."""

    def run(*work) -> None:
        interval = sys.getswitchinterval()
        sys.setswitchinterval(1e-6)
        try:
            threads = [threading.Thread(target=function) for function in work]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            sys.setswitchinterval(interval)

    return run
