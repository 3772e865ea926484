"""Sweeps a person can read: the terminal table at 80 columns (piped too), the report's axes and labels,
and every command that writes a file saying where."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from treehouse.cli import app

runner = CliRunner()
SEATS = ("--seat", "random", "--seat", "random")


def th(*args):
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "80"})
    assert "Traceback" not in result.output and result.exit_code == 0, result.output[-3000:]
    return result


def test_a_two_parameter_sweep_is_one_row_per_point_within_80_columns_with_a_key():
    result = th("sweep", "-v", "fences", "--param", "rules.line_hits=new,every_check", "--param", "rules.draft=random,distinct", "--games", 6, *SEATS)
    lines = result.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines[1:]), [line for line in lines if len(line) > 80]  # after the title sentence
    header = next(line for line in lines if line.startswith("line_hits"))
    assert header.split() == ["line_hits", "draft", "P1", "win", "draw", "cap", "turns", "DM", "Bal"]
    rows = [line.split() for line in lines if line.split() and line.split()[0] in ("new", "every_check")]
    assert [row[:2] for row in rows] == [["new", "random"], ["new", "distinct"], ["every_check", "random"], ["every_check", "distinct"]]
    assert "…" not in result.stdout  # no value is cut
    assert "Key: P1 win: seat 1's win rate (random) [95% interval]; draw: draws;" in result.stdout


def test_a_wide_sweep_is_a_block_per_point_naming_every_parameter():
    result = th(
        "sweep", "-v", "fences", "--param", "rules.line_hits=new,every_check", "--param", "rules.draft=random,distinct",
        "--param", "rules.uniform_dig=hit,noop", "--games", 4, *SEATS,
    )
    lines = result.stdout.splitlines()
    assert "#1 line_hits=new, draft=random, uniform_dig=hit" in lines
    assert "#8 line_hits=every_check, draft=distinct, uniform_dig=noop" in lines
    assert all(len(line) <= 80 for line in lines[1:])
    assert "…" not in result.stdout


def test_the_sweep_report_has_axes_a_key_of_every_parameter_and_a_half_line(tmp_path):
    report = tmp_path / "sweep.html"
    result = th("sweep", "-v", "fences", "--param", "rules.line_hits=new,every_check", "--param", "rules.draft=random,distinct", "--games", 6, *SEATS, "--report", report)
    assert f"Wrote the report to {report}" in result.stderr
    page = report.read_text()
    # the key names both parameters of every point
    for point, line_hits, draft in (("#1", "new", "random"), ("#4", "every_check", "distinct")):
        assert f"<td>{point}</td><td>{line_hits}</td><td>{draft}</td>" in page
    assert "<th>rules.line_hits</th><th>rules.draft</th>" in page
    # charts: axis titles and point labels that are short enough never to overlap
    assert page.count("sweep point (see the key)") == 6
    labels = re.findall(r'font-size="11" text-anchor="middle">(#\d+)</text>', page)
    assert labels and max(len(label) for label in labels) <= 3
    # the win-rate chart has its 0.5 line; each point's histogram has a y axis with percentages
    assert '<title>even: 0.5</title></line>' in page
    histogram = page[page.index('aria-label="game length histogram: #4'):]
    histogram = histogram[: histogram.index("</svg>")]
    assert "rotate(-90" in histogram and ">games</text>" in histogram and ">turns</text>" in histogram
    assert re.search(r'text-anchor="end">\d+\.\d%</text>', histogram)


@pytest.mark.parametrize("command", ["simulate", "compare", "sweep"])
def test_every_file_written_is_named(tmp_path, command):
    args = {"simulate": ("simulate", "-v", "classic"), "compare": ("compare", "classic", "classic-wiki"), "sweep": ("sweep", "-v", "classic", "--param", "rules.dig_in_place=true,false")}[command]
    csv, report, records = tmp_path / "out.csv", tmp_path / "out.html", tmp_path / "records"
    result = th(*args, "--games", 4, *SEATS, "--csv", csv, "--report", report, "--records", records)
    assert f"Wrote the CSV to {csv}" in result.stderr
    assert f"Wrote the report to {report}" in result.stderr
    assert f"Wrote every game's record to {records}" in result.stderr
    assert csv.is_file() and report.is_file() and records.is_dir()


def test_a_long_bot_spec_wraps_in_the_outcomes_table_rather_than_being_cut():
    # cut short, mcts(simulations=200) would read as mcts(simulations=20…
    for seats, table_of in ((["--fixed-seats"], lambda out: out.split("Win rates by seat")[1].split("\n  AdvantageP1")[0]), ([], lambda out: out.split("Score and edge")[1].split("\nties ")[0])):
        result = runner.invoke(app, ["simulate", "-v", "classic", "--seat", "mcts(simulations=2)", "--seat", "greedy", *seats, "--games", "1"], env={"COLUMNS": "60"})
        assert result.exit_code == 0, result.output
        table = table_of(result.stdout)
        assert "…" not in table.split("┡")[1]
        column = 2 if seats else 1  # the seat table's bot column, or the entrants'
        cells = "".join(line.split("│")[column].strip() for line in table.splitlines() if line.count("│") > 2)
        assert "mcts(simulations=2)" in cells


def test_the_simulate_report_defines_every_metric_it_shows():
    result = th("simulate", "-v", "classic", "--games", 40, "--seat", "random", "--seat", "greedy")
    out = result.stdout
    assert "seats random, greedy (rotated: each bot plays each seat in turn)" in out  # the bots, and how they sat
    defined = out.split("What each row measures:")[1]
    for name in ("AdvantageP1", "Balance", "Completion", "Drawishness", "Timeouts", "Duration", "DecisionMoves", "LeadChange", "Decisiveness", "OtherTurnWins", "DecisionsPerGame"):
        assert re.search(rf"^  {name} +\S", defined, re.M), name
    assert all(len(line) <= 80 for line in defined.splitlines())


def test_the_compare_table_fits_80_columns_with_tiny_p_values_as_less_than():
    result = th("compare", "classic", "--set-b", "dig_in_place=false", "--games", 300, *SEATS)
    lines = result.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines[1:]), [line for line in lines if len(line) > 80]
    row = next(line.strip() for line in lines if line.strip().startswith("DecisionMoves"))
    assert row.split()[-3:] == ["<", "0.001", "*"], row  # the one significant change, its p below what three decimals show
    assert not re.search(r"\b0\.0000\b", result.stdout)
    assert any(line.strip().startswith("win rate seat 1 (random) ") for line in lines)  # the seat named with its bot
    defined = result.stdout.split("What each row measures:")[1]
    for name in ("win rate seat 2", "AdvantageP1", "LeadChange", "passes per game"):
        assert re.search(rf"^  {name} +\S", defined, re.M), name


@pytest.mark.parametrize("command", [("simulate", "-v", "classic"), ("compare", "classic", "--set-b", "dig_in_place=false"), ("sweep", "-v", "classic", "--param", "rules.dig_in_place=true,false")])
def test_report_file_writes_exactly_file(tmp_path, command):
    target = tmp_path / "my report.txt"
    result = th(*command, "--games", 10, *SEATS, "--report", target)
    assert f"Wrote the report to {target}" in result.stderr
    assert target.read_text().startswith("<!doctype html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my report.txt"]  # no FILE.html beside it
