"""Reading and writing the files users name: rule sets, records, reports, tables.

Both turn every failure into one line of the caller's error class, naming the
file.  :func:`write_atomically` is the one way the program writes a file:

* the data goes to a temporary file in the same directory, is flushed and
  ``fsync``-ed, and then replaces the target in one step (``os.replace``), and
  the directory is synced, so an interrupted save (Ctrl-C, ``kill -9``, a full
  disk, a power loss) leaves the old file or the new one, never a truncated or
  empty one;
* a file that exists keeps its permissions (a new one gets the usual ones,
  as the umask says, not the temporary file's 0600);
* a symbolic link stays a link: the file it points to is replaced.

:func:`lock_file` takes an advisory lock, so that two ``th play`` processes
cannot both write one record.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import IO, Any, Callable, Iterable

from treehouse.errors import TreehouseError, clip

try:  # advisory locks: POSIX only; elsewhere a lock is not taken
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


#: The most a file read in whole may hold unless the caller says otherwise:
#: a record of a game at the largest turn cap fits, /dev/zero does not.
MAX_READ = 256 * 1024 * 1024

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words ("a named pipe (FIFO)")."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def read_bytes(path: str | Path, error: type[TreehouseError], what: str, limit: int = MAX_READ) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    It is opened without blocking (a FIFO would wait for a writer forever)
    and checked before it is read: a folder, a FIFO, a device (``/dev/zero``
    never ends) or a file over ``limit`` bytes raises ``error`` in one line."""
    path = Path(path)
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(f"no {what} at {path}") from None
    except OSError as problem:
        raise error(f"cannot read the {what} {path}: {problem.strerror or problem}") from None
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise error(f"cannot read the {what} {path}: it is {file_kind(mode)}, not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(handle, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise error(f"cannot read the {what} {path}: a {what} file is at most {limit:,} bytes")
        return b"".join(chunks)
    except OSError as problem:
        raise error(f"cannot read the {what} {path}: {problem.strerror or problem}") from None
    finally:
        os.close(handle)


def read_text(path: str | Path, error: type[TreehouseError], what: str, limit: int = MAX_READ) -> str:
    """The UTF-8 text of ``path`` (read as :func:`read_bytes` reads it); a
    missing, unreadable or oversized file raises ``error`` (``no record at
    PATH`` / ``cannot read the record PATH: why``)."""
    data = read_bytes(path, error, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as problem:
        raise error(f"cannot read the {what} {path}: it is not UTF-8 text (byte {problem.object[problem.start]:#04x} at offset {problem.start}); save it as UTF-8") from None


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two names are one file (links followed; a missing file is no other's)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def refuse_existing(path: str | Path, force: bool, error: type[TreehouseError], option: str, reads: Iterable[str | Path] = ()) -> None:
    """Refuse to write ``path`` (the file of ``option``, ``--report``) over a
    file that exists unless ``force``, and over any of the files this command
    ``reads`` even with it; a name the file system cannot hold is one line too."""
    path = Path(path)
    for source in reads:
        if same_file(path, source):
            raise error(f"{option} {path} is the file this command reads; write to another file")
    check_name(path, error, option)
    if not force and (path.is_symlink() or path.exists()):
        kind = "" if path.is_file() or path.is_symlink() else " (and is not a file)"
        raise error(f"{option} {path} already exists{kind}; add --force to overwrite it, or choose another file")


def check_name(path: str | Path, error: type[TreehouseError], option: str) -> None:
    """Refuse a file name longer than the file system takes (``NAME_MAX``), in one line."""
    path = Path(path)
    try:
        longest = os.pathconf(path.parent if str(path.parent) else ".", "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    if len(os.fsencode(path.name)) > longest:
        raise error(f"{option}: the file name {clip(path.name, 40)!r} is {len(os.fsencode(path.name))} bytes long; this file system takes at most {longest}")


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _sync_directory(directory: Path) -> None:
    try:
        handle = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass  # some filesystems cannot sync a directory; the file itself is synced
    finally:
        os.close(handle)


def write_atomically(path: str | Path, write: Callable[[IO[bytes]], Any], error: type[TreehouseError], what: str | None = None) -> Path:
    """Write a file all at once (see the module docstring): ``write(handle)``
    fills a binary file handle.  A failure raises ``error``, in one line:
    ``cannot write the record to PATH: why`` (``cannot write PATH: why``
    without ``what``).  Returns ``path``."""
    path = Path(path)
    temporary: str | None = None
    try:
        target = Path(os.path.realpath(path)) if path.is_symlink() else path
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except FileNotFoundError:
            mode = _new_file_mode()
        descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:64]}.", suffix=".tmp")  # a short prefix: the name itself may be near NAME_MAX
        with os.fdopen(descriptor, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
        temporary = None
        _sync_directory(target.parent)
    except OSError as problem:
        where = f"the {what} to {path}" if what else str(path)
        raise error(clip(f"cannot write {where}: {problem.strerror or problem}")) from None
    finally:
        if temporary is not None:  # interrupted or failed: leave no temporary file behind
            try:
                os.unlink(temporary)
            except OSError:
                pass
    return path


def write_text_atomically(path: str | Path, text: str, error: type[TreehouseError], what: str | None = None) -> Path:
    """:func:`write_atomically` for UTF-8 text."""
    data = text.encode("utf-8")
    return write_atomically(path, lambda handle: handle.write(data), error, what)


class FileLock:
    """An advisory lock on ``PATH``, held in a small ``.NAME.lock`` file beside it
    (the file itself is replaced at every save, so it cannot hold the lock)."""

    def __init__(self, path: str | Path, error: type[TreehouseError], what: str) -> None:
        path = Path(path)
        target = Path(os.path.realpath(path)) if path.is_symlink() else path
        self.lock_path = target.with_name(f".{target.name}.lock")
        self.handle: int | None = None
        if fcntl is None:
            return
        while True:
            try:
                handle = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o666)
            except OSError:
                return  # a folder we cannot write: the save itself will say so
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(handle)
                raise error(f"the {what} {path} is in use by another th process; wait for it to finish, or use another file") from None
            try:
                current = os.stat(self.lock_path)
            except FileNotFoundError:
                current = None
            mine = os.fstat(handle)
            if current is not None and (current.st_ino, current.st_dev) == (mine.st_ino, mine.st_dev):
                self.handle = handle
                return
            os.close(handle)  # the holder removed that lock file as we took it: take the new one

    def release(self) -> None:
        if self.handle is None:
            return
        try:
            os.unlink(self.lock_path)  # while still holding it: a waiting process then locks a new file
        except OSError:
            pass
        os.close(self.handle)
        self.handle = None


def lock_file(path: str | Path, error: type[TreehouseError], what: str) -> FileLock:
    """Take the advisory lock on ``path`` (``error`` in one line if another process holds it)."""
    return FileLock(path, error, what)
