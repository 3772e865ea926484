"""OpenSpiel's MCTS as a seat: registered without OpenSpiel, deterministic from the run's seed, playable in th."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from treehouse.bots.options import check_bot_spec, make_bot
from treehouse.cli import app
from treehouse.errors import TreehouseError
from treehouse.kernel.engine import Game

runner = CliRunner()


def th(*args):
    return runner.invoke(app, list(args))


def test_loading_the_plugins_does_not_import_openspiel():
    code = "import sys; from treehouse.plugins import load_plugins; p = load_plugins(); assert 'mcts' in p.bots; print('pyspiel' in sys.modules, 'open_spiel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["False", "False"], out.stderr


def test_without_the_extra_the_bot_says_how_to_install_it(plugins, monkeypatch):
    monkeypatch.setitem(sys.modules, "treehouse.interop.mcts", None)  # as if OpenSpiel were missing
    with pytest.raises(TreehouseError) as error:
        make_bot(plugins, "mcts")
    assert str(error.value) == "the mcts bot needs OpenSpiel: pip install 'treehouse[openspiel]'"


pytest.importorskip("pyspiel", reason="OpenSpiel is the openspiel extra: pip install -e '.[openspiel]'")


def test_the_spec_is_checked_and_written_back(plugins):
    assert check_bot_spec(plugins, " MCTS( simulations=50 )") == "mcts(simulations=50)"


@pytest.mark.parametrize(
    "spec, words",
    [
        ("mcts(simulations=0)", "simulations must be at least 1"),
        ("mcts(evaluator=deep)", "evaluator must be one of random, heuristic"),
        ("mcts(depth=3)", "has no option 'depth'"),
        ("mcts(simulations=many)", "expected int"),
    ],
)
def test_bad_options_are_one_line(plugins, spec, words):
    with pytest.raises(TreehouseError, match=words) as error:
        check_bot_spec(plugins, spec)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("variant, evaluator", [("classic", "random"), ("fences", "heuristic"), ("fences", "random")])
def test_a_game_is_the_same_for_the_same_seed(plugins, variant, evaluator):
    def play(seed):
        seats = [make_bot(plugins, f"mcts(simulations=8, evaluator={evaluator})"), make_bot(plugins, "random")]
        game = Game(plugins.variant(variant)(), seats, random.Random(seed), turn_cap=40)
        game.play()
        return game.state, game.outcome

    assert play(5) == play(5)


def test_mcts_plays_house_rules_through_the_running_games_hooks(plugins):
    from treehouse.config import resolve

    effective = resolve(plugins, variant="fences-house-rules")
    seats = [make_bot(plugins, "mcts(simulations=5, evaluator=heuristic)") for _ in range(2)]
    game = Game(effective.variant(), seats, random.Random(2), turn_cap=10, house_rules=effective.house_rule_plugins(plugins))
    game.play()
    spiel = seats[0]._spiel
    assert spiel.flow.hooks is game.hooks


def test_th_simulate_with_mcts_gives_the_same_result_with_one_or_two_workers():
    def run(jobs):
        result = th("simulate", "--variant", "classic", "--seat", "mcts(simulations=6, evaluator=heuristic)", "--seat", "random", "--games", "4", "--seed", "3", "--jobs", str(jobs), "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        return data["wins"], data["turns_total"], data["seat_kinds"]

    one = run(1)
    assert one == run(2)
    assert one[2] == ["mcts(simulations=6, evaluator=heuristic)", "random"]


def test_th_compare_and_sweep_take_an_mcts_seat():
    result = th("compare", "classic", "classic-wiki", "--seat", "mcts(simulations=4, evaluator=heuristic)", "--seat", "random", "--games", "2", "--seed", "1")
    assert result.exit_code == 0, result.output
    result = th("sweep", "--variant", "classic", "--param", "rules.dig_in_place=true,false", "--seat", "mcts(simulations=4, evaluator=heuristic)", "--seat", "random", "--games", "2", "--seed", "1")
    assert result.exit_code == 0, result.output


def test_th_play_seats_mcts(tmp_path):
    record = tmp_path / "game.jsonl"
    result = th("play", "--variant", "fences", "--seat", "mcts(simulations=10, evaluator=heuristic)", "--seat", "random", "--watch", "--plain", "--seed", "3", "--record", str(record))
    assert result.exit_code == 0, result.output
    assert "mcts(simulations=10, evaluator=heuristic)" in record.read_text()
