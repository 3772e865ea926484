"""Plugins that misbehave while loading: each is left out (or loses its name) with
one warning naming it, and the tool goes on; only a real Ctrl-C stops it."""

from __future__ import annotations

import os
import signal
import sys
import time
import types
from importlib.metadata import EntryPoint

import pytest

import treehouse.plugins as plugins_module
from treehouse.hookspecs import hookimpl
from treehouse.plugins import load_plugins
from treehouse.variants.classic.game import Classic

pytestmark = pytest.mark.example("pyramid-race")


def _exit(code):
    def run(*args, **kwargs):
        sys.exit(code)

    return run


def _interrupt(*args, **kwargs):
    raise KeyboardInterrupt


def _sleep(seconds):
    def run(*args, **kwargs):
        time.sleep(seconds)

    return run


class DupClassic(Classic):
    name = "classic"
    aliases = ()


def _register_dup_classic(register):
    register(DupClassic)


def _register_dup_random(register):
    register("random", lambda: None, "an impostor")


#: (what the plugin module does at import, its registration hooks, the start of the warning)
MISBEHAVIOURS = [
    (_exit(3), {}, "plugin 'aa-bad' failed to import: SystemExit(3): it called sys.exit()"),
    (_exit(None), {}, "plugin 'aa-bad' failed to import: SystemExit(None)"),
    (_interrupt, {}, "plugin 'aa-bad' failed to import: KeyboardInterrupt"),
    (None, {"treehouse_register_variants": _exit(4)}, "plugin 'aa-bad' raised in treehouse_register_variants: SystemExit(4)"),
    (None, {"treehouse_register_bots": _interrupt}, "plugin 'aa-bad' raised in treehouse_register_bots: KeyboardInterrupt"),
    (None, {"treehouse_register_variants": _register_dup_classic}, "plugin 'aa-bad': variant name 'classic' is already taken by plugin 'classic'; ignored"),
    (None, {"treehouse_register_bots": _register_dup_random}, "plugin 'aa-bad': bot name 'random' is already taken by plugin 'random-bot'; ignored"),
    (None, {"treehouse_register_bots": _sleep(0.3)}, "plugin 'aa-bad' is slow to load: 0.3 s to import and register"),
]


def install(monkeypatch, at_import, hooks, name="aa-bad"):
    """An entry point ``name`` (sorting before every built-in) of a module that does ``at_import`` when loaded."""
    module_name = "treehouse_test_misbehaving_plugin"
    module = types.ModuleType(module_name)
    for hook, function in hooks.items():
        setattr(module, hook, hookimpl(function))
    monkeypatch.delitem(sys.modules, module_name, raising=False)

    real_load = EntryPoint.load

    def load(ep):
        if ep.value != module_name:
            return real_load(ep)
        if at_import is not None:
            at_import()
        return module

    monkeypatch.setattr(EntryPoint, "load", load)
    real = plugins_module.entry_points(group=plugins_module.ENTRY_POINT_GROUP)
    fake = EntryPoint(name, module_name, plugins_module.ENTRY_POINT_GROUP)
    monkeypatch.setattr(plugins_module, "entry_points", lambda group: [fake, *real])
    monkeypatch.setattr(plugins_module, "SLOW_PLUGIN_SECONDS", 0.2)


@pytest.mark.parametrize("at_import, hooks, warning", MISBEHAVIOURS, ids=[w.split(": ", 1)[-1][:40] for *_, w in MISBEHAVIOURS])
def test_a_misbehaving_plugin_is_one_warning_and_the_rest_load(monkeypatch, at_import, hooks, warning):
    loaded = load_plugins()
    assert loaded.variant("classic") is Classic and loaded.bots["random"].plugin == "random-bot"
    install(monkeypatch, at_import, hooks)
    loaded = load_plugins()
    assert loaded.variant("classic") is Classic, "a built-in name is never taken"
    assert loaded.bots["random"].plugin == "random-bot"
    assert "fences" in loaded.variants
    assert len(loaded.problems) == 1 and loaded.problems[0].startswith(warning), loaded.problems
    assert "\n" not in loaded.problems[0]


def test_a_real_ctrl_c_while_plugins_load_stops_the_command(monkeypatch):
    install(monkeypatch, lambda: (os.kill(os.getpid(), signal.SIGINT), time.sleep(5)), {})
    with pytest.raises(KeyboardInterrupt):
        load_plugins()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back as it was


@pytest.mark.parametrize(
    "blocked, gone, warning",
    [
        ("race", "race", None),  # a variant's name: its entry point is pyramid-race
        ("treehouse", "classic", None),  # an alias
        ("classic", "classic", None),  # an entry point's name, as before
        ("nosuch", None, "TREEHOUSE_BLOCK_PLUGINS: 'nosuch' matches no plugin and no variant; plugins: "),
    ],
)
def test_block_plugins_takes_variant_names_and_warns_on_names_matching_nothing(monkeypatch, blocked, gone, warning):
    if gone == "race" and "race" not in load_plugins().variants:
        pytest.skip("the example plugin is not installed")
    monkeypatch.setenv("TREEHOUSE_BLOCK_PLUGINS", blocked)
    loaded = load_plugins()
    if gone is not None:
        assert gone not in loaded.variants and all(v != gone for v in loaded.aliases.values())
        assert loaded.problems == []
    else:
        assert len(loaded.problems) == 1 and loaded.problems[0].startswith(warning)
        assert "classic" in loaded.variants
