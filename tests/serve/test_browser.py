"""``th serve`` end to end: the real server as a process on 127.0.0.1, two headless Chromium
pages (the system's Chromium, driven through the DevTools protocol by Playwright) playing a
whole Fences game against each other and a search bot, the server SIGKILLed mid-game and
started again, and the record read back by ``th replay --all``.

Screenshots of a turn in progress go to ``$TREEHOUSE_SCREENSHOTS`` when set (that is how
docs/images/serving-*.png are made), else to the test's own folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")
websockets_sync = pytest.importorskip("websockets.sync.client")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no system Chromium (apt-get install chromium); Playwright never downloads one here")

#: A short Fences game: two smalls a Stack and at most five turns, so a whole game is a few dozen steps.
GAME = ["--variant", "fences", "--seat", "human", "--seat", "human", "--seat", "search", "--seed", "7", "--set", "stack_height_3p=2", "--set", "turn_limit=5"]


class Server:
    """``th serve`` in a process of its own; its printed links are read as it prints them."""

    def __init__(self, port: int, records: Path, *options: str) -> None:
        command = [sys.executable, "-m", "treehouse", "serve", "--port", str(port), "--records", str(records), "--delay", "0", *options]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.port = port

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.lines:
                found = re.search(pattern, line)
                if found:
                    return found
            if self.process.poll() is not None and not self.reader.is_alive():
                break
            time.sleep(0.05)
        raise AssertionError(f"the server never printed {pattern!r}: {self.lines}")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def ply(page) -> str:
    return page.evaluate("document.body.dataset.ply || ''")


def whose(page) -> str:
    return page.evaluate("document.body.dataset.turn || ''")


def wait_until(condition, timeout: float = 60, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def play_decisions(pages, count: int | None, typed: list[bool], shots: Path | None = None) -> int:
    """Make ``count`` decisions (``None``: to the end), each on the page whose turn it is:
    by clicking the first move (and its first part), or once by typing its notation."""
    made = 0
    while count is None or made < count:
        wait_until(lambda: any(whose(p) == "mine" for p in pages) or all(whose(p) == "over" for p in pages), what="a page's turn")
        if all(whose(p) == "over" for p in pages):
            return made
        page = next(p for p in pages if whose(p) == "mine")
        page.bring_to_front()  # a page in the background gets few animation frames: Playwright's click would wait for them
        before = ply(page)
        if shots is not None and made == 2:
            page.screenshot(path=str(shots / "serving-turn.png"))
            next(p for p in pages if p is not page).screenshot(path=str(shots / "serving-waiting.png"))
        first = page.locator("#moves button.move").first
        if not typed[0] and first.locator(".notation").count() and "▸" not in first.inner_text():
            notation = first.locator(".notation").inner_text()
            page.fill("#notation", "no such move")  # an illegal move typed: one line, nothing played
            page.click("#play")
            wait_until(lambda: page.locator("#message").inner_text().startswith("✗ cannot read"), 10, "the typo's message")
            assert ply(page) == before
            page.fill("#notation", notation)
            page.click("#play")
            typed[0] = True
        else:
            first.click()
            if ply(page) == before and page.locator("#moves button.back").count():  # a split move: its second question
                page.locator("#moves button.move").first.click()
        wait_until(lambda: ply(page) != before or whose(page) != "mine", 60, "the move to be taken")
        made += 1
    return made


def test_two_browsers_and_a_bot_play_fences_through_a_kill_9(tmp_path):
    records = tmp_path / "tables"
    port = free_port()
    shots = Path(os.environ["TREEHOUSE_SCREENSHOTS"]) if os.environ.get("TREEHOUSE_SCREENSHOTS") else tmp_path
    server = Server(port, records, *GAME)
    try:
        links = [server.wait_for(rf"Player {n}: (http://127\.0\.0\.1:{port}/t/\S+#seat=\S+)").group(1) for n in (1, 2)]
        watch = server.wait_for(rf"Spectators: (http://127\.0\.0\.1:{port}/t/(\S+))")
        table_id = watch.group(2)
        record = records / f"{table_id}.jsonl"
        with sync_api.sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            context = browser.new_context(viewport={"width": 1100, "height": 820})
            pages = [context.new_page() for _ in links]
            for page, link in zip(pages, links):
                page.goto(link)
            spectator = context.new_page()
            spectator.goto(watch.group(1))
            stranger = context.new_page()
            stranger.goto(links[0].split("#")[0] + "#seat=guessed-token")
            wait_until(lambda: all(ply(p) for p in pages), what="the first decision on both pages")
            assert pages[0].locator("#you").inner_text() == "You are Player 1."
            typed = [False]
            play_decisions(pages, 3, typed, shots)

            # a wrong token and a spectator see the game and cannot move
            assert "not one of this table's" in stranger.locator("#message").inner_text()
            for page in (stranger, spectator):
                assert "watching" in page.locator("#you").inner_text()
                assert page.locator("#moves button").count() == 0
            mover = next(p for p in pages if whose(p) == "mine")
            decision = int(ply(mover))
            saved = record.read_bytes()
            origin = f"http://127.0.0.1:{port}"
            with websockets_sync.connect(f"ws://127.0.0.1:{port}/ws/{table_id}", origin=origin) as raw:
                raw.send(json.dumps({"type": "hello", "token": "guessed-token"}))
                raw.send(json.dumps({"type": "move", "ply": decision, "index": 0}))
                errors = [m for m in (json.loads(raw.recv(timeout=10)) for _ in range(3)) if m["type"] == "error"]
                assert any("watching" in m["message"] for m in errors), errors
                # a malformed message from the seat's own token changes nothing either
                raw.send(json.dumps({"type": "hello", "token": links[[p is mover for p in pages].index(True)].split("#seat=")[1]}))
                for text in ("{not json", json.dumps({"type": "move", "ply": decision, "index": 10**6}), json.dumps({"type": "move", "ply": decision})):
                    raw.send(text)
                    while json.loads(raw.recv(timeout=10))["type"] != "error":
                        pass
            assert record.read_bytes() == saved
            assert ply(mover) == str(decision) and whose(mover) == "mine"
            with pytest.raises(Exception, match="403"):
                websockets_sync.connect(f"ws://127.0.0.1:{port}/ws/{table_id}", origin="http://evil.example", open_timeout=10)

            # kill -9 mid-game; the same command without a game resumes it; the pages reconnect by themselves
            server.kill()
            wait_until(lambda: all(p.evaluate("document.body.dataset.connected") == "no" for p in pages), 20, "the pages to see the server go")
            server = Server(port, records)
            server.wait_for(rf"Table {re.escape(table_id)}:")
            wait_until(lambda: all(p.evaluate("document.body.dataset.connected") == "yes" for p in pages), 30, "the pages to reconnect")
            wait_until(lambda: any(whose(p) == "mine" for p in pages), 60, "the resumed decision")
            assert next(p for p in pages if whose(p) == "mine").locator("#status").inner_text() == mover.locator("#status").inner_text()
            pages[1].reload()  # a reloaded page gets its seat back too
            wait_until(lambda: pages[1].locator("#you").inner_text() == "You are Player 2.", 20, "the reloaded page's seat")
            play_decisions(pages, None, typed)
            assert typed[0]
            for page in (*pages, spectator):
                wait_until(lambda page=page: re.search(r"(wins|tie|draw).* on turn \d+", page.locator("#over").inner_text()), 20, "the result")
            log = pages[0].locator("#log").inner_text()
            assert "Player 3 (search)" in log

            # the lobby lists the table and starts another with th play's choices
            lobby = context.new_page()
            lobby.goto(f"http://127.0.0.1:{port}/")
            wait_until(lambda: table_id in lobby.locator("#tables").inner_text(), 20, "the lobby's list")
            lobby.select_option("#variant", "fences")
            lobby.fill("#seats", "human\nwizard")
            lobby.click("#new button[type=submit]")
            wait_until(lambda: "unknown seat kind 'wizard'" in lobby.locator("#message").inner_text(), 20, "the lobby's one-line error")
            lobby.fill("#seats", "human\nrandom")
            lobby.fill("#set", "turn_limit=2")
            lobby.click("#new button[type=submit]")
            wait_until(lambda: "Player 1: http" in lobby.locator("#links").inner_text(), 20, "the new table's links")
            lobby.locator("#links a").first.click()
            wait_until(lambda: lobby.locator("#you").inner_text() == "You are Player 1.", 20, "the new table's seat")
            browser.close()
        server.wait_for(r"Table \S+: fences \(fences rules\)", 10)
        assert len([line for line in server.lines if line.startswith("Table ")]) == 2  # the host sees the lobby's table too
        lines = [json.loads(line) for line in record.read_text().splitlines()]
        assert lines[0]["meta"]["seats"] == ["human", "human", "search"] and lines[-1]["event"] == "end"
        replayed = subprocess.run([sys.executable, "-m", "treehouse", "replay", "--all", str(record)], capture_output=True, text=True, timeout=120)
        assert replayed.returncode == 0, replayed.stderr
        assert "wins" in replayed.stdout or "draw" in replayed.stdout.lower() or "tie" in replayed.stdout
        assert (shots / "serving-turn.png").stat().st_size > 10_000 and (shots / "serving-waiting.png").stat().st_size > 10_000
    finally:
        server.stop()


#: A lobby table where Player 1's first moves cost its only small (seed 1): a seat that is out, the game going on.
GOES_OUT = {"seats": "human\nrandom\nrandom", "set": "stack_height_3p=1\nturn_limit=12", "seed": "1"}
#: The host's table: two people, whose story is kept through a kill -9.
HOSTED = ["--variant", "fences", "--seat", "human", "--seat", "human", "--set", "turn_limit=8"]


def start_from_lobby(lobby, port: int, choices: dict) -> str:
    """Start a table from the lobby page; its Player 1 link."""
    lobby.goto(f"http://127.0.0.1:{port}/")
    wait_until(lambda: lobby.locator("#variant option").count() > 0, 20, "the lobby's choices")
    lobby.select_option("#variant", "fences")
    lobby.fill("#seats", choices["seats"])
    lobby.fill("#set", choices.get("set", ""))
    lobby.fill("#seed", choices.get("seed", ""))
    lobby.click("#new button[type=submit]")
    wait_until(lambda: "Player 1: http" in lobby.locator("#links").inner_text(), 20, "the new table's links")
    return f"http://127.0.0.1:{port}" + lobby.locator("#links a").first.get_attribute("href")


def people_page_close_visible(context, link: str) -> bool:
    """Does a table's page, opened from ``link`` in ``context``, offer to close the table?"""
    page = context.new_page()
    page.goto(link)
    wait_until(lambda: ply(page) or whose(page) == "over", 20, "the page's first state")
    visible = page.locator("#close-table").is_visible()
    page.close()
    return visible


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)], ids=["1280x800", "390x844"])
def test_panels_a_seat_out_closing_and_a_restart(tmp_path, width, height):
    records = tmp_path / "tables"
    port = free_port()
    shots = Path(os.environ["TREEHOUSE_SCREENSHOTS"]) if os.environ.get("TREEHOUSE_SCREENSHOTS") else tmp_path
    server = Server(port, records, *HOSTED)
    try:
        hosted = [server.wait_for(rf"Player {n}: (http://127\.0\.0\.1:{port}/t/\S+#seat=\S+)").group(1) for n in (1, 2)]
        with sync_api.sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            context = browser.new_context(viewport={"width": width, "height": height})
            lobby = context.new_page()

            # a panel per seat and the legend, from the variant's hooks; then Player 1 goes out
            page = context.new_page()
            page.goto(start_from_lobby(lobby, port, GOES_OUT))
            wait_until(lambda: whose(page) == "mine", 20, "Player 1's first decision")
            panels = page.locator("#panels .seat")
            assert panels.count() == 3 and panels.nth(0).locator("h3").inner_text() == "Player 1 (you)"
            assert "Stack" in panels.nth(1).inner_text() and "random" in panels.nth(1).inner_text()
            assert page.locator("#legend").is_visible() and "Stack" in page.locator("#legend").inner_text()
            assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than the screen
            page.screenshot(path=str(shots / f"serving-panels-{width}.png"), full_page=True)
            page.bring_to_front()
            out = lambda: page.evaluate("document.body.dataset.out") == "yes"  # noqa: E731
            handled = ""
            for _ in range(10):  # Player 1's first moves, each the first offered (and its first part), until it is out
                wait_until(lambda: out() or whose(page) == "over" or (whose(page) == "mine" and ply(page) != handled), 20, "Player 1's decision")
                if out() or whose(page) == "over":
                    break
                handled = ply(page)
                page.locator("#moves button.move").first.click()
                wait_until(lambda: ply(page) != handled or page.locator("#moves button.back").count() > 0, 20, "the move or its second question")
                if ply(page) == handled:
                    page.locator("#moves button.move").first.click()
            assert out(), page.locator("#log").inner_text()
            assert page.locator("#you").inner_text() == "You are Player 1. You are out: your seat has no more moves this game."
            assert "out" in panels.nth(0).get_attribute("class") and "out" in panels.nth(0).locator("h3").inner_text()
            assert "your" not in page.locator("#roll").inner_text().lower()  # another seat's roll is not worded to this page
            page.screenshot(path=str(shots / f"serving-out-{width}.png"), full_page=True)

            # the person who started a table closes it from the lobby; its page says so
            closing = context.new_page()
            closing.goto(start_from_lobby(lobby, port, {"seats": "human\nhuman"}))
            wait_until(lambda: whose(closing) == "mine", 20, "the table to close")
            assert closing.locator("#close-table").is_visible()  # this browser started it: its page offers to close it too
            assert not people_page_close_visible(context, hosted[0])  # the host's table has no owner here
            table_id = closing.url.split("/t/")[1].split("#")[0]
            lobby.bring_to_front()
            lobby.goto(f"http://127.0.0.1:{port}/")
            row = lobby.locator("#tables tr", has_text=table_id)
            wait_until(lambda: row.locator("button.close").count() == 1, 20, "the Close button in the list")
            assert lobby.evaluate("document.documentElement.scrollWidth") <= width  # the lobby fits the screen too
            row.locator("button.close").click()
            wait_until(lambda: "closed by the person who started it" in closing.locator("#over").inner_text(), 20, "the closed table's page")
            assert closing.locator("#status").inner_text() == "Closed" and closing.locator("#moves button").count() == 0
            wait_until(lambda: row.locator("button.close").count() == 0, 20, "the list without the Close button")

            # the host's table: moves, a takeback, kill -9, the same command again: the story whole, no table added
            people = [context.new_page() for _ in hosted]
            for person, link in zip(people, hosted):
                person.goto(link)
            play_decisions(people, 3, [True])
            wait_until(lambda: any(p.locator("#takeback").is_visible() for p in people), 20, "a page to offer its takeback")
            taking_back = next(p for p in people if p.locator("#takeback").is_visible())
            taking_back.bring_to_front()
            taking_back.click("#takeback")
            wait_until(lambda: "took back" in people[0].locator("#log").inner_text(), 20, "the takeback in the story")
            wait_until(lambda: any(whose(p) == "mine" for p in people), 20, "the decision after the takeback")
            story = people[0].locator("#log").inner_text()
            tables = sorted(path.name for path in records.glob("*.jsonl"))
            server.kill()
            wait_until(lambda: all(p.evaluate("document.body.dataset.connected") == "no" for p in people), 20, "the pages to see the server go")
            server = Server(port, records, *HOSTED)
            hosted_id = hosted[0].split("/t/")[1].split("#")[0]
            server.wait_for(rf"Table {re.escape(hosted_id)}:")
            wait_until(lambda: all(p.evaluate("document.body.dataset.connected") == "yes" for p in people), 30, "the pages to reconnect")
            wait_until(lambda: people[0].locator("#log").inner_text() == story, 30, "the whole story again")
            assert sorted(path.name for path in records.glob("*.jsonl")) == tables  # no table added
            assert len([line for line in server.lines if line.startswith(f"Table {hosted_id}:")]) == 1
            browser.close()
    finally:
        server.stop()
