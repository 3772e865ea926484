"""th simulate / compare / sweep through Typer's CliRunner."""

from __future__ import annotations

import csv
import json

import pytest
from typer.testing import CliRunner

from treehouse.cli import app

runner = CliRunner()


def th(*args):
    return runner.invoke(app, list(args))


def data(result):
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def without_time(obj):
    return {k: v for k, v in obj.items() if k != "seconds"}


def assert_one_line_error(result, words):
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: ") and words in lines[0], lines[0]


def test_simulate_json_has_the_promised_keys():
    out = data(th("simulate", "--variant", "classic", "--games", "50", "--seed", "3", "--json"))
    for key in ("games", "turns_total", "wins", "draws", "timeouts", "seconds"):
        assert key in out
    assert out["games"] == 50 and len(out["wins"]) == 2
    assert sum(out["wins"]) + out["ties"] + out["draws"] + out["timeouts"] == 50
    assert out["turns_total"] == out["decisions"]["total"] >= out["game_turns_total"]
    assert {"house_moves", "passes"} <= set(out["variant_statistics"])
    assert set(out["metrics"]) >= {"AdvantageP1", "Balance", "Completion", "Drawishness", "Timeouts", "Duration", "DecisionMoves", "LeadChange", "Decisiveness"}


def test_simulate_is_identical_for_one_and_two_jobs():
    args = ("simulate", "--variant", "classic", "--games", "230", "--seed", "11", "--json")
    one = data(th(*args, "--jobs", "1"))
    two = data(th(*args, "--jobs", "2"))
    assert without_time(one) == without_time(two)
    other = data(th("simulate", "--variant", "classic", "--games", "230", "--seed", "12", "--json"))
    assert without_time(other) != without_time(one)


def test_players_and_seats():
    out = data(th("simulate", "--variant", "classic", "--games", "20", "--players", "3", "--json"))
    assert len(out["wins"]) == 3 and out["seat_kinds"] == ["random"] * 3
    out = data(th("simulate", "--variant", "classic", "--games", "20", "--seat", "random", "--seat", "random", "--json"))
    assert len(out["wins"]) == 2


def test_simulate_report_and_files(tmp_path):
    report, table = tmp_path / "r.html", tmp_path / "r.csv"
    result = th("simulate", "-v", "classic-wiki", "-n", "40", "--report", str(report), "--csv", str(table), "--records", str(tmp_path / "rec"))
    assert result.exit_code == 0, result.output
    assert "Win rates by seat" in result.stdout and "Length" in result.stdout and "house_moves" in result.stdout
    page = report.read_text()
    assert page.startswith("<!doctype html>") and page.count("<svg") >= 3 and "http" not in page.split("<body>")[1].split("<script")[0]
    rows = list(csv.DictReader(table.open()))
    assert any(r["section"] == "win_rate" for r in rows) and any(r["name"] == "AdvantageP1" for r in rows)
    assert len(list((tmp_path / "rec").iterdir())) == 40


def test_compare_with_itself_flags_nothing():
    out = data(th("compare", "classic", "classic", "--games", "150", "--json"))
    assert out["significant"] == [] and all(r["diff"] == 0 for r in out["differences"])


def test_compare_across_variants_warns_that_the_pairing_is_lost():
    result = th("compare", "classic", "fences", "--games", "20", "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "warning: A plays classic and B plays fences: the same seeds give unrelated games, "
        "so the comparison is unpaired in effect (valid, but wider)"
    ]
    assert th("compare", "classic", "classic-wiki", "--games", "20", "--json").stderr == ""


def test_compare_set_b_flags_the_change(tmp_path):
    report = tmp_path / "c.html"
    out = data(th("compare", "classic", "--set-b", "house_decline=reroll", "--games", "300", "--json", "--report", str(report)))
    assert "passes per game" in out["significant"]  # reroll never passes
    assert out["b"]["rule_set"] == "classic with house_decline=reroll"
    assert "<svg" in report.read_text()


def test_compare_a_yaml_file_against_a_name(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("variant: classic\nextends: classic\nrules:\n  dig_in_place: false\n")
    out = data(th("compare", str(path), "classic", "--games", "100", "--json"))
    assert out["a"]["rule_set"] == "mine" and out["b"]["rule_set"] == "classic"


def test_compare_sprt_stops_early_on_a_rule_set_against_itself():
    out = data(th("compare", "classic", "classic", "--games", "5000", "--sprt", "auto", "--json"))
    assert out["sprt"]["question"] == "seat:1"  # one bot in every seat: the seat advantage is the question
    assert out["sprt"]["decision"] == "H0" and out["games"] < 5000


def test_sweep_grid_rows_and_csv(tmp_path):
    table = tmp_path / "s.csv"
    out = data(th("sweep", "--variant", "classic", "--param", "rules.dig_in_place=true,false", "--param", "house_decline=pass,reroll",
                  "--games", "30", "--json", "--csv", str(table)))
    assert [p["values"] for p in out["points"]] == [
        {"rules.dig_in_place": "true", "house_decline": "pass"},
        {"rules.dig_in_place": "true", "house_decline": "reroll"},
        {"rules.dig_in_place": "false", "house_decline": "pass"},
        {"rules.dig_in_place": "false", "house_decline": "reroll"},
    ]
    rows = list(csv.DictReader(table.open()))
    assert len(rows) == 4 and rows[3]["house_decline"] == "reroll" and float(rows[0]["mean_length"]) > 0
    # the points that play identical rules play identical games (the same seeds everywhere)
    again = data(th("sweep", "--variant", "classic", "--param", "house_decline=pass", "--games", "30", "--json"))
    assert again["points"][0]["wins"] == out["points"][0]["wins"]


def test_sweep_report(tmp_path):
    report = tmp_path / "s.html"
    result = th("sweep", "-v", "classic", "--param", "turn_cap=20,1000", "-n", "30", "--report", str(report))
    assert result.exit_code == 0, result.output
    page = report.read_text()
    assert "Metrics across the sweep" in page and page.count("<svg") >= 4


@pytest.mark.parametrize(
    "args, words",
    [
        (("simulate", "-v", "classic", "--seat", "genius"), "unknown bot 'genius'; known: "),
        (("simulate", "-v", "classic", "--set", "gravity=off"), "unknown option 'gravity'; known:"),
        (("simulate", "-v", "classic", "--set", "house_decline=never"), "rules.house_decline: Input should be 'pass' or 'reroll'"),
        (("simulate", "-v", "classic", "--players", "7"), "classic is played by 2 to 4 players, not 7"),
        (("simulate", "-v", "classic", "--players", "3", "--seat", "random"), "--players 3 but 1 --seat options"),
        (("simulate", "-v", "classic", "--games", "0"), "--games must be from 1 to 100000000, not 0"),
        (("simulate", "-v", "classic", "--jobs", "0"), "--jobs must be from 1 to"),
        (("simulate", "-v", "chess"), "unknown variant 'chess'; known: "),
        (("compare", "classic"), "name a second rule set B"),
        (("compare", "classic", "nowhere.yaml"), "no rule set file at nowhere.yaml"),
        (("compare", "classic", "--set-b", "gravity=1"), "unknown option 'gravity'"),
        (("compare", "classic", "classic", "--sprt", "auto", "--sprt-delta", "0"), "--sprt: the SPRT needs two different hypotheses"),
        (("sweep", "-v", "classic", "--param", "dig_in_place"), "bad --param 'dig_in_place': expected KEY=v1,v2"),
        (("sweep", "-v", "classic", "--param", "rules.gravity=1,2"), "unknown classic rule option 'gravity'; known: dig_in_place"),
        (("sweep", "-v", "classic", "--param", "dig_in_place=true,sometimes"), "rules.dig_in_place: Input should be a valid boolean"),
        (("sweep", "-v", "classic"), "a sweep needs at least one --param"),
        (("sweep", "-v", "classic", "--param", "turn_cap=1", "--param", "turn_cap=2"), "--param turn_cap is given twice"),
    ],
)
def test_mistakes_are_one_line_and_a_non_zero_exit(args, words):
    assert_one_line_error(th(*args), words)


def test_an_unknown_yaml_key_is_named(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("variant: classic\nrules:\n  gravity: off\n")
    assert_one_line_error(th("simulate", "--config", str(path)), "unknown classic rule option 'gravity'; known: dig_in_place")


def test_an_unknown_command_line_option_fails_without_a_traceback():
    result = th("simulate", "--bogus")
    assert result.exit_code == 2 and "Traceback" not in result.output and "--bogus" in result.output


# --------------------------------------------------------------------------
# bots with options in the seats
# --------------------------------------------------------------------------


def test_a_seat_may_be_a_bot_with_options_and_jobs_change_nothing():
    args = ("simulate", "-v", "classic", "--games", "120", "--seed", "4", "--seat", " Search( depth=1, width=2 )", "--seat", "random", "--json")
    one = data(th(*args, "--jobs", "1"))
    two = data(th(*args, "--jobs", "2"))
    assert without_time(one) == without_time(two)
    assert one["seat_kinds"] == ["search(depth=1, width=2)", "random"]  # checked and written back in one form
    assert one["wins"][0] > one["wins"][1]  # the searching seat is the stronger
    plain = data(th("simulate", "-v", "classic", "--games", "120", "--seed", "4", "--json"))
    assert plain["wins"] != one["wins"]


def test_compare_and_sweep_take_bot_specs_too(tmp_path):
    out = data(th("compare", "classic", "--set-b", "dig_in_place=false", "--games", "30", "--seat", "search(depth=1)", "--seat", "greedy", "--json"))
    assert out["seat_kinds"] == ["search(depth=1)", "greedy"] and out["seats_rotated"]
    out = data(th("sweep", "-v", "classic", "--param", "dig_in_place=true,false", "--games", "20", "--seat", "search(depth=1)", "--seat", "random", "--json"))
    assert out["seat_kinds"] == ["search(depth=1)", "random"] and len(out["points"]) == 2


@pytest.mark.parametrize("command", [("simulate", "-v", "classic"), ("compare", "classic", "classic-wiki"), ("sweep", "-v", "classic", "--param", "dig_in_place=true,false")])
@pytest.mark.parametrize(
    "spec, words",
    [
        ("search(depth=abc)", "bad value 'abc' for option 'depth' of bot 'search' in 'search(depth=abc)': expected int"),
        ("search(iterations=3)", "bot 'search' has no option 'iterations'; its options: depth, width, nodes, seconds"),
        ("search(depth=2", "bad bot 'search(depth=2': expected NAME or NAME(key=value, ...)"),
        ("search(width=0)", "search: width is from 1 to 64, not 0"),
        ("alphazero(depth=2)", "unknown bot 'alphazero'; known: "),
    ],
)
def test_a_bad_bot_spec_is_one_line(command, spec, words):
    assert_one_line_error(th(*command, "--games", "10", "--seat", spec, "--seat", "random"), words)


# --------------------------------------------------------------------------
# th sweep --records
# --------------------------------------------------------------------------


def test_sweep_writes_the_records_of_every_point(tmp_path):
    from treehouse.kernel.records import Record
    from treehouse.kernel.replay import replay
    from treehouse.plugins import load_plugins

    folder = tmp_path / "rec"
    args = ("-v", "classic", "--games", "12", "--seed", "7", "--seat", "greedy", "--seat", "random")
    out = data(th("sweep", *args, "--param", "rules.dig_in_place=true,false", "--param", "house_decline=pass,reroll", "--records", str(folder), "--json"))
    points = sorted(p.name for p in folder.iterdir())
    assert points == sorted(
        f"dig_in_place={d},house_decline={h}" for d in ("true", "false") for h in ("pass", "reroll")
    )
    for point in points:
        # the same naming scheme as th simulate: one game-NNNNNN.jsonl per game
        assert sorted(p.name for p in (folder / point).iterdir()) == [f"game-{i:06d}.jsonl" for i in range(12)]
    record = Record.read(folder / "dig_in_place=false,house_decline=reroll" / "game-000003.jsonl")
    assert record.header["rules"]["dig_in_place"] is False and record.header["rules"]["house_decline"] == "reroll"
    # game 3 is the second of its seed pair: the bots have swapped seats
    assert record.meta == {"seed": 7, "game": 3, "rule_set": "classic with dig_in_place=false house_decline=reroll", "seats": ["random", "greedy"]}
    replay(record, load_plugins())
    # a point plays exactly the games th simulate plays with the same rules and seed
    assert data(th("simulate", *args, "--set", "house_decline=reroll", "--records", str(tmp_path / "sim"), "--json"))["wins"] == out["points"][1]["wins"]
    for i in range(12):
        swept = Record.read(folder / "dig_in_place=true,house_decline=reroll" / f"game-{i:06d}.jsonl")
        simulated = Record.read(tmp_path / "sim" / f"game-{i:06d}.jsonl")
        assert swept.events == simulated.events and swept.footer == simulated.footer


def test_sweep_records_are_the_same_for_any_jobs(tmp_path):
    args = ("sweep", "-v", "classic", "--games", "150", "--param", "turn_cap=30,1000", "--json")
    data(th(*args, "--records", str(tmp_path / "one"), "--jobs", "1"))
    data(th(*args, "--records", str(tmp_path / "two"), "--jobs", "2"))
    one = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*.jsonl"))
    assert len(one) == 300 and one == sorted(p.relative_to(tmp_path / "two") for p in (tmp_path / "two").rglob("*.jsonl"))
    assert all((tmp_path / "one" / p).read_bytes() == (tmp_path / "two" / p).read_bytes() for p in one)


@pytest.mark.parametrize("command", [("simulate", "-v", "classic"), ("compare", "classic", "classic-wiki"), ("sweep", "-v", "classic", "--param", "turn_cap=30,1000")])
def test_records_into_a_file_is_one_line(tmp_path, command):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = th(*command, "--games", "5", "--records", str(blocker / "rec"))
    assert_one_line_error(result, f"cannot write the records to {blocker / 'rec'}")
    assert result.stderr.rstrip().endswith(": Not a directory")


@pytest.mark.parametrize(("decline", "more"), [("pass", False), ("reroll", True)])
def test_classic_decides_once_a_turn_unless_a_declined_roll_is_rolled_again(decline, more):
    """docs/playtesting.md: a classic turn is one decision under the official
    rules (a face with nothing to do is rolled again before anyone decides),
    so DecisionsPerGame equals Duration; under house_decline: reroll a
    declined roll is a second decision."""
    out = data(th("simulate", "--variant", "classic", "--games", "60", "--seed", "3", "--jobs", "1", "--set", f"house_decline={decline}", "--json"))
    duration, decisions = out["metrics"]["Duration"]["value"], out["metrics"]["DecisionsPerGame"]["value"]
    assert decisions > duration if more else decisions == duration
