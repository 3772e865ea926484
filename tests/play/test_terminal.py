"""The real th program in a pseudo-terminal, as a person would use it: play, quit, resume, Ctrl-C."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extra: pip install -e '.[test]'")

TH = shutil.which("th") or str(Path(sys.executable).with_name("th"))
PROMPT = r"Your move\S* \((?:move|reorder) 1-\d+, (?:page \d+/\d+, \+ (?:more|first page), )?\? help, q quit\): "  # bold stays on under NO_COLOR (it is not a colour)

pytestmark = pytest.mark.skipif(not Path(TH).exists(), reason="the th program is not installed")


def spawn(args, home: Path):
    # a cache of the test's own: classic's solved table is never there, so th play always offers to solve it
    env = dict(os.environ, XDG_DATA_HOME=str(home / "data"), TREEHOUSE_CACHE_DIR=str(home / "cache"), NO_COLOR="1", COLUMNS="80", LINES="40", TERM="xterm")
    env.pop("TREEHOUSE_DEBUG", None)
    return pexpect.spawn(TH, args, env=env, encoding="utf-8", timeout=20, dimensions=(40, 80))


def events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_play_make_moves_quit_and_resume_in_a_terminal(tmp_path):
    path = tmp_path / "game.jsonl"
    child = spawn(["play", "--variant", "classic", "--seat", "human", "--seat", "random", "--seed", "31", "--delay", "0", "--record", str(path)], tmp_path)
    child.expect("Start it now\\? ")  # the offer to solve classic's table: Enter plays without it
    child.sendline("")
    child.expect("Turn 1 · Player 1 \\(you\\) to move")
    child.expect(PROMPT)
    child.sendline("42")  # out of range: one line, then the prompt again
    child.expect("there is no move 42")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = events(path)
    assert [e["seat"] for e in saved if e["event"] == "move"].count(1) == 2

    child = spawn(["play", "--resume", str(path), "--delay", "0"], tmp_path)
    child.expect("Resuming")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendcontrol("c")  # Ctrl-C saves too, and exits 130
    child.expect("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    resumed = events(path)
    assert resumed[: len(saved)] == saved  # the resumed game continues the same record
    assert [e["seat"] for e in resumed if e["event"] == "move"].count(1) == 3


def test_replay_in_a_terminal(tmp_path):
    path = tmp_path / "watched.jsonl"
    child = spawn(["play", "--variant", "classic", "--watch", "--seed", "4", "--delay", "0", "--record", str(path)], tmp_path)
    child.expect("Start it now\\? ")
    child.sendline("")
    child.expect("Game over")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    child = spawn(["replay", str(path)], tmp_path)
    child.expect("replay> ")
    child.sendline("n")
    child.expect("Turn 1 · step 1 of")
    child.expect("replay> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
