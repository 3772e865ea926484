"""Docs that must not fall behind the code."""

from __future__ import annotations

from pathlib import Path

import treehouse.hookspecs as hookspecs

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_hook_is_documented():
    import treehouse.kernel.fast.hookspecs as fast_hookspecs

    text = (DOCS / "hooks.md").read_text()
    hooks = [name for specs in (hookspecs, fast_hookspecs) for name in vars(specs) if name.startswith("treehouse_")]
    assert len(hooks) >= 10
    missing = [name for name in hooks if f"## `{name}(" not in text]
    assert missing == []


def test_the_spec_a_house_rule_author_reads_holds_no_performance_plumbing():
    """The fast tier's hooks (a look at many moves, every seat's evaluation,
    the compiled game) live in a spec of their own, documented apart."""
    import treehouse.kernel.fast.hookspecs as fast_hookspecs

    fast = {name for name in vars(fast_hookspecs) if name.startswith("treehouse_")}
    assert fast == {"treehouse_look_moves", "treehouse_look_all_moves", "treehouse_evaluate_seats", "treehouse_compiled_game"}
    assert not fast & set(vars(hookspecs))
    text = (DOCS / "hooks.md").read_text()
    assert text.index("## The fast tier's hooks") > max(text.index(f"## `{name}(") for name in vars(hookspecs) if name.startswith("treehouse_"))


def test_every_classic_option_is_documented(classic_class):
    text = (DOCS / "rules" / "classic.md").read_text()
    missing = [key for key in classic_class.Rules.model_fields if f"`{key}`" not in text]
    assert missing == []


def test_the_hooks_page_is_written_from_the_contracts_in_markdown():
    """docs/hooks.md is what docs/tools/hooks_md.py writes from hookspecs.py, with no reST left in it."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("hooks_md", DOCS / "tools" / "hooks_md.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (DOCS / "hooks.md").read_text()
    assert text == module.page(), "docs/hooks.md is out of date: run python docs/tools/hooks_md.py"
    prose = "\n".join(line for line in text.splitlines() if not line.startswith("```"))
    for rest in (":param ", ":returns:", "``", ":class:`", ":func:`", ":mod:`", ":data:`"):
        assert rest not in prose


def test_the_fences_api_page_documents_the_hook_and_every_cause():
    from treehouse.variants.fences import hookspecs as fences_hookspecs
    from treehouse.variants.fences.hits import Cause

    text = (DOCS / "fences-api.md").read_text()
    hooks = [name for name in vars(fences_hookspecs) if name.startswith("treehouse_")]
    assert hooks == ["treehouse_fences_hits"]
    assert all(f"`{name}(" in text for name in hooks)
    assert [cause.name for cause in Cause if f"`{cause.name}`" not in text] == []
