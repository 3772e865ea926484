"""th replay --check DIR: a folder of records checked in one process."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from treehouse.cli import app

runner = CliRunner()


def th(*args):
    return runner.invoke(app, [str(a) for a in args])


def record_games(folder, seeds):
    for seed in seeds:
        result = th("play", "--variant", "classic", "--seat", "random", "--seat", "random", "--seed", seed, "--delay", 0, "--record", folder / f"game-{seed}.jsonl")
        assert result.exit_code == 0, result.output[-2000:]


def test_a_folder_of_good_records_checks_clean(tmp_path):
    record_games(tmp_path, [1, 2, 3])
    (tmp_path / "notes.txt").write_text("not a record\n")  # only *.jsonl are records
    result = th("replay", "--check", tmp_path)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1] == f"3 records checked in {tmp_path}: 3 good, 0 bad."
    assert result.stderr == ""


def test_an_edited_record_is_one_line_and_the_exit_is_one(tmp_path):
    record_games(tmp_path, [1, 2])
    edited = tmp_path / "game-2.jsonl"
    lines = edited.read_text().splitlines()
    end = json.loads(lines[-1])
    end["winners"] = [2] if end.get("winners") == [1] else [1]  # someone else won, says the edited record
    edited.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n")
    (tmp_path / "broken.jsonl").write_text("{not json\n")
    result = th("replay", "--check", tmp_path)
    assert result.exit_code == 1, result.output
    bad = result.stderr.strip().splitlines()
    assert len(bad) == 2 and all("Traceback" not in line for line in bad)
    assert bad[0].startswith(f"{tmp_path}/broken.jsonl: ")
    assert bad[1].startswith(f"{edited}: ") and "winners" in bad[1]
    assert result.stdout.strip().splitlines()[-1] == f"3 records checked in {tmp_path}: 1 good, 2 bad."


def test_a_mistake_in_the_command_is_one_line_and_exit_two(tmp_path):
    result = th("replay", "--check", tmp_path)
    assert result.exit_code == 2 and result.stderr.strip() == f"error: no records (*.jsonl) in {tmp_path}"
    result = th("replay", "--check", tmp_path / "nowhere")
    assert result.exit_code == 2 and "is not a folder" in result.stderr
