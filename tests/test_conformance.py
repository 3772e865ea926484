"""The conformance kit, run over every built-in variant (a third party runs it the same way)."""

from __future__ import annotations

import pytest

from treehouse.hookspecs import hookimpl
from treehouse.testing import check_variant


@pytest.mark.parametrize("name", ["classic", "classic-wiki", "fences"])
def test_builtin_variants_conform(plugins, name):
    if name == "fences" and "fences" not in plugins.variants:
        pytest.skip("the fences plugin is not installed")
    report = check_variant(name, plugins=plugins, games=3, turn_cap=150)
    assert report.games >= 3 and report.steps > 0


def test_the_kit_catches_a_move_that_is_a_pass(plugins, classic_class):
    """A broken variant: its moves include doing nothing."""
    from treehouse.variants.classic.game import ClassicMove, OWN

    class Lazy(classic_class):
        name = "lazy"
        aliases = ()

        @hookimpl
        def treehouse_legal_moves(self, state, step, face):
            own = state.trios[state.to_move]
            return super().treehouse_legal_moves(state, step, face) + (ClassicMove(OWN, own, "HOP"),)

    import types

    module = types.ModuleType("lazy_plugin")
    module.treehouse_register_variants = hookimpl(lambda register: register(Lazy))
    from treehouse.plugins import load_plugins

    broken = load_plugins(extra=[("lazy", module)])
    with pytest.raises(AssertionError, match="left the position unchanged: a pass is not a move"):
        check_variant("lazy", plugins=broken, games=5, players=[2])
