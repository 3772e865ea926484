"""``th new-variant``: write an installable variant plugin package to start from.

The package installs and appears in ``th variants`` at once.  By default its
plugin module holds every hook a variant must implement, each raising
NotImplementedError with what it must do, and its test runs the conformance
kit, which reports the first unwritten hook as an expected failure until all
are written.  With ``example=True`` the module is instead a small complete game
(collect all five Treehouse actions) that plays and passes the kit from the
first minute, to change hook by hook.
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from treehouse.errors import TreehouseError
from treehouse.textfiles import write_text_atomically

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


START = {
    False: "Its hooks are stubs that say what each must do; write them one by one, and `pytest` names the first one left.",
    True: "It starts as a small working game (collect all five Treehouse actions) so that everything works from the first minute; change it into yours hook by hook.",
}


def scaffold(name: str, directory: Path, taken: set[str] = frozenset(), *, example: bool = False) -> list[Path]:
    """Write the package for variant ``name`` into ``directory``; return the files written.

    ``example`` picks the working example game over the stubs.
    """
    values = {**names(name), "start": START[example]}
    if name in taken:
        raise TreehouseError(f"a variant called {name!r} is already installed; choose another name")
    if directory.exists() and any(directory.iterdir()):
        raise TreehouseError(f"{directory} already exists and is not empty; choose another --dir")
    written = []
    for kind in ("common", "example" if example else "stubs"):
        for template in sorted((TEMPLATES / kind).rglob("*.tmpl")):
            relative = Template(str(template.relative_to(TEMPLATES / kind).with_suffix(""))).substitute(values)
            target = directory / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomically(target, Template(template.read_text()).substitute(values), TreehouseError)
            written.append(target)
    return sorted(written)
