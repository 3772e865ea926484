"""The folder layout is the architecture (docs/authoring.md, "The layers"):
each layer imports only from the layers below it, the kernel knows no game,
and no command, bot or server names a variant.  Read from the source, so
an import hidden in a function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import treehouse

PACKAGE = Path(treehouse.__file__).parent


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every treehouse module ``path`` imports, anywhere in it (``from a import b`` counts ``a`` and ``a.b``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "treehouse" or name.startswith("treehouse.")}


GRAPH = {_module(path): _imports(path) for path in sorted(PACKAGE.rglob("*.py")) if "templates" not in path.parts}


def _within(name: str, *packages: str) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


def offenders(importers: tuple[str, ...], imported: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list[str]:
    return sorted(
        f"{module} imports {name}"
        for module, names in GRAPH.items()
        if _within(module, *importers)
        for name in names
        if _within(name, *imported) and name not in allowed
    )


def test_the_graph_is_read():
    assert "treehouse.variants.fences.game" in GRAPH and "treehouse.kernel.fast.gate" in GRAPH
    assert "treehouse.kernel.engine" in GRAPH["treehouse.variants.fences.rules"] or GRAPH["treehouse.variants.fences.rules"]


@pytest.mark.parametrize(
    "importers, imported, allowed, why",
    [
        (
            ("treehouse.kernel",),
            ("treehouse.variants", "treehouse.bots", "treehouse.playtest", "treehouse.cli", "treehouse.serve", "treehouse.interop"),
            (),
            "the kernel, the fast tier's gate and its generic compiled pieces know no game and no layer above them",
        ),
        (
            ("treehouse.variants",),
            ("treehouse.playtest", "treehouse.cli", "treehouse.serve", "treehouse.interop", "treehouse.bots"),
            ("treehouse.bots",) + tuple(f"treehouse.bots.{name}" for name in ("PASS", "REROLL", "pick", "SearchBot")),
            "a variant uses the kernel below it, and of the bots only their documented API (treehouse.bots)",
        ),
        (
            ("treehouse.cli", "treehouse.bots", "treehouse.serve", "treehouse.playtest", "treehouse.interop"),
            ("treehouse.variants.classic", "treehouse.variants.fences"),
            (),
            "commands, bots, the server, the playtest and the adapters know no variant by name: a variant's odds, solver and words come through it",
        ),
    ],
)
def test_each_layer_imports_only_what_is_below_it(importers, imported, allowed, why):
    assert offenders(importers, imported, allowed) == [], why
