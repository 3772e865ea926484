"""Which tier of rules a game runs on: the compiled core, or the reference rules.

Each built-in variant keeps its rules twice (docs/rules/tiers.md):

* the **reference rules**, plain Python, the specification and the oracle in tests;
* a **compiled core**, the same rules as numba kernels over compact integer
  arrays, behind the same hooks (``treehouse_look_moves`` above all), used
  only while the variant alone answers the hooks it stands for
  (:meth:`treehouse.kernel.hooks.GameHooks.variant_alone`).

Both give the same games, value for value.  This module says which one is in
use and prepares the core; the kernel itself holds no kernel of any game.

* ``TREEHOUSE_COMPILED=0`` turns the core off (so does a numba that cannot be
  imported: then one line says the reference tier is in use, once a process).
* A playtest plays its first games with the core waiting (:func:`deferred`,
  :func:`waiting`) until the run shows it would repay loading numba and the
  kernels; ``TREEHOUSE_COMPILED=1`` takes the core from the first look.
* Compiled kernels are cached under the user's cache folder
  (``NUMBA_CACHE_DIR``, by default ``<user cache>/treehouse/numba``), so only
  the first use on a machine compiles; that one says so in one line, with
  the time it takes.
"""

from __future__ import annotations

import contextvars
import hashlib
import math
import os
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import platformdirs

#: ``TREEHOUSE_COMPILED=0`` (or ``false``, ``no``, ``off``) plays on the reference rules only;
#: ``=1`` (or ``true``, ``yes``, ``on``) takes the core even in a run too short
#: to repay loading it (:func:`deferred`).
COMPILED_ENV = "TREEHOUSE_COMPILED"
_OFF = ("0", "false", "no", "off")
_ALWAYS = ("1", "true", "yes", "on")

#: Why the reference tier is in use, once known (``""``: the compiled one is).
_reason: str | None = None
_numba: Any = None
_told = False


def cache_folder() -> Path:
    """Where numba keeps the compiled kernels (``NUMBA_CACHE_DIR`` if set)."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    return Path(configured) if configured else Path(platformdirs.user_cache_dir("treehouse")) / "numba"


def _load() -> str:
    """Import numba once (its cache folder set first); the reason it is not used, or ``""``."""
    global _reason, _numba
    if _reason is not None:
        return _reason
    if os.environ.get(COMPILED_ENV, "").strip().lower() in _OFF:
        _reason = f"{COMPILED_ENV}={os.environ[COMPILED_ENV]}"
        return _reason
    os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_folder()))  # for this process and the workers it starts
    try:
        import numba
    except Exception as error:  # ImportError, or a broken install (llvmlite missing, say)
        _reason = f"numba cannot be imported ({type(error).__name__}: {error})"
        return _reason
    _use_cache_folder(numba)
    _numba = numba
    _reason = ""
    return _reason


def _use_cache_folder(numba: Any) -> None:
    """Point numba's cache at :func:`cache_folder` unless ``NUMBA_CACHE_DIR``
    chose one.  numba reads that variable once, when it is imported, and the
    folder itself when a kernel is decorated; a numba imported before this
    module asked (by a test, a plugin, a script importing a core) would
    otherwise keep the kernels in the package's own ``__pycache__``."""
    if not numba.config.CACHE_DIR:
        numba.config.CACHE_DIR = str(cache_folder())


def njit_cached(function: Callable | None = None, *, signature: Any = None) -> Any:
    """numba's ``njit(cache=True)`` for a core's kernel, its cache in
    :func:`cache_folder` however the core's module came to be imported.
    With a ``signature`` (``@njit_cached(signature=...)``) it is compiled for
    those types only, as the compiled search is, whose kernels come as
    function pointers.  A compiled game's own kernels take none: compiled
    for one signature only, numba would pass them to the playout's
    :func:`~treehouse.playtest.compiled_playout.games` as pointers too."""
    import numba

    _use_cache_folder(numba)
    if function is None:
        return lambda function: numba.njit(signature, cache=True)(function)
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


def numba() -> Any:
    """The numba module (only when :func:`enabled`)."""
    if not enabled():
        raise RuntimeError("the compiled core is off")  # a caller's bug: ask enabled() first
    return _numba


def tier() -> str:
    """Which tier is in use, in words, for ``th --version``."""
    reason = _load()
    if reason:
        return f"rules: reference tier ({reason})"
    return f"rules: compiled core (numba {_numba.__version__}; kernels cached in {cache_folder()})"


#: The cores prepared in this process (their kernels loaded).
_ready: set[str] = set()


def ready(name: str) -> bool:
    """Has this process prepared the core ``name`` already?  A hook whose
    compiled answer saves less than loading numba costs (about a second)
    takes the core only once something else has loaded it."""
    return name in _ready


def prepare(
    name: str, sources: Sequence[str], seconds: float, warm: Callable[[], None], what: str | None = None, rebuilt: Sequence[Any] = ()
) -> None:
    """Compile (or load from the cache) a core's kernels before their first use.

    ``warm`` calls every kernel once on a small input.  The first time on a
    machine for these ``sources`` (the files of the kernels: a changed one is
    compiled again) it compiles; then one line on stderr says so, with
    ``seconds`` as the estimate, instead of a silent stall.  After that numba
    loads the kernels from its cache.  ``what`` names it in that line
    (default: the rules of ``name``).

    ``rebuilt`` are kernels compiled from more files than their own (a
    generic kernel bound to a variant's: the playout).  numba checks only
    the date of a kernel's own file, so at the first preparation for these
    ``sources`` their cached code is dropped and compiled again."""
    if name in _ready:
        return
    digest = hashlib.sha256(b"".join(Path(source).read_bytes() for source in sources)).hexdigest()[:16]
    marker = cache_folder() / f"{name}-{digest}.ready"
    cold = not marker.exists()
    if cold:
        print(f"treehouse: preparing the compiled {what or f'rules of {name}'}, once: about {seconds:.0f} s", file=sys.stderr, flush=True)
        for kernel in rebuilt:
            kernel._cache.flush()  # numba's own cache of the kernel (njit_cached): its index emptied
    started = time.perf_counter()
    warm()
    _ready.add(name)
    if cold:
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            for older in marker.parent.glob(f"{name}-{'?' * len(digest)}.ready"):
                older.unlink()  # back at older sources, the code cached since would be stale: compile again
            marker.write_text(f"compiled in {time.perf_counter() - started:.1f} s\n")
        except OSError:
            pass  # a read-only cache: the line shows again next time, nothing else changes


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


class Deferral:
    """A stretch of play in which a core not loaded yet stays unloaded, until
    ``until`` (a ``time.perf_counter()``), which its holder may move."""

    __slots__ = ("until",)

    def __init__(self, until: float) -> None:
        self.until = until


#: The deferral in force here, if any.  A context variable, not an argument:
#: it must reach a look deep inside a bot's search, and each thread (th
#: serve's tables) has its own.
_deferral: contextvars.ContextVar[Deferral | None] = contextvars.ContextVar("treehouse_compiled_deferral", default=None)


@contextmanager
def deferred(seconds: float = math.inf) -> Iterator[Deferral]:
    """For the next ``seconds`` (the holder may move the end), a core not
    loaded yet is not loaded: the hooks answer its looks, with the same
    values.  The playtest plays a run's first games so, until the run shows
    it will last long enough on the reference rules to repay loading numba
    and the kernels (``playtest/work.py``).  ``TREEHOUSE_COMPILED=1`` takes
    the core even so."""
    deferral = Deferral(time.perf_counter() + seconds)
    token = _deferral.set(deferral)
    try:
        yield deferral
    finally:
        _deferral.reset(token)


def waiting(name: str) -> bool:
    """Should a look leave the core ``name`` alone for now, the hooks
    answering (the same values)?  Never once it is prepared; while ``th
    play`` prepares it in the background (:func:`preparing`), and within a
    :func:`deferred` stretch (unless ``TREEHOUSE_COMPILED=1``), yes.  Cheap:
    it imports nothing, so deferred play never pays for numba's import."""
    if name in _ready:
        return False
    if preparing():
        return True
    deferral = _deferral.get()
    return deferral is not None and time.perf_counter() < deferral.until and os.environ.get(COMPILED_ENV, "").strip().lower() not in _ALWAYS


def reset_for_tests() -> None:
    """Forget what was decided (tests that switch ``TREEHOUSE_COMPILED`` in one process)."""
    global _reason, _numba, _told
    _reason, _numba, _told = None, None, False
    _ready.clear()
