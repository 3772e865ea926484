"""The third-party example (examples/pyramid-race), installed by pip as its own
distribution and reached only through the entry point, never imported by path."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.testing import check_variant

pytestmark = pytest.mark.example("pyramid-race")

runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def installed(plugins):
    if "race" not in plugins.variants:
        pytest.fail("examples/pyramid-race is not installed: pip install ./examples/pyramid-race (the README's test command does)")
    assert plugins.variant_plugins["race"] == "pyramid-race"
    assert plugins.loaded["pyramid-race"].distribution == "treehouse-pyramid-race"


def test_listed_by_th_variants():
    names = {v["name"] for v in json.loads(runner.invoke(app, ["variants", "--json"]).stdout)["variants"]}
    assert "race" in names


def test_played_by_th_play(tmp_path):
    record = tmp_path / "race.jsonl"
    result = runner.invoke(app, ["play", "--variant", "race", "--watch", "--players", "3", "--seed", "4", "--delay", "0", "--record", str(record)])
    assert result.exit_code == 0, result.output
    assert "wins" in result.stdout
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["variant"] == "race" and lines[-1]["event"] == "end"


def test_simulated_by_th_simulate():
    result = runner.invoke(app, ["simulate", "--variant", "race", "--games", "40", "--seat", "random", "--seat", "random", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 40 and sum(data["wins"]) + data["draws"] + data["timeouts"] >= 40


def test_passes_the_conformance_kit(plugins):
    assert check_variant("race", plugins=plugins, games=2).games == 8
