"""The conformance kit, run over every built-in variant (a third party runs it the same way)."""

from __future__ import annotations

import pytest

from treehouse.hookspecs import hookimpl
from treehouse.testing import check_variant

pytestmark = pytest.mark.example("pyramid-race", "fences-house-rules")


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


class _Flaky:
    """An impure house rule: it keeps a count between calls and answers by it."""

    def __init__(self, variant, options):
        self.calls = 0

    @hookimpl(tryfirst=True)
    def treehouse_evaluate(self, state, seat):
        self.calls += 1
        return float(self.calls)


class _BadDie:
    def __init__(self, variant, options):
        pass

    @hookimpl(tryfirst=True)
    def treehouse_chance(self, state, step):
        from fractions import Fraction

        return (("TIP", Fraction(1, 2)), ("HOP", Fraction(1, 3)))


class _Rules:
    @hookimpl
    def treehouse_register_house_rules(self, register):
        register("flaky", _Flaky, variants="classic")
        register("bad-die", _BadDie, variants="classic")


@pytest.mark.parametrize(
    "rule, line",
    [
        ("flaky", "treehouse_evaluate (plugin 'flaky') answered differently when asked twice with the same arguments: hooks must be pure"),
        ("bad-die", "treehouse_chance (plugin 'bad-die'): a chance node's probabilities sum to 5/6, not 1"),
    ],
)
def test_a_broken_contract_is_one_line_naming_the_hook_and_the_plugin(rule, line):
    from treehouse.plugins import load_plugins

    plugins = load_plugins(extra=[("rules", _Rules())])
    with pytest.raises(AssertionError) as caught:
        check_variant("classic", plugins=plugins, games=1, players=[2], overrides=[f"house_rules=[{rule}]"], house_rules=False)
    assert line in str(caught.value) and "\n" not in str(caught.value)


def test_the_kit_plays_each_fitting_house_rule(plugins):
    report = check_variant("classic", plugins=plugins, games=1, players=[2], turn_cap=100)
    assert {"mirror-matches", "no-house-moves"} <= set(report.house_rules)


@pytest.mark.parametrize("name", ["classic", "fences", "race"])
def test_the_kit_runs_openspiel_and_pettingzoo_checks_on_each_house_rule(name):
    """With the extras installed the kit runs random_sim_test and api_test on
    the rule set and every house rule it plays, the example's wild-repair
    (a new move kind) and large-fences-only included."""
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    if name == "race":
        pytest.importorskip("pyramid_race")
    report = check_variant(name, games=1, players=[2], turn_cap=100, fresh_process=False)
    checked = set(report.interop)
    for label in ["its rule set", *(f"house rule {rule}" for rule in report.house_rules)]:
        assert {f"random_sim_test: 2 players, {label}", f"api_test: 2 players, {label}"} <= checked
    if name == "fences" and "wild-repair" in report.house_rules:
        assert "large-fences-only" in report.house_rules
    if name == "classic":
        assert "no-house-moves" in report.house_rules
    if name == "fences":
        assert "no-house-moves" not in report.house_rules
