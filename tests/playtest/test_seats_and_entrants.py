"""Seats and entrants (issue 45): where the seats hold different bots they
rotate, every bot playing every seat equally often on the same seeds, and the
reports keep the game's seat balance apart from each bot's results."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.playtest.work import Batch, RuleSpec, seating

runner = CliRunner()
SPEC = RuleSpec("classic", "Classic", (), 1000)


def th(*args):
    return runner.invoke(app, [str(a) for a in args])


def data(result):
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def seats_of_records(folder: Path) -> list[tuple[list[str], list[int]]]:
    """Each game's bots by seat (the start event's meta.seats) and its winners (seat numbers from 1)."""
    games = []
    for path in sorted(folder.glob("*.jsonl")):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        games.append((lines[0]["meta"]["seats"], lines[-1]["winners"]))
    return games


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("games", [1, 2, 5, 7, 12, 100, 101])
def test_every_entrant_plays_every_seat_n_over_k_games_give_or_take_one(players, games):
    batch = Batch((SPEC,), tuple(f"bot{i}" for i in range(players)), rotate=True)
    counts = Counter((seat, entrant) for index in range(games) for seat, entrant in enumerate(seating(batch, index)[1]))
    for seat in range(players):
        for entrant in range(players):
            assert abs(counts[seat, entrant] - games / players) <= 1, (seat, entrant, counts)


def test_a_rotation_group_shares_its_seed_and_seats_every_entrant_once():
    batch = Batch((SPEC,), ("a", "b", "c"), rotate=True)
    plan = [seating(batch, index) for index in range(6)]
    assert [group for group, _ in plan] == [0, 0, 0, 1, 1, 1]
    for first in (0, 3):
        for seat in range(3):
            assert sorted(plan[first + turn][1][seat] for turn in range(3)) == [0, 1, 2]


def test_simulate_rotates_different_bots_by_default_and_fixed_seats_keeps_them(tmp_path):
    args = ("simulate", "--variant", "classic", "-n", "7", "--seed", "3", "--seat", "greedy", "--seat", "random", "--seat", "search(depth=1)", "--json")
    rotated = data(th(*args, "--records", tmp_path / "rotated"))
    assert rotated["seats_rotated"] is True
    seen = Counter((seat, bot) for bots, _ in seats_of_records(tmp_path / "rotated") for seat, bot in enumerate(bots))
    for seat in range(3):
        for bot in ("greedy", "random", "search(depth=1)"):
            assert abs(seen[seat, bot] - 7 / 3) <= 1, seen
    fixed = data(th(*args, "--fixed-seats", "--records", tmp_path / "fixed"))
    assert fixed["seats_rotated"] is False
    assert all(bots == ["greedy", "random", "search(depth=1)"] for bots, _ in seats_of_records(tmp_path / "fixed"))


def test_one_bot_in_every_seat_is_not_rotated():
    assert data(th("simulate", "--variant", "classic", "-n", "3", "--json"))["seats_rotated"] is False


def test_rotated_games_are_the_same_for_any_jobs():
    args = ("simulate", "--variant", "classic", "-n", "203", "--seed", "5", "--seat", "greedy", "--seat", "random", "--json")
    one, two = data(th(*args, "--jobs", "1")), data(th(*args, "--jobs", "2"))
    one.pop("seconds"), two.pop("seconds")
    assert one == two
