"""Every file the program writes is written atomically, keeps its mode and its
symlink, is synced before it replaces the old one, and a failure leaves the
old file as it was (a full disk, say).  Every file it reads is a regular
file, read within a limit."""

from __future__ import annotations

import errno
import json
import os
import re
import stat

import pytest
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.errors import RecordError
from treehouse.textfiles import lock_file, read_bytes, read_text, refuse_existing, write_text_atomically

runner = CliRunner()


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_file_gets_the_usual_mode_not_the_temporary_files_0600(tmp_path):
    path = write_text_atomically(tmp_path / "new.txt", "hello", RecordError)
    mask = os.umask(0)
    os.umask(mask)
    assert mode(path) == 0o666 & ~mask and path.read_text() == "hello"


def test_an_existing_file_keeps_its_mode(tmp_path):
    path = tmp_path / "shared.jsonl"
    path.write_text("old")
    os.chmod(path, 0o640)
    write_text_atomically(path, "new", RecordError)
    assert mode(path) == 0o640 and path.read_text() == "new"


def test_a_symlink_stays_a_link_and_its_target_is_written(tmp_path):
    target = tmp_path / "real" / "game.jsonl"
    target.parent.mkdir()
    target.write_text("old")
    link = tmp_path / "game.jsonl"
    link.symlink_to(target)
    write_text_atomically(link, "new", RecordError)
    assert link.is_symlink() and target.read_text() == "new"
    assert [p.name for p in target.parent.iterdir()] == ["game.jsonl"]  # no temporary file left


def test_the_data_is_synced_before_it_replaces_the_old_file(tmp_path, monkeypatch):
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append("replace"), real_replace(a, b))[1])
    write_text_atomically(tmp_path / "r.jsonl", "data", RecordError)
    assert calls[:2] == ["fsync", "replace"]


def _disk_full(fd):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("option, name", [("--csv", "out.csv"), ("--report", "out.html")])
def test_a_full_disk_leaves_the_previous_output_in_place(tmp_path, monkeypatch, option, name):
    path = tmp_path / name
    path.write_text("the previous results\n")
    monkeypatch.setattr(os, "fsync", _disk_full)
    result = runner.invoke(app, ["simulate", "-v", "classic", "--games", "2", option, str(path), "--force"])
    assert result.exit_code == 2, result.output
    assert f"error: cannot write {path}: No space left on device" in result.stderr
    assert path.read_text() == "the previous results\n"
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_a_full_disk_leaves_a_saved_game_in_place(tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    args = ["play", "-v", "classic", "--seat", "human", "--seat", "random", "--seed", "3", "--delay", "0", "--record", str(path)]
    assert runner.invoke(app, args, input="1\nq\n").exit_code == 0
    before = path.read_bytes()
    monkeypatch.setattr(os, "fsync", _disk_full)
    result = runner.invoke(app, ["play", "--resume", str(path), "--delay", "0"], input="1\nq\n")
    assert "No space left on device" in result.output and result.exit_code != 0
    assert path.read_bytes() == before


def test_play_record_refuses_an_existing_file_unless_forced(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text("my notes, not a record\n")
    args = ["play", "-v", "classic", "--watch", "--seed", "5", "--delay", "0", "--record", str(path)]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2 and "already exists; add --force" in refused.stderr
    assert path.read_text() == "my notes, not a record\n"
    forced = runner.invoke(app, [*args, "--force"])
    assert forced.exit_code == 0, forced.output
    assert json.loads(path.read_text().splitlines()[0])["event"] == "start"


def test_a_second_lock_on_one_record_is_refused_in_one_line(tmp_path):
    path = tmp_path / "game.jsonl"
    held = lock_file(path, RecordError, "record")
    try:
        with pytest.raises(RecordError, match="is in use by another th process"):
            lock_file(path, RecordError, "record")
    finally:
        held.release()
    lock_file(path, RecordError, "record").release()  # free again once released
    assert list(tmp_path.iterdir()) == []  # no lock file left behind


def test_two_th_play_processes_on_one_record_the_second_refuses(tmp_path):
    import subprocess
    import sys
    import time

    path = tmp_path / "game.jsonl"
    th = [sys.executable, "-m", "treehouse", "play", "-v", "classic", "--seat", "human", "--seat", "random", "--seed", "3", "--delay", "0"]
    first = subprocess.Popen([*th, "--record", str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not path.exists() and time.monotonic() < deadline:  # it saves before the first move
            time.sleep(0.1)
        second = subprocess.run([*th, "--record", str(path), "--force"], input="q\n", capture_output=True, text=True, timeout=60)
        assert second.returncode == 2, second.stderr
        assert second.stderr.strip().splitlines() == [f"error: the record {path} is in use by another th process; wait for it to finish, or use another file"]
        resumed = subprocess.run([sys.executable, "-m", "treehouse", "play", "--resume", str(path)], input="q\n", capture_output=True, text=True, timeout=60)
        assert resumed.returncode == 2 and "is in use by another th process" in resumed.stderr
        output, _ = first.communicate("1\nq\n", timeout=60)
    finally:
        first.kill()
    assert first.returncode == 0, output
    moves = [line for line in path.read_text().splitlines() if '"move"' in line]
    assert moves, "the first game's move was saved, untouched by the second process"


# --------------------------------------------------------------------------
# reading: regular files only, within a limit
# --------------------------------------------------------------------------


def test_a_file_over_the_limit_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"x" * 1001)
    with pytest.raises(RecordError, match=r"cannot read the record .*big.jsonl: a record file is at most 1,000 bytes"):
        read_bytes(path, RecordError, "record", limit=1000)
    assert read_bytes(path, RecordError, "record", limit=1001) == b"x" * 1001


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: os.mkfifo(p), "it is a named pipe (FIFO), not a regular file"),
        (lambda p: p.mkdir(), "it is a folder, not a regular file"),
    ],
)
def test_anything_but_a_regular_file_is_refused_at_once(tmp_path, make, words):
    path = tmp_path / "thing"
    make(path)
    with pytest.raises(RecordError, match=re.escape(words)):
        read_text(path, RecordError, "record")  # a FIFO with no writer: opened without blocking, refused


def test_a_device_is_refused_and_not_read():
    with pytest.raises(RecordError, match="cannot read the record /dev/zero: it is a device, not a regular file"):
        read_text("/dev/zero", RecordError, "record")


def test_refuse_existing_names_the_option_and_allows_force_but_never_the_input(tmp_path):
    taken, source = tmp_path / "taken.csv", tmp_path / "rules.yaml"
    taken.write_text("x")
    source.write_text("variant: classic\n")
    with pytest.raises(RecordError, match="--csv .*taken.csv already exists; add --force"):
        refuse_existing(taken, False, RecordError, "--csv")
    refuse_existing(taken, True, RecordError, "--csv")  # forced: allowed
    refuse_existing(tmp_path / "new.csv", False, RecordError, "--csv")  # a new file: allowed
    with pytest.raises(RecordError, match="is the file this command reads"):
        refuse_existing(tmp_path / "." / "rules.yaml", True, RecordError, "--csv", [source])
    link = tmp_path / "link.yaml"
    link.symlink_to(source)
    with pytest.raises(RecordError, match="is the file this command reads"):
        refuse_existing(link, True, RecordError, "--csv", [source])
    with pytest.raises(RecordError, match=r"--csv: the file name 'a+…' is 304 bytes long"):
        refuse_existing(tmp_path / ("a" * 300 + ".csv"), True, RecordError, "--csv")
