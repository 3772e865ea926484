"""A hook that raises or answers the wrong type is one line naming the hook and
its plugin, where the answer enters the kernel, on the path users run
(``th simulate``'s games), never a traceback; and a bot factory that fails is
named too."""

from __future__ import annotations

import types

import pytest

from treehouse.bots.options import make_bot
from treehouse.config import resolve
from treehouse.errors import PluginError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.engine import Outcome
from treehouse.playtest.work import Batch, RuleSpec, run
from treehouse.plugins import load_plugins


def wrapper(hook: str, answer):
    """A house rule whose ``hook`` wraps the variant's and gives ``answer(result)`` instead."""
    names = {
        "treehouse_setup": "variant, players, rng",
        "treehouse_roll": "state, step, outcomes, rng",
        "treehouse_legal_moves": "state, step, face",
        "treehouse_apply_move": "state, step, move",
        "treehouse_outcome": "state, mover",
        "treehouse_end_turn": "state",
    }[hook]
    namespace: dict = {}
    exec(f"def {hook}(self, {names}):\n    result = yield\n    return self.answer(result)\n", namespace)
    cls = type("Bad", (), {"name": "bad", hook: hookimpl(wrapper=True)(namespace[hook]), "answer": staticmethod(answer)})
    return cls()


class Statistics:
    name = "bad"

    def __init__(self, answer):
        self.answer = answer

    @hookimpl
    def treehouse_step_statistics(self, before, after, step, move, mover):
        return self.answer()


class Evaluate:
    name = "bad"

    def __init__(self, answer):
        self.answer = answer

    @hookimpl
    def treehouse_evaluate(self, state, seat):
        return self.answer()


def _raise():
    raise ZeroDivisionError("division by zero")


WRONG = [
    (wrapper("treehouse_setup", lambda r: None), "treehouse_setup returned None (NoneType), expected a position whose to_move is a seat"),
    (wrapper("treehouse_roll", lambda r: "SEVEN"), "treehouse_roll returned 'SEVEN' (str), expected one of the chance node's outcomes (TIP, SWAP"),
    (wrapper("treehouse_legal_moves", lambda r: None), "treehouse_legal_moves gave an answer that is not a tuple of moves (TypeError"),
    (wrapper("treehouse_apply_move", lambda r: None), "treehouse_apply_move returned None (NoneType), expected the position after the move"),
    (wrapper("treehouse_outcome", lambda r: Outcome((7,), "seven wins")), "treehouse_outcome returned Outcome(winners=(7,), reason='seven wins')"),
    (wrapper("treehouse_outcome", lambda r: "won"), "treehouse_outcome returned 'won' (str), expected an Outcome"),
    (wrapper("treehouse_end_turn", lambda r: None), "treehouse_end_turn returned None (NoneType), expected a position with to_move"),
    (Statistics(_raise), "plugin 'bad' failed in treehouse_step_statistics: ZeroDivisionError: division by zero"),
    (Statistics(lambda: [1, 2]), "treehouse_step_statistics gave an answer that is not a dict of counter name -> number (AttributeError"),
    (Evaluate(_raise), "plugin 'bad' failed in treehouse_evaluate: ZeroDivisionError: division by zero"),
    (Evaluate(lambda: "lots"), "treehouse_evaluate returned 'lots' (str), expected a number"),  # strings compare: no error without the check
    (Evaluate(lambda: True), "treehouse_evaluate returned True (bool), expected a number"),
]


def plugins_with(rule):
    module = types.ModuleType("bad_rule")
    module.treehouse_register_house_rules = hookimpl(lambda register: register("bad", lambda variant, options: rule, "classic", description="misbehaves"))
    return load_plugins(extra=[("bad-rule", module)])


@pytest.mark.parametrize("rule, words", WRONG, ids=[words.split(" (")[0][:45] for _, words in WRONG])
def test_a_wrong_answer_is_one_line_naming_the_hook_and_plugin(rule, words):
    loaded = plugins_with(rule)
    spec = RuleSpec.from_effective(resolve(loaded, variant="classic", overrides=["house_rules=[bad]"]))
    with pytest.raises(PluginError) as caught:
        run(Batch((spec,), ("random", "random"), seed=1), 3, jobs=1, plugins=loaded)
    message = str(caught.value)
    assert message.startswith(words) or words in message, message
    assert "\n" not in message and len(message) < 400
    if "answered by" in message or "gave an answer" in message:
        assert "'bad'" in message.split("answered by")[1]


def _broken_factory():
    raise RuntimeError("no GPU")


@pytest.mark.parametrize(
    "factory, words",
    [
        (_broken_factory, "bot 'gpu' of plugin 'gpu-bots' failed to start: RuntimeError: no GPU"),
        (lambda: "not a bot", "bot 'gpu' of plugin 'gpu-bots': its factory returned str, not a seat with a choose() method"),
    ],
)
def test_a_bot_factory_that_fails_is_named(factory, words):
    module = types.ModuleType("gpu_bots")
    module.treehouse_register_bots = hookimpl(lambda register: register("gpu", factory, "needs a GPU"))
    loaded = load_plugins(extra=[("gpu-bots", module)])
    with pytest.raises(PluginError, match="^" + words.replace("(", r"\(").replace(")", r"\)")):
        make_bot(loaded, "gpu")


class _Raising:
    """Hook implementations that raise, named as hooks are (the blame reads the name)."""

    @hookimpl
    def treehouse_render(self, state, console_width):
        raise ZeroDivisionError("cannot draw")

    @hookimpl
    def treehouse_legal_moves(self, state, step, face):
        raise ZeroDivisionError("cannot list")


_raising_render = _Raising.treehouse_render
_raising_legal_moves = _Raising.treehouse_legal_moves
#: a whole classic position (th show and th moves draw and list it through the game's hooks)
POSITION = "L< S^ M> :: L^/M^/S^ | L^/M^/S^ :: 1"


@pytest.mark.parametrize(
    "hook, function, args",
    [
        ("treehouse_render", _raising_render, ["play", "-v", "classic", "--watch", "--delay", "0", "--seed", "1"]),
        ("treehouse_render", _raising_render, ["show", POSITION]),
        ("treehouse_legal_moves", _raising_legal_moves, ["moves", POSITION, "-a", "tip"]),
        ("treehouse_legal_moves", _raising_legal_moves, ["moves", "L^/M^/S^", "-a", "tip"]),  # a lone trio too
    ],
)
def test_a_hook_that_raises_outside_a_simulation_is_one_line(monkeypatch, tmp_path, hook, function, args):
    from typer.testing import CliRunner

    import treehouse.kernel.hooks as plugins_module
    from treehouse.cli import app
    from treehouse.variants.classic.game import Classic

    monkeypatch.setattr(Classic, hook, function)
    plugins_module._shared_game_hooks.cache_clear()
    try:
        if args[0] == "play":
            args = [*args, "--record", str(tmp_path / "game.jsonl")]
        result = CliRunner().invoke(app, args)
    finally:
        plugins_module._shared_game_hooks.cache_clear()
    assert result.exit_code == 2, result.output[-2000:]
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert errors == [f"error: plugin 'classic' failed in {hook}: ZeroDivisionError: cannot {'draw' if 'render' in hook else 'list'}"], result.stderr


# --------------------------------------------------------------------------
# end to end: a misbehaving house rule from a plugin folder, as a user meets it
# --------------------------------------------------------------------------

BAD_RULE_MODULE = """
import os
from treehouse.hookspecs import hookimpl

MODE = os.environ["BAD_RULE_MODE"]


class Bad:
    @hookimpl
    def treehouse_render(self, state, console_width):
        if MODE == "render-raises":
            raise ZeroDivisionError("cannot draw")
        return 42 if MODE == "render-wrong" else None

    @hookimpl
    def treehouse_legal_moves(self, state, step, face):
        if MODE == "moves-raises":
            raise ZeroDivisionError("cannot list")
        return 42 if MODE == "moves-wrong" else None

    @hookimpl
    def treehouse_step_statistics(self, before, after, step, move, mover):
        if MODE == "statistics-raises":
            raise ZeroDivisionError("no counters")
        return [1, 2] if MODE == "statistics-wrong" else None

    @hookimpl
    def treehouse_evaluate(self, state, seat):
        return "lots" if MODE == "evaluate-wrong" else None


@hookimpl
def treehouse_register_house_rules(register):
    register("bad", lambda variant, options: Bad(), "classic", description="misbehaves on purpose")
"""

BAD_RULE = ["--set", "house_rules=[bad]"]
SIMULATE = ["simulate", "-v", "classic", *BAD_RULE, "--games", "40", "--jobs", "2"]

#: (what the rule does wrong, the command after th, the one error line's start)
MISBEHAVING_RULES = [
    ("render-raises", ["show", POSITION, *BAD_RULE], "error: plugin 'bad' failed in treehouse_render: ZeroDivisionError: cannot draw"),
    ("render-wrong", ["show", POSITION, *BAD_RULE], "error: treehouse_render returned 42 (int), expected a rich renderable or a string; answered by plugin 'bad'"),
    ("moves-raises", ["moves", POSITION, "-a", "tip", *BAD_RULE], "error: plugin 'bad' failed in treehouse_legal_moves: ZeroDivisionError: cannot list"),
    ("moves-wrong", ["moves", POSITION, "-a", "tip", *BAD_RULE], "error: treehouse_legal_moves returned 42 (int), expected a tuple of moves; answered by plugin 'bad'"),
    ("moves-wrong", ["moves", "L^/M^/S^", "-a", "tip", *BAD_RULE], "error: treehouse_legal_moves returned 42 (int), expected a tuple of moves; answered by plugin 'bad'"),
    ("moves-raises", ["moves", "-", "-a", "tip", *BAD_RULE], "error: line 1: plugin 'bad' failed in treehouse_legal_moves: ZeroDivisionError: cannot list"),
    ("statistics-raises", SIMULATE, "error: plugin 'bad' failed in treehouse_step_statistics: ZeroDivisionError: no counters"),
    ("statistics-wrong", SIMULATE, "error: treehouse_step_statistics gave an answer that is not a dict of counter name -> number"),
    ("evaluate-wrong", SIMULATE, "error: treehouse_evaluate returned 'lots' (str), expected a number; answered by plugin 'bad'"),
]


@pytest.mark.parametrize("mode, args, line", MISBEHAVING_RULES, ids=[f"{mode}-{args[0]}-{i}" for i, (mode, args, _l) in enumerate(MISBEHAVING_RULES)])
def test_a_misbehaving_house_rule_in_a_plugin_folder_is_one_line_and_leaves_no_worker(tmp_path, mode, args, line):
    import os
    import signal
    import subprocess
    import sys

    (tmp_path / "bad_rule.py").write_text(BAD_RULE_MODULE)
    env = {**os.environ, "BAD_RULE_MODE": mode}
    env.pop("TREEHOUSE_DEBUG", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "treehouse", "--plugins-dir", str(tmp_path), *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
    )
    try:
        _output, errors = process.communicate(POSITION + "\n", timeout=300)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 2, errors[-2000:]
    assert "Traceback" not in errors, errors[-2000:]
    assert errors.strip().splitlines() == [errors.strip()] and errors.strip().startswith(line), errors[-2000:]
    # the session holds the command and its workers: none is left once it has ended
    try:
        os.killpg(process.pid, 0)
    except ProcessLookupError:
        pass
    else:
        raise AssertionError("a process of the command outlived it")
