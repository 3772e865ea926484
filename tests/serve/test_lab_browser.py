"""The playtest lab in headless Chromium (the system's, through Playwright), on a real ``th serve``
process: change one Fences rule for B, compare greedy and search, watch the progress arrive, and
read each bot's paired difference, which must be ``th compare --json``'s for the same seed; then
a sweep of two values of one option, its mistake said beside it, its points arriving; then a long
run killed with the server (``kill -9``), the page reconnecting to find it marked unfinished.

200 games, as the issue asks: on a quiet 2-core machine the lab's niced process plays them in
about 15 s, and ``th compare`` takes as long again to check them.
Screenshots go to ``$TREEHOUSE_SCREENSHOTS`` when set (docs/images/lab-*.png), else to the test's folder."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from typer.testing import CliRunner  # noqa: E402

from serve.test_browser import CHROMIUM, Server, free_port, wait_until  # noqa: E402  (the browser tests' own server and Chromium)
from treehouse.cli import app  # noqa: E402

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no system Chromium (apt-get install chromium); Playwright never downloads one here")
GAMES, SEED = 200, 3


def test_change_a_fences_rule_compare_greedy_and_search_and_read_th_compares_numbers(tmp_path, monkeypatch):
    shots = Path(os.environ["TREEHOUSE_SCREENSHOTS"]) if os.environ.get("TREEHOUSE_SCREENSHOTS") else tmp_path
    port = free_port()
    server = Server(port, tmp_path / "tables", "--lab-jobs", "1")
    try:
        link = server.wait_for(r"Lab \(yours only.*\): (http://\S+/lab#key=\S+)").group(1)
        with sync_api.sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_context(viewport={"width": 1000, "height": 1300}).new_page()
            # without the key: the page says so, and nothing can be run from it
            page.goto(link.split("#")[0])
            wait_until(lambda: "no key" in page.locator("#message").inner_text(), 20, "the missing key's line")
            page.goto(link)
            page.reload()
            wait_until(lambda: page.evaluate("document.body.dataset.ready") == "yes", 30, "the form")
            page.check("input[name=question][value=compare]")
            page.select_option('[data-field="b.line_hits"]', "every_check")
            page.select_option('[data-field="seats.0"]', "greedy")
            page.select_option('[data-field="seats.1"]', "search")
            page.fill("#seed", str(SEED))
            page.locator(".bot-options").nth(1).fill("depth=deep")
            page.fill("#games", "lots")  # malformed fields: each line beside its field, nothing runs
            page.fill('[data-field="a.turn_limit"]', "-3")
            page.click("#run")
            wait_until(lambda: "not 'lots'" in page.locator('.mistake[data-for="games"]').inner_text(), 20, "the games field's line")
            assert "greater than or equal to 0" in page.locator('.mistake[data-for="a.turn_limit"]').inner_text()
            assert "depth" in page.locator('.mistake[data-for="seats.1"]').inner_text()
            assert page.locator(".run").count() == 0
            assert "changed" in page.locator('[data-field="b.line_hits"]').get_attribute("class")
            page.screenshot(path=str(shots / "lab-mistakes.png"))
            page.fill('[data-field="a.turn_limit"]', "0")
            page.locator(".bot-options").nth(1).fill("")
            page.fill("#games", str(GAMES))
            page.click("#run")
            wait_until(lambda: page.locator(".run").count() == 1, 20, "the run to be queued")
            run = page.locator(".run").first
            seen: list[str] = []
            shot = False
            while run.get_attribute("data-status") in ("queued", "playing"):
                progress = run.locator(".progress")
                words = progress.inner_text() if progress.count() else ""
                if words and words not in seen:
                    seen.append(words)
                    if not shot and int(run.get_attribute("data-done")) > 5:
                        page.evaluate("window.scrollTo(0, 0)")
                        page.screenshot(path=str(shots / "lab-running.png"))
                        shot = True
                page.wait_for_timeout(40)
            assert run.get_attribute("data-status") == "finished", run.inner_text()
            assert len(seen) >= 3, seen
            assert any("s to go" in words for words in seen), seen  # the ETA
            diffs = {row.get_attribute("data-name"): float(row.get_attribute("data-value")) for row in run.locator("tr[data-name]").all()}
            command = run.locator("code").inner_text()
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(shots / "lab-result.png"))
            report = run.locator("a.report").get_attribute("href")

            # a sweep of two values of one option, with B's column out of sight: each point's figures arrive with it
            page.check("input[name=question][value=sweep]")
            assert not page.locator('[data-field="b.line_hits"]').is_visible()
            page.select_option("#sweep-option-0", "turn_limit")
            page.fill("#sweep-values-0", "10, none")
            page.select_option('[data-field="seats.1"]', "random")
            page.fill("#games", "20")
            page.click("#run")
            wait_until(lambda: "Input should be a valid integer (got 'none')" in page.locator('.mistake[data-for="sweep.0"]').inner_text(), 20, "the sweep's line")
            page.fill("#sweep-values-0", "10, 40")
            page.click("#run")
            wait_until(lambda: page.locator(".run").count() == 2, 20, "the sweep to be queued")
            sweep = page.locator(".run").first
            wait_until(lambda: sweep.get_attribute("data-status") == "finished", 60, "the sweep")
            assert [row.get_attribute("data-name") for row in sweep.locator("tr[data-name]").all()] == [
                f"turn_limit={t}: {what}" for t in (10, 40) for what in ("win rate seat 1", "score greedy", "score random")]
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(shots / "lab-sweep.png"))

            # kill -9 mid-run: the page reconnects to the server started again and finds it marked, the others there
            page.fill("#sweep-values-0", "10, 20, 30, 40, 50")
            page.fill("#games", "2000")
            page.click("#run")
            wait_until(lambda: page.locator(".run").count() == 3 and int(page.locator(".run").first.get_attribute("data-done")) > 0, 30, "the long run to play")
            server.kill()
            wait_until(lambda: page.evaluate("document.body.dataset.connected") == "no", 20, "the page to see the server go")
            server = Server(port, tmp_path / "tables")
            wait_until(lambda: page.evaluate("document.body.dataset.connected") == "yes", 30, "the page to reconnect")
            wait_until(lambda: page.locator(".run").first.get_attribute("data-status") == "unfinished", 20, "the unfinished run marked")
            assert [run.get_attribute("data-status") for run in page.locator(".run").all()] == ["unfinished", "finished", "finished"]
            assert "unfinished: the server stopped after" in page.locator(".run").first.inner_text()
            page.goto(f"http://127.0.0.1:{port}{report}")
            assert "<svg" in page.content()
            browser.close()
        words = shlex.split(command.split(" > ")[0])
        assert words[:2] == ["th", "compare"] and "--set-b" in words and "line_hits=every_check" in words
        assert not any("turn_limit" in word for word in words)  # put back as it was in A, and B followed A
        monkeypatch.chdir(tmp_path)
        result = CliRunner().invoke(app, words[1:])
        assert result.exit_code == 0, result.output
        theirs = {row["name"]: row["diff"] for row in json.loads(result.stdout)["differences"] if row["part"] == "entrants"}
        assert set(diffs) >= {"score greedy", "score search"}
        assert diffs == theirs
    finally:
        server.stop()
