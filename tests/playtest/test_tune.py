"""th tune: the spec, the targets, successive halving on common seeds, the files it writes."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("optuna")

from treehouse.cli.app import app  # noqa: E402
from treehouse.config import resolve  # noqa: E402
from treehouse.errors import ConfigError  # noqa: E402
from treehouse.playtest import tune as tuning  # noqa: E402
from treehouse.playtest.metrics import summary  # noqa: E402
from treehouse.playtest.work import Batch, RuleSpec, run  # noqa: E402

SPEC = """\
rule_set: fences
seats: [random, random]
options:
  stack_height_2p: {low: 2, high: 5}
  line_hits: [new, every_check]
  outside_attempts: [true, false]
  uniform_dig: [hit, reroll]
targets:
  first_seat_win_rate: 0.5 ± 0.05
  mean_turns: {target: [4, 6], weight: 2}
  skill_gap: ">= 0.3"
skill: {strong: greedy, weak: random}
games: {first: 10, factor: 3, rungs: 2}
chunk: 10
"""


@pytest.fixture
def spec_file(tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC)
    return path


def tune_cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["tune", *args])
    return result.exit_code, result.stdout, result.stderr


def results(folder: Path) -> dict[str, str]:
    found = {p.name: p.read_text() for p in sorted(folder.iterdir())}
    data = json.loads(found.pop("tune.json"))
    data.pop("seconds")
    found["tune.json"] = json.dumps(data)
    found.pop("report.html")  # holds the seconds too; its data is tune.json's
    return found


def test_same_spec_and_seed_give_the_same_trials_for_any_jobs(spec_file, tmp_path):
    code, stdout, stderr = tune_cli(str(spec_file), "--budget-games", "300", "--seed", "4", "--out", str(tmp_path / "one"))
    assert code == 0, stderr
    assert f"Wrote 6 files to {tmp_path / 'one'}: best-1.yaml, best-2.yaml, best-3.yaml, trials.csv, report.html, tune.json" in stderr
    code, _, stderr = tune_cli(str(spec_file), "--budget-games", "300", "--seed", "4", "--out", str(tmp_path / "two"), "--jobs", "2")
    assert code == 0, stderr
    one, two = results(tmp_path / "one"), results(tmp_path / "two")
    assert one == two
    assert set(one) == {"best-1.yaml", "best-2.yaml", "best-3.yaml", "trials.csv", "tune.json"}
    data = json.loads(one["tune.json"])
    assert data["games_played"] <= 300 and data["stopped_by"].startswith("the game budget")
    # another seed asks other trials
    code, _, _ = tune_cli(str(spec_file), "--budget-games", "300", "--seed", "5", "--out", str(tmp_path / "three"))
    assert results(tmp_path / "three")["trials.csv"] != one["trials.csv"]


def test_the_best_rule_set_is_ready_to_use(spec_file, tmp_path, plugins):
    code, _, stderr = tune_cli(str(spec_file), "--budget-games", "200", "--seed", "2", "--out", str(tmp_path / "out"), "--json")
    assert code == 0, stderr
    best = tmp_path / "out" / "best-1.yaml"
    data = json.loads((tmp_path / "out" / "tune.json").read_text())
    top = next(t for t in data["trials"] if t["trial"] == data["best"][0])
    effective = resolve(plugins, config=best)
    assert effective.variant_class.name == "fences"
    for name, value in top["params"].items():
        assert getattr(effective.rules, name) == value
    assert "extends: fences" in best.read_text()
    rule_sets = [resolve(plugins, config=tmp_path / "out" / f"best-{rank}.yaml").rules for rank in (1, 2, 3)]
    assert len({repr(r) for r in rule_sets}) == 3  # three different rule sets, not one asked three times
    # and th simulate plays it
    result = CliRunner().invoke(app, ["simulate", "--config", str(best), "--games", "5", "--json"])
    assert result.exit_code == 0, result.output


def test_results_are_never_overwritten_unasked(spec_file, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert tune_cli(str(spec_file), "--budget-games", "60", "--out", str(out))[0] == 0
    before = (out / "trials.csv").read_text()
    code, _, stderr = tune_cli(str(spec_file), "--budget-games", "60", "--seed", "9", "--out", str(out))
    assert code == 2
    assert stderr.strip() == f"error: {out} already holds best-1.yaml (an earlier run's results); choose another --out, or add --overwrite to replace them"
    assert (out / "trials.csv").read_text() == before and (out / "notes.txt").read_text() == "mine"
    assert tune_cli(str(spec_file), "--budget-games", "60", "--seed", "9", "--out", str(out), "--overwrite")[0] == 0
    assert (out / "trials.csv").read_text() != before and (out / "notes.txt").read_text() == "mine"
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary files left


def test_a_rung_grown_later_equals_one_run_of_all_its_games(plugins):
    """Successive halving keeps a trial's games and adds the next ones on the same seeds."""
    batch = Batch((RuleSpec.from_effective(resolve(plugins, variant="fences")),), ("random", "random"), seed=3)
    grown = run(batch, 30, plugins=plugins, chunk=10).sides[0]
    grown.merge(run(batch, 90, plugins=plugins, chunk=10, first=30).sides[0])
    whole = run(batch, 90, plugins=plugins, chunk=10).sides[0]
    a, b = summary(grown), summary(whole)
    # The same games: every count is equal; the metrics' float sums only differ in
    # the order they were added (a fixed order in th tune, so its results are reproducible).
    metrics_a, metrics_b = a.pop("metrics"), b.pop("metrics")
    assert a == b
    for name, metric in metrics_a.items():
        for key, value in metric.items():
            assert value == pytest.approx(metrics_b[name][key], rel=1e-9, abs=1e-12)


def test_successive_halving_keeps_the_budget_and_promotes_a_third(spec_file, plugins):
    spec = tuning.load_spec(spec_file, plugins)
    spec = tuning.TuneSpec(**{**spec.__dict__, "schedule": tuning.Schedule(first=10, factor=3, rungs=3)})
    played = []

    def play(batch, games, first):
        played.append((batch.seats, first, games))
        return run(batch, games, plugins=plugins, chunk=spec.chunk, first=first).sides[0]

    search = tuning.run_search(spec, 1, 1000, play)
    assert search.games_played <= 1000
    assert search.games_played == sum(games - first for _, first, games in played)
    full = [t for t in search.trials if t.games == 90]
    third = [t for t in search.trials if t.games == 30]
    first = [t for t in search.trials if t.games == 10]
    assert len(full) >= 1 and len(third) >= 2 * len(full) and len(first) >= 2 * len(third)
    assert {first for _, first, _ in played} == {0, 10, 30}  # rungs continue, they do not replay
    for trial in full:  # a promoted trial was the best of its bracket's rung
        assert [g for g, _ in trial.history] == [10, 30, 90]
    assert search.ranked()[0].games == 90


def test_a_small_space_ends_when_every_value_was_played(tmp_path, plugins):
    path = tmp_path / "small.yaml"
    path.write_text("rule_set: fences\noptions: {line_hits: [new, every_check]}\ntargets: {mean_turns: [4, 6]}\ngames: {first: 10, factor: 2, rungs: 2}\nchunk: 10\n")
    spec = tuning.load_spec(path, plugins)
    search = tuning.run_search(spec, 1, 100_000, lambda batch, games, first: run(batch, games, plugins=plugins, chunk=10, first=first).sides[0])
    assert search.stopped_by == "every rule set of the options' space was played"
    assert search.games_played <= 2 * 20  # each of the two values played once to each rung, never again
    assert {tuple(t.params.items()) for t in search.trials} == {(("line_hits", "new"),), (("line_hits", "every_check"),)}


def test_a_finite_space_is_played_whole_before_the_search_ends(tmp_path, plugins):
    path = tmp_path / "eight.yaml"
    path.write_text(
        "rule_set: fences\noptions: {stack_height_2p: {low: 2, high: 5}, line_hits: [new, every_check]}\n"
        "targets: {mean_turns: [4, 6]}\ngames: {first: 5, factor: 3, rungs: 2}\nchunk: 5\n"
    )
    spec = tuning.load_spec(path, plugins)
    assert len(tuning.combinations(spec)) == 8
    search = tuning.run_search(spec, 1, 100_000, lambda batch, games, first: run(batch, games, plugins=plugins, chunk=5, first=first).sides[0])
    assert search.stopped_by == "every rule set of the options' space was played"
    assert len(search.ranked()) == 8


def test_ctrl_c_keeps_the_trials_played(spec_file, plugins):
    spec = tuning.load_spec(spec_file, plugins)
    calls = []

    def play(batch, games, first):
        calls.append(1)
        if len(calls) > 6:
            raise KeyboardInterrupt
        return run(batch, games, plugins=plugins, chunk=spec.chunk, first=first).sides[0]

    search = tuning.run_search(spec, 1, 10_000, play)
    assert search.stopped_by == "Ctrl-C"
    assert len(search.trials) == 3 and all(t.games == 10 for t in search.trials)


@pytest.mark.parametrize(
    "written, low, high, scale",
    [
        ("0.5 ± 0.02", 0.48, 0.52, 0.02),
        ("0.5 +- 0.1", 0.4, 0.6, 0.1),
        ("0.5+/-0.1", 0.4, 0.6, 0.1),
        ([15, 30], 15, 30, 7.5),
        ("[15, 30]", 15, 30, 7.5),
        (">= 0.3", 0.3, math.inf, 0.03),
        ("<= 2", -math.inf, 2, 0.2),
        (0.5, 0.5, 0.5, 0.025),
        ({"target": "0.5 ± 0.02", "weight": 3, "scale": 0.1}, 0.48, 0.52, 0.1),
    ],
)
def test_targets_are_read_as_bands(written, low, high, scale):
    target = tuning.parse_target("first_seat_win_rate", written, Path("s.yaml"))
    assert (target.low, target.high, target.scale) == pytest.approx((low, high, scale))
    assert target.loss((low if math.isfinite(low) else high) ) < 0.02 * target.weight + 1e-9 or math.isinf(low)
    outside = (high + scale) if math.isfinite(high) else (low - scale)
    assert target.loss(outside) == pytest.approx(target.weight * (1 + (tuning.CENTRE_WEIGHT * abs(outside - target.centre) / scale if target.centre is not None else 0)))


def test_inside_the_band_the_centre_ranks_first():
    target = tuning.parse_target("mean_turns", [15, 30], Path("s.yaml"))
    assert target.loss(22.5) == 0 < target.loss(16) < target.loss(14)
    assert target.met(15) and target.met(30) and not target.met(31)


BAD_SPECS = [
    ("options: {line_hits: [new, every_check]}\ntargets: {mean_turns: [1, 2]}\n", "missing rule_set:"),
    ("rule_set: fences\ntargets: {mean_turns: [1, 2]}\n", "missing options:"),
    ("rule_set: fences\noptions: {line_hits: [new, every_check]}\n", "missing targets:"),
    ("rule_set: nowhere\noptions: {a: [1, 2]}\ntargets: {mean_turns: [1, 2]}\n", "rule_set: "),
    ("rule_set: fences\noptions: {line_hits: [new, every_check]}\ntargets: {mean_turns: [1, 2]}\ntypo: 1\n", "unknown key 'typo'; known: rule_set, seats"),
    ("rule_set: fences\noptions: {heigth: [1, 2]}\ntargets: {mean_turns: [1, 2]}\n", "options.heigth: fences has no rule option 'heigth'; its options: stack_height_2p"),
    ("rule_set: fences\noptions: {stack_height_2p: {low: 2, high: 9}}\ntargets: {mean_turns: [1, 2]}\n", "options.stack_height_2p: 9 is not a valid stack_height_2p"),
    ("rule_set: fences\noptions: {stack_height_2p: {low: 4, high: 2}}\ntargets: {mean_turns: [1, 2]}\n", "options.stack_height_2p: low (4) must be below high (2)"),
    ("rule_set: fences\noptions: {stack_height_2p: {low: 2}}\ntargets: {mean_turns: [1, 2]}\n", "options.stack_height_2p: a range needs both low: and high:"),
    ("rule_set: fences\noptions: {stack_height_2p: {low: two, high: 4}}\ntargets: {mean_turns: [1, 2]}\n", "options.stack_height_2p: low, high and step must be numbers, not 'two'"),
    ("rule_set: fences\noptions: {line_hits: [new]}\ntargets: {mean_turns: [1, 2]}\n", "options.line_hits: choices must be a list of at least two values"),
    ("rule_set: fences\noptions: {line_hits: [new, sometimes]}\ntargets: {mean_turns: [1, 2]}\n", "options.line_hits: 'sometimes' is not a valid line_hits"),
    ("rule_set: fences\noptions: {line_hits: [new, new]}\ntargets: {mean_turns: [1, 2]}\n", "options.line_hits: a choice is listed twice"),
    ("rule_set: fences\noptions: {line_hits: [new, every_check]}\ntargets: {fun: 1}\n", "targets.fun: unknown target; known: first_seat_win_rate, mean_turns, skill_gap"),
    ("rule_set: fences\noptions: {line_hits: [new, every_check]}\ntargets: {mean_turns: [30, 15]}\n", "targets.mean_turns: '[30, 15]' has its low end above its high end; write [15, 30]"),
    ("rule_set: fences\noptions: {line_hits: [new, every_check]}\ntargets: {mean_turns: about 20}\n", "targets.mean_turns: cannot read 'about 20' as a target; write a number"),
    ("rule_set: fences\noptions: {line_hits: [new, every_check]}\ntargets: {mean_turns: {target: [1, 2], weight: -1}}\n", "targets.mean_turns.weight: must be a number above 0, not -1"),
    ("rule_set: fences\noptions: {line_hits: [new, every_check]}\ntargets: {mean_turns: {weight: 2}}\n", "targets.mean_turns: a mapping needs target:"),
    ("rule_set: fences\nseats: [random, wizard]\noptions: {line_hits: [new, every_check]}\ntargets: {mean_turns: [1, 2]}\n", "seats: "),
    ("rule_set: fences\nseats: [random]\noptions: {line_hits: [new, every_check]}\ntargets: {mean_turns: [1, 2]}\n", "is played by 2 to 4 players, not 1"),
    ("rule_set: fences\noptions: {line_hits: [new, every_check]}\ntargets: {skill_gap: '>= 0.3'}\nskill: {strong: wizard}\n", "skill: "),
    ("rule_set: fences\noptions: {line_hits: [new, every_check]}\ntargets: {mean_turns: [1, 2]}\ngames: {first: 0}\n", "games.first: a whole number from 1 to 1000000, not 0"),
    ("rule_set: fences\noptions: {line_hits: [new, every_check]}\ntargets: {mean_turns: [1, 2]}\ntrials: many\n", "trials: the most trials to run, a whole number from 1 to 100000, not 'many'"),
    ("rule_set: fences\noptions: []\ntargets: {mean_turns: [1, 2]}\n", "options: a mapping of rule options to vary"),
    ("- just\n- a list\n", "a tuning spec is a mapping of keys"),
    ("rule_set: fences\noptions: {line_hits: [new, every_check\n", "malformed YAML"),
]


@pytest.mark.parametrize("text, message", BAD_SPECS, ids=[m[:40] for _, m in BAD_SPECS])
def test_a_bad_spec_is_one_line(text, message, tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text(text)
    code, stdout, stderr = tune_cli(str(spec), "--out", str(tmp_path / "out"))
    assert code == 2, stdout + stderr
    assert stderr.count("\n") == 1 and stderr.startswith("error: "), stderr
    assert message in stderr
    assert not (tmp_path / "out").exists()  # nothing written for a bad spec


@pytest.mark.parametrize(
    "args, message",
    [
        (["--budget-games", "0"], "--budget-games must be from 1 to"),
        (["--budget-games", "10"], "--budget-games 10 is less than one trial's first rung (20 games)"),
        (["--budget-seconds", "-1"], "--budget-seconds must be above 0, not -1"),
        (["--best", "0"], "--best must be from 1 to 100, not 0"),
        (["--jobs", "0"], "--jobs must be from 1 to"),
    ],
)
def test_bad_tune_options_are_one_line(args, message, spec_file, tmp_path):
    code, _, stderr = tune_cli(str(spec_file), "--out", str(tmp_path / "out"), *args)
    assert code == 2 and stderr.count("\n") == 1 and message in stderr, stderr


def test_no_spec_file_and_out_a_file(tmp_path, spec_file):
    code, _, stderr = tune_cli(str(tmp_path / "missing.yaml"), "--out", str(tmp_path / "out"))
    assert code == 2 and "no tuning spec at" in stderr
    (tmp_path / "file").write_text("x")
    code, _, stderr = tune_cli(str(spec_file), "--out", str(tmp_path / "file"))
    assert code == 2 and stderr.count("\n") == 1 and "is a file" in stderr


def test_without_optuna_one_line_says_what_to_install(monkeypatch, spec_file, tmp_path):
    monkeypatch.setitem(sys.modules, "optuna", None)
    code, _, stderr = tune_cli(str(spec_file), "--out", str(tmp_path / "out"))
    assert code == 2 and stderr.strip() == "error: th tune needs Optuna: pip install 'treehouse[tune]'"


def test_the_report_draws_the_search_and_each_option(spec_file, tmp_path):
    code, _, stderr = tune_cli(str(spec_file), "--budget-games", "200", "--out", str(tmp_path / "out"))
    assert code == 0, stderr
    page = (tmp_path / "out" / "report.html").read_text()
    assert "Progress of the search" in page and "Each option's effect" in page
    for name in ("stack_height_2p", "line_hits", "loss by line_hits", "first_seat_win_rate by stack_height_2p"):
        assert name in page
    assert page.count("<circle") >= 10
    options = {o["name"]: o for o in json.loads((tmp_path / "out" / "tune.json").read_text())["options"]}
    assert options["line_hits"]["choices"] == ["new", "every_check"] and options["uniform_dig"]["choices"] == ["hit", "reroll"]
    assert "choices" not in options["stack_height_2p"]  # a range: its axis is numbers


def test_load_spec_reports_the_file(tmp_path, plugins):
    (tmp_path / "s.yaml").write_text("rule_set: fences\n")
    with pytest.raises(ConfigError, match=r"s\.yaml: missing options:"):
        tuning.load_spec(tmp_path / "s.yaml", plugins)


def test_the_worked_example_is_valid_and_the_docs_quote_it(plugins):
    root = Path(__file__).resolve().parents[2]
    example = root / "docs" / "fences-tune.yaml"
    spec = tuning.load_spec(example, plugins)
    assert spec.seats == ("search(nodes=200)", "search(nodes=200)")
    assert {o.name for o in spec.options} == {"stack_height_2p", "line_hits"}
    assert [t.name for t in spec.targets] == ["first_seat_win_rate", "mean_turns"]
    walkthrough = (root / "docs" / "tuning.md").read_text()
    for line in example.read_text().splitlines():
        if line and not line.startswith("#"):
            assert line in walkthrough, f"docs/tuning.md no longer quotes: {line}"
