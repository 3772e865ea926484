"""The plugin-manager factory: entry points, blocking, broken plugins, tracing, hook binding."""

from __future__ import annotations

import random
import types
from importlib.metadata import EntryPoint

import pytest

import treehouse.plugins as plugins_module
from treehouse.errors import PluginError, UnknownNameError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.engine import Game
from treehouse.plugins import game_hooks, load_plugins
from treehouse.variants.classic.game import Classic


def test_builtins_come_through_the_entry_point_group(plugins):
    assert plugins.variant_plugins["classic"] == "classic"
    assert plugins.bots["random"].plugin == "random-bot"
    assert plugins.problems == []


def test_lookup_by_alias_and_unknown_names(plugins):
    assert plugins.variant("Treehouse") is Classic
    with pytest.raises(UnknownNameError, match="unknown variant 'chess'; known: classic"):
        plugins.variant("chess")
    with pytest.raises(UnknownNameError, match="unknown bot 'genius'"):
        plugins.bot("genius")


def test_blocking_by_argument_and_environment(monkeypatch):
    assert "classic" not in load_plugins(block=["classic"]).variants
    monkeypatch.setenv("TREEHOUSE_BLOCK_PLUGINS", "classic, random-bot")
    loaded = load_plugins()
    assert "classic" not in loaded.variants and "random" not in loaded.bots


def test_a_plugin_that_fails_to_import_is_one_line(monkeypatch):
    real = plugins_module._entry_points()
    broken = EntryPoint("broken", "treehouse_no_such_module_xyz", "treehouse")
    monkeypatch.setattr(plugins_module, "_entry_points", lambda: [*real, broken])
    loaded = load_plugins()
    assert "classic" in loaded.variants
    assert len(loaded.problems) == 1
    assert loaded.problems[0].startswith("plugin 'broken' failed to import: ModuleNotFoundError")
    assert "\n" not in loaded.problems[0]


def test_a_misspelt_hook_is_named():
    plugin = types.ModuleType("typo_plugin")

    @hookimpl
    def treehouse_register_variant(register):  # missing the final s
        pass

    plugin.treehouse_register_variant = treehouse_register_variant
    loaded = load_plugins(extra=[("typo", plugin)])
    assert loaded.problems == ["plugin 'typo' implements unknown hook(s) treehouse_register_variant; was it misspelt?"]


def test_a_name_already_taken_is_refused_and_the_first_stays():
    class Impostor(Classic):
        name = "classic"

    plugin = types.ModuleType("impostor")
    plugin.treehouse_register_variants = hookimpl(lambda register: register(Impostor))
    loaded = load_plugins(extra=[("impostor", plugin)])
    assert loaded.variant("classic") is Classic
    assert loaded.problems == ["plugin 'impostor': variant name 'classic' is already taken by plugin 'classic'; ignored"]


def test_a_plugin_that_raises_while_registering_is_one_line():
    plugin = types.ModuleType("raiser")

    def register_variants(register):
        raise RuntimeError("boom")

    plugin.treehouse_register_variants = hookimpl(register_variants)
    loaded = load_plugins(extra=[("raiser", plugin)])
    assert loaded.problems == ["plugin 'raiser' raised in treehouse_register_variants: RuntimeError: boom"]
    assert "classic" in loaded.variants


def test_game_managers_are_built_per_rules_not_at_import(classic_class):
    a = game_hooks(classic_class())
    assert game_hooks(classic_class()) is a  # equal rules share one
    assert game_hooks(classic_class({"dig_in_place": False})) is not a
    assert a.kernel_only == {"treehouse_setup_step", "treehouse_turn_steps", "treehouse_chance", "treehouse_roll", "treehouse_choose_move", "treehouse_resolve", "treehouse_render_compact"}  # classic answers treehouse_look_moves (its compiled core); its drawing is small already


def test_a_misspelt_game_hook_is_refused(classic):
    class Typo:
        name = "typo"

        @hookimpl
        def treehouse_legal_move(self, state, step, face):
            return ()

    with pytest.raises(PluginError, match="unknown hook\\(s\\) treehouse_legal_move"):
        game_hooks(classic, house_rules=[Typo()])


def test_tracing_prints_hook_calls(monkeypatch, capsys, classic, random_bot):
    monkeypatch.setenv("TREEHOUSE_TRACE_PLUGINS", "1")
    game = Game(classic, [random_bot(), random_bot()], random.Random(1), turn_cap=1)
    game.play()
    assert "treehouse_legal_moves" in capsys.readouterr().err


def test_bound_hooks_follow_pluggy_order_and_first_result(classic):
    class Prefer:
        name = "prefer"

        @hookimpl(tryfirst=True)
        def treehouse_legal_moves(self, state, step, face):
            return None  # declines: the variant answers

    class Override:
        name = "override"

        @hookimpl(tryfirst=True)
        def treehouse_turn_steps(self, state):
            return ()

    hooks = game_hooks(classic, house_rules=[Prefer(), Override()])
    state = classic.treehouse_setup(classic, 2, random.Random(0))
    assert hooks.treehouse_legal_moves(state, None, "HOP") == classic.treehouse_legal_moves(state, None, "HOP")
    assert hooks.treehouse_turn_steps(state) == ()
    assert "treehouse_turn_steps" not in hooks.kernel_only
