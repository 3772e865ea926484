"""Reading and writing the text files users name (rule sets, game records).

Both turn every failure into one line of the caller's error class, naming the
file, and writing is atomic: the text goes to a temporary file in the same
directory, which then replaces the target in one step (``os.replace``), so an
interrupted save (Ctrl-C, a full disk) leaves the old file or the new one,
never a truncated one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from treehouse.errors import TreehouseError


def read_text(path: str | Path, error: type[TreehouseError], what: str) -> str:
    """The UTF-8 text of ``path``; a missing or unreadable file raises ``error``
    (``no record at PATH`` / ``cannot read the record PATH: why``)."""
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"no {what} at {path}") from None
    except UnicodeDecodeError as problem:
        raise error(f"cannot read the {what} {path}: it is not UTF-8 text (byte {problem.object[problem.start]:#04x} at offset {problem.start}); save it as UTF-8") from None
    except OSError as problem:
        raise error(f"cannot read the {what} {path}: {problem.strerror or problem}") from None


def write_text_atomically(path: str | Path, text: str, error: type[TreehouseError], what: str) -> Path:
    """Write ``text`` to ``path`` all at once (see the module docstring); a
    failure raises ``error`` (``cannot write the record to PATH: why``)."""
    path = Path(path)
    temporary: str | None = None
    try:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False) as handle:
            temporary = handle.name
            handle.write(text)
        os.replace(temporary, path)
        temporary = None
    except OSError as problem:
        raise error(f"cannot write the {what} to {path}: {problem.strerror or problem}") from None
    finally:
        if temporary is not None:  # interrupted or failed: leave no temporary file behind
            try:
                os.unlink(temporary)
            except OSError:
                pass
    return path
