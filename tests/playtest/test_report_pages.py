"""The playtest reports as a reader sees them: each page rendered by headless
Chromium (the system's, driven by Playwright), where no label may be cut off
and every chart has its axes and values (issue 45)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.playtest.html import tune_report

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no system Chromium (apt-get install chromium); Playwright never downloads one here")

SEATS = ("--seat", "greedy", "--seat", "search(depth=1)")
#: command -> its arguments (each writes --report FILE); long rule-set names on purpose: their labels must fit.
REPORTS = {
    "simulate": ("simulate", "-v", "classic", "-n", "40", *SEATS),
    "simulate-fixed": ("simulate", "-v", "classic", "-n", "40", *SEATS, "--fixed-seats", "--skill", "--skill-games", "10", "--skill-bots", "random,greedy"),
    "compare": ("compare", "classic", "--set-b", "house_decline=reroll", "--set-b", "dig_in_place=false", "-n", "40", *SEATS, "--sprt", "auto"),
    "sweep": ("sweep", "-v", "classic", "--param", "rules.dig_in_place=true,false", "--param", "house_decline=pass,reroll", "-n", "20", *SEATS),
}

#: What th tune's report is drawn from: four trials of two options, one a choice.
TUNED = {
    "rule_set": "fences", "variant": "fences", "seats": ["random", "random"], "seed": 1, "games_played": 120, "budget_games": 120,
    "stopped_by": "the budget", "seconds": 3.0, "best": [3, 1],
    "trials": [
        {"trial": n, "rung": rung, "games": 30, "loss": loss, "params": {"uniform_dig": dig, "stack_height_2p": height},
         "values": {"mean_turns": {"value": turns, "low": turns - 1, "high": turns + 1}}}
        for n, (dig, height, loss, turns, rung) in enumerate([("hit", 3, 0.4, 9.0, 0), ("pass", 4, 0.2, 7.5, 1), ("reroll", 2, 0.3, 8.0, 0), ("hit", 5, 0.1, 6.0, 1)])
    ],
    "targets": [{"name": "mean_turns", "target": "about 7", "low": 6.5, "high": 7.5}],
    "options": [{"name": "uniform_dig", "kind": "choice", "range": "hit | pass | reroll", "choices": ["hit", "pass", "reroll"]}, {"name": "stack_height_2p", "kind": "int", "range": "2..5"}],
}

#: What the page finds cut off: every svg text outside its svg, every table cell whose text overflows it.
CUT_OFF = """() => {
  const cut = [];
  for (const svg of document.querySelectorAll('svg')) {
    const box = svg.getBoundingClientRect();
    for (const text of svg.querySelectorAll('text')) {
      const r = text.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) cut.push('svg text: ' + text.textContent);
    }
  }
  for (const cell of document.querySelectorAll('td, th')) {
    if (cell.scrollWidth > cell.clientWidth + 1) cut.push('cell: ' + cell.textContent);
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) cut.push('page wider than the window');
  return cut;
}"""

#: Each chart's axis lines and the numbers written on it.
CHARTS = """() => [...document.querySelectorAll('svg')].map(svg => ({
  label: svg.getAttribute('aria-label'),
  lines: svg.querySelectorAll('line').length,
  numbers: [...svg.querySelectorAll('text')].filter(t => /\\d/.test(t.textContent)).length,
  paths: svg.querySelectorAll('path').length,
}))"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("reports")
    runner = CliRunner()
    made = {}
    for name, args in REPORTS.items():
        made[name] = folder / f"{name}.html"
        result = runner.invoke(app, [*args, "--report", str(made[name])])
        assert result.exit_code == 0, result.output
    made["tune"] = folder / "tune.html"  # th tune's page, from a small search's results (a real search takes minutes)
    made["tune"].write_text(tune_report(TUNED))
    return made


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.mark.parametrize("name", [*sorted(REPORTS), "tune"])
def test_every_report_renders_with_no_label_cut_off_and_axes_and_values_on_every_chart(pages, browser, name, tmp_path):
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    try:
        page.goto(pages[name].as_uri())
        assert page.evaluate(CUT_OFF) == []
        charts = page.evaluate(CHARTS)
        assert charts
        for chart in charts:
            assert chart["lines"] >= 1 and chart["numbers"] >= 2, chart  # an axis, and values on it
            if name == "sweep":
                assert chart["paths"] == 0, chart  # the points are categories: nothing joins them
        page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)
    finally:
        page.close()


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_every_report_defines_every_metric_it_shows(pages, name):
    from html import unescape

    from treehouse.playtest.metrics import METRICS, definition

    text = unescape(re.sub(r"<[^>]+>", " ", pages[name].read_text().split('<script type="application/json"')[0]))
    shown = [metric.name for metric in METRICS if re.search(rf"\b{metric.name}\b", text)]
    assert shown
    for name_shown in shown:
        assert definition(name_shown) in text, name_shown
    if "Entrants" in text:
        assert definition("score") in text


def test_the_sweep_draws_lengths_as_small_multiples(pages):
    page = pages["sweep"].read_text()
    assert page.count('aria-label="game length histogram: #') == 4  # one chart a point, not four overlaid
    assert "fill-opacity=\"0.55\"" not in page
