"""The cache of compiled rules never stops a game (docs/rules/tiers.md).

Fault drills: a truncated module, a full or read-only cache folder, a C
compiler missing and then back, a build killed or stopped.  Each gives the
reference tier's games (the same JSON), exit 0, one line at most, and
writes nothing outside the cache folder.  Builds are slow, so the drills
share one cold build of classic (the smaller core), use a one-kernel core
for the build's own mechanics, and let one build serve several drills
where it can; numba's own helper C code is compiled unoptimized
(:data:`QUICK_C`)."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from treehouse.kernel.fast import ahead, compiled

CLI = "import sys; from treehouse.cli import main; sys.argv = ['th', *sys.argv[1:]]; main()"
#: Games that load classic's core from the first look.
GAMES = ["simulate", "--variant", "classic", "--seat", "search", "--seat", "search", "--games", "3", "--seed", "4", "--json"]
PACKAGE = Path(compiled.__file__).resolve().parent.parent.parent  # the treehouse package

TINY = """
from treehouse.kernel.fast.compiled import njit_cached

AHEAD_OF_TIME = {"add": "i8(i8, i8)"}

@njit_cached
def add(a, b):
    return a + b
"""
#: Prepare the one-kernel core and say how it came: ahead of time, just in time, or not at all.
PREPARE_TINY = """
import sys
from treehouse.kernel.fast import compiled
compiled.enabled()
kernels = compiled.kernels("tiny", "tiny", [sys.argv[1] + "/tiny.py"], 1, lambda k: k.add(1, 2))
print("none" if kernels is None else ("just in time" if hasattr(kernels.add, "py_func") else "ahead of time"), kernels.add(2, 3) if kernels else "")
"""


#: numba's own helper C code in every build here compiled unoptimized: the
#: same build, checksum, lock and sweep, about 1.7 s quicker a build.
QUICK_C = {"CFLAGS": "-O0 -g0"}


def inherited() -> dict[str, str]:
    """This process's environment, less what the drills set themselves, with :data:`QUICK_C`."""
    return {key: value for key, value in os.environ.items() if key not in (compiled.COMPILED_ENV, "NUMBA_CACHE_DIR", "CC")} | QUICK_C


def run(code: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    """``code`` in a fresh process, the core wanted from the first look, its
    homes in ``env`` (the cache folder above all)."""
    return subprocess.run([sys.executable, "-c", code, *args], env={**inherited(), compiled.COMPILED_ENV: "1", **env}, capture_output=True, text=True, timeout=600)


def report(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    found.pop("seconds")
    return found


def lines(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.strip()]


def numba_files(root: Path) -> set[Path]:
    return {*root.rglob("*.nbi"), *root.rglob("*.nbc")}


@pytest.fixture(scope="module")
def reference():
    """The games on the reference rules, as the drills must give them."""
    return report(run(CLI, *GAMES, **{compiled.COMPILED_ENV: "0"}))


@pytest.fixture(scope="module")
def classic_build(tmp_path_factory):
    """A cache folder in which two processes at once built classic's core:
    one built it and said so, the other waited and loaded that build."""
    cache = tmp_path_factory.mktemp("classic-build")
    prepare = "from treehouse.plugins import load_plugins; cls = load_plugins().variant('classic'); cls(cls.Rules()).prepare_compiled()"
    started = [
        subprocess.Popen([sys.executable, "-c", prepare], env={**inherited(), "NUMBA_CACHE_DIR": str(cache)}, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    said = [process.communicate(timeout=600)[1] for process in started]
    assert [process.returncode for process in started] == [0, 0], said
    assert sum("preparing the compiled rules of classic, once" in words for words in said) == 1, said
    assert all(len(words.splitlines()) <= 1 for words in said), said
    return cache


def test_processes_that_need_a_core_at_once_build_it_once(classic_build):
    modules = list((classic_build / "ahead").glob("treehouse_classic_*"))
    assert len(modules) == 1 and ahead.whole(modules[0])


def test_a_warm_cache_loads_the_core_without_numba_and_th_version_says_so(classic_build, tmp_path):
    cache = tmp_path / "cache"
    shutil.copytree(classic_build, cache)
    prepare = "import sys; from treehouse.plugins import load_plugins; cls = load_plugins().variant('classic'); cls(cls.Rules()).prepare_compiled(); print('numba' in sys.modules)"
    warm = run(prepare, NUMBA_CACHE_DIR=str(cache))
    assert warm.returncode == 0 and warm.stderr == "", warm.stderr
    assert warm.stdout.split() == ["False"]
    version = run(CLI, "--version", NUMBA_CACHE_DIR=str(cache))
    assert "compiled core (numba " in version.stdout and "compiled ahead of time" in version.stdout, version.stdout


def _module(cache: Path) -> Path:
    (found,) = (cache / "ahead").glob("treehouse_classic_*")
    return found


def _truncate(module: Path, fraction: float) -> None:
    size = module.stat().st_size
    with open(module, "r+b") as handle:
        handle.truncate(int(size * fraction))


def test_a_truncated_module_is_never_loaded(classic_build, tmp_path):
    """Mapping a truncated extension module kills the process with a Bus
    error; it is checked against its checksum first, and set aside."""
    for fraction in (0.1, 0.2, 0.3, 0.4):
        cache = tmp_path / f"cache-{fraction}"
        shutil.copytree(classic_build, cache)
        module = _module(cache)
        _truncate(module, fraction)
        assert not ahead.whole(module)
        # no compiler to build it again with: numba's just-in-time path is next, so stop there
        probe = (
            "import sys, pathlib; from treehouse.kernel.fast import ahead; "
            f"print(ahead.prepared('classic', 'x', '{module.name.split('.')[0].split('_')[-1]}', pathlib.Path(sys.argv[1]), lambda seconds: None, print, 1.0))"
        )
        done = run(probe, str(cache / "ahead"), CC=str(tmp_path / "no-such-cc"))
        assert done.returncode == 0, (fraction, done.returncode, done.stderr)
        assert done.stdout.split() == ["None"] and not module.exists(), fraction


def test_a_truncated_module_without_a_compiler_plays_the_same_games_just_in_time(classic_build, reference, tmp_path):
    """The module is set aside unloaded; with no C compiler to build it again,
    numba compiles the same kernels just in time: one line says it prepares
    them, the games are the reference's, numba's cache stays in the cache
    folder, and ``th --version`` says why.  (Classic, the smaller core: the
    kernels are the same functions for every core.)"""
    cache = tmp_path / "cache"
    shutil.copytree(classic_build, cache)
    module = _module(cache)
    _truncate(module, 0.3)
    missing = {"CC": str(tmp_path / "no-such-cc")}
    done = run(CLI, *GAMES, NUMBA_CACHE_DIR=str(cache), **missing)
    assert report(done) == reference
    assert len(lines(done)) == 1 and done.stderr.startswith("treehouse: preparing the compiled rules of classic, once"), done.stderr
    assert not module.exists() and any(cache.rglob("*.nbi")), "set aside, and numba's cache index in the cache folder"
    version = run(CLI, "--version", NUMBA_CACHE_DIR=str(cache), **missing)
    assert f"compiled just in time: no C compiler ({tmp_path / 'no-such-cc'} not found)" in version.stdout, version.stdout


@contextlib.contextmanager
def mounted(folder: Path, *options: str):
    """A tmpfs at ``folder`` (root only: CI runs as root)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(options), "tmpfs", str(folder)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def _homes(tmp_path: Path) -> dict[str, str]:
    """Every folder a process might write to by default, inside ``tmp_path``."""
    return {name: str(tmp_path / "home" / name) for name in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME")}


def _written_outside(tmp_path: Path, cache: Path, before: set[Path]) -> list[Path]:
    written = [path for path in tmp_path.rglob("*") if path.is_file() and cache not in path.parents]
    return sorted({*written, *numba_files(PACKAGE)} - before)


@pytest.mark.parametrize("options, says", [(("size=2m",), "MB free"), (("size=2m", "ro"), "cannot be written")])
def test_a_full_or_read_only_cache_folder_plays_the_same_games_on_the_reference_rules(reference, tmp_path, options, says):
    with mounted(tmp_path / "disk", *options) as disk:
        cache = disk / "cache"
        before = numba_files(PACKAGE)
        done = run(CLI, *GAMES, NUMBA_CACHE_DIR=str(cache), **_homes(tmp_path))
        assert report(done) == reference
        assert len(lines(done)) == 1 and says in done.stderr and "the reference rules play meanwhile" in done.stderr, done.stderr
        assert _written_outside(tmp_path, cache, before) == []
        version = run(CLI, "--version", NUMBA_CACHE_DIR=str(cache))
        assert "rules: reference tier" in version.stdout or "compiled at first use" in version.stdout, version.stdout


def test_a_read_only_cache_folder_with_a_whole_build_loads_it(classic_build, reference, tmp_path):
    with mounted(tmp_path / "disk", "size=64m") as disk:
        shutil.copytree(classic_build, disk / "cache")
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        done = run(CLI, *GAMES, NUMBA_CACHE_DIR=str(disk / "cache"), **_homes(tmp_path))
        assert report(done) == reference
        assert lines(done) == []


def test_the_wait_for_another_process_build_is_ten_seconds_at_most():
    assert 0 < ahead.WAIT_SECONDS <= 10


def test_a_build_another_process_holds_stopped_is_waited_for_the_bound_at_most(reference, tmp_path):
    """A builder stopped with SIGSTOP holds its lock for good: the next
    process says it waits, and after the bound plays on the reference rules.
    (The waiting process's bound is cut to 1 s here: the drill is the same,
    nine seconds quicker.)"""
    cache = tmp_path / "cache"
    (cache / "ahead").mkdir(parents=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, signal, sys; h = open(sys.argv[1], 'a'); fcntl.flock(h, fcntl.LOCK_EX); print('held', flush=True); os.kill(os.getpid(), signal.SIGSTOP)", str(cache / "ahead" / "classic.lock")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        done = run(f"from treehouse.kernel.fast import ahead; ahead.WAIT_SECONDS = {BOUND}; {CLI}", *GAMES, NUMBA_CACHE_DIR=str(cache))
        waited = time.monotonic() - started
        assert report(done) == reference
        assert len(lines(done)) == 1 and f"waiting for it, {BOUND:.0f} s at most" in done.stderr, done.stderr
        assert BOUND <= waited < BOUND + 20  # the wait, then the games on the reference rules
    finally:
        holder.kill()
        holder.wait()


#: The stopped-builder drill's wait, in seconds (ahead.WAIT_SECONDS in use).
BOUND = 1.0


@pytest.fixture
def tiny(tmp_path):
    code = tmp_path / "code"
    code.mkdir()
    (code / "tiny.py").write_text(TINY)
    return code


def importing(code: Path) -> str:
    """``PYTHONPATH`` for a process that imports from ``code`` too (and the
    treehouse this run imports, where PYTHONPATH chose it)."""
    return os.pathsep.join([str(code), *filter(None, [os.environ.get("PYTHONPATH")])])


def prepare_tiny(code: Path, cache: Path, **env: str) -> subprocess.CompletedProcess:
    return run(PREPARE_TINY, str(code), NUMBA_CACHE_DIR=str(cache), PYTHONPATH=importing(code), **env)


def test_a_compiler_missing_and_then_back_is_built_ahead_of_time_and_built_again_once_truncated(tiny, tmp_path):
    """One build serves two drills: the compiler comes back, the core is
    built; that build is truncated, checked against its checksum, and built
    again, with the last build's time as its estimate."""
    cache = tmp_path / "cache"
    missing = {"CC": str(tmp_path / "no-such-cc")}
    without = prepare_tiny(tiny, cache, **missing)
    assert without.returncode == 0, without.stderr
    assert without.stdout.split() == ["just", "in", "time", "5"] and len(lines(without)) == 1
    assert f"no C compiler ({tmp_path / 'no-such-cc'} not found)" in run(CLI, "--version", NUMBA_CACHE_DIR=str(cache), **missing).stdout
    again = prepare_tiny(tiny, cache, **missing)
    assert again.stdout.split() == ["just", "in", "time", "5"] and again.stderr == ""  # no build tried while it is missing
    back = prepare_tiny(tiny, cache)
    assert back.returncode == 0, back.stderr
    assert back.stdout.split() == ["ahead", "of", "time", "5"]
    assert "no C compiler" not in run(CLI, "--version", NUMBA_CACHE_DIR=str(cache)).stdout

    (module,) = (cache / "ahead").glob("treehouse_tiny_*")
    measured = float((cache / "ahead" / "tiny.seconds").read_text())
    _truncate(module, 0.3)
    rebuilt = prepare_tiny(tiny, cache)
    assert rebuilt.stdout.split() == ["ahead", "of", "time", "5"]
    assert lines(rebuilt) == [f"treehouse: preparing the compiled rules of tiny, once: about {measured:.0f} s"]  # the estimate is this machine's last build
    assert ahead.whole(next((cache / "ahead").glob("treehouse_tiny_*")))


def _builds_running(cache: Path) -> list[int]:
    """The pids of ahead-of-time builds into ``cache`` still running (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue  # ended meanwhile
        if b"treehouse.kernel.fast.ahead" in words and any(str(cache).encode() in word for word in words):
            found.append(int(entry.name))
    return found


def _start_build(tiny: Path, cache: Path, **env: str) -> subprocess.Popen:
    """A process building the one-kernel core, once its build is under way
    (its half-made folder there, beside any an earlier build left)."""
    env = {**inherited(), compiled.COMPILED_ENV: "1", "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": importing(tiny), **env}
    earlier = set((cache / "ahead").glob(".treehouse_tiny_*"))
    parent = subprocess.Popen([sys.executable, "-c", PREPARE_TINY, str(tiny)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not (_builds_running(cache) and set((cache / "ahead").glob(".treehouse_tiny_*")) - earlier):
        assert parent.poll() is None and time.monotonic() < deadline, "the build never started"
        time.sleep(0.02)
    return parent


def _builds_end(cache: Path) -> None:
    """Wait for the builds into ``cache`` to end, as they must once their parent has."""
    deadline = time.monotonic() + 5  # the build checks on its parent four times a second
    while _builds_running(cache):
        assert time.monotonic() < deadline, "the build outlived the process that started it"
        time.sleep(0.1)


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads the running processes from /proc")
def test_a_build_killed_with_kill_9_is_swept_and_built_again(tiny, tmp_path):
    """Both kills in one cache folder, one build at the end for both.  The
    process that started a build, killed: no worker outlives its parent, the
    build ends too.  The build itself, killed: not taken for a lasting
    failure.  Each next start sweeps what the killed build left half-made,
    in the cache folder and nowhere else, and builds the core."""
    cache, temporary = tmp_path / "cache", tmp_path / "tmp"
    temporary.mkdir()
    elsewhere = {"TMPDIR": str(temporary)}  # where the system's temporary files would go
    parent = _start_build(tiny, cache, **elsewhere)
    parent.kill()
    parent.wait()
    _builds_end(cache)
    left = set((cache / "ahead").glob(".treehouse_tiny_*"))
    assert left and not list((cache / "ahead").glob("*.unbuildable"))

    parent = _start_build(tiny, cache, **elsewhere)
    try:
        assert not left & set((cache / "ahead").glob(".treehouse_tiny_*")), "the first killed build's folder was not swept"
        for pid in _builds_running(cache):
            os.kill(pid, signal.SIGKILL)
        parent.wait(60)
    finally:
        parent.kill()
        parent.wait()
    _builds_end(cache)
    assert not list((cache / "ahead").glob("*.unbuildable"))

    again = prepare_tiny(tiny, cache, **elsewhere)
    assert again.returncode == 0, again.stderr
    assert again.stdout.split() == ["ahead", "of", "time", "5"]
    assert len(list((cache / "ahead").glob("treehouse_tiny_*"))) == 1
    assert not list((cache / "ahead").glob(".treehouse_tiny_*"))
    assert list(temporary.iterdir()) == []
