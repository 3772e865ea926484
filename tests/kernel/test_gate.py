"""The fast tier's gate (kernel/fast/gate.py): the core answers only where
its answers are the hooks' own, and a house rule that keeps it away says
so once, with the form that would keep it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tiers import SmallsIgnoreColour

from treehouse.config import resolve
from treehouse.hookspecs import hookimpl
from treehouse.kernel.fast import compiled, gate
from treehouse.kernel.hooks import game_hooks
from treehouse.kernel.pieces import Size
from treehouse.plugins import load_plugins
from treehouse.variants.fences.hits import JudgedBySource, Verdict, ignoring_colour


class LateSmallsIgnoreColour:
    """A rule no table holds: from turn 10 on, a Stack's Hits Damage whatever the colour (it reads the position)."""

    def __init__(self, variant, options):
        pass

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        standing = yield
        if state.turn < 10:
            return standing
        return tuple(ignoring_colour(hit) if hit.source is not None and hit.source.size is Size.SMALL else hit for hit in standing)


class SmallsIgnoreColourDeclared(JudgedBySource):
    """The same rule in the declared form."""

    def verdict(self, size, cause):
        return Verdict.IGNORES_COLOUR if size is Size.SMALL else Verdict.STANDS


class Rules:
    @hookimpl
    def treehouse_register_house_rules(self, register):
        register("smalls-plain", SmallsIgnoreColour, variants="fences", description="plain wrapper")
        register("smalls-declared", SmallsIgnoreColourDeclared, variants="fences", description="declared form")
        register("late-smalls", LateSmallsIgnoreColour, variants="fences", description="reads the position")


@pytest.fixture(scope="module")
def loaded():
    plugins = load_plugins(extra=[("gate-rules", Rules())])
    assert plugins.problems == []
    return plugins


def use_plugins(monkeypatch, loaded):
    """Every command module finds the test's house rules as installed plugins."""
    import sys

    import treehouse.cli.app  # noqa: F401  (every command module imported)

    for name, module in list(sys.modules.items()):
        if name.startswith("treehouse.cli") and callable(getattr(module, "plugins", None)):
            monkeypatch.setattr(module, "plugins", lambda: loaded)


def hooks_of(loaded, *rules):
    effective = resolve(loaded, variant="fences", overrides=[f"house_rules=[{', '.join(rules)}]"])
    return effective, game_hooks(effective.variant(), effective.house_rule_plugins(loaded))


@pytest.mark.parametrize(
    "rules, keeps_core",
    [
        ((), True),
        (("smalls-declared",), True),
        (("smalls-plain",), True),
        (("smalls-declared", "smalls-plain"), True),
        (("late-smalls",), False),
        (("smalls-declared", "late-smalls"), False),
    ],
)
def test_the_gate_lets_the_core_answer_only_for_rules_it_can_take_in(loaded, rules, keeps_core):
    variant = loaded.variant("fences")
    _effective, hooks = hooks_of(loaded, *rules)
    assert gate.may_answer(hooks, variant.FAST_HOOKS, variant.FAST_FORMS) is keeps_core
    assert (hooks.variant.core_verdicts(*variant.LOOK_HOOKS) is not None) is keeps_core
    assert (gate.slow_rules(hooks) == []) is keeps_core


def test_a_rule_the_core_cannot_take_in_is_named_once_with_its_hook_why_the_cost_and_the_form_that_keeps_the_core(loaded, monkeypatch):
    monkeypatch.delenv(compiled.COMPILED_ENV, raising=False)
    compiled.reset_for_tests()
    effective, _hooks = hooks_of(loaded, "late-smalls")
    assert effective.slow == [
        "house rule 'late-smalls' (treehouse_fences_hits: it reads the position) answers in a form the compiled core cannot take in:"
        " bots that look ahead play on the reference rules, 10 to 90 times the CPU;"
        " written as a wrapper that judges each Hit by its cause and source size alone (docs/fences-api.md), a rule keeps the core"
    ]
    assert hooks_of(loaded, "smalls-declared")[0].slow == []
    assert hooks_of(loaded, "smalls-plain")[0].slow == []


def test_with_the_core_turned_off_nothing_is_said(loaded, monkeypatch):
    monkeypatch.setenv(compiled.COMPILED_ENV, "0")
    compiled.reset_for_tests()
    try:
        assert hooks_of(loaded, "late-smalls")[0].slow == []
    finally:
        monkeypatch.delenv(compiled.COMPILED_ENV)
        compiled.reset_for_tests()


@pytest.mark.parametrize(
    "rules, says",
    [
        ("smalls-declared", "Tier: compiled core for bots that look ahead"),
        ("smalls-plain", "Tier: compiled core for bots that look ahead"),
        ("late-smalls", "Tier: reference rules for bots that look ahead: house rule 'late-smalls' (treehouse_fences_hits: it reads the position)"),
    ],
)
def test_th_rules_says_which_tier_a_rule_set_runs_on(loaded, monkeypatch, rules, says):
    from treehouse.cli.app import app

    monkeypatch.delenv(compiled.COMPILED_ENV, raising=False)
    compiled.reset_for_tests()
    use_plugins(monkeypatch, loaded)
    result = CliRunner().invoke(app, ["rules", "--variant", "fences", "--set", f"house_rules=[{rules}]"])
    assert result.exit_code == 0, result.output
    assert says in " ".join(result.output.split())


@pytest.mark.parametrize("seats, lines", [(("greedy", "random"), 1), (("random", "random"), 0)])
@pytest.mark.parametrize(
    "command",
    [["simulate", "--variant", "fences", "--set"], ["compare", "fences", "--set-b"], ["sweep", "--variant", "fences", "--param", "rules.turn_limit=5,6", "--set"]],
    ids=lambda command: command[0],
)
def test_a_playtest_whose_bots_look_ahead_under_a_rule_the_core_cannot_take_in_says_so_once(loaded, monkeypatch, command, seats, lines):
    from treehouse.cli.app import app

    monkeypatch.delenv(compiled.COMPILED_ENV, raising=False)
    compiled.reset_for_tests()
    use_plugins(monkeypatch, loaded)
    args = [*command, "house_rules=[late-smalls]", "--games", "1", "--jobs", "1", "--seat", seats[0], "--seat", seats[1]]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stderr.count("cannot take in") == lines, result.stderr


@pytest.mark.parametrize("seats, lines", [('["greedy", "random"]', 1), ('["random", "random"]', 0)])
def test_th_tune_whose_bots_look_ahead_under_a_rule_the_core_cannot_take_in_says_so_once(loaded, monkeypatch, tmp_path, seats, lines):
    from treehouse.cli.app import app

    monkeypatch.delenv(compiled.COMPILED_ENV, raising=False)
    compiled.reset_for_tests()
    use_plugins(monkeypatch, loaded)
    (tmp_path / "plain.yaml").write_text("extends: fences\nhouse_rules: [late-smalls]\n")
    (tmp_path / "tune.yaml").write_text(
        f"rule_set: plain.yaml\nseats: {seats}\noptions:\n  line_hits: [new, every_check]\n"
        "targets:\n  mean_turns: [15, 30]\ngames: {first: 1, factor: 2, rungs: 1}\nchunk: 1\n"
    )
    result = CliRunner().invoke(app, ["tune", str(tmp_path / "tune.yaml"), "--out", str(tmp_path / "out"), "--budget-games", "2", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("cannot take in") == lines, result.stderr


def test_commands_that_play_no_game_say_nothing_of_the_core(loaded, monkeypatch):
    from treehouse.cli.app import app

    monkeypatch.delenv(compiled.COMPILED_ENV, raising=False)
    compiled.reset_for_tests()
    use_plugins(monkeypatch, loaded)
    result = CliRunner().invoke(app, ["rules", "--variant", "fences", "--set", "house_rules=[smalls-plain]"])
    assert result.exit_code == 0 and "warning:" not in result.stderr, result.stderr
