"""th replay --html: one self-contained page, checked in headless Chromium.

The page is loaded at a few steps (``#step=N``) and its position compared
with the record's; a small harness page then steps through it with the
buttons and the slider, as a person would click.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.kernel.records import Record
from treehouse.kernel.resume import walk
from treehouse.plugins import load_plugins

runner = CliRunner()
PLUGINS = load_plugins()
CHROMIUM = next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome") if shutil.which(name)), None)

needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium; .ci/run installs it)")


def th(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output[-3000:]
    return result


def dom(url: str, tmp_path: Path, budget_ms: int = 5000) -> str:
    """The page's DOM after its scripts ran, from headless Chromium."""
    profile = tmp_path / "chromium-profile"
    done = subprocess.run(
        [
            CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", f"--user-data-dir={profile}",
            "--allow-file-access-from-files", f"--virtual-time-budget={budget_ms}", "--dump-dom", url,
        ],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def text_of(html: str, element_id: str) -> str:
    found = re.search(rf'id="{element_id}"[^>]*>([^<]*)<', html)
    assert found, f"no #{element_id} in the page"
    from html import unescape

    return unescape(found.group(1))


def recorded_game(tmp_path: Path, variant: str, seed: int) -> Path:
    path = tmp_path / f"{variant}.jsonl"
    result = th("play", "-v", variant, "--watch", "--bot", "random", "--seed", seed, "--delay", "0", "--record", path)
    assert result.exit_code == 0, result.output[-2000:]
    return path


def page_of(tmp_path: Path, record: Path) -> Path:
    page = tmp_path / f"{record.stem}.html"
    result = th("replay", record, "--html", page)
    assert result.exit_code == 0, result.output[-2000:]
    assert f"Wrote the replay page to {page}" in result.stdout
    return page


def test_the_page_is_self_contained(tmp_path):
    page = page_of(tmp_path, recorded_game(tmp_path, "classic", 4)).read_text()
    assert "<svg" in page
    assert not re.search(r'\b(src|href)\s*=', page)  # no scripts, styles or images fetched
    assert set(re.findall(r"https?://[\w./-]+", page)) <= {"http://www.w3.org/2000/svg"}


@needs_chromium
@pytest.mark.parametrize("variant, seed", [("classic", 4), ("fences", 4)])
def test_the_page_shows_the_recorded_position_at_each_step(tmp_path, variant, seed):
    record_path = recorded_game(tmp_path, variant, seed)
    page = page_of(tmp_path, record_path)
    walked = walk(Record.read(record_path), PLUGINS)
    frames = walked.frames
    for step in (0, 1, len(frames) // 2, len(frames)):
        html = dom(f"{page.as_uri()}#step={step}", tmp_path)
        expected = walked.variant.format_position(walked.start if step == 0 else frames[step - 1].after)
        assert text_of(html, "position") == expected, step
        assert text_of(html, "counter") == f"step {step} of {len(frames)}"
        assert '<div id="board"><svg' in html
        if step:
            frame = frames[step - 1]
            assert text_of(html, "roll") == (", then ".join(frame.rolls) or "-")
            assert frame.words in text_of(html, "move")
    # a step that set something off (a Hit, a loss) lists it
    from treehouse.kernel.engine import describe_event

    eventful = next((i for i, frame in enumerate(frames, start=1) if frame.events), None)
    if eventful is not None:
        html = dom(f"{page.as_uri()}#step={eventful}", tmp_path)
        listed = re.search(r'<ul id="events">(.*?)</ul>', html, re.S).group(1)
        from html import unescape

        assert [unescape(item) for item in re.findall(r"<li>(.*?)</li>", listed)] == [describe_event(e) for e in frames[eventful - 1].events]
    assert text_of(dom(f"{page.as_uri()}#step={len(frames)}", tmp_path), "result").endswith(".")


HARNESS = """<!DOCTYPE html><html><body><pre id="out">waiting</pre>
<iframe id="game" src="PAGE#step=0"></iframe>
<script>
document.getElementById('game').onload = () => {
  const doc = document.getElementById('game').contentDocument;
  const seen = [];
  const note = () => seen.push({counter: doc.getElementById('counter').textContent, position: doc.getElementById('position').textContent});
  const click = (id) => { doc.getElementById(id).click(); note(); };
  note(); click('next'); click('next'); click('next'); click('prev'); click('last'); click('first');
  const slider = doc.getElementById('slider'); slider.value = 2; slider.dispatchEvent(new Event('input')); note();
  document.getElementById('out').textContent = JSON.stringify(seen);
};
</script></body></html>"""


@needs_chromium
def test_the_buttons_and_the_slider_step_through_the_game(tmp_path):
    record_path = recorded_game(tmp_path, "fences", 4)
    page = page_of(tmp_path, record_path)
    harness = tmp_path / "harness.html"
    harness.write_text(HARNESS.replace("PAGE", page.name))
    seen = json.loads(text_of(dom(harness.as_uri(), tmp_path), "out"))
    walked = walk(Record.read(record_path), PLUGINS)
    positions = [walked.variant.format_position(walked.start)] + [walked.variant.format_position(f.after) for f in walked.frames]
    last = len(walked.frames)
    expected_steps = [0, 1, 2, 3, 2, last, 0, 2]
    assert [s["counter"] for s in seen] == [f"step {n} of {last}" for n in expected_steps]
    assert [s["position"] for s in seen] == [positions[n] for n in expected_steps]


@needs_chromium
def test_classic_with_the_table_shows_the_winning_chance_graph(tmp_path, solved_classic):
    from treehouse.variants.classic.perfect import PerfectBot
    from treehouse.plugins import game_hooks

    record_path = recorded_game(tmp_path, "classic", 4)
    page = page_of(tmp_path, record_path)
    walked = walk(Record.read(record_path), PLUGINS)
    bot = PerfectBot.from_solution(solved_classic)
    hooks = game_hooks(walked.variant)
    html = dom(f"{page.as_uri()}#step=1", tmp_path)
    assert 'id="chance-graph"' in html and "P1 wins" in html
    expected = bot.chance(hooks.treehouse_end_turn(walked.frames[0].after), 0)
    assert text_of(html, "chance") == f"{100 * expected:.1f}%"


def test_a_replay_page_to_an_unwritable_place_is_one_line(tmp_path):
    record_path = recorded_game(tmp_path, "classic", 4)
    result = th("replay", record_path, "--html", tmp_path / "no" / "such" / "dir" / "page.html")
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: cannot write the replay page to "), lines


def test_the_page_shows_the_moves_taken_back_at_their_step(tmp_path):
    path = tmp_path / "g.jsonl"
    result = th("play", "-v", "classic", "--seat", "human", "--seat", "random", "--seed", "12", "--delay", "0", "--record", path, input="1\n2\nu\n1\nq\n")
    assert result.exit_code == 0, result.output[-2000:]
    page = page_of(tmp_path, path).read_text()
    data = json.loads(re.search(r'<script type="application/json" id="steps-data">(.*?)</script>', page, re.S).group(1).replace("<\\/", "</"))
    marked = [i for i, step in enumerate(data) if step.get("taken_back")]
    assert marked == [2]  # after turn 2 (the bot's reply), turn 3's first choice was taken back
    assert data[2]["taken_back"][0].startswith("Taken back here: Turn 3 · Player 1 (human): tip S< M< L<; Turn 4 · Player 2 (random): ")


@needs_chromium
def test_the_fences_page_has_a_panel_per_player_and_a_legend(tmp_path):
    record_path = recorded_game(tmp_path, "fences", 4)
    page = page_of(tmp_path, record_path)
    walked = walk(Record.read(record_path), PLUGINS)
    step = len(walked.frames) // 2
    html = dom(f"{page.as_uri()}#step={step}", tmp_path)
    position = walked.frames[step - 1].after
    seats = re.search(r'<div id="seats">(.*?)</div></div>', html, re.S).group(1)
    for seat in range(2):
        for label, value in walked.variant.seat_panel(position, seat):
            assert f"<td>{label}</td><td>{value}</td>" in seats, (label, value)
    assert seats.count('class="seat"') == 2
    assert "Pointing Fence" in text_of(html, "legend")
    # the notation is there, folded away until asked for
    assert re.search(r"<details><summary>Position \(notation\)</summary><span id=\"position\">", html)


def test_the_page_writes_each_part_of_the_drawings_once(tmp_path):
    """The drawings repeat most of their parts from step to step: the page
    keeps each once, so it is under a quarter of the drawings written out whole."""
    record_path = recorded_game(tmp_path, "fences", 4)
    page = page_of(tmp_path, record_path).read_text()
    walked = walk(Record.read(record_path), PLUGINS)
    from treehouse.plugins import game_hooks

    hooks = game_hooks(walked.variant)
    whole = sum(len(hooks.treehouse_render_svg(p)) for p in [walked.start, *(f.after for f in walked.frames)])
    assert len(page) < whole / 4, (len(page), whole)


@needs_chromium
def test_a_setup_draw_reads_as_a_draw_on_the_page(tmp_path):
    """start: chosen draws the smalls: the page titles those steps "Setup" and labels them "Drew", not "Roll"."""
    path = tmp_path / "chosen.jsonl"
    result = th("play", "-v", "fences", "--set", "start=chosen", "--watch", "--bot", "random", "--seed", 4, "--delay", "0", "--record", path)
    assert result.exit_code == 0, result.output[-2000:]
    page = page_of(tmp_path, path)
    html = dom(f"{page.as_uri()}#step=1", tmp_path)
    assert text_of(html, "roll-label") == "Drew" and text_of(html, "title").startswith("Setup · place · Player 1")
    walked = walk(Record.read(path), PLUGINS)
    first_turn = next(i for i, frame in enumerate(walked.frames, start=1) if frame.turn == 1 and frame.rolls)
    html = dom(f"{page.as_uri()}#step={first_turn}", tmp_path)
    assert text_of(html, "roll-label") == "Roll" and text_of(html, "title").startswith("Turn 1")
