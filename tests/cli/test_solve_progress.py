"""The solve's progress: th solve's bar toward its tolerance, and th play solving for a perfect seat first."""

from __future__ import annotations

import re

import pytest

from treehouse.cli import solving
from treehouse.cli.seats import prepare_bots
from treehouse.variants.classic.game import Classic


@pytest.mark.parametrize(
    ("change", "share"),
    [(1e-2, 0.0), (1e-6, 0.5), (1e-10, 1.0), (1e-12, 1.0), (1e-1, 0.0)],
)
def test_the_share_done_is_on_a_log_scale_from_the_first_change_to_the_tolerance(change, share):
    assert solving.toward(1e-2, change, 1e-10) == pytest.approx(share)


def test_without_a_terminal_the_progress_is_a_line_every_ten_sweeps(capsys):
    with solving.solve_progress(1e-10) as progress:
        for sweep, change in enumerate([0.1 / 2**k for k in range(25)], start=1):
            progress(sweep, change)
        progress(26, 1e-11)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in lines] == ["sweep 10", "sweep 20", "sweep 26"]
    assert "largest change 1.0e-11 (done below 1e-10)" in lines[-1]


def test_the_bar_fits_80_columns_with_its_times_labelled():
    from rich.console import Console
    from rich.progress import Progress

    console = Console(width=80, record=True, no_color=True)
    bar = Progress(*solving.COLUMNS, console=console)
    task = bar.add_task("solve", total=1.0, sweep=123, change="1.2e-05")
    bar.update(task, completed=0.45)
    console.print(bar.get_renderable())
    line = console.export_text().rstrip("\n")
    assert "\n" not in line and len(line) <= 80, line
    assert " 45% sweep 123, change 1.2e-05, " in line and re.search(r"\d:\d\d:\d\d elapsed, (?:-:--:--|\d:\d\d:\d\d) left$", line), line


def test_quiet_means_no_progress():
    with solving.solve_progress(1e-10, quiet=True) as progress:
        assert progress is None


def test_a_perfect_seat_with_no_table_says_so_and_shows_the_solve(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("TREEHOUSE_CACHE_DIR", str(tmp_path))  # no table here
    solved = []

    def solve(rules, progress=None):  # the real solve takes half a minute: this one reports two sweeps
        solved.append(rules)
        progress(10, 1e-3)
        progress(20, 1e-11)

    monkeypatch.setattr("treehouse.variants.classic.solver.solve_classic", solve)
    prepare_bots(Classic(), ["human", "perfect"])
    err = capsys.readouterr().err
    assert solved == [Classic().rules]
    assert "perfect: no solved table for these rules yet: solving it now" in err
    assert "sweep 10: largest change 1.0e-03" in err and "sweep 20" in err


def test_a_perfect_seat_with_a_table_or_in_another_game_prepares_nothing(monkeypatch, plugins, capsys):
    monkeypatch.setattr("treehouse.variants.classic.solver.solve_classic", lambda *a, **k: pytest.fail("nothing to solve"))
    monkeypatch.setattr("treehouse.variants.classic.plugin._perfect_ready", lambda variant, players: True)
    prepare_bots(Classic(), ["perfect", "random"])
    monkeypatch.undo()
    monkeypatch.setattr("treehouse.variants.classic.solver.solve_classic", lambda *a, **k: pytest.fail("nothing to solve"))
    prepare_bots(plugins.variant("fences")(), ["perfect", "random"])  # plays as search there
    prepare_bots(Classic(), ["perfect", "random", "random"])  # three players: no table exists
    assert capsys.readouterr().err == ""


def test_yes_to_th_plays_offer_solves_with_the_bar_on_a_terminal(monkeypatch, tmp_path):
    # the first th play --variant classic offers to solve; y starts it, and a terminal shows the bar from the first sweep
    from io import StringIO

    from rich.console import Console

    from treehouse.cli import seats

    monkeypatch.setenv("TREEHOUSE_CACHE_DIR", str(tmp_path))  # no table here: the offer is made
    terminal = Console(file=StringIO(), force_terminal=True, width=80, no_color=True)
    monkeypatch.setattr(solving, "err", terminal)
    monkeypatch.setattr(seats, "err", terminal)
    monkeypatch.setattr(seats.out, "input", lambda prompt="": "y")

    def solve(rules, progress=None):
        for sweep, change in ((1, 1e-1), (2, 1e-5), (3, 1e-11)):
            progress(sweep, change)

    monkeypatch.setattr("treehouse.variants.classic.solver.solve_classic", solve)
    assert seats.offer_to_prepare(Classic(), 2, ask=True)
    shown = terminal.file.getvalue()
    assert "perfect: no solved table for these rules yet: solving it now" in shown
    assert re.search(r"solving .*\d+% sweep \d, change [\d.e+-]+, .*elapsed, .*left", shown), shown
