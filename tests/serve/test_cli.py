"""``th serve`` at the command line: its mistakes (one line each, through Typer's runner),
and the real process opened to a network, stopped by Ctrl-C, and resuming a records folder."""

from __future__ import annotations

import json
import re
import signal
import time
import urllib.request
import socket
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from treehouse.cli import app

pytest.importorskip("uvicorn")
runner = CliRunner()


def th(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def busy_port():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        yield holder.getsockname()[1]


MISTAKES = [
    (["--seat", "wizard"], "unknown seat kind 'wizard'"),
    (["--variant", "nosuch"], "unknown variant 'nosuch'"),
    (["--variant", "fences", "--set", "turn_limit=-1"], "turn_limit"),
    (["--variant", "fences", "--players", "9"], "2 to 4 players, not 9"),
    (["--port", "70000"], "less than or equal to 65535"),
    (["--host", "no.such.host.invalid", "--port", "0"], "--host no.such.host.invalid"),
    (["--port", "{busy}"], "cannot listen on 127.0.0.1:{busy}"),
    (["--lobby-max-seconds", "0"], "--lobby-max-seconds"),
    (["--lobby-max-depth", "-1"], "--lobby-max-depth"),
]


@pytest.mark.parametrize("args,words", MISTAKES)
def test_a_mistake_is_one_line(args, words, tmp_path, busy_port):
    args = [a.replace("{busy}", str(busy_port)) for a in args]
    result = th("serve", "--records", tmp_path, *args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert words.replace("{busy}", str(busy_port)) in lines[0]
    assert "Traceback" not in result.output


def test_host_warns_resumes_the_folder_and_stops_on_ctrl_c(tmp_path):
    """Opened to a network: one line of warning.  A damaged record is skipped with a warning,
    a finished one quietly; an unfinished table comes back with its own links; Ctrl-C stops it."""
    from treehouse.serve.table import Table

    table = Table.create(tmp_path, variant="fences", players=None, seats=["human", "random"], bot=None, seed=3, overrides=[], delay=0)
    table.release()  # as a killed server leaves it: saved before the first decision, never started
    (tmp_path / "broken.jsonl").write_text('{"event": "start"}\n')
    (tmp_path / "broken.tokens.json").write_text(json.dumps({"seats": {"1": "x"}}))
    command = [sys.executable, "-m", "treehouse", "serve", "--host", "0.0.0.0", "--port", "0", "--records", str(tmp_path)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        for line in process.stdout:
            lines.append(line)
            if line.strip().startswith("Spectators:"):
                break
        port = int(re.search(r"Lobby: http://\S+:(\d+)/", lines[0]).group(1))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # up and serving (Ctrl-C then stops a running server)
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2).read()
                break
            except OSError:
                time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    printed = "".join(lines) + out
    assert process.returncode == 130, err  # Ctrl-C's status, as th play's
    assert f"Table {table.id}:" in printed and f"/t/{table.id}#seat={table.tokens[0]}" in printed
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    assert any("--host 0.0.0.0" in line and "docs/serving.md" in line for line in warnings), err
    assert any("not resuming broken.jsonl" in line for line in warnings), err
    assert "Traceback" not in err and len(warnings) == 2 and len(err.splitlines()) == 2, err
    assert f"Stopped by SIGINT: 1 unfinished table saved at its last step in {tmp_path}; th serve --records {tmp_path} resumes it." in out


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda s: signal.Signals(s).name)
def test_each_signal_stops_within_two_seconds_saying_what_is_saved(signum, tmp_path):
    """Two search bots thinking hard at one table, a person's page connected to another:
    the signal stops the server within 2 s, with one line, and the tables resume."""
    from treehouse.serve.table import Table

    waiting = Table.create(tmp_path, variant="fences", players=None, seats=["human", "random"], bot=None, seed=3, overrides=[], delay=0)
    waiting.release()
    deep = "search(depth=40,seconds=60)"
    command = [sys.executable, "-m", "treehouse", "serve", "--port", "0", "--records", str(tmp_path), "--delay", "0", "-v", "fences", "--seat", deep, "--seat", deep]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        for line in process.stdout:
            lines.append(line)
            if len([line for line in lines if line.strip().startswith("Spectators:")]) == 2:
                break
        port = int(re.search(r"Lobby: http://\S+:(\d+)/", lines[0]).group(1))
        websockets_sync = pytest.importorskip("websockets.sync.client")
        with websockets_sync.connect(f"ws://127.0.0.1:{port}/ws/{waiting.id}", origin=f"http://127.0.0.1:{port}") as page:
            page.send(json.dumps({"type": "hello", "token": waiting.tokens[0]}))
            assert json.loads(page.recv(timeout=20))["type"] == "state"
            time.sleep(0.5)  # the bots are deep in thought
            process.send_signal(signum)
            sent = time.monotonic()
            out, err = process.communicate(timeout=20)
            took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
    assert took < 2, f"took {took:.1f} s"
    assert process.returncode == 128 + signum, err
    assert "Traceback" not in err and err.strip() == "", err
    name = signal.Signals(signum).name
    assert out.strip().splitlines() == [f"Stopped by {name}: 2 unfinished tables saved at their last step in {tmp_path}; th serve --records {tmp_path} resumes them."]
    again = Table.resume(waiting.record_path, delay=0)  # the record is free and whole
    again.release()


def served_tables(command: list[str]) -> list[str]:
    """The tables a ``th serve`` command prints, then stops it (SIGTERM)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        for line in process.stdout:
            lines.append(line)
            if line.strip().startswith("Spectators:"):
                break
        time.sleep(0.3)
        process.send_signal(signal.SIGTERM)
        out = process.stdout.read()  # on from what the line reader holds (communicate() would read the pipe past it)
        process.wait(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 128 + signal.SIGTERM, out
    return [line.split()[1].rstrip(":") for line in lines + out.splitlines() if line.startswith("Table ")]


def test_the_same_command_again_resumes_its_table_and_adds_none(tmp_path):
    command = [sys.executable, "-m", "treehouse", "serve", "--port", "0", "--records", str(tmp_path), "-v", "fences", "--seat", "human", "--seat", "human"]
    first = served_tables(command)
    assert len(first) == 1
    assert served_tables(command) == first  # no seed given: any seed matches
    other = served_tables([*command, "--set", "turn_limit=9"])  # other choices: another table, beside the first
    assert len(other) == 2 and first[0] in other, other
    assert len(list(tmp_path.glob("*.jsonl"))) == 2
