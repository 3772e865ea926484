"""The steady screen of th play in a real 80x24 terminal (tmux), captured as a person sees it.

Each capture is the whole visible screen: the step's header must be on its
first line and the prompt on screen, whatever was typed before (a page, a
mistake, help, the rules, a hint).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

TH = shutil.which("th") or str(Path(sys.executable).with_name("th"))
TMUX = shutil.which("tmux")

pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)"),
    pytest.mark.skipif(not Path(TH).exists(), reason="the th program is not installed"),
]

PROMPT = "Your move ("


class Terminal:
    """th play in a detached tmux session of 80x24."""

    def __init__(self, args: list[str], home: Path, width: int = 80, height: int = 24) -> None:
        self.name = f"th-{uuid.uuid4().hex[:8]}"
        env = {"XDG_DATA_HOME": str(home / "data"), "NO_COLOR": "1", "TERM": "xterm", "TREEHOUSE_CACHE_DIR": str(home / "cache")}
        command = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()) + " " + shlex.join([TH, *args]) + "; sleep 30"
        subprocess.run([TMUX, "new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), command], check=True, cwd=home)
        self.width, self.height = width, height

    def screen(self) -> list[str]:
        out = subprocess.run([TMUX, "capture-pane", "-p", "-t", self.name], check=True, capture_output=True, text=True).stdout
        return out.split("\n")[: self.height]

    def history(self) -> str:
        """Everything the terminal printed, scrolled-off lines included."""
        return subprocess.run([TMUX, "capture-pane", "-p", "-S", "-2000", "-t", self.name], check=True, capture_output=True, text=True).stdout

    def wait_for(self, text: str, timeout: float = 60, settled: str = PROMPT) -> list[str]:
        """The screen once ``text`` is on it and it has settled: ``settled`` (the prompt) is
        on it too and two captures in a row agree (the screen is drawn top to bottom)."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            lines = self.screen()
            if any(text in line for line in lines) and any(settled in line for line in lines) and lines == last:
                return lines
            last = lines
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen:\n" + "\n".join(self.screen()))

    def type(self, text: str) -> None:
        subprocess.run([TMUX, "send-keys", "-t", self.name, "-l", text], check=True)
        subprocess.run([TMUX, "send-keys", "-t", self.name, "Enter"], check=True)

    def close(self) -> None:
        subprocess.run([TMUX, "kill-session", "-t", self.name], check=False, capture_output=True)


@pytest.fixture
def terminal(tmp_path):
    opened = []

    def open_(args):
        t = Terminal(args, tmp_path)
        opened.append(t)
        return t

    yield open_
    for t in opened:
        t.close()


def steady(lines: list[str], header: str) -> None:
    """The header on the first line, the prompt on the screen, nothing wider than 80."""
    assert header in lines[0], "\n".join(lines)
    assert any(PROMPT in line for line in lines), "\n".join(lines)
    assert all(len(line) <= 80 for line in lines)


def test_a_fences_wild_turn_fits_80x24_as_the_action_then_the_order(terminal, tmp_path):
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "5", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    steady(t.wait_for(PROMPT), "Turn 1 · fence · Player 1 (you) to move")
    t.type("1")
    lines = t.wait_for("Choose the action")
    steady(lines, "Turn 1 · Player 1 (you) to move")
    assert any("page 1/" in line for line in lines)
    first_page = [line for line in lines if line.lstrip().startswith("1. ")]
    t.type("+")  # the next page: the board stays, the header stays
    lines = t.wait_for("page 2/")
    steady(lines, "Turn 1 · Player 1 (you) to move")
    assert first_page[0] not in lines
    t.type("-")
    t.wait_for("page 1/")
    t.type("4")
    lines = t.wait_for("keep the order as it is")
    steady(lines, "Turn 1 · Player 1 (you) to move")
    assert any("Then? (orders top first; b goes back)" in line for line in lines)
    assert any(" 1. keep the order as it is" in line for line in lines)
    (tmp_path / "wild-screen.txt").write_text("\n".join(lines))


@pytest.mark.parametrize("typed, shows", [("?", "take back"), ("r", "rules.turn_limit")])
def test_after_help_or_the_rules_the_board_and_moves_come_back(terminal, tmp_path, typed, shows):
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seed", "5", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for(PROMPT)
    t.type(typed)
    for _ in range(5):  # a screenful at a time: Enter for the next
        lines = t.wait_for("", settled="to go back to the board.")
        assert all(len(line) <= 80 for line in lines)
        if any("Press Enter to go back to the board." in line for line in lines):
            break
        t.type("")
        time.sleep(0.3)
    assert any(shows in line for line in lines), "\n".join(lines)
    t.type("")
    lines = t.wait_for(PROMPT)
    steady(lines, "Turn 1 · fence · Player 1 (you) to move")
    assert any("1. move fence" in line for line in lines)


def test_the_rules_are_shown_a_screenful_at_a_time_from_their_first_line(terminal, tmp_path):
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seed", "5", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for(PROMPT)
    t.type("r")
    lines = t.wait_for("Page 1/", settled="Enter for more")
    assert lines[0].startswith("How to play Fences"), "\n".join(lines)  # nothing scrolled off the top
    assert all(len(line) <= 80 for line in lines)
    t.type("b")  # back to the board from the middle
    lines = t.wait_for(PROMPT)
    steady(lines, "Turn 1 · fence · Player 1 (you) to move")


def test_after_a_mistake_the_screen_is_redrawn_with_one_line_saying_why(terminal, tmp_path):
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seed", "5", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for(PROMPT)
    t.type("move Lb@N1 N2")
    lines = t.wait_for("✗ move Lb@N1 N2: ")
    steady(lines, "Turn 1 · fence · Player 1 (you) to move")
    assert sum("✗" in line for line in lines) == 1
    assert any("1. move fence" in line for line in lines)


def test_a_hint_fits_the_screen(terminal, tmp_path):
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "5", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for(PROMPT)
    t.type("1")
    t.wait_for("Choose the action")
    t.type("h")
    lines = t.wait_for("Hint (search): ", timeout=120)
    steady(lines, "Turn 1 · Player 1 (you) to move")
    assert any(line.startswith("Next best: ") for line in lines)
    (tmp_path / "hint-screen.txt").write_text("\n".join(lines))
    screen = "\n".join(lines)
    assert "search value" not in screen and not re.search(r"[+-]\d+\.\d\d", screen)  # no raw internal score
    # what the hint says to type is on the page it names: go there and find it
    number, page = re.search(r"Hint \(search\): (\d+)(?: \(page (\d+)\))?", screen).groups()
    for _ in range(int(page or 1) - 1):
        t.type("+")
    lines = t.wait_for(f"page {page or 1}/")
    assert any(re.match(rf"\s*{number}\. ", cell) for line in lines for cell in re.split(r"\s{2,}(?=\d+\. )", line)), lines


def test_plain_prints_a_transcript_in_a_terminal_too(terminal, tmp_path):
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seed", "5", "--delay", "0", "--plain", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for("No roll in this step (fence).")
    t.type("1")
    t.wait_for("(move 1-30,")
    # nothing was cleared: the fence step's screen, the move played and the new screen follow one another
    printed = t.history()
    first, played, second = (printed.index(text) for text in ("No roll in this step (fence).", "Turn 1 (fence) · Player 1 (you): move fence", "Choose the action"))
    assert first < played < second
