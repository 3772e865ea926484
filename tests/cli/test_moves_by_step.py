"""th moves for Fences: every move of the step the position is at (fence, act
with --action or for every face, stack, place), each with its words and the
resolved position; identical results of different moves stay separate."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.variants.fences.scenario import complete, layout

runner = CliRunner()


def th(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output[-3000:]
    return result


def position(step, **cells):
    return complete(layout(**(cells or {"c3": "1", "e5": "2", "c4": "Mr>", "E3": "Lg<"})), step=step)


def test_the_stack_step_lists_each_move_its_words_and_resolved_position(plugins):
    fences = plugins.variant("fences")()
    result = th("moves", "-v", "fences", position("stack"))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Step stack: 4 moves."
    rows = [line.split("   ") for line in lines[1:]]
    assert [row[0] for row in rows] == ["step n", "step e", "step s", "step w"]
    north = fences.parse_position(" ".join(lines[1].split()[-7:]))  # the position: the last seven fields
    assert north.stacks[0] == ("red", "green")  # bounced off Mr, Hit again by Lg's line
    assert north.phase == 0 and north.turn == 1  # resolved: the next turn's fence step


def test_the_fence_step_lists_fence_moves(plugins):
    result = th("moves", "-v", "fences", "--json", position("fence"))
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert rows and all(row["step"] == "fence" and row["face"] is None and row["move"].startswith("move ") for row in rows)
    assert set(rows[0]) == {"step", "face", "move", "words", "position"}


def test_the_act_step_lists_one_face_or_every_face(plugins):
    one = json.loads(th("moves", "-v", "fences", "-a", "swap", "--json", position("act")).stdout)
    every = json.loads(th("moves", "-v", "fences", "--json", position("act")).stdout)
    assert {row["face"] for row in one} == {"SWAP"}
    assert {row["face"] for row in every} == {"TIP", "SWAP", "HOP", "DIG", "AIM", "WILD"}
    assert [row for row in every if row["face"] == "SWAP"] == one


def test_identical_results_of_different_moves_stay_separate_lines():
    # a one-colour Stack under WILD: every reorder is the same Stack, so the same positions come up more than once
    text = complete(layout(c3="1", e5="2", c4="Mr>"), stacks="rr,oygb", destroyed="gb,-", step="act")
    rows = json.loads(th("moves", "-v", "fences", "-a", "wild", "--json", text).stdout)
    positions = [row["position"] for row in rows]
    assert len(positions) > len(set(positions))
    assert len({row["move"] for row in rows}) == len(rows)


def test_moves_reads_positions_from_standard_input():
    result = th("moves", "-v", "fences", "-", input=position("stack") + "\n" + position("fence") + "\n")
    assert result.exit_code == 0, result.output
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert [row["step"] for row in first] == ["stack"] * 4 and second[0]["step"] == "fence"


def test_classic_still_needs_the_face():
    result = th("moves", "L^/M^/S^")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: say which face was rolled with --action (tip, swap, hop, dig, aim, wild)"
