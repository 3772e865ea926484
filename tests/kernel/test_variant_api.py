"""A variant is extended one way: a subclass overrides the base class's
methods and attributes (docs/authoring.md, "Every Variant method a plugin
may provide").  Every one is on the base class and in that table, and no
code looks a variant's method up by name."""

from __future__ import annotations

import re
from pathlib import Path

import treehouse
from treehouse.kernel.variant import Variant

AUTHORING = Path(__file__).resolve().parents[2] / "docs" / "authoring.md"


def table() -> str:
    text = AUTHORING.read_text()
    start = text.index("## Every `Variant` method a plugin may provide")
    return text[start : text.index("\n## ", start + 1)]


def test_every_method_and_attribute_of_the_base_class_is_in_the_authors_table():
    public = sorted(name for name in vars(Variant) if not name.startswith("_"))
    listed = set(re.findall(r"`([A-Za-z_]\w*)", table()))
    assert len(public) > 30
    assert [name for name in public if name not in listed] == []


def test_the_table_names_nothing_the_base_class_lacks():
    rows = [line.split("|")[1] for line in table().splitlines() if line.startswith("| `")]
    named = {name for row in rows for name in re.findall(r"`([A-Za-z_]\w*)", row)}
    assert sorted(name for name in named if not hasattr(Variant, name) and name != "name") == []


def test_no_code_looks_up_a_variants_method_by_name():
    """``getattr(variant, "exact_solver", None)`` was a third way to extend a
    variant, invisible in the base class; the methods are called directly."""
    methods = {name for name, value in vars(Variant).items() if callable(value) and not name.startswith("_")}
    pattern = re.compile(r"getattr\((?:self\.)?(?:variant|variant_class|flow\.variant|game\.variant)\w*, \"(\w+)\"")
    found = []
    for path in Path(treehouse.__file__).parent.rglob("*.py"):
        for name in pattern.findall(path.read_text()):
            if name in methods:
                found.append(f"{path.name}: {name}")
    assert found == []
