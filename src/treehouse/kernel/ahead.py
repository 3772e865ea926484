"""A core's kernels compiled ahead of time: one extension module per core, in the cache folder.

numba compiles just in time, in the process that calls a kernel: even when
the code comes from numba's cache, every process then imports numba and
loads LLVM, about half a second and 120 MB.  ``numba.pycc`` compiles the
same kernels once into an ordinary extension module, which needs neither
numba nor LLVM to load (a few milliseconds, about a megabyte).  So a core
names the kernels Python calls, with the one signature each is called
with, in its ``AHEAD_OF_TIME`` table, and :func:`prepared` gives
:func:`treehouse.kernel.compiled.kernels` this module's build of them where
one can be made (a C compiler is at hand); where not,
:mod:`~treehouse.kernel.compiled` compiles the core's own module just in
time.  The kernels are the same functions either way, compiled by the same
numba for this machine's processor, and the tests hold both to the
reference rules.

:func:`build` compiles in a fresh process (``python -m
treehouse.kernel.ahead``), since the core's module must be imported with
numba's decorators in force there, and writes the module under its final
name only once it is whole (an atomic rename).  Processes that need the
same core at once (a playtest's workers) take turns at a lock: one builds,
the others then load what it built.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterator

from treehouse.errors import TreehouseError
from treehouse.textfiles import write_text_atomically

#: The name of the table (kernel name → numba signature string) a core's module declares.
EXPORTS = "AHEAD_OF_TIME"
#: How long a build may take before it counts as failed (a cold build of Fences takes about 20 s).
BUILD_SECONDS = 900


def module_name(name: str, digest: str) -> str:
    """The extension module's name for the core ``name`` built from sources of ``digest``."""
    return f"treehouse_{name}_{digest}"


def module_path(folder: Path, name: str, digest: str) -> Path:
    return folder / (module_name(name, digest) + importlib.machinery.EXTENSION_SUFFIXES[0])


def prepared(name: str, module: str, digest: str, folder: Path, announce: Callable[[], None]) -> ModuleType | None:
    """The core ``name`` (the kernels of ``module``, from sources of
    ``digest``) compiled ahead of time and loaded: built first, once a
    machine, where ``folder`` has none (``announce()`` then says so);
    ``None`` where it cannot be built here.  Why not is kept beside it
    (``<name>-<digest>.unbuildable``), so the build is not tried again for
    these sources, and ``th --version`` says why."""
    target = module_path(folder, name, digest)
    unbuildable = folder / f"{name}-{digest}.unbuildable"
    if not target.exists() and not unbuildable.exists():
        with _turn(folder / f"{name}.lock"):
            if not target.exists() and not unbuildable.exists():  # nobody built it while this process waited
                _sweep(folder, name)
                announce()
                why = build(module, module_name(name, digest), target)
                if why:
                    _write(unbuildable, why + "\n")
                _keep_newest(folder, name)
    if not target.exists():
        return None
    try:
        return load(target, module_name(name, digest))
    except (ImportError, OSError):
        return None  # cannot be loaded here after all: compiled just in time instead


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
    command = [sys.executable, "-m", "treehouse.kernel.ahead", module, name, str(target), str(os.getpid())]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{type(error).__name__}: {error}"
    if done.returncode != 0 or not target.exists():
        lines = [line.strip() for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        errors = [line for line in lines if "Error" in line or "error:" in line]  # the last error says most
        return (errors or lines or [f"the build ended with code {done.returncode}"])[-1][:300]
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
def _turn(lock: Path) -> Iterator[None]:
    """Hold ``lock`` (a file lock, across processes) while building; where
    files cannot be locked, build anyway (the atomic rename keeps it whole)."""
    try:
        import fcntl

        lock.parent.mkdir(parents=True, exist_ok=True)
        handle = open(lock, "a")
    except (ImportError, OSError):
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
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
            older.unlink()


def _sweep(folder: Path, name: str) -> None:
    """Remove what builds of the core ``name`` left half-made (their parent
    was killed, or the machine went down): under the lock, nobody else is
    building it."""
    for left in folder.glob(f".{module_name(name, '*')}-*"):
        shutil.rmtree(left, ignore_errors=True)


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all; a read-only folder only means trying again next time."""
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
        cc = CC(name)
        cc.output_dir = folder
        cc.target_cpu = "host"  # built on the machine that runs it, as the just-in-time kernels are
        for kernel, signature in getattr(kernels, EXPORTS).items():
            cc.export(kernel, signature)(getattr(kernels, kernel).py_func)
        cc.compile()
        os.replace(Path(folder) / cc.output_file, destination)


def _end_with(parent: int) -> None:
    """End this build as soon as the process that started it has ended,
    even killed: no worker outlives its parent.  Polled by a daemon thread
    (portable, and safe however the build was started: ``th play``
    prepares in a background thread).  What the build left half-made is
    swept by the next build (:func:`prepared`)."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.25)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


if __name__ == "__main__":
    _compile(*sys.argv[1:])
