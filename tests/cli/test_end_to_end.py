"""Each command as a user types it: the installed `th` program in a real process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TH = shutil.which("th") or str(Path(sys.executable).with_name("th"))


def run(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80"}
    return subprocess.run([TH, *args], input=input, capture_output=True, text=True, env=env, timeout=60)


def test_th_variants():
    result = run("variants")
    assert result.returncode == 0 and "classic" in result.stdout and "classic-wiki" in result.stdout


def test_th_rules():
    result = run("rules", "--variant", "classic-wiki")
    assert result.returncode == 0
    assert "house_decline" in result.stdout and "reroll" in result.stdout


def test_th_show():
    result = run("show", "--variant", "classic", "L< S^ M>")
    assert result.returncode == 0 and "L< S^ M>" in result.stdout


def test_th_plugins():
    result = run("plugins")
    assert result.returncode == 0
    for plugin in ("classic", "fences", "builtin-bots", "random-bot"):
        assert plugin in result.stdout
    assert "register_variants" in result.stdout


def test_th_new_variant(tmp_path):
    result = run("new-variant", "my-game", "--dir", str(tmp_path / "pkg"))
    assert result.returncode == 0 and "Wrote the my-game variant" in result.stdout
    assert (tmp_path / "pkg" / "src" / "treehouse_my_game" / "plugin.py").is_file()


def test_th_solve_reads_the_table_this_session_solved(solved_classic):
    # The session's private cache (tests/conftest.py) holds the table; the
    # process finds it through TREEHOUSE_CACHE_DIR instead of solving again.
    result = run("solve", "--variant", "classic", "--players", "2")
    assert result.returncode == 0, result.stderr
    assert "first player wins with probability 0.509572 under optimal play" in result.stdout
    assert "(cached;" in result.stdout


def test_th_moves_from_a_pipe():
    result = run("moves", "--variant", "classic", "--action", "swap", "-", input="L^/M^/S^\n")
    assert result.returncode == 0
    assert json.loads(result.stdout) == ["L^/S^/M^", "M^/L^/S^", "S^/M^/L^"]


def test_a_mistake_is_one_line_on_stderr_and_exit_2():
    result = run("moves", "--variant", "classic", "--action", "hop", "L^/M^/Z^")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "error: bad piece 'Z^' in 'L^/M^/Z^': expected a size S, M or L, then ^ (upright), < (left) or > (right), e.g. L^/M^/S^"
    ]


@pytest.mark.parametrize("command", ["variants", "rules", "show", "moves"])
def test_every_command_has_help(command):
    result = run(command, "--help")
    assert result.returncode == 0 and "Usage" in result.stdout


def test_th_play_against_a_bot_with_options(tmp_path):
    path = tmp_path / "game.jsonl"
    result = run("play", "--variant", "classic", "--bot", "search(nodes=2000)", "--seed", "5", "--record", str(path), input="1\n1\nq\n")
    assert result.returncode == 0, result.stderr
    assert "Player 2 (search(nodes=2000))" in result.stdout and "Game saved to" in result.stdout
    assert json.loads(path.read_text().splitlines()[0])["meta"]["seats"] == ["human", "search(nodes=2000)"]
    resumed = run("play", "--resume", str(path), input="q\n")
    assert resumed.returncode == 0 and "Resuming" in resumed.stdout, resumed.stderr


def test_th_play_bad_bot_spec_is_one_line():
    result = run("play", "--variant", "classic", "--bot", "search(nodes=lots)")
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["error: bad value 'lots' for option 'nodes' of bot 'search' in 'search(nodes=lots)': expected int, e.g. nodes=0"]


@pytest.mark.parametrize(
    "args, line",
    [
        (("simulate", "--bogus"), "error: no such option '--bogus' for 'th simulate'"),
        (("compare",), "error: missing argument 'A' for 'th compare'; see th compare --help"),
        (("play", "--seed", "x"), "error: invalid value for '--seed': "),
        (("sweep", "--games"), "error: option '--games' requires an argument; see th sweep --help"),
    ],
)
def test_usage_errors_are_one_line_as_typed(args, line):
    result = run(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(line), result.stderr
