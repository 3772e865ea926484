"""``th new-variant``: start a variant plugin package."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from treehouse.cli.common import fail, out, plugins, run_guarded
from treehouse.scaffold import names, scaffold


def new_variant(
    name: Annotated[str, typer.Argument(help="The variant's name, e.g. my-game (lower case, digits, hyphens).")],
    directory: Annotated[Optional[Path], typer.Option("--dir", "-d", help="Where to write it (default: ./treehouse-NAME).", file_okay=False)] = None,
    example: Annotated[bool, typer.Option("--example", help="Write a small working game to change, instead of stubs to fill in.")] = False,
) -> None:
    """Write an installable variant plugin: pyproject with the entry point, the plugin module, a rule set and tests.

    The plugin module's hooks are stubs raising NotImplementedError with what
    each must do; with --example it is a small working game instead.

    Example: th new-variant my-game --example
    """
    target = directory or Path(run_guarded(names, name)["distribution"])
    try:
        written = run_guarded(scaffold, name, target, set(plugins().aliases), example=example)
    except OSError as error:  # a folder that cannot be made or written
        raise fail(f"cannot write the {name} variant to {target}: {error.strerror or error}") from None
    out.print(f"Wrote the {name} variant to {target}/:", markup=False)
    for path in written:
        out.print(f"  {path.relative_to(target)}", markup=False)
    install = f"pip install -e {target}  then  th variants  and  th play --variant {name}"
    if example:
        out.print(f"Next: {install}", markup=False)
        return
    plugin = next((path for path in written if path.name == "plugin.py"), target)
    # the stubs raise NotImplementedError until filled in: say so before th play meets one
    out.print(f"Next: fill in the hooks of {plugin.relative_to(target) if plugin != target else 'the plugin'} (each stub says what it must do),", markup=False)
    out.print(f"or start from a small working game: th new-variant {name} --example --dir DIR.  Then: {install}", markup=False)
