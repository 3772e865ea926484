"""Docs that must not fall behind the code."""

from __future__ import annotations

from pathlib import Path

import treehouse.hookspecs as hookspecs

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_hook_is_documented():
    text = (DOCS / "hooks.md").read_text()
    hooks = [name for name in vars(hookspecs) if name.startswith("treehouse_")]
    assert len(hooks) >= 10
    missing = [name for name in hooks if f"## `{name}(" not in text]
    assert missing == []


def test_every_classic_option_is_documented(classic_class):
    text = (DOCS / "rules" / "classic.md").read_text()
    missing = [key for key in classic_class.Rules.model_fields if f"`{key}`" not in text]
    assert missing == []
