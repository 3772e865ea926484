"""Which rules tier a process uses, and how the compiled core is prepared (docs/rules/tiers.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from treehouse.cli.app import app
from treehouse.kernel.fast import compiled

#: Run treehouse's CLI with numba made unimportable (as on a machine where it cannot be installed).
WITHOUT_NUMBA = "import sys; sys.modules['numba'] = None; from treehouse.cli import main; sys.argv = ['th', *sys.argv[1:]]; main()"
#: Run treehouse's CLI as it is.
CLI = "import sys; from treehouse.cli import main; sys.argv = ['th', *sys.argv[1:]]; main()"
SIMULATE = ["simulate", "--variant", "fences", "--seat", "greedy", "--seat", "search", "--games", "2", "--seed", "3", "--json"]


def run(code: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    """``code`` in a fresh process with the core wanted (whatever this run's TREEHOUSE_COMPILED says)."""
    inherited = {key: value for key, value in os.environ.items() if key != compiled.COMPILED_ENV}
    return subprocess.run([sys.executable, "-c", code, *args], env={**inherited, **env}, capture_output=True, text=True, timeout=600)


@pytest.fixture
def fresh_tier(monkeypatch):
    monkeypatch.delenv(compiled.COMPILED_ENV, raising=False)
    compiled.reset_for_tests()
    yield monkeypatch
    compiled.reset_for_tests()


@pytest.mark.parametrize("value, words", [("0", "rules: reference tier (TREEHOUSE_COMPILED=0)"), ("off", "rules: reference tier (TREEHOUSE_COMPILED=off)"), ("1", "rules: compiled core (numba ")])
def test_th_version_says_which_tier_is_in_use(fresh_tier, value, words):
    from typer.testing import CliRunner

    fresh_tier.setenv(compiled.COMPILED_ENV, value)
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert words in result.output


def test_without_numba_one_line_says_the_reference_tier_is_in_use_and_the_games_are_the_same():
    wanted = {compiled.COMPILED_ENV: "1"}  # the core asked for from the first look (two games may be too short to load it)
    without = run(WITHOUT_NUMBA, *SIMULATE, **wanted)
    assert without.returncode == 0, without.stderr
    lines = [line for line in without.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "numba cannot be imported" in lines[0] and "the reference rules are in use" in lines[0], lines
    with_core = run(WITHOUT_NUMBA.replace("sys.modules['numba'] = None; ", ""), *SIMULATE, **wanted)
    assert with_core.returncode == 0, with_core.stderr
    reports = [json.loads(done.stdout) for done in (without, with_core)]
    for report in reports:
        report.pop("seconds")
    assert reports[0] == reports[1]
    version = run(WITHOUT_NUMBA, "--version")
    assert "rules: reference tier (numba cannot be imported" in version.stdout


@pytest.mark.parametrize("first", ["from treehouse.variants.fences.fast import core", "import numba; from treehouse.variants.fences.fast import core"])
def test_a_core_imported_directly_keeps_its_kernels_in_the_users_cache_folder(tmp_path, first):
    """A script, a test or a plugin may import a core's module before anything
    asked :func:`compiled.enabled` (and numba itself, even before that): the
    kernels still go to treehouse's cache folder, never to the package's own
    ``__pycache__``."""
    inherited = {key: value for key, value in os.environ.items() if key not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    code = f"{first}; print(core.look._cache._cache_path)"
    done = subprocess.run([sys.executable, "-c", code], env={**inherited, "XDG_CACHE_HOME": str(tmp_path)}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith(str(tmp_path / "treehouse" / "numba")), done.stdout


def test_preparing_in_the_background_runs_in_a_daemon_thread_and_keeps_a_failure_for_the_first_look():
    ran = threading.Event()
    thread = compiled.prepare_in_background(ran.set)
    thread.join(10)
    assert ran.is_set() and thread.daemon

    def broken() -> None:
        raise RuntimeError("no compiler here")

    failing = compiled.prepare_in_background(broken)
    failing.join(10)
    assert not failing.is_alive()  # it ended quietly: the first look meets the failure and reports it


def test_th_play_prepares_the_core_in_the_background_when_a_bot_sits_down(monkeypatch, plugins):
    from treehouse.cli import seats

    started = []
    monkeypatch.setattr(compiled, "prepare_in_background", started.append)
    variant = plugins.variant("fences")(plugins.variant("fences").Rules())
    seats.prepare_bots(variant, ["human", "search"])
    assert started == [variant.prepare_compiled]
    seats.prepare_bots(variant, ["human", "human"])
    assert len(started) == 1  # nobody looks ahead: nothing to prepare


def test_preparing_leaves_the_cores_ready(plugins):
    if not compiled.enabled():
        pytest.skip("the compiled core is off here")
    for name in ("fences", "classic"):
        cls = plugins.variant(name)
        cls(cls.Rules()).prepare_compiled()
        assert compiled.ready(name)


def _a_decision(plugins, name):
    """A variant bound to its game's hooks, and a position, step and face a bot decides at, with its moves."""
    import random

    from treehouse.bots.random_bot import RandomBot
    from treehouse.kernel.engine import Control, Game
    from treehouse.plugins import game_hooks

    cls = plugins.variant(name)
    variant = game_hooks(cls(cls.Rules())).variant
    seen = []

    class Watching(RandomBot):
        def choose(self, state, step, face, moves, rng):
            if not step.setup and len([m for m in moves if not isinstance(m, Control)]) > 1:
                seen.append((state, step, face, tuple(m for m in moves if not isinstance(m, Control))))
            return super().choose(state, step, face, moves, rng)

    Game(variant, [Watching(), Watching()], random.Random(4), turn_cap=6).play()
    return variant, seen[-1]


@pytest.mark.parametrize("name", ["fences", "classic"])
def test_while_the_core_is_prepared_in_the_background_the_hooks_answer_the_looks(plugins, fresh_tier, name):
    """th play's first decisions never wait for a cold compile: until the
    background preparation is done the variant leaves its looks to the hooks
    (the same values), then answers them on the core."""
    from treehouse.kernel.turn import look_moves

    variant, (state, step, face, moves) = _a_decision(plugins, name)
    release = threading.Event()
    thread = compiled.prepare_in_background(release.wait)
    try:
        assert compiled.preparing()
        assert variant.treehouse_look_moves(state, step, face, moves, 0) is None
        assert variant.treehouse_look_all_moves(state, step, (face,), 0) is None
        assert variant.hooks.treehouse_look_moves(state, step, face, moves, 0) == look_moves(variant.hooks, state, step, moves, 0)
    finally:
        release.set()
        thread.join(10)
    assert not compiled.preparing()
    looked = variant.treehouse_look_moves(state, step, face, moves, 0)
    assert looked is not None and list(looked.values) == list(look_moves(variant.hooks, state, step, moves, 0).values)


def test_a_core_waits_only_while_th_play_prepares_it_in_the_background(fresh_tier):
    release = threading.Event()
    assert not compiled.waiting("example")
    thread = compiled.prepare_in_background(release.wait)
    try:
        assert compiled.waiting("example")
        compiled._kernels["example"] = object()
        assert not compiled.waiting("example")  # prepared: nothing to wait for
    finally:
        release.set()
        thread.join(10)


def test_loading_every_installed_plugin_and_a_random_seat_playtest_import_neither_numpy_nor_numba():
    """The start of every ``th`` command: numpy and numba are for looks,
    learners and long playtests, imported where they are used (an example
    house rule once imported numpy for its observation: 0.2 s and 10 MB at
    every command's start)."""
    code = (
        "import sys; from treehouse.plugins import load_plugins; plugins = load_plugins(); "
        "assert 'fences-house-rules' in plugins.loaded, sorted(plugins.loaded); "
        "from typer.testing import CliRunner; from treehouse.cli import app; "
        "done = CliRunner().invoke(app, ['simulate', '--variant', 'classic', '--games', '20', '--json']); assert done.exit_code == 0, done.output; "
        "print(sorted(name for name in ('numpy', 'numba') if name in sys.modules))"
    )
    done = run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


TEMPLATE = """
from numba import njit

@njit(inline="always")
def body(kernel, x):
    return kernel(x) + {added}
"""
BINDING = """
from treehouse.kernel.fast.compiled import njit_cached
from template import body

AHEAD_OF_TIME = {"bound": "i8(i8)"}

@njit_cached
def inc(x):
    return x + 1

@njit_cached
def bound(x):
    return body(inc, x)
"""
PREPARE = """
import sys
from treehouse.kernel.fast import compiled
compiled.enabled()
sources = [sys.argv[1] + "/template.py", sys.argv[1] + "/binding.py"]
kernels = compiled.kernels("bound", "binding", sources, 1, lambda kernels: kernels.bound(1))
print(kernels.bound(1))
"""


@pytest.mark.parametrize("way", ["ahead of time", "just in time"])
def test_a_kernel_bound_to_a_changed_template_is_compiled_again_not_loaded_stale(tmp_path, way):
    """A core is built again when any of its sources changes, not only its
    own file, and going back to older sources never loads the code built for
    newer ones.  Just in time this needs care: numba checks only a kernel's
    own file, so the binding of the search or the playout (inlined from
    generic code in other files) would load its old code after a change to
    the template alone; its cached code is dropped at the first preparation
    for new sources."""
    code, cache = tmp_path / "code", tmp_path / "cache"
    code.mkdir()
    (code / "binding.py").write_text(BINDING)
    env = {
        "NUMBA_CACHE_DIR": str(cache),
        "PYTHONPATH": os.pathsep.join([str(code), *filter(None, [os.environ.get("PYTHONPATH")])]),  # and the treehouse this run imports
        "CFLAGS": "-O0 -g0",  # numba's own helper C code unoptimized, as in test_cache_faults.py: the same build, quicker
    }
    if way == "just in time":
        env["CC"] = str(tmp_path / "no-such-cc")

    def prepared(added: int) -> subprocess.CompletedProcess:
        (code / "template.py").write_text(TEMPLATE.format(added=added))
        return run(PREPARE, str(code), **env)

    first = prepared(10)
    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == ["12"] and "preparing the compiled rules of bound" in first.stderr
    again = prepared(10)
    assert again.stdout.split() == ["12"] and again.stderr == ""  # warm: loaded from the cache
    changed = prepared(100)
    assert changed.returncode == 0, changed.stderr
    assert changed.stdout.split() == ["102"], "the binding's code cached for the old template was loaded"
    back = prepared(10)
    assert back.stdout.split() == ["12"], "going back to the old template loaded the code cached for the new one"
    if way == "just in time":
        assert len(list(cache.glob("bound-*.ready"))) == 1
    else:
        assert len(list((cache / "ahead").glob("treehouse_bound_*"))) == 2  # the two templates' builds, both kept


@pytest.mark.parametrize("variant", ["classic", "fences"])
def test_a_cores_sources_name_every_file_its_kernels_compile_in(variant):
    """A core is built again when one of its sources changes, so they must
    name every file whose code or constants its kernels compile in: each
    source that imports numba takes names only from other sources (or from
    treehouse.kernel.fast.compiled, which only decorates)."""
    import ast
    import importlib
    import importlib.util
    from pathlib import Path

    looks = importlib.import_module(f"treehouse.variants.{variant}.fast.looks")
    package = Path(compiled.__file__).parent.parent.parent  # the treehouse package
    sources = {Path(source).resolve() for source in looks.SOURCES}
    assert Path(importlib.util.find_spec(looks.CORE).origin).resolve() in sources
    for source in sources:
        tree = ast.parse(source.read_text())
        imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module]
        if not any(name == "numba" or name.startswith("numba.") for name in imported):
            continue  # not a kernel module: its constants are read through those that are
        for name in imported:
            if name.startswith("treehouse.") and name != "treehouse.kernel.fast.compiled":
                assert (package.parent / (name.replace(".", "/") + ".py")).resolve() in sources, f"{source.name} reads {name}, not among {variant}'s sources"


@pytest.mark.parametrize("given, kept", [(None, "1"), ("4", "4")])
def test_th_keeps_openblas_to_one_thread_unless_the_user_set_it(monkeypatch, given, kept):
    """numpy's idle OpenBLAS threads spin after its import (about 0.1 s of CPU
    each, one per further CPU); th's processes do no linear algebra."""
    import importlib

    app_module = importlib.import_module("treehouse.cli.app")

    if given is None:
        monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", given)
    seen = []
    monkeypatch.setattr(app_module, "app", lambda: seen.append(os.environ.get("OPENBLAS_NUM_THREADS")))
    app_module.main()
    assert seen == [kept]
