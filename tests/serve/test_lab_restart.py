"""The lab of a real ``th serve`` process through a ``kill -9`` mid-run: its run's process dies
with it, and after a restart the finished runs are all there and the unfinished ones are marked."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
websockets_sync = pytest.importorskip("websockets.sync.client")

from serve.test_browser import Server, free_port, wait_until  # noqa: E402  (the same server process as the browser tests')
from treehouse.serve.lab import RUN_NICENESS  # noqa: E402

SHORT = {"type": "run", "question": "simulate", "rule_set": "fences", "a": {}, "b": {}, "seats": ["random", "greedy"], "games": "20", "seed": "3"}
LONG = {"type": "run", "question": "compare", "rule_set": "fences", "a": {}, "b": {"line_hits": "every_check"}, "seats": ["greedy", "search"], "games": "5000", "seed": "3"}


def lab_link(server: Server) -> tuple[str, str]:
    found = server.wait_for(r"Lab \(yours only.*\): (http://\S+/lab)#key=(\S+)")
    return found.group(1), found.group(2)


class LabSocket:
    """The lab's WebSocket, as its page uses it."""

    def __init__(self, port: int, key: str) -> None:
        self.port, self.key = port, key
        self.runs: list[dict] = []

    def __enter__(self) -> "LabSocket":
        self.connection = websockets_sync.connect(f"ws://127.0.0.1:{self.port}/lab/ws", origin=f"http://127.0.0.1:{self.port}", open_timeout=20)
        self.socket = self.connection.__enter__()
        self.socket.send(json.dumps({"type": "hello", "key": self.key}))
        return self

    def __exit__(self, *exc) -> None:
        self.connection.__exit__(*exc)

    def send(self, message: dict) -> dict:
        self.socket.send(json.dumps(message))
        return self.next("queued")

    def next(self, kind: str, seconds: float = 30) -> dict:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            message = json.loads(self.socket.recv(timeout=seconds))
            if message["type"] == "lab":
                self.runs = message["runs"]
            if message["type"] == kind:
                return message
            assert message["type"] != "error", message
        raise AssertionError(f"no {kind} message")

    def until(self, run_id: str, condition, seconds: float = 60) -> dict:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            run = next((r for r in self.runs if r["id"] == run_id), None)
            if run is not None and condition(run):
                return run
            self.next("lab", seconds)
        raise AssertionError(f"run {run_id} never got there: {self.runs}")


def niceness(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def processes_running(path: Path) -> list[int]:
    """The processes whose command line names ``path`` (a run's own process)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if str(path).encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the run's process in /proc")
def test_kill_9_mid_run_then_restart_finds_the_finished_runs_and_marks_the_unfinished(tmp_path):
    records = tmp_path / "tables"
    port = free_port()
    server = Server(port, records)
    try:
        link, key = lab_link(server)
        with LabSocket(port, key) as lab:
            short = lab.send(SHORT)["run"]
            assert lab.until(short, lambda r: r["status"] not in ("queued", "playing"))["status"] == "finished"
            long = lab.send(LONG)["run"]
            waiting = lab.send({**SHORT, "seed": "4"})["run"]
            lab.until(long, lambda r: r["status"] == "playing" and r["estimate"])  # a chunk of games played
            (child,) = processes_running(records / "lab" / f"{long}.run.json")
            assert niceness(child) == min(19, niceness(server.process.pid) + RUN_NICENESS)  # the tables' people and bots come first
            server.kill()
        wait_until(lambda: not processes_running(records / "lab" / f"{long}.run.json"), 10, "the run's process to end with the server")

        server = Server(port, records)
        assert lab_link(server) == (link, key)  # the same owner link after the restart
        with LabSocket(port, key) as lab:
            lab.next("lab")
        runs = {r["id"]: r for r in lab.runs}
        assert runs[short]["status"] == "finished" and runs[short]["estimate"]
        for run_id in (long, waiting):
            assert runs[run_id]["status"] == "unfinished", runs[run_id]
            assert re.match(r"unfinished: the server stopped after \d+ of \d+ games; run it again", runs[run_id]["message"])
        assert runs[long]["done"] >= 100 and runs[long]["estimate"]  # as far as its last chunk
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{runs[short]['json']}", timeout=10) as answer:
            result = json.loads(answer.read())
        assert result["games"] == 20 and result["seed"] == 3 and result == json.loads((records / "lab" / f"{short}.json").read_text())
        assert (records / "lab" / f"{short}.html").is_file() and not (records / "lab" / f"{long}.json").exists()
        assert os.stat(records / "lab" / "lab.key.json").st_mode & 0o777 == 0o600
    finally:
        server.stop()


def test_ctrl_c_mid_run_says_the_labs_runs_are_left_unfinished(tmp_path):
    import signal

    records = tmp_path / "tables"
    port = free_port()
    server = Server(port, records)
    try:
        _link, key = lab_link(server)
        with LabSocket(port, key) as lab:
            long = lab.send(LONG)["run"]
            lab.send(SHORT)
            lab.until(long, lambda r: r["status"] == "playing" and r["done"] > 0)
            server.process.send_signal(signal.SIGINT)
            assert server.process.wait(timeout=10) == 130
        line = server.wait_for(r"^Stopped by SIGINT: .*").group(0)
        assert line == f"Stopped by SIGINT: no unfinished table to save; the records are in {records}. The lab's 2 runs not finished are marked unfinished (run them again)."
        assert not processes_running(records / "lab" / f"{long}.run.json")
        statuses = sorted(json.loads(path.read_text())["status"] for path in (records / "lab").glob("*.run.json"))
        assert statuses == ["playing", "queued"]  # as they were: the next start marks them unfinished
    finally:
        server.stop()
