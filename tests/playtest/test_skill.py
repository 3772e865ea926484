"""Luck and skill: the ladder, each stronger bot's score on the same seeds, SkillTrace."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from treehouse.cli.app import app
from treehouse.config import resolve
from treehouse.playtest import skill
from treehouse.playtest.aggregate import Aggregate
from treehouse.playtest.work import RuleSpec, run


def test_pairs_put_adjacent_rungs_first():
    assert skill.pairs(("random", "greedy", "search")) == [("greedy", "random"), ("search", "greedy"), ("search", "random")]
    assert skill.pairs(("a", "b")) == [("b", "a")]


@pytest.mark.parametrize("score, players, edge", [(0.5, 2, 0.0), (1.0, 2, 1.0), (0.0, 2, -1.0), (0.75, 2, 0.5), (1 / 3, 3, 0.0), (1.0, 4, 1.0)])
def test_edge_is_zero_for_a_weak_bots_share(score, players, edge):
    assert skill.edge_of(score, players) == pytest.approx(edge)


def test_a_shared_result_counts_a_share():
    aggregate = Aggregate(2, games=10, entrant_wins=[6, 2])  # two games nobody won alone
    pair = skill.pair_result(aggregate, "strong", "weak")
    assert pair.score == pytest.approx(0.7) and pair.edge == pytest.approx(0.4)
    assert pair.low < 0.7 < pair.high


def test_skill_gap_and_its_interval():
    aggregate = Aggregate(2, games=100, entrant_wins=[70, 30])
    value, low, high = skill.gap(aggregate)
    assert value == pytest.approx(0.4)
    assert low < 0.4 < high and high - low == pytest.approx(2 * 1.96 * ((1 - 0.16) / 100) ** 0.5, rel=1e-3)
    assert skill.gap(Aggregate(2)) == (0.0, -1.0, 1.0)


def test_the_default_ladder_is_by_strength_and_leaves_out_what_cannot_play(plugins):
    fences = plugins.variant("fences")()
    bots = skill.ladder(plugins, fences, 2)
    strengths = [plugins.bot(name).strength for name in bots]
    assert strengths == sorted(strengths) and bots[0] == "random"
    assert {"random", "greedy", "search"} <= set(bots) and "perfect" not in bots  # no solved table for Fences
    assert skill.ladder(plugins, fences, 2, ("random", "search")) == ("random", "search")


def test_greedy_beats_random_at_fences_on_the_same_seeds(plugins):
    spec = RuleSpec.from_effective(resolve(plugins, variant="fences"))
    data = skill.measure(spec, ("random", "greedy"), 2, 40, 1, lambda batch, games: run(batch, games, plugins=plugins).sides[0])
    (pair,) = data["pairs"]
    assert pair["strong"] == "greedy" and pair["games"] == 40
    assert pair["low"] > 0.6  # skill shows, well beyond the dice
    assert data["SkillTrace"] == pair["edge"]


def _skill_json(*extra: str) -> dict:
    result = CliRunner().invoke(app, ["simulate", "--variant", "fences", "--games", "20", "--seed", "3", "--skill", "--skill-games", "20", "--skill-bots", "random,greedy", "--json", *extra])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    data.pop("seconds")
    return data


def test_simulate_skill_is_reproducible_for_any_jobs_and_in_the_report(tmp_path):
    one = _skill_json()
    assert one["skill"]["ladder"] == ["random", "greedy"] and len(one["skill"]["pairs"]) == 1
    assert -1 <= one["skill"]["SkillTrace"] <= 1
    assert _skill_json("--jobs", "2") == one
    report = tmp_path / "r.html"
    _skill_json("--report", str(report))
    page = report.read_text()
    assert "Luck and skill" in page and "SkillTrace" in page and "greedy vs random" in page


def test_simulate_without_skill_plays_no_ladder():
    result = CliRunner().invoke(app, ["simulate", "--variant", "fences", "--games", "10", "--json"])
    assert "skill" not in json.loads(result.stdout)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--skill-bots", "random"], "--skill-bots needs at least two different bots"),
        (["--skill-bots", "random,random"], "--skill-bots needs at least two different bots"),
        (["--skill-bots", "random,wizard"], "wizard"),
        (["--skill-games", "0"], "--skill-games must be from 1 to"),
    ],
)
def test_bad_skill_options_are_one_line(args, message):
    result = CliRunner().invoke(app, ["simulate", "--variant", "fences", "--games", "10", "--skill", *args])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
