"""``th new-variant``: write an installable variant plugin package to start from.

The package it writes is a small, complete, working game (collect all five
Treehouse actions), so it installs, appears in ``th variants``, plays, and
passes its own tests (the conformance kit) from the first minute.  Each hook
says in its docstring what to change to make it your game.
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from treehouse.errors import TreehouseError

NAME = re.compile(r"^[a-z][a-z0-9-]{1,30}$")
TEMPLATES = Path(__file__).parent / "templates"


def names(name: str) -> dict[str, str]:
    """The names a variant called ``name`` goes by in its package."""
    if not NAME.match(name):
        raise TreehouseError(
            f"bad variant name {name!r}: use 2-31 lower-case letters, digits or hyphens, starting with a letter (e.g. my-game)"
        )
    module = "treehouse_" + name.replace("-", "_")
    return {
        "name": name,
        "module": module,
        "distribution": f"treehouse-{name}",
        "cls": "".join(part.capitalize() for part in name.split("-")),
    }


def scaffold(name: str, directory: Path, taken: set[str] = frozenset()) -> list[Path]:
    """Write the package for variant ``name`` into ``directory``; return the files written."""
    values = names(name)
    if name in taken:
        raise TreehouseError(f"a variant called {name!r} is already installed; choose another name")
    if directory.exists() and any(directory.iterdir()):
        raise TreehouseError(f"{directory} already exists and is not empty; choose another --dir")
    written = []
    for template in sorted(TEMPLATES.rglob("*.tmpl")):
        relative = Template(str(template.relative_to(TEMPLATES).with_suffix(""))).substitute(values)
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(Template(template.read_text()).substitute(values))
        written.append(target)
    return written
