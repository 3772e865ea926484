"""th play through Typer's runner: whole games with scripted input, mistakes, saving and resuming."""

from __future__ import annotations

import builtins
import re
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.kernel.records import Record
from treehouse.cli.seats import best_bot
from treehouse.kernel.replay import replay
from treehouse.plugins import load_plugins

runner = CliRunner()
PLUGINS = load_plugins()

#: Enough "1" answers to finish any game these tests play.
MANY = "1\n" * 1500

VARIANTS = [
    "classic",
    pytest.param("fences", marks=pytest.mark.skipif("fences" not in PLUGINS.variants, reason="the fences variant is not installed")),
]


def th(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def assert_clean(result, code=0):
    assert "Traceback" not in result.output, result.output[-3000:]
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == code, result.output[-3000:]


def assert_one_line_error(result, *words):
    """Exit status 2, no traceback, and exactly one line on standard error naming the problem."""
    assert_clean(result, 2)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: "), lines[0]
    for word in words:
        assert word in lines[0], lines[0]


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


# --------------------------------------------------------------------------
# whole games
# --------------------------------------------------------------------------


def test_a_classic_game_to_the_end_with_mistakes_typed_at_the_prompt(tmp_path):
    path = tmp_path / "game.jsonl"
    typed = "0\n99\nhpo L^\nhop L^/M^/S^\n\n?\nr\ns\n" + MANY
    result = th("play", "--variant", "classic", "--seat", "human", "--seat", "random", "--seed", 12, "--delay", 0, "--record", path, input=typed)
    assert_clean(result)
    out = result.stdout
    # each mistake is one line and the prompt comes again
    assert "✗ there is no move 0: type a number from 1 to" in out
    assert "✗ there is no move 99: type a number from 1 to" in out
    assert "✗ cannot read 'hpo L^': unknown action 'hpo'; known: aim, dig, hop, swap, tip" in out
    assert "✗ hop L^/M^/S^: " in out  # the rule it breaks follows
    assert "take back: go back to your previous decision" in out  # ? shows the help
    assert "rules.dig_in_place" in out  # r shows the rules in force
    assert "Saved to" in out  # s saves
    # the screen: whose turn, the board, the roll and what it means, numbered moves in words
    assert "Turn 1 · Player 1 (you) to move" in out
    assert "House" in out and "Player 2" in out
    assert "Rolled " in out and " 1. " in out
    assert "Game over" in out and ("wins on turn" in out or "draw" in out.lower())
    assert "Record: " in out
    # the record: seed, rule set and seats in meta, an end event, and it replays
    events = lines_of(path)
    assert events[0]["meta"]["seed"] == 12
    assert events[0]["meta"]["rule_set"] == "classic"
    assert events[0]["meta"]["seats"] == ["human", "random"]
    assert events[-1]["event"] == "end"
    game = replay(Record.read(path), PLUGINS)
    assert game.over


def test_the_screen_fits_80_columns_without_colour(tmp_path):
    result = th("play", "--variant", "classic", "--seed", 3, "--delay", 0, "--record", tmp_path / "g.jsonl", input="1\n" * 6 + "q\n")
    assert_clean(result)
    assert "\x1b[" not in result.output
    # the runner does not echo what is typed, so the prompt and the next line share a line here
    shown = result.stdout.replace("q quit): ", "q quit):\n").replace(str(tmp_path), "DIR")
    too_wide = [line for line in shown.splitlines() if len(line.rstrip()) > 80]
    assert too_wide == []


def test_a_move_may_be_typed_in_notation(tmp_path):
    path = tmp_path / "g.jsonl"
    args = ("play", "--variant", "classic", "--seed", 5, "--delay", 0, "--record", path)
    # look at the first screen, then type the last move listed in its notation
    first = th(*args, input="q\n")
    listed = [line.split() for line in first.stdout.splitlines() if re.match(r"\s*\d+\. ", line)]
    last = listed[-1]
    notation = " ".join(last[-2:]) if last[-1] != "pass" else "pass"
    result = th(*args, "--force", input=f"{notation}\nq\n")
    assert_clean(result)
    moves = [e for e in lines_of(path) if e["event"] == "move"]
    assert moves[0]["turn"] == 1 and moves[0]["seat"] == 1
    assert moves[0]["move"].split()[-1] == notation.split()[-1]


@pytest.mark.parametrize("variant", VARIANTS)
def test_watch_plays_bots_to_the_end_and_records_in_the_data_directory(variant, private_home):
    result = th("play", "--variant", variant, "--watch", "--seed", 3, "--delay", 0)
    assert_clean(result)
    assert "Game over" in result.stdout
    saved = list((private_home / "data" / "treehouse" / "games").glob("*.jsonl"))
    assert len(saved) == 1
    header, footer = lines_of(saved[0])[0], lines_of(saved[0])[-1]
    assert header["variant"] == variant and header["meta"]["seed"] == 3
    assert "human" not in header["meta"]["seats"]
    assert footer["event"] == "end"


def test_without_a_seed_one_is_chosen_and_recorded(tmp_path):
    path = tmp_path / "g.jsonl"
    result = th("play", "--variant", "classic", "--watch", "--delay", 0, "--record", path)
    assert_clean(result)
    seed = lines_of(path)[0]["meta"]["seed"]
    assert isinstance(seed, int) and f"seed {seed}" in result.stdout


def test_the_default_seats_are_you_against_the_strongest_bot(tmp_path):
    path = tmp_path / "g.jsonl"
    best = best_bot(PLUGINS.variant("classic")(), 3)  # the strongest bot ready for this game
    assert best in PLUGINS.bots
    result = th("play", "--variant", "classic", "--players", 3, "--seed", 1, "--delay", 0, "--record", path, input="q\n")
    assert_clean(result)
    assert lines_of(path)[0]["meta"]["seats"] == ["human", best, best]


def test_two_people_at_one_terminal(tmp_path):
    path = tmp_path / "g.jsonl"
    result = th("play", "--variant", "classic", "--seat", "human", "--seat", "human", "--seed", 2, "--record", path, input=MANY)
    assert_clean(result)
    assert "Player 1, your move" in result.stdout and "Player 2, your move" in result.stdout
    assert lines_of(path)[-1]["event"] == "end"


def test_rule_options_and_rule_sets_apply(tmp_path):
    path = tmp_path / "g.jsonl"
    result = th("play", "--variant", "classic-wiki", "--set", "turn_cap=4", "--watch", "--seed", 1, "--delay", 0, "--record", path)
    assert_clean(result)
    header = lines_of(path)[0]
    assert header["meta"]["rule_set"] == "classic-wiki"
    assert header["rules"]["house_decline"] == "reroll" and header["turn_cap"] == 4


# --------------------------------------------------------------------------
# saving and resuming
# --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_resumed_game_finishes_exactly_like_an_uninterrupted_one(variant, tmp_path):
    whole, stopped = tmp_path / "whole.jsonl", tmp_path / "stopped.jsonl"
    common = ("play", "--variant", variant, "--seed", 21, "--delay", 0)
    assert_clean(th(*common, "--record", whole, input=MANY))
    # the same game, saved and quit after four moves, then resumed
    first = th(*common, "--record", stopped, input="1\n" * 4 + "q\n")
    assert_clean(first)
    assert f"Game saved to {stopped}" in first.stdout
    assert f"th play --resume {stopped}" in first.stdout
    assert lines_of(stopped)[-1]["event"] != "end"
    second = th("play", "--resume", stopped, "--delay", 0, input=MANY)
    assert_clean(second)
    assert "Resuming" in second.stdout and "Game over" in second.stdout
    assert stopped.read_text() == whole.read_text()


def test_end_of_input_saves_and_resuming_twice_still_matches(tmp_path):
    whole, stopped = tmp_path / "whole.jsonl", tmp_path / "stopped.jsonl"
    common = ("play", "--variant", "classic", "--seed", 8, "--delay", 0)
    assert_clean(th(*common, "--record", whole, input=MANY))
    first = th(*common, "--record", stopped, input="1\n" * 3)  # then the input ends
    assert_clean(first)
    assert "Game saved to" in first.stdout
    middle = th("play", "--resume", stopped, input="2\n1\n")  # ends again
    assert_clean(middle)
    assert "Game saved to" in middle.stdout
    # the moves typed differ from the uninterrupted game's now, so finish from a copy too
    assert_clean(th("play", "--resume", stopped, input=MANY))
    final = lines_of(stopped)
    assert final[-1]["event"] == "end"
    replay(Record.read(stopped), PLUGINS)
    # up to the first divergent answer, both games are the same events
    assert lines_of(whole)[:5] == final[:5]


def test_ctrl_c_saves_the_game_and_exits_130(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    answers = iter(["1"])

    def typed(prompt=""):
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(builtins, "input", typed)
    result = th("play", "--variant", "classic", "--seed", 4, "--delay", 0, "--record", path)
    assert_clean(result, 130)
    assert f"Game saved to {path}" in result.stdout
    saved = Record.read(path)
    assert len([e for e in saved.events if e[0] == "move" and e[2] == 0]) == 1
    assert saved.events[-1][0] == "roll" and saved.footer is None  # saved at the prompt, the roll kept
    monkeypatch.undo()
    assert_clean(th("play", "--resume", path, "--delay", 0, input=MANY))


def test_resume_to_another_record_file_leaves_the_first_alone(tmp_path):
    stopped, moved = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert_clean(th("play", "--variant", "classic", "--seed", 6, "--delay", 0, "--record", stopped, input="1\nq\n"))
    before = stopped.read_text()
    result = th("play", "--resume", stopped, "--record", moved, "--delay", 0, input="1\nq\n")
    assert_clean(result)
    assert stopped.read_text() == before
    assert moved.read_text().startswith(before.rstrip("\n").rsplit("\n", 1)[0])


# --------------------------------------------------------------------------
# mistakes on the command line and in record files
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, words",
    [
        (["--seat", "robot"], ["unknown seat kind 'robot'", "human"]),
        (["--players", "7"], ["played by 2 to 4 players, not 7"]),
        (["--players", "2", "--seat", "human", "--seat", "random", "--seat", "random"], ["3 --seat options for 2 players"]),
        (["--watch", "--seat", "human"], ["--watch seats bots only"]),
        (["--set", "nosuch=1"], ["unknown option 'nosuch'"]),
        (["--variant", "chess"], ["unknown variant 'chess'"]),
    ],
)
def test_bad_options_get_one_line(args, words):
    assert_one_line_error(th("play", "--variant", "classic", *args) if "--variant" not in args else th("play", *args), *words)


def test_an_unwritable_record_path_gets_one_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    result = th("play", "--variant", "classic", "--seed", 1, "--record", blocker / "game.jsonl", input="1\n")
    assert_one_line_error(result, "cannot write the record to", "game.jsonl")


def test_a_missing_record_gets_one_line(tmp_path):
    assert_one_line_error(th("play", "--resume", tmp_path / "nope.jsonl"), "no record at", "nope.jsonl")


def _saved_classic(tmp_path, name="saved.jsonl", typed="1\n1\nq\n"):
    path = tmp_path / name
    assert_clean(th("play", "--variant", "classic", "--seed", 9, "--delay", 0, "--record", path, input=typed))
    return path


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda text: "this is not json\n", ["damaged record event"]),
        (lambda text: "", ["damaged record: no start event"]),
        (lambda text: text.replace("treehouse-record/1", "chess-pgn/2"), ["not a treehouse record"]),
        (lambda text: text + '{"event": "roll", "turn": 3\n', ["damaged record event"]),
        (lambda text: text.replace('"variant":"classic"', '"variant":"nosuch"', 1), ["unknown variant 'nosuch'"]),
        (lambda text: text.replace('"dig_in_place":true', '"dig_in_place":true,"gravity":2'), ["rules", "does not accept"]),
        (lambda text: text.replace('"seed":9', '"seed":10'), ["does not follow from its seed 10"]),
        (lambda text: text.replace('"seed":9,', ''), ["has no seed"]),
    ],
    ids=["not-json", "empty", "foreign-format", "truncated-line", "unknown-variant", "other-rules", "other-seed", "no-seed"],
)
def test_damaged_and_foreign_records_get_one_line_on_resume(tmp_path, change, words):
    path = _saved_classic(tmp_path)
    path.write_text(change(path.read_text()))
    before = path.read_text()
    assert_one_line_error(th("play", "--resume", path), *words)
    assert path.read_text() == before  # a refused record is never overwritten


def test_a_finished_game_cannot_be_resumed(tmp_path):
    path = tmp_path / "done.jsonl"
    assert_clean(th("play", "--variant", "classic", "--watch", "--seed", 2, "--delay", 0, "--record", path))
    assert_one_line_error(th("play", "--resume", path), "is over", "th replay")


def test_resume_refuses_options_that_would_change_the_game(tmp_path):
    path = _saved_classic(tmp_path)
    assert_one_line_error(th("play", "--resume", path, "--seed", 3, "--seat", "random"), "leave out --seat, --seed")


# --------------------------------------------------------------------------
# bots with options
# --------------------------------------------------------------------------


def test_bot_specs_in_the_seats_are_recorded_and_resumed(tmp_path):
    whole, stopped = tmp_path / "whole.jsonl", tmp_path / "stopped.jsonl"
    common = ("play", "--variant", "classic", "--seed", 9, "--delay", 0, "--seat", "human", "--seat", "Search( width=2, nodes=300 )", "--players", 3, "--bot", "greedy")
    assert_clean(th(*common, "--record", whole, input=MANY))
    first = th(*common, "--record", stopped, input="1\n" * 3 + "q\n")
    assert_clean(first)
    assert "Player 2 (search(width=2, nodes=300)), Player 3 (greedy)" in first.stdout
    assert Record.read(stopped).meta["seats"] == ["human", "search(width=2, nodes=300)", "greedy"]
    assert_clean(th("play", "--resume", stopped, "--delay", 0, input=MANY))
    assert stopped.read_text() == whole.read_text()  # the bots were rebuilt with their options


def test_bot_fills_the_seats_left_out(tmp_path):
    path = tmp_path / "g.jsonl"
    assert_clean(th("play", "--variant", "classic", "--watch", "--bot", "search(depth=1)", "--seed", 3, "--delay", 0, "--record", path))
    assert Record.read(path).meta["seats"] == ["search(depth=1)", "search(depth=1)"]


@pytest.mark.parametrize(
    "args, words",
    [
        (["--bot", "search(depth=x)"], ["bad value 'x' for option 'depth' of bot 'search'"]),
        (["--bot", "human"], ["unknown bot 'human'"]),
        (["--seat", "human", "--seat", "search(iterations=2)"], ["bot 'search' has no option 'iterations'"]),
        (["--seat", "human", "--seat", "alphazero(depth=2)"], ["unknown seat kind 'alphazero'", "human", "search"]),
        (["--seat", "search(depth=1"], ["bad bot 'search(depth=1'"]),
    ],
)
def test_bad_bot_specs_get_one_line(args, words):
    assert_one_line_error(th("play", "--variant", "classic", *args), *words)


def test_a_record_naming_bad_bot_options_is_refused_in_one_line(tmp_path):
    path = tmp_path / "g.jsonl"
    assert_clean(th("play", "--variant", "classic", "--seat", "human", "--seat", "search(depth=1)", "--seed", 2, "--delay", 0, "--record", path, input="q\n"))
    path.write_text(path.read_text().replace('"search(depth=1)"', '"search(depth=zero)"'))
    assert_one_line_error(th("play", "--resume", path), "g.jsonl", "bad value 'zero' for option 'depth'")
