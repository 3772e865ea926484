"""Which tier of rules a game runs on: the compiled core, or the reference rules.

Each built-in variant keeps its rules twice (docs/rules/tiers.md):

* the **reference rules**, plain Python, the specification and the oracle in tests;
* a **compiled core**, the same rules as numba kernels over compact integer
  arrays, behind the same hooks (``treehouse_look_moves`` above all), used
  only while the variant alone answers the hooks it stands for
  (:meth:`treehouse.kernel.hooks.GameHooks.variant_alone`).

Both give the same games, value for value.  This module says which one is in
use and prepares the core (:func:`kernels`); the kernel itself holds no
kernel of any game.

* ``TREEHOUSE_COMPILED=0`` turns the core off (so does a numba that cannot be
  imported: then one line says the reference tier is in use, once a process).
* A core is compiled once a machine, into the user's cache folder: ahead of
  time into an extension module where a C compiler is at hand
  (:mod:`treehouse.kernel.fast.ahead`: then a process loads it in milliseconds
  and never imports numba), else just in time by numba, cached
  (``NUMBA_CACHE_DIR``, by default ``<user cache>/treehouse/numba``).  The
  first use on a machine says so in one line, with the time it takes.
* A run takes the core from its first look: a build loads in milliseconds.
  Only ``th play``, preparing it in the background, leaves the first looks
  to the hooks (:func:`waiting`).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import importlib.util
import math
import os
import platform
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import platformdirs

from treehouse.errors import TreehouseError
from treehouse.textfiles import write_text_atomically

#: ``TREEHOUSE_COMPILED=0`` (or ``false``, ``no``, ``off``) plays on the reference rules only;
#: any other value (``1``) is the default: the core wherever the gate lets it answer.
COMPILED_ENV = "TREEHOUSE_COMPILED"
_OFF = ("0", "false", "no", "off")

#: Why the reference tier is in use, once known (``""``: the compiled one is).
_reason: str | None = None
_told = False


def cache_folder() -> Path:
    """Where numba keeps the compiled kernels (``NUMBA_CACHE_DIR`` if set)."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    return Path(configured) if configured else Path(platformdirs.user_cache_dir("treehouse")) / "numba"


def _load() -> str:
    """Is numba there (its cache folder set first)?  The reason the core is not
    used, or ``""``.  Asks without importing it: a core compiled ahead of time
    (:mod:`treehouse.kernel.fast.ahead`) never needs the import, and a broken install
    is met where numba is imported (:func:`kernels`)."""
    global _reason
    if _reason is not None:
        return _reason
    if os.environ.get(COMPILED_ENV, "").strip().lower() in _OFF:
        _reason = f"{COMPILED_ENV}={os.environ[COMPILED_ENV]}"
        return _reason
    os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_folder()))  # for this process and the workers it starts
    try:
        found = importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError) as error:
        found, _reason = False, f"numba cannot be imported ({type(error).__name__}: {error})"
        return _reason
    _reason = "" if found else "numba cannot be imported (ModuleNotFoundError: No module named 'numba')"
    return _reason


def _unusable(error: Exception) -> None:
    """numba was found but cannot be imported (llvmlite missing, say): the reference tier, said once."""
    global _reason
    _reason = f"numba cannot be imported ({type(error).__name__}: {error})"
    enabled()


def _use_cache_folder(numba: Any) -> None:
    """Point numba's cache at :func:`cache_folder` unless ``NUMBA_CACHE_DIR``
    chose one.  numba reads that variable once, when it is imported, and the
    folder itself when a kernel is decorated; a numba imported before this
    module asked (by a test, a plugin, a script importing a core) would
    otherwise keep the kernels in the package's own ``__pycache__``."""
    if not numba.config.CACHE_DIR:
        numba.config.CACHE_DIR = str(cache_folder())


def njit_cached(function: Callable) -> Any:
    """numba's ``njit(cache=True)`` for a core's kernel, its cache in
    :func:`cache_folder` however the core's module came to be imported."""
    import numba

    _use_cache_folder(numba)
    return numba.njit(cache=True)(function)


def enabled() -> bool:
    """Is the compiled core in use in this process?  Where it is wanted but numba
    cannot be imported, one line on stderr says so, once."""
    global _told
    reason = _load()
    if reason and not reason.startswith(COMPILED_ENV) and not _told:
        _told = True
        print(f"treehouse: {reason}: the reference rules are in use (the same games, slower)", file=sys.stderr)
    return not reason


def wanted() -> bool:
    """Would this process play on the compiled core where the gate lets it
    (not turned off, numba there)?  Asked without a word, importing nothing."""
    return not _load()


def tier() -> str:
    """Which tier is in use, in words, for ``th --version``: as things stand
    now (a failure whose cause has passed is not named)."""
    reason = _load()
    if reason:
        return f"rules: reference tier ({reason})"
    from treehouse.kernel.fast import ahead

    folder = ahead_folder()
    newest = ahead.builds(folder)[:1] if folder.is_dir() else []
    problem = ahead.unusable(folder) if folder.is_dir() else ""
    if newest and newest[0].suffix != ".unbuildable" and ahead.whole(newest[0]):
        how = "compiled ahead of time"
    elif problem:
        return f"rules: reference tier ({problem}; the same games, slower)"
    elif newest and newest[0].suffix == ".unbuildable" and ahead.failure_holds(newest[0]):
        how = f"compiled just in time: {newest[0].read_text().strip()}"
    else:
        how = "compiled at first use: ahead of time where a C compiler is at hand"
    return f"rules: compiled core (numba {importlib.metadata.version('numba')}, {how}; kernels cached in {cache_folder()})"


def ahead_folder() -> Path:
    """Where the cores compiled ahead of time are kept (:mod:`treehouse.kernel.fast.ahead`)."""
    return cache_folder() / "ahead"


def ready(name: str) -> bool:
    """Has this process prepared the core ``name`` already (:func:`kernels`)?
    A hook whose compiled answer saves less than loading the core costs
    takes the core only once something else has loaded it."""
    return name in _kernels


def digest_of(sources: Sequence[str]) -> str:
    """What a core's compiled code depends on: its source files, and the
    numba, numpy, Python and processor they are compiled with and for."""
    identity = hashlib.sha256()
    for source in sources:
        identity.update(Path(source).read_bytes())
    for package in ("numba", "numpy"):
        identity.update(importlib.metadata.version(package).encode())
    identity.update(f"{sys.version} {platform.machine()} {_processor()}".encode())
    return identity.hexdigest()[:16]


def _processor() -> str:
    """The processor's features, as the kernels compiled for it may use them
    (a cache folder shared by machines of several kinds keeps a core for each)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as cpuinfo:
            return next((line for line in cpuinfo if line.startswith(("flags", "Features"))), "")
    except OSError:
        return platform.processor()


#: The kernels of each core prepared in this process (:func:`kernels`).
_kernels: dict[str, Any] = {}
_kernels_lock = threading.Lock()
#: The cores the cache could not serve (:class:`~treehouse.kernel.fast.ahead.Unavailable`),
#: with when to ask again (``time.monotonic()``); the reference rules play meanwhile.
_unavailable: dict[str, float] = {}
#: How long a process plays on the reference rules before it asks the cache again.
ASK_AGAIN_SECONDS = 30.0
#: The cores this process has said something about on stderr (one line each at most).
_said: set[str] = set()


def kernels(name: str, module: str, sources: Sequence[str], seconds: float, warm: Callable[[Any], None]) -> Any | None:
    """The kernels of the core ``name`` ready to call, prepared once a
    process; ``None`` where they cannot be had now (numba does not import,
    or the cache folder cannot serve: the hooks answer, the same games).

    ``module`` names the core's module, whose ``AHEAD_OF_TIME`` table names
    the kernels Python calls; ``sources`` are the files its kernels are
    compiled from (their code and the constants they read).  Where a C
    compiler is at hand, they are compiled ahead of time into an extension
    module (:mod:`treehouse.kernel.fast.ahead`), once a machine for these
    sources, which then loads in milliseconds without numba.  Where not,
    the module itself is imported and its kernels compiled just in time and
    cached by numba (``warm(module)`` calls each once).  The first time on
    a machine, one line on stderr says so, with ``seconds`` as the
    estimate; a process that finds another building the same core waits
    for it, :data:`~treehouse.kernel.fast.ahead.WAIT_SECONDS` at most, saying so.
    Where the cache cannot serve (read-only, full, a build still running),
    one line says so and the reference rules play; the cache is asked again
    after :data:`ASK_AGAIN_SECONDS`."""
    prepared = _kernels.get(name)
    if prepared is not None:
        return prepared  # every look asks: no lock once prepared
    if time.monotonic() < _unavailable.get(name, -math.inf):
        return None
    with _kernels_lock:
        if name in _kernels:
            return _kernels[name]
        from treehouse.kernel.fast import ahead

        digest = digest_of(sources)

        def say(words: str) -> None:  # one line a core, once a process
            if name not in _said:
                _said.add(name)
                print(f"treehouse: {words}", file=sys.stderr, flush=True)

        def announce(measured: float | None) -> None:  # by the process that compiles: the last build here, else the estimate
            say(f"preparing the compiled rules of {name}, once: about {measured or seconds:.0f} s")

        def unavailable(reason: str, said: bool = False) -> None:
            _unavailable[name] = time.monotonic() + ASK_AGAIN_SECONDS
            if not said:
                say(f"{reason}: the reference rules play meanwhile (the same games, slower)")

        wait = 0.0 if name in _unavailable else ahead.WAIT_SECONDS  # waited once already: only a look now
        try:
            loaded = ahead.prepared(name, module, digest, ahead_folder(), announce, say, wait)
        except ahead.Unavailable as why:
            unavailable(str(why), why.said)
            return None
        if loaded is None:
            try:
                loaded = importlib.import_module(module)
            except Exception as error:  # numba or llvmlite broken: ImportError, OSError, ...
                _unusable(error)
                return None
            try:
                _just_in_time(name, digest, loaded, warm, lambda: announce(None))
            except OSError as error:  # numba's cache met a full disk
                unavailable(f"numba's cache in {cache_folder()} cannot be written ({error.strerror or error})")
                return None
        _kernels[name] = loaded
        _unavailable.pop(name, None)
        return loaded


def _just_in_time(name: str, digest: str, loaded: Any, warm: Callable[[Any], None], announce: Callable[[], None]) -> None:
    """Compile the core's kernels just in time, or load them from numba's
    cache: ``warm`` calls each once.  numba dates a kernel's cache by its
    own file only, and the kernels that bind generic code (the search, the
    playout) compile in other files' code and constants too, so the first
    time for this ``digest`` every kernel's cached code is dropped."""
    marker = cache_folder() / f"{name}-{digest}.ready"
    if not marker.exists():
        announce()
        for kernel in vars(loaded).values():
            if hasattr(kernel, "_cache") and hasattr(kernel, "py_func"):
                kernel._cache.flush()  # its index emptied: compiled again
    started = time.perf_counter()
    warm(loaded)
    if not marker.exists():
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            for older in marker.parent.glob(f"{name}-{'?' * len(digest)}.ready"):
                older.unlink()  # back at older sources, the code cached since would be stale: compile again
            write_text_atomically(marker, f"compiled in {time.perf_counter() - started:.1f} s\n", TreehouseError)
        except (OSError, TreehouseError):
            pass  # a read-only cache: compiled again next time, nothing else changes


#: How many preparations are running in background threads.
_background = 0
_background_lock = threading.Lock()


def preparing() -> bool:
    """Is a core being prepared in a background thread (``th play``)?  Until
    it is ready, looks are answered by the hooks (the same values), so no
    decision waits for a cold compile."""
    return _background > 0


def prepare_in_background(prepare: Callable[[], None]) -> threading.Thread:
    """Run a core's ``prepare`` (``Variant.prepare_compiled``) in a daemon
    thread, so that no screen, prompt or bot's decision waits for a compile:
    meanwhile the variant answers its looks through the reference rules
    (:func:`preparing`).  A failure there is left to the first look after
    it, which meets it again and reports it as any hook failure."""

    def run() -> None:
        global _background
        try:
            prepare()
        except Exception:
            pass  # the first look prepares again and says what went wrong
        finally:
            with _background_lock:
                _background -= 1

    global _background
    with _background_lock:
        _background += 1
    thread = threading.Thread(target=run, name="treehouse-prepare-compiled", daemon=True)
    thread.start()
    return thread


def waiting(name: str) -> bool:
    """Should a look leave the core ``name`` alone for now, the hooks
    answering (the same values)?  Only while ``th play`` prepares it in the
    background (:func:`preparing`): no prompt or bot's decision waits for a
    cold build.  Cheap: it imports nothing."""
    return name not in _kernels and preparing()


def reset_for_tests() -> None:
    """Forget what was decided (tests that switch ``TREEHOUSE_COMPILED`` in one process)."""
    global _reason, _told
    _reason, _told = None, False
    _kernels.clear()
    _unavailable.clear()
    _said.clear()
