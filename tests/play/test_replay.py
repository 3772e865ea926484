"""th replay through Typer's runner, and the kernel's resume/walk helpers it and th play stand on."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.errors import RecordError
from treehouse.kernel.engine import Game
from treehouse.kernel.records import Record
from treehouse.kernel.resume import SavedGame, finish_catch_up, resume_game, saved_game, walk
from treehouse.plugins import load_plugins

runner = CliRunner()
PLUGINS = load_plugins()


def th(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def assert_clean(result, code=0):
    assert "Traceback" not in result.output, result.output[-3000:]
    assert result.exit_code == code, result.output[-3000:]


def assert_one_line_error(result, *words):
    assert_clean(result, 2)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture
def watched(tmp_path):
    path = tmp_path / "watched.jsonl"
    assert_clean(th("play", "--variant", "classic", "--watch", "--seat", "random", "--seat", "random", "--seed", 3, "--delay", 0, "--record", path))
    return path


def test_replay_steps_forward_back_and_jumps_to_a_turn(watched):
    record = Record.read(watched)
    moves = [e for e in record.events if e[0] == "move"]
    result = th("replay", watched, input="n\n\np\n5\n999\nxyz\np\np\np\np\np\np\ne\nn\nq\n")
    assert_clean(result)
    out = result.stdout
    assert f"{len(moves)} steps" in out
    assert "Start · step 0 of" in out
    assert "Turn 1 · step 1 of" in out and "Turn 2 · step 2 of" in out
    assert "Turn 5 · step 5 of" in out
    assert "✗ there is no turn 999" in out
    assert "✗ unknown command 'xyz'" in out
    assert "This is the start" in out  # p at step 0
    assert "That was the last step" in out  # n after e
    # the roll and the move at each step, then the position, and the result at the end
    first_face = record.events[0][4]
    assert f"Player 1 (random) rolled {first_face}:" in out
    assert "House" in out
    assert "won on turn" in out or "draw" in out.lower()


def test_replay_all_prints_every_step_and_exits(watched):
    result = th("replay", "--all", watched)
    assert_clean(result)
    steps = len([e for e in Record.read(watched).events if e[0] == "move"])
    assert f"step {steps} of {steps}" in result.stdout
    assert result.stdout.count("· step ") == steps + 1


def test_replay_of_a_saved_unfinished_game_says_where_it_stops(tmp_path):
    path = tmp_path / "g.jsonl"
    assert_clean(th("play", "--variant", "classic", "--seed", 7, "--delay", 0, "--record", path, input="1\nq\n"))
    result = th("replay", "--turn", 1, path, input="e\nq\n")
    assert_clean(result)
    assert "saved before it ended" in result.stdout


def test_replay_end_of_input_leaves_quietly(watched):
    assert_clean(th("replay", watched, input="n\n"))


@pytest.mark.parametrize(
    "text, words",
    [
        ("{{{\n", ["damaged record event"]),
        ('{"event": "start", "format": "othergame/3"}\n', ["not a treehouse record"]),
        ('{"event": "start", "format": "treehouse-record/1", "variant": "nosuch", "seats": [], "position": ""}\n', ["unknown variant 'nosuch'"]),
        ('{"event": "start", "format": "treehouse-record/1", "variant": "classic", "rules": {"speed": 9}, "seats": ["a", "b"], "position": "x"}\n', ["does not accept"]),
    ],
    ids=["not-json", "foreign", "unknown-variant", "other-rules"],
)
def test_replay_refuses_damaged_and_foreign_records(tmp_path, text, words):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    assert_one_line_error(th("replay", path), *words)


def test_replay_refuses_a_record_whose_moves_break_the_rules(watched):
    lines = watched.read_text().splitlines()
    # the first move becomes one that is never legal (a trio cannot become itself)
    assert '"event":"move"' in lines[2]
    lines[2] = lines[2].rsplit('"move":', 1)[0] + '"move":"hop L^/M^/S^"}'
    watched.write_text("\n".join(lines) + "\n")
    assert_one_line_error(th("replay", watched), "watched.jsonl", "'hop L^/M^/S^' is not legal")


def test_replay_of_a_missing_file(tmp_path):
    assert_one_line_error(th("replay", tmp_path / "none.jsonl"), "no record at")


# --------------------------------------------------------------------------
# the kernel helpers
# --------------------------------------------------------------------------


def _record(seed: int, turns: int | None = None) -> Record:
    variant = PLUGINS.variant("classic")()
    bot = PLUGINS.bot("random").factory
    record = Record(meta={"seed": seed, "rule_set": "classic", "seats": ["random", "random"]})
    game = Game(variant, [bot(), bot()], random.Random(seed), turn_cap=1000, record=record)
    while not game.over and (turns is None or game.turn < turns):
        game.play_turn()
    return Record.loads(record.dumps())


def test_walk_gives_one_frame_per_recorded_move_with_positions():
    record = _record(11)
    walked = walk(record, PLUGINS)
    moves = [e for e in record.events if e[0] == "move"]
    assert len(walked.frames) == len(moves)
    assert [f.notation for f in walked.frames] == [e[4] for e in moves]
    assert walked.frames[0].before == walked.start
    for earlier, later in zip(walked.frames, walked.frames[1:]):
        assert later.before == earlier.after or later.turn == earlier.turn + 1
    assert walked.outcome is not None


def test_resume_game_continues_a_bot_game_exactly():
    whole = _record(5)
    part = _record(5, turns=6)
    saved = saved_game(part, PLUGINS)
    assert isinstance(saved, SavedGame) and saved.seed == 5
    bot = PLUGINS.bot("random").factory
    again = Record(meta=dict(part.meta))
    game, check = resume_game(part, saved, [bot(), bot()], new_record=again)
    finish_catch_up(game, check)
    assert not check.pending
    game.play()
    assert Record.loads(again.dumps()).events == whole.events


def test_resume_game_names_the_first_difference():
    part = _record(5, turns=6)
    part.events[4] = part.events[4][:4] + ("WILD" if part.events[4][4] != "WILD" else "TIP",)
    saved = saved_game(part, PLUGINS)
    bot = PLUGINS.bot("random").factory
    game, check = resume_game(part, saved, [bot(), bot()])
    with pytest.raises(RecordError, match="the seed rolls .* where the record has"):
        finish_catch_up(game, check)
