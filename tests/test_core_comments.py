"""A compiled core's comments map each kernel back to the reference rules it
mirrors ("(rules.line_hits)", "rules.py's fence_moves"), and the reference
rules' comments point at the core ("core.core_for").  Those names must
stand: a comment that names a function which moved or no longer exists
sends the next maintainer to the wrong place (docs/rules/tiers.md)."""

from __future__ import annotations

import importlib
import io
import re
import tokenize
from pathlib import Path

import pytest

import treehouse

VARIANTS = Path(treehouse.__file__).parent / "variants"
#: The modules of a variant's reference rules a comment may name.
REFERENCE = ("rules", "hits", "evaluate", "actions", "trio", "distance", "board", "moves", "position", "game", "encoding")
#: The modules of its fast tier (``variants/<name>/fast/``).
FAST = ("core", "core_layout", "looks")
DOTTED = re.compile(rf"\b({'|'.join(REFERENCE + FAST)})\.([A-Za-z_]\w*)")
OWNED = re.compile(rf"\b({'|'.join(REFERENCE + FAST)})\.py's ((?:[A-Za-z_]\w*)(?:,? (?:and )?[A-Za-z_]\w*)*)")


def prose(path: Path) -> list[tuple[int, str]]:
    """The comments and docstrings of ``path``, with their line numbers."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if token.type == tokenize.COMMENT or (token.type == tokenize.STRING and token.string.lstrip("rbuRBU").startswith(('"""', "'''"))):
            found.append((token.start[0], token.string))
    return found


def named(text: str) -> set[tuple[str, str]]:
    """The ``(module, name)`` pairs ``text`` names; a name ending ``_*`` stands for every name it begins."""
    names = {(module, name + ("*" if text[end : end + 1] == "*" else "")) for module, name, end in ((m[1], m[2], m.end()) for m in DOTTED.finditer(text)) if name != "py"}
    for module, listed in OWNED.findall(text):
        names.update((module, name) for name in re.findall(r"[A-Za-z_]\w*", listed) if name not in ("and", "docstring"))
    return names


def exists(module, name: str) -> bool:
    if name.endswith("*"):
        return any(attribute.startswith(name[:-1]) for attribute in vars(module))
    return hasattr(module, name)


#: Every module of the built-in variants, both tiers.
MODULES = sorted(path for path in VARIANTS.glob("*/**/*.py") if path.name != "__init__.py")


def test_both_tiers_are_read():
    assert {path.relative_to(VARIANTS).parts[:2] for path in MODULES} >= {("classic", "fast"), ("fences", "fast"), ("fences", "rules.py")}


@pytest.mark.parametrize("path", MODULES, ids=lambda path: "/".join(path.relative_to(VARIANTS).parts))
def test_every_function_a_comment_names_across_the_tiers_exists(path):
    variant = path.relative_to(VARIANTS).parts[0]
    missing = []
    for line, text in prose(path):
        for module, name in sorted(named(text)):
            package = f"treehouse.variants.{variant}" + (".fast" if module in FAST else "")
            try:
                found = importlib.import_module(f"{package}.{module}")
            except ModuleNotFoundError:
                missing.append(f"line {line}: {module}.{name} (no module {variant}/{module}.py)")
                continue
            if not exists(found, name):
                missing.append(f"line {line}: {module}.{name}")
    assert missing == [], f"{path.name} names reference functions that do not exist"
