"""The steady screen of th play in a real 80x24 terminal (tmux), captured as a person sees it.

Each capture is the whole visible screen: the step's header must be on its
first line and the prompt on screen, whatever was typed before (a page, a
mistake, help, the rules, a hint).
"""

from __future__ import annotations

import json
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
    """th play in a detached tmux session of 80x24, on a tmux server of its
    own: on the shared default server, a session started just as another
    test's last one closed (and the server with it) failed to start now and
    then, the more so with a second suite running beside."""

    def __init__(self, args: list[str], home: Path, width: int = 80, height: int = 24) -> None:
        self.name = f"th-{uuid.uuid4().hex[:8]}"
        self.tmux = [TMUX, "-S", str(home / f"{self.name}.sock")]  # the server's socket, in the test's folder
        env = {"XDG_DATA_HOME": str(home / "data"), "NO_COLOR": "1", "TERM": "xterm", "TREEHOUSE_CACHE_DIR": str(home / "cache")}
        command = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()) + " " + shlex.join([TH, *args]) + "; sleep 30"
        started = subprocess.run([*self.tmux, "-f", "/dev/null", "new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), command], capture_output=True, text=True, cwd=home)
        assert started.returncode == 0, f"tmux new-session failed: {started.stderr}"
        self.width, self.height = width, height

    def screen(self) -> list[str]:
        out = subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name], check=True, capture_output=True, text=True).stdout
        return out.split("\n")[: self.height]

    def history(self) -> str:
        """Everything the terminal printed, scrolled-off lines included."""
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-S", "-2000", "-t", self.name], check=True, capture_output=True, text=True).stdout

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
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, "-l", text], check=True)
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, "Enter"], check=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False, capture_output=True)


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
    assert any("Then the order (top first); b goes back." in line for line in lines)
    assert any(" 1. keep the order as it is" in line for line in lines)
    (tmp_path / "wild-screen.txt").write_text("\n".join(lines))


def test_a_wild_roll_of_a_one_small_stack_shows_each_action_whole_with_its_warning(terminal, tmp_path):
    # seed 13, Stacks of one small: Player 1 rolls WILD on turn 1.  One small has one order, so each
    # action is one entry, without an empty "reorder the stack to red" before it, never cut off
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--set", "stack_height_2p=1", "--seat", "human", "--seat", "random", "--seed", "13", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for(PROMPT)
    t.type("1")
    lines = t.wait_for("Rolled WILD")
    pages = int(re.search(r"page 1/(\d+)", "\n".join(lines)).group(1))
    entries = []
    for page in range(1, pages + 1):
        if page > 1:
            t.type("+")
            lines = t.wait_for(f"page {page}/{pages}")
        steady(lines, "Turn 1 · Player 1 (you) to move")
        assert not any(line.rstrip().endswith("…") for line in lines), "\n".join(lines)
        assert not any("reorder" in line for line in lines if re.match(r" *\d+\. ", line)), "\n".join(lines)
        entries += [line for line in lines if re.match(r" *\d+\. wild: ", line)]
        last_prompt = next(line for line in lines if PROMPT in line)
    assert any("wild: swap the stack with M(green) at N1 ⚠ you lose 1 small, and are out" in e for e in entries), "\n".join(entries)
    assert len(entries) == int(re.search(r"move 1-(\d+)", last_prompt).group(1))  # every move, each on its own line
    assert "+ first page" in last_prompt and "+ more" not in last_prompt  # the last page does not promise more


@pytest.mark.parametrize("typed, shows", [("?", "take back"), ("r", "rules.turn_limit")])
def test_after_help_or_the_rules_the_board_and_moves_come_back(terminal, tmp_path, typed, shows):
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seed", "5", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for(PROMPT)
    t.type(typed)
    seen = []  # every page's lines: where a row falls depends on the width its paths take
    for _ in range(12):  # a screenful at a time: Enter for the next (the rules take 7 screens)
        lines = t.wait_for("", settled="to go back to the board.")
        assert all(len(line) <= 80 for line in lines)
        seen += lines
        if any("Press Enter to go back to the board." in line for line in lines):
            break
        t.type("")
        time.sleep(0.3)
    assert any(shows in line for line in seen), "\n".join(seen)
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


def test_the_ending_shows_the_banner_the_final_board_and_one_turn_count(terminal, tmp_path):
    """The last screen: how the last Stack fell, the banner, the final board and
    the result on one 80x24 screen, with one turn count and no jargon."""
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "3", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    lines = t.wait_for(PROMPT)
    for _ in range(60):
        t.type("1")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the next prompt, or the end
            time.sleep(0.3)
            lines = t.screen()
            if (any(PROMPT in line for line in lines) or any("Record: " in line for line in lines)) and lines == t.screen():
                break
        if any("Record: " in line for line in lines):
            break
    lines = t.wait_for("wins on turn", settled="Record: ")
    screen = "\n".join(lines)
    assert any(re.fullmatch(r"─+ Game over ─+", line) for line in lines), screen
    banner = next(i for i, line in enumerate(lines) if "─ Game over ─" in line)
    assert any("┌───a" in line for line in lines[banner:]) and any("└───a" in line for line in lines[banner:])  # the whole board under it
    won = int(re.search(r"wins on turn (\d+):", screen).group(1))
    assert all(int(n) == won for n in re.findall(r"(?:Game over|out) on turn (\d+)", screen)), screen  # one turn count
    assert any(line.startswith(f"Turn {won} ") for line in lines[:banner]), screen  # the last turn's story above the banner
    assert "(check" not in screen and re.search(r"out on turn \d+", screen)
    assert "is out: the last small went" in screen.replace("\n", " ")  # how the last Stack fell, in words
    assert all(len(line) <= 80 for line in lines)
    assert not any(re.match(r"\s*[.,;:]", line) for line in lines if line.strip()), screen  # wrapped at words


def test_a_resumed_game_says_the_turn_on_screen(terminal, tmp_path):
    record = str(tmp_path / "g.jsonl")
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "5", "--delay", "0", "--record", record])
    t.wait_for(PROMPT)
    for answer in ("1", "1", "1", "1"):  # into turn 3, through the bot's turn (seed 5: the game goes on)
        t.type(answer)
        t.wait_for(PROMPT)
    header = t.wait_for(PROMPT)[0]
    saved_turn = int(re.search(r"Turn (\d+)", header).group(1))
    assert saved_turn > 1, header
    t.type("q")
    t.wait_for("th play --resume", settled="th play --resume")
    again = terminal(["play", "--resume", record])
    lines = again.wait_for("Resumed where it was saved")
    assert f"Turn {saved_turn} " in lines[0], lines[0]
    assert any(f"Resumed where it was saved: turn {saved_turn}." in line for line in lines), "\n".join(lines)


def test_g_after_two_resumes_shows_every_step_since_the_game_began(terminal, tmp_path):
    record = str(tmp_path / "g.jsonl")
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "5", "--delay", "0", "--record", record])
    t.wait_for(PROMPT)
    for answer in ("1", "1", "1", "1"):  # into turn 3, through the bot's turn (seed 5: the game goes on)
        t.type(answer)
        t.wait_for(PROMPT)
    t.type("q")
    t.wait_for("th play --resume", settled="th play --resume")
    for _resume in range(2):
        t = terminal(["play", "--resume", record, "--delay", "0"])
        lines = t.wait_for("Resumed where it was saved")
        while True:  # a move that does not put Player 1 out (the game goes on), in one question or two
            safe = [m.group(1) for line in lines if (m := re.match(r" *(\d+)\. ", line)) and "are out" not in line]
            assert safe, "\n".join(lines)
            t.type(safe[0])
            lines = t.wait_for(PROMPT)
            if not any("Your move (choice" in line for line in lines):
                break
        t.type("q")
        t.wait_for("th play --resume", settled="th play --resume")
    steps = [e for e in map(json.loads, Path(record).read_text().splitlines()) if e["event"] == "move"]
    t = terminal(["play", "--resume", record, "--delay", "0"])
    t.wait_for("Resumed where it was saved")
    t.type("g")
    log = []
    for _ in range(12):  # a screenful at a time
        lines = t.wait_for("", settled="to go back to the board.")
        log += [line for line in lines if line.strip() and "to go back to the board." not in line]
        if any("Press Enter to go back to the board." in line for line in lines):
            break
        t.type("")
        time.sleep(0.3)
    told = [line for line in log if re.match(r"(Turn \d+|Setup)\S* .*· Player \d", line)]
    assert log[0].startswith("Turn 1 (fence) · Player 1 (you): move fence"), "\n".join(log)
    assert len(told) == len(steps), "\n".join(log)  # every step of the three sessions, once
    assert sum("Resumed where it was saved" in line for line in log) == 1, "\n".join(log)  # this session's, after the history


def test_a_fences_aim_asks_which_fences_then_their_directions(terminal, tmp_path):
    """AIM offers every way to turn every set of Fences next to the Stack: asked
    as two questions, each fits a page of 80x24."""
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "6", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for(PROMPT)
    t.type("1")
    lines = t.wait_for("Choose the Fences to turn")
    steady(lines, "Turn 1 · Player 1 (you) to move")
    offered = int(re.search(r"\(move 1-(\d+),", lines[-1] if PROMPT in lines[-1] else "\n".join(lines)).group(1))
    assert offered <= 8, "\n".join(lines)  # the sets of Fences, not every way to turn them (63 on one AIM before)
    assert any(re.match(r"\s*\d+\. aim .+ and .+", line) for line in lines)
    t.type("3")
    lines = t.wait_for("new directions; b goes back.", settled="(choice 1-")
    steady(lines, "Turn 1 · Player 1 (you) to move")
    turns = [line for line in lines if re.match(r"\s*\d+\. turn ", line)]
    assert len(turns) >= 2, "\n".join(lines)
    t.type("1")
    lines = t.wait_for(PROMPT, settled=PROMPT)
    assert any("stack" in line for line in lines[:1])  # on to the stack step


def test_the_story_since_your_last_move_is_on_the_screen(terminal, tmp_path):
    """After the bot's turn the steady screen shows every step and event since
    the person's own move, in full and wrapped at words, the oldest folded into
    one line when they do not fit; g opens the whole log and the board comes back."""
    record = tmp_path / "g.jsonl"
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "3", "--delay", "0", "--record", str(record)])
    lines = t.wait_for(PROMPT)
    assert any("Recording to " in line for line in lines)  # until the first move
    seen_loss = False
    for _ in range(40):
        if not any(PROMPT in line for line in lines):
            break  # the game is over
        turn = int(re.search(r"(?:Turn (\d+)|Setup)", lines[0]).group(1) or 0)
        t.type("1")
        time.sleep(0.5)
        lines = t.wait_for("", settled=PROMPT) if not any("Record: " in line for line in t.screen()) else t.screen()
        now = re.search(r"Turn (\d+)", lines[0])
        if now is None or int(now.group(1)) <= turn or not turn:
            continue  # still the person's own turn: the bot has not played since
        screen = "\n".join(lines)
        assert all(len(line) <= 80 for line in lines)
        assert "…" not in screen.replace("… ", "")  # nothing cut short: folded lines say how many
        story = [line for line in lines if line.startswith(("Turn ", "  "))]
        # the bot's turn, step by step, unless the oldest are folded
        if not any("earlier line" in line for line in lines):
            assert any(" · Player 2 (random)" in line for line in story), screen
        seen_loss = seen_loss or any(re.match(r"  Player \d loses \w+", line) for line in lines)
    assert seen_loss, "a Hit that Damaged a Stack showed on the screen after the bot's turn"


def test_g_opens_the_whole_log_and_the_board_comes_back(terminal, tmp_path):
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "5", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for(PROMPT)
    t.type("1")
    t.wait_for("Choose the action")
    t.type("g")
    lines = t.wait_for("to go back to the board.", settled="to go back to the board.")
    assert any(line.startswith("Turn 1 (fence) · Player 1 (you): move fence") for line in lines), "\n".join(lines)
    t.type("")
    steady(t.wait_for("Choose the action"), "Turn 1 · Player 1 (you) to move")


def test_a_search_lists_the_matching_moves_themselves(terminal, tmp_path):
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "5", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for(PROMPT)
    t.type("1")
    t.wait_for("Choose the action")
    t.type("/swap")
    lines = t.wait_for(" contain 'swap': ")
    screen = " ".join(" ".join(lines).split())
    assert re.search(r"contain 'swap': \d+\. swap the stack with \w\(\w+\) at \w+", screen), screen
    steady(lines, "Turn 1 · Player 1 (you) to move")


def play_to_turn_3_of_seed_3(terminal, tmp_path) -> list[str]:
    """Seed 3: the person's turn 1, then the bot's turn 2, whose WILD and Stack
    step Damage its own Stack; the screen of turn 3's first decision."""
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "3", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for(PROMPT)
    for answer in ("1", "1", "1"):
        t.type(answer)
        time.sleep(0.3)
        t.wait_for(PROMPT)
    return t.wait_for("Turn 3 · fence")


def test_the_bots_whole_turn_with_its_hit_is_on_the_screen(terminal, tmp_path):
    """At 80x24 the board is drawn compact (Fences' treehouse_render_compact), so
    the story of the bot's whole turn, its Hit included, fits under it in full,
    beside a page of moves."""
    lines = play_to_turn_3_of_seed_3(terminal, tmp_path)
    screen = "\n".join(lines)
    (tmp_path / "bot-turn-screen.txt").write_text(screen)
    steady(lines, "Turn 3 · fence · Player 1 (you) to move")
    assert "earlier line" not in screen, screen  # nothing folded away
    for told in (
        "Turn 1 (stack) · Player 1 (you): move the stack north",
        "Turn 2 (fence) · Player 2 (random): move fence",
        "Turn 2 · Player 2 (random) rolled WILD:",
        "Turn 2 (stack) · Player 2 (random): move the stack west",
        "  Player 2 loses red (moved onto M(yellow) at d5)",
    ):
        assert any(line.startswith(told) for line in lines), (told, screen)
    assert any(re.match(r"\s*1\. move fence", line) for line in lines)
    board = [line for line in lines if "│" in line]
    assert len(board) == 5 and all(" W" in line and " E" in line for line in board)  # the Outside squares named in the frame
    assert any("Player 2 at e5, 3 high" in line for line in lines)  # the Stacks beside it


def test_l_lists_every_move_a_screenful_at_a_time(terminal, tmp_path):
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "5", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for(PROMPT)
    t.type("1")
    lines = t.wait_for("Choose the action")
    count = int(re.search(r"\(move 1-(\d+),", "\n".join(lines)).group(1))
    t.type("l")
    lines = t.wait_for("Page 1/", settled="Enter for more")
    assert lines[0].lstrip().startswith("1. "), "\n".join(lines)  # from the first move: nothing scrolled away
    assert all(len(line) <= 80 for line in lines)
    seen = {int(n) for line in lines for n in re.findall(r"^\s*(\d+)\. ", line)}
    while not any("Press Enter to go back to the board." in line for line in t.screen()):
        t.type("")
        time.sleep(0.3)
        lines = t.wait_for("", settled="to go back to the board")
        seen |= {int(n) for line in lines for n in re.findall(r"^\s*(\d+)\. ", line)}
    assert seen == set(range(1, count + 1))
    t.type("")
    steady(t.wait_for("Choose the action"), "Turn 1 · Player 1 (you) to move")


def test_a_hint_on_page_2_says_what_to_type_there_and_why(terminal, tmp_path):
    """Asked on the second page of WILD's actions, the hint names the number to
    type on this question (and its page when it is another), in words, with the
    variant's one-line reason (Variant.hint_reason)."""
    t = terminal(["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "5", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    t.wait_for(PROMPT)
    t.type("1")
    t.wait_for("Choose the action")
    t.type("+")
    t.wait_for("page 2/")
    t.type("h")
    lines = t.wait_for("Hint (search): ", timeout=120)
    steady(lines, "Turn 1 · Player 1 (you) to move")
    assert any("page 2/" in line for line in lines)
    screen = " ".join(" ".join(lines).split())
    (tmp_path / "hint-page-2.txt").write_text("\n".join(lines))
    assert re.search(r"Why: [a-z][^.]+\.", screen), screen  # the reason, in words
    number, page = re.search(r"Hint \(search\): (\d+)(?: \(page (\d+)\))? then \d+ \(", screen).groups()
    if page is None:  # on this page: its line is on screen now
        assert any(re.match(rf"\s*{number}\. ", line) for line in lines), screen
    else:
        assert page != "2"


def test_a_setup_placement_refused_states_the_setup_rule(terminal, tmp_path):
    """The seed's setup draws, it does not roll: a placement off the rule says
    the rule (the variant's words, treehouse_explain_illegal), never "with this roll"."""
    t = terminal(["play", "-v", "fences", "--set", "start=chosen", "--seat", "human", "--seat", "random", "--seed", "5", "--delay", "0", "--record", str(tmp_path / "g.jsonl")])
    lines = t.wait_for("Drew red")
    steady(lines, "Setup · place · Player 1 (you) to move")
    t.type("place r c3")
    lines = t.wait_for("✗ place r c3: ")
    screen = " ".join(" ".join(lines).split())
    assert "with two players the first Stack starts on a corner: a1, a5, e1 or e5" in screen, screen
    t.type("place b a1")
    lines = t.wait_for("✗ place b a1: ")
    screen = " ".join(" ".join(lines).split())
    assert "you drew red: the setup places the small just drawn, e.g. 'place r a1'" in screen, screen
    assert "roll" not in screen.replace("Drew red", "")
    steady(lines, "Setup · place · Player 1 (you) to move")


def test_classic_without_a_table_says_what_th_solve_brings_and_offers_it(terminal, tmp_path):
    """No solved table (a private cache): the first screen says the perfect bot and
    exact hints come with th solve and offers to start it; Enter plays on with search."""
    record = tmp_path / "g.jsonl"
    t = terminal(["play", "-v", "classic", "--seed", "5", "--delay", "0", "--record", str(record)])
    lines = t.wait_for("Start it now?", settled="Start it now?")
    screen = " ".join(" ".join(lines).split())
    assert "The perfect bot and exact hints (each move's winning chance) come with the solved table: th solve makes it (about a minute, once)." in screen, screen
    assert all(len(line) <= 80 for line in lines)  # and wrapped at words: the sentence above reads whole
    t.type("")  # play without it
    lines = t.wait_for(PROMPT)
    steady(lines, "Turn 1 · Player 1 (you) to move")
    t.type("h")
    t.wait_for("Hint (search")  # the strongest ready bot hints meanwhile
    t.type("q")
    t.wait_for("th play --resume", settled="th play --resume")
    meta = json.loads(record.read_text().splitlines()[0])
    assert meta["seats"] == ["human", "search"], meta
    assert not list((tmp_path / "cache").glob("classic-*"))  # nothing was solved unasked


def test_replay_draws_one_steady_screen_per_step_with_the_takebacks_aside(terminal, tmp_path):
    """th replay on a terminal: each step redrawn in place from the first line,
    the moves taken back at step 0 folded into one line (t lists them) so the
    board stays whole, and a setup draw worded as a draw."""
    from typer.testing import CliRunner

    from treehouse.cli import app

    record = tmp_path / "tb.jsonl"
    takebacks = "1\n1\nu\nu\n2\n1\nu\nu\n3\n1\n2\nu\nu\nu\n1\n1\n1\nq\n"  # the placement taken back three times
    played = CliRunner().invoke(app, ["play", "-v", "fences", "--set", "start=chosen", "--seat", "human", "--seat", "random", "--seed", "5", "--delay", "0", "--record", str(record)], input=takebacks)
    assert played.exit_code == 0, played.output[-2000:]
    t = terminal(["replay", str(record)])
    lines = t.wait_for("Start · step 0 of", settled="replay>")
    screen = "\n".join(lines)
    assert "Start · step 0 of" in lines[0], screen
    assert any("┌───a" in line for line in lines) and any("└───a" in line for line in lines), screen  # the whole board
    assert any(line.startswith("Moves were taken back here (t lists them).") for line in lines), screen
    assert all(len(line) <= 80 for line in lines)
    t.type("t")
    lines = t.wait_for("Taken back here: Setup · Player 1 (human): place the red small", settled="to go back to the board.")
    while not any("Press Enter to go back to the board." in line for line in lines):  # wrapped at words, the list may take two screens
        assert all(len(line) <= 80 for line in lines)
        t.type("")
        time.sleep(0.3)
        lines = t.wait_for("", settled="to go back to the board.")
    t.type("")
    t.wait_for("Start · step 0 of", settled="replay>")
    t.type("")
    t.type("")
    lines = t.wait_for("step 2 of", settled="replay>")
    screen = " ".join(" ".join(lines).split())
    assert "Setup · place · step 2 of" in lines[0], screen  # redrawn from the top: nothing scrolled
    assert "Start · step 0" not in screen
    assert "Player 2 (random) drew blue: place the blue small drawn on e5" in screen, screen
    assert "rolled" not in screen
    t.type("e")
    lines = t.wait_for("The record stops here", settled="replay>")
    assert "step 9 of 9" in lines[0] and any("┌───a" in line for line in lines)
