"""The same seed gives the same JSON as before: results pinned from main before the speed work (issue 12).

Every fast path stays behind the same hooks and values; these outputs, captured
from the plain code, catch a fast path that changes a single game.  Fences
options are all pinned explicitly, so a change of Fences' defaults (a rules
decision) does not trip them; a change of what a pinned option means does, on
purpose.  Regenerate only for a deliberate rules change:
``python tests/test_pinned_outputs.py`` (then review the diff).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from treehouse.cli import app

PINNED = Path(__file__).parent / "pinned"

FENCES = [
    f"--set={key}={value}"
    for key, value in (
        ("stack_height_2p", 4), ("stack_height_3p", 3), ("stack_height_4p", 2), ("draft", "random"), ("start", "corners"), ("first_player", 1),
        ("line_hits", "new"), ("one_hit_per_piece", "false"), ("outside_attempts", "true"), ("swap_outside_ignores_colour", "true"), ("swap_outside_considered_moved", "true"), ("mover_hit_on_stack", "true"), ("uniform_dig", "hit"),
        ("all_out_at_once", "tie"), ("turn_limit", 0), ("turn_limit_scoring", "most_smalls"),
    )
]

#: name -> the command's arguments (``--json`` is added; ``--records`` too for the names ending in ``-records``).
COMMANDS: dict[str, list[str]] = {
    "classic-random": ["simulate", "--variant", "classic", "-n", "200", "--seed", "7"],
    "classic-3p": ["simulate", "--variant", "classic", "-n", "100", "--seed", "5", "-p", "3"],
    "classic-wiki": ["simulate", "--variant", "classic-wiki", "-n", "100", "--seed", "8"],
    "classic-greedy-search-records": ["simulate", "--variant", "classic", "-n", "6", "--seed", "9", "--seat", "greedy", "--seat", "search"],
    "classic-compare": ["compare", "classic", "--set-b", "dig_in_place=false", "-n", "200", "--seed", "4"],
    "fences-random": ["simulate", "--variant", "fences", *FENCES, "-n", "100", "--seed", "11"],
    "fences-greedy-search-records": ["simulate", "--variant", "fences", *FENCES, "-n", "3", "--seed", "21", "--seat", "greedy", "--seat", "search"],
}


def without_time(value):
    if isinstance(value, dict):
        return {k: without_time(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [without_time(v) for v in value]
    return value


def moves_of(folder: Path) -> dict[str, list]:
    """Each record's rolls and moves (other events may be added to records without changing a game)."""
    games = {}
    for path in sorted(folder.glob("*.jsonl")):
        events = [json.loads(line) for line in path.read_text().splitlines()]
        games[path.name] = [[e["event"], e.get("turn"), e.get("seat"), e.get("face"), e.get("move")] for e in events if e["event"] in ("roll", "move")]
        games[path.name].append(["end", events[-1].get("turn"), events[-1].get("winners")])
    return games


def run(name: str, folder: Path) -> dict:
    arguments = [*COMMANDS[name], "--json"]
    if name.endswith("-records"):
        arguments += ["--records", str(folder / name)]
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 0, result.output
    output = {"json": without_time(json.loads(result.stdout))}
    if name.endswith("-records"):
        output["records"] = moves_of(folder / name)
    return output


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_same_seed_same_output_as_before(name, tmp_path):
    expected = json.loads((PINNED / f"{name}.json").read_text())
    assert run(name, tmp_path) == expected


if __name__ == "__main__":  # regenerate the pins (only for a deliberate rules change)
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        for name in sys.argv[1:] or sorted(COMMANDS):
            (PINNED / f"{name}.json").write_text(json.dumps(run(name, Path(scratch)), indent=1, sort_keys=True) + "\n")
            print("pinned", name)
