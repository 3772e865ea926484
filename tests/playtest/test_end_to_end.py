"""Each playtest command as a user types it: the installed `th` program in a real process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

TH = shutil.which("th") or str(Path(sys.executable).with_name("th"))


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    return subprocess.run([TH, *args], capture_output=True, text=True, env=env, timeout=120)


def test_th_simulate_with_two_jobs():
    result = run("simulate", "--variant", "classic", "--games", "300", "--seat", "random", "--seat", "random", "--seed", "5", "--jobs", "2", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["games"] == 300 and sum(out["wins"]) + out["ties"] + out["draws"] + out["timeouts"] == 300
    assert result.stderr == ""  # no progress bar when standard error is not a terminal


def test_th_compare(tmp_path):
    report = tmp_path / "compare.html"
    result = run("compare", "classic", "classic-wiki", "--games", "300", "--jobs", "2", "--report", str(report))
    assert result.returncode == 0, result.stderr
    assert "B - A" in result.stdout and "significant" in result.stdout and report.exists()


def test_th_sweep(tmp_path):
    table = tmp_path / "sweep.csv"
    result = run("sweep", "--variant", "classic", "--param", "rules.dig_in_place=true,false", "--games", "100", "--csv", str(table))
    assert result.returncode == 0, result.stderr
    assert "dig_in_place" in result.stdout and len(table.read_text().splitlines()) == 3


def test_th_simulate_mistake_is_one_line():
    result = run("simulate", "--variant", "classic", "--seat", "genius")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: unknown bot 'genius'; known: ")


def test_th_simulate_with_a_bot_spec_is_the_same_for_any_jobs():
    args = ("simulate", "--variant", "classic", "--games", "120", "--seat", "search(depth=1, width=2)", "--seat", "random", "--seed", "2", "--json")
    one, two = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    a.pop("seconds"), b.pop("seconds")
    assert a == b and a["seat_kinds"] == ["search(depth=1, width=2)", "random"]


def test_th_compare_with_a_bot_spec():
    result = run("compare", "classic", "--set-b", "dig_in_place=false", "--games", "40", "--seat", "search(depth=1)", "--seat", "greedy", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert "seats search(depth=1), greedy (rotated: each bot plays each seat in turn)" in result.stdout


def test_th_sweep_with_a_bot_spec_and_records(tmp_path):
    folder = tmp_path / "rec"
    result = run("sweep", "--variant", "classic", "--param", "rules.dig_in_place=true,false", "--games", "30", "--seat", "search(depth=1)", "--seat", "random",
                 "--records", str(folder))
    assert result.returncode == 0, result.stderr
    assert "seats search(depth=1), random (rotated: each bot plays each seat in turn)" in result.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["dig_in_place=false", "dig_in_place=true"]
    assert len(list((folder / "dig_in_place=false").glob("game-*.jsonl"))) == 30
    replayed = run("replay", "--all", str(folder / "dig_in_place=false" / "game-000029.jsonl"))
    assert replayed.returncode == 0 and "won on turn" in replayed.stdout, replayed.stderr


def test_th_simulate_bad_bot_spec_is_one_line():
    result = run("simulate", "--variant", "classic", "--seat", "search(depth=deep)")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == ["error: bad value 'deep' for option 'depth' of bot 'search' in 'search(depth=deep)': expected int, e.g. depth=0"]
