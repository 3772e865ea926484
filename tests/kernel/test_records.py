"""Records: JSON lines that replay exactly, and clear errors when they cannot."""

from __future__ import annotations

import json
import random

import re

import pytest

from treehouse.errors import RecordError
from treehouse.kernel.engine import Game
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay


@pytest.fixture
def finished(classic, random_bot):
    record = Record(meta={"seed": 4})
    game = Game(classic, [random_bot(), random_bot()], random.Random(4), record=record, turn_cap=1000)
    game.play()
    return game, record


def test_a_record_is_json_lines_with_start_rolls_moves_and_end(finished):
    game, record = finished
    lines = [json.loads(line) for line in record.dumps().splitlines()]
    assert lines[0]["event"] == "start" and lines[0]["variant"] == "classic" and lines[0]["meta"] == {"seed": 4}
    assert lines[-1]["event"] == "end" and lines[-1]["winners"] == [w + 1 for w in game.outcome.winners]
    assert {line["event"] for line in lines[1:-1]} == {"roll", "move"}


def test_replay_reaches_the_same_final_position(finished, plugins, tmp_path):
    game, record = finished
    path = record.write(tmp_path / "game.jsonl")
    again = replay(Record.read(path), plugins)
    assert again.state == game.state and again.outcome == game.outcome and again.turn == game.turn


def test_a_saved_unfinished_game_replays_to_where_it_stopped(classic, random_bot, plugins):
    record = Record()
    game = Game(classic, [random_bot(), random_bot()], random.Random(8), record=record)
    for _ in range(5):
        game.play_turn()
    again = replay(Record.loads(record.dumps()), plugins)
    assert again.state == game.state and again.outcome is None


def tampered(record: Record, change) -> str:
    lines = [json.loads(line) for line in record.dumps().splitlines()]
    change(lines)
    return "".join(json.dumps(line) + "\n" for line in lines)


def test_a_changed_move_is_caught(finished, plugins):
    _, record = finished

    def swap_first_move(lines):
        first = next(line for line in lines if line["event"] == "move")
        first["move"] = "hop S^ L^/M^" if first["move"] != "hop S^ L^/M^" else "hop L^/M^ S^"

    with pytest.raises(RecordError):
        replay(Record.loads(tampered(record, swap_first_move)), plugins)


@pytest.mark.parametrize("kind", ["roll", "move"])
def test_an_event_given_to_the_wrong_seat_is_caught(finished, plugins, kind):
    _, record = finished

    def give_to_the_other_seat(lines):
        event = next(line for line in lines if line["event"] == kind and line["seat"] == 2)
        assert event["turn"] == 2
        event["seat"] = 1

    with pytest.raises(RecordError, match=f"turn 2: the record gives this {kind} to seat 1, but seat 2 is to move"):
        replay(Record.loads(tampered(record, give_to_the_other_seat)), plugins)


def test_a_changed_end_is_caught(finished, plugins):
    _, record = finished

    def claim_other_end(lines):
        lines[-1]["position"] = "L< S^ M> :: L^/M^/S^ | L^/M^/S^ :: 1"

    with pytest.raises(RecordError, match="the replay ends at"):
        replay(Record.loads(tampered(record, claim_other_end)), plugins)


def test_foreign_rules_are_refused(finished, plugins):
    _, record = finished

    def unknown_option(lines):
        lines[0]["rules"]["gravity"] = "off"

    with pytest.raises(RecordError, match="rules"):
        replay(Record.loads(tampered(record, unknown_option)), plugins)


START = '{"event": "start", "format": "treehouse-record/1", "variant": "classic", "seats": ["random", "random"], "position": "p", "meta": {}}\n'


@pytest.mark.parametrize(
    "text, words",
    [
        ("not json\n", "line 1: damaged record event"),
        ('{"event": "start", "format": "chess-pgn"}\n', "not a treehouse record"),
        ('{"event": "roll", "turn": 1, "seat": 1, "step": "act", "face": "HOP"}\n', "line 1: damaged record: a roll event before the start event"),
        ('{"event": "teleport"}\n', "damaged record event"),
        ("", "no start event"),
        (START + START, "line 2: damaged record: a second start event"),
        (START + '{"event": "end", "turn": 0, "winners": [1], "reason": "x", "position": "p"}\n' + START, "line 3: damaged record: a start event after the end event"),
        (START + '{"event": "roll", "turn": 1, "seat": 3, "step": "act", "face": "HOP"}\n', "a roll on turn 1 by seat 3, but the game has 2 seats"),
        (START + '{"event": "end", "turn": 0, "winners": [4], "reason": "x", "position": "p"}\n', "the end event names winners [4], but the game has 2 seats"),
        (START.replace('"meta": {}', '"meta": {"seats": ["random"]}'), "the start event names 2 seats, but meta.seats names 1"),
    ],
)
def test_damaged_records(text, words):
    with pytest.raises(RecordError, match=re.escape(words)):
        Record.loads(text)


def test_missing_and_unwritable_files(tmp_path, finished):
    with pytest.raises(RecordError, match="no record at"):
        Record.read(tmp_path / "absent.jsonl")
    _, record = finished
    with pytest.raises(RecordError, match="cannot write the record"):
        record.write(tmp_path / "no-such-dir" / "game.jsonl")


def test_write_is_atomic_an_interrupted_save_leaves_the_old_record(tmp_path, finished, monkeypatch):
    import treehouse.textfiles

    _, record = finished
    path = tmp_path / "game.jsonl"
    path.write_text("the old record\n")

    def interrupted(source, target):
        raise KeyboardInterrupt  # Ctrl-C after the text is written, before it replaces the file

    monkeypatch.setattr(treehouse.textfiles.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        record.write(path)
    assert path.read_text() == "the old record\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]  # no temporary file left behind
    monkeypatch.undo()
    assert record.write(path) == path
    assert path.read_text() == record.dumps() and [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]
    assert Record.read(path).footer == record.footer


def test_an_unreadable_record_is_one_line(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"\xff\xfe not utf-8")
    with pytest.raises(RecordError, match=f"cannot read the record {path}: ") as caught:
        Record.read(path)
    assert "\n" not in str(caught.value)


class _Watcher:
    def __init__(self):
        self.faces, self.steps = [], []

    def on_choice(self, game, mover, step, face, moves):
        if face is not None:
            self.faces.append(face)

    def on_step(self, game, mover, step, move, before, after, events):
        self.steps.append((game.turn, mover, move))


def test_replay_shows_an_observer_every_recorded_roll_and_step(finished, plugins):
    game, record = finished
    watcher = _Watcher()
    again = replay(Record.loads(record.dumps()), plugins, observer=watcher)
    assert watcher.faces == [e[4] for e in record.events if e[0] == "roll"]
    assert watcher.steps == [(e[1], e[2], e[4]) for e in record.events if e[0] == "move" and str(e[4]) != "reroll"]
    assert again.outcome == game.outcome


def test_replay_stops_at_the_end_of_a_record_saved_in_play(finished, plugins):
    _, record = finished
    cut = Record.loads(record.dumps())
    cut.events, cut.footer = cut.events[:9], None  # saved after a roll, its move not made
    watcher = _Watcher()
    game = replay(cut, plugins, observer=watcher)
    assert game.outcome is None and len(watcher.faces) == len([e for e in cut.events if e[0] == "roll"])
    assert len(watcher.steps) == len([e for e in cut.events if e[0] == "move"])
