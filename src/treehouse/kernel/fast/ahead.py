"""A core's kernels compiled ahead of time: one extension module per core, in the cache folder.

numba compiles just in time, in the process that calls a kernel: even when
the code comes from numba's cache, every process then imports numba and
loads LLVM, about half a second and 120 MB.  ``numba.pycc`` compiles the
same kernels once into an ordinary extension module, which needs neither
numba nor LLVM to load (a few milliseconds, about a megabyte).  So a core
names the kernels Python calls, with the one signature each is called
with, in its ``AHEAD_OF_TIME`` table, and :func:`prepared` gives
:func:`treehouse.kernel.fast.compiled.kernels` this module's build of them where
one can be made (a C compiler is at hand); where not,
:mod:`~treehouse.kernel.fast.compiled` compiles the core's own module just in
time.  The kernels are the same functions either way, compiled by the same
numba for this machine's processor, and the tests hold both to the
reference rules.

The cache is optional: nothing in it may stop a game.

* :func:`build` compiles in a fresh process (``python -m
  treehouse.kernel.fast.ahead``), since the core's module must be imported with
  numba's decorators in force there.  It writes the module's size and
  checksum beside it (``<name>-<digest>.sum``) and then the module under its
  final name, each whole or not at all (an atomic rename).
* A module is loaded only once it matches its checksum (a truncated one
  would kill the process that maps it with a Bus error); one that does not
  is built again.
* A folder that cannot be written, or has no room for a build, gives
  :class:`Unavailable`: the reference rules play, the same games.
* Processes that need the same core at once (a playtest's workers) take
  turns at a lock: one builds, the others wait for it, at most
  :data:`WAIT_SECONDS`, then play on the reference rules meanwhile.
* A build that failed is remembered beside it (``<name>-<digest>.unbuildable``,
  the reason in one line, which ``th --version`` shows) only while its cause
  holds: the C compiler is back, there is room again, or a day has passed,
  and it is tried again.  A build killed by a signal is tried again at the
  next start.  What a failed build left half-made is swept at once.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterator

from treehouse.errors import TreehouseError
from treehouse.textfiles import write_text_atomically

#: The name of the table (kernel name → numba signature string) a core's module declares.
EXPORTS = "AHEAD_OF_TIME"
#: How long a build may take before it counts as failed (a cold build of Fences takes about 20 s).
BUILD_SECONDS = 900
#: How long a process waits for another's build before it plays on the reference rules.
WAIT_SECONDS = 10.0
#: The room a build needs in the cache folder: its temporary files, the
#: module (about a megabyte), and numba's own cache where it compiles just in time.
ROOM_NEEDED = 64 * 2**20
#: How long a build that failed for a reason this module cannot watch (the
#: compiler's own error, say) is not tried again.
RETRY_SECONDS = 24 * 3600


class Unavailable(Exception):
    """Neither a build nor numba's just-in-time cache can be had now (the
    folder is read-only or full, or another process is still building): the
    reference rules play meanwhile.  ``said`` once the user was told."""

    def __init__(self, reason: str, said: bool = False) -> None:
        super().__init__(reason)
        self.said = said


def module_name(name: str, digest: str) -> str:
    """The extension module's name for the core ``name`` built from sources of ``digest``."""
    return f"treehouse_{name}_{digest}"


def module_path(folder: Path, name: str, digest: str) -> Path:
    return folder / (module_name(name, digest) + importlib.machinery.EXTENSION_SUFFIXES[0])


def checksum_path(module: Path) -> Path:
    """Where the size and checksum of the build at ``module`` are kept."""
    name, digest = module.name.split(".")[0].split("_")[-2:]
    return module.with_name(f"{name}-{digest}.sum")


def checksum(path: Path) -> str:
    """``<size> <sha256>`` of the file at ``path``."""
    data = path.read_bytes()
    return f"{len(data)} {hashlib.sha256(data).hexdigest()}"


def whole(module: Path) -> bool:
    """Is the build at ``module`` there, exactly as it was built?"""
    try:
        recorded = checksum_path(module).read_text().strip()
        if module.stat().st_size != int(recorded.split()[0]):
            return False  # truncated or grown: no need to read it
        return checksum(module) == recorded
    except (OSError, ValueError, IndexError):
        return False


def prepared(name: str, module: str, digest: str, folder: Path, announce: Callable[[float | None], None], say: Callable[[str], None], wait: float = WAIT_SECONDS) -> ModuleType | None:
    """The core ``name`` (the kernels of ``module``, from sources of
    ``digest``) compiled ahead of time and loaded: built first, once a
    machine, where ``folder`` has no whole build (``announce(seconds)`` then
    says so, with how long the last build here took, if one did); ``None`` where it cannot be built here (no C compiler, say: numba
    compiles it just in time instead).  Raises :class:`Unavailable` where
    the cache cannot serve now; a wait for another process's build is said
    through ``say``, and lasts ``wait`` seconds at most."""
    target = module_path(folder, name, digest)
    if whole(target):
        return _loaded(target, name, digest)
    problem = unusable(folder)  # numba's own cache, beside it, would not do either
    if problem:
        raise Unavailable(problem)
    unbuildable = folder / f"{name}-{digest}.unbuildable"
    if failure_holds(unbuildable):
        return None
    with _turn(folder / f"{name}.lock", wait, lambda: say(f"another process is preparing the compiled rules of {name}: waiting for it, {wait:.0f} s at most")) as mine:
        if not mine:
            raise Unavailable(f"another process is still preparing the compiled rules of {name}", said=True)
        if whole(target):  # built while this process waited
            return _loaded(target, name, digest)
        if failure_holds(unbuildable):
            return None
        for stale in (target, checksum_path(target), unbuildable):
            with contextlib.suppress(OSError):
                stale.unlink()
        _sweep(folder, name)
        timing = folder / f"{name}.seconds"
        announce(last_build_seconds(timing))
        started = time.monotonic()
        why = build(module, module_name(name, digest), target)
        if not why:
            _write(timing, f"{time.monotonic() - started:.1f}\n")  # the next build's estimate, measured on this machine
        if why:
            _sweep(folder, name)
            if why.startswith(KILLED):
                raise Unavailable(why)  # tried again at the next start
            _write(unbuildable, why + "\n")
            if failure_kind(why) == "room":
                raise Unavailable(why)  # numba's own cache has no room either
            return None
        _keep_newest(folder, name)
    return _loaded(target, name, digest)


def last_build_seconds(timing: Path) -> float | None:
    """How long the last build of a core took on this machine (kept beside
    the builds), or ``None`` before the first."""
    try:
        return float(timing.read_text())
    except (OSError, ValueError):
        return None


def _loaded(target: Path, name: str, digest: str) -> ModuleType | None:
    try:
        return load(target, module_name(name, digest))
    except (ImportError, OSError):
        return None  # cannot be loaded here after all: compiled just in time instead


#: How :func:`build` begins its reason when the build was killed by a signal.
KILLED = "the build was ended by signal"


def build(module: str, name: str, target: Path) -> str:
    """Compile the kernels the core ``module`` names in ``AHEAD_OF_TIME`` into
    the extension module ``name`` at ``target``; ``""`` once it is there,
    else why not, in one line (no C compiler, say)."""
    compiler = c_compiler()
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler} not found)"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"{type(error).__name__}: {error}"
    command = [sys.executable, "-m", "treehouse.kernel.fast.ahead", module, name, str(target), str(os.getpid())]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_SECONDS)
    except subprocess.TimeoutExpired:
        return f"{KILLED}: it took over {BUILD_SECONDS} s"
    except OSError as error:
        return f"{type(error).__name__}: {error}"
    if done.returncode < 0:
        return f"{KILLED} {-done.returncode}"
    if done.returncode != 0 or not whole(target):
        lines = [line.strip() for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        errors = [line for line in lines if "Error" in line or "error:" in line]  # the last error says most
        return (errors or lines or [f"the build ended with code {done.returncode}"])[-1][:300]
    return ""


def failure_kind(reason: str) -> str:
    """What a failed build's ``reason`` says went wrong: ``compiler`` (none
    found), ``room`` (the disk was full) or ``other``."""
    if reason.startswith("no C compiler"):
        return "compiler"
    if "No space left" in reason or "Errno 28" in reason or "Disk quota" in reason:
        return "room"
    return "other"


def failure_holds(marker: Path) -> bool:
    """Does the failure kept at ``marker`` still hold, so that building again
    would fail the same way?  Once its cause may have changed, no."""
    try:
        reason = marker.read_text().strip()
        age = time.time() - marker.stat().st_mtime
    except OSError:
        return False
    kind = failure_kind(reason)
    if kind == "compiler":
        return shutil.which(c_compiler()) is None
    if kind == "room":
        return _room(marker.parent) < ROOM_NEEDED
    return age < RETRY_SECONDS


def _room(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return 0


def unusable(folder: Path) -> str:
    """Why ``folder`` cannot hold a build now (it cannot be made or written,
    or has too little room), in one line; ``""`` where it can."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".probe-")
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        return f"the cache folder {folder} cannot be written ({error.strerror or error})"
    free = _room(folder)
    if free < ROOM_NEEDED:
        return f"the cache folder {folder} has {free / 2**20:.1f} MB free, and the compiled rules need {ROOM_NEEDED // 2**20} MB"
    return ""


def c_compiler() -> str:
    """The C compiler a build would call: ``CC``, else the one Python was built with."""
    import shlex
    import sysconfig

    configured = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return (shlex.split(configured) or ["cc"])[0]


def load(target: Path, name: str) -> ModuleType:
    """Import the extension module ``name`` built at ``target``."""
    spec = importlib.util.spec_from_file_location(name, target)
    if spec is None or spec.loader is None:
        raise ImportError(f"{target} is not an extension module")
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


@contextlib.contextmanager
def _turn(lock: Path, wait: float, waiting: Callable[[], None]) -> Iterator[bool]:
    """Hold ``lock`` (a file lock, across processes) while building: yields
    ``True`` once held, ``False`` where another process held it for ``wait``
    seconds (``waiting()`` is called once, as the wait begins).  Where files
    cannot be locked, build anyway (the atomic renames keep each file whole)."""
    try:
        import fcntl

        handle = open(lock, "a")
    except (ImportError, OSError):
        yield True
        return
    with handle:
        deadline = time.monotonic() + wait
        told = False
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                if not told:
                    told = True
                    waiting()
                time.sleep(0.1)
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


#: How many builds of a core a cache folder keeps (checkouts or versions of
#: treehouse sharing the folder each load their own, without rebuilding).
KEEP = 4


def builds(folder: Path, name: str = "*") -> list[Path]:
    """The builds of the core ``name`` in ``folder`` and the markers of those
    that failed, the newest first."""
    found = [*folder.glob(module_name(name, "*") + ".*"), *folder.glob(f"{name}-*.unbuildable")]
    return sorted(found, key=lambda path: path.stat().st_mtime, reverse=True)


def _keep_newest(folder: Path, name: str) -> None:
    """Remove all but the :data:`KEEP` newest builds (and markers) of the core ``name``."""
    with contextlib.suppress(OSError):
        for older in builds(folder, name)[KEEP:]:
            if older.suffix != ".unbuildable":
                checksum_path(older).unlink(missing_ok=True)
            older.unlink()


def _sweep(folder: Path, name: str) -> None:
    """Remove what builds of the core ``name`` left half-made (their parent
    was killed, the disk was full): under the lock, nobody else is building it."""
    for left in folder.glob(f".{module_name(name, '*')}-*"):
        shutil.rmtree(left, ignore_errors=True)


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all; a full folder only means trying again next time."""
    with contextlib.suppress(TreehouseError):
        write_text_atomically(path, text, TreehouseError)


def _compile(module: str, name: str, target: str, parent: str) -> None:
    """The build itself, in the process :func:`build` starts (``parent``, its pid)."""
    import importlib
    import warnings

    _end_with(int(parent))

    warnings.simplefilter("ignore")  # numba.pycc's pending deprecation, and the C compiler's chatter
    from numba.pycc import CC

    kernels = importlib.import_module(module)
    destination = Path(target)
    with tempfile.TemporaryDirectory(dir=destination.parent, prefix=f".{name}-") as folder:
        # numba.pycc's temporary folders and the C compiler's files too (numba's
        # compiler probe never removes its folders; a killed build leaves its
        # own, and a C compiler killed with it its files): swept with this one
        os.environ["TMPDIR"] = tempfile.tempdir = folder
        cc = CC(name)
        cc.output_dir = folder
        cc.target_cpu = "host"  # built on the machine that runs it, as the just-in-time kernels are
        for kernel, signature in getattr(kernels, EXPORTS).items():
            cc.export(kernel, signature)(getattr(kernels, kernel).py_func)
        cc.compile()
        built = Path(folder) / cc.output_file
        # the checksum first: a module under its final name always has its own beside it
        write_text_atomically(checksum_path(destination), checksum(built) + "\n", TreehouseError)
        os.replace(built, destination)


def _end_with(parent: int) -> None:
    """End this build as soon as the process that started it has ended,
    even killed: no worker outlives its parent.  Polled by a daemon thread
    (portable, and safe however the build was started: ``th play``
    prepares in a background thread).  What the build left half-made is
    swept by the next build (:func:`prepared`)."""
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.25)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


if __name__ == "__main__":
    _compile(*sys.argv[1:])
