"""What users see while games are played: a progress bar per game, and a run
that ends however it is stopped (Ctrl-C, SIGTERM, SIGHUP, kill -9) with no
worker process left behind; Ctrl-C prints the games finished so far, marked
partial, and exits 130."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from treehouse.config import resolve
from treehouse.playtest.metrics import summary
from treehouse.playtest.work import Batch, Interrupted, RuleSpec, run, usable_cpus


def batch(plugins, seed=7, sets=1):
    spec = RuleSpec.from_effective(resolve(plugins, variant="classic"))
    return Batch((spec,) * sets, ("random", "random"), seed=seed)


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_progress_bar_moves_per_game_not_per_chunk(plugins, jobs):
    calls = []
    run(batch(plugins), 30, jobs=jobs, plugins=plugins, progress=calls.append)
    assert calls == list(range(1, 31))


def test_ctrl_c_in_one_process_keeps_the_games_finished_before_it(plugins, monkeypatch):
    """Ctrl-C during game 137: games 0-136 are the partial result, the same as playing 137 games."""
    import treehouse.playtest.work as work

    real = work.play_game

    def play_game(table, batch, index, path=None):
        if index == 137:
            raise KeyboardInterrupt
        return real(table, batch, index, path)

    monkeypatch.setattr(work, "play_game", play_game)
    with pytest.raises(Interrupted) as caught:
        run(batch(plugins), 500, jobs=1, plugins=plugins)
    assert caught.value.exit_code == 130
    partial = caught.value.partial
    assert (partial.start, partial.stop, partial.sides[0].games) == (0, 137, 137)
    monkeypatch.setattr(work, "play_game", real)
    assert summary(partial.sides[0]) == summary(run(batch(plugins), 137, jobs=1, plugins=plugins).sides[0])


# --------------------------------------------------------------------------
# real processes, real signals
# --------------------------------------------------------------------------


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid``."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    living = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            living.add(pid)
    return living


def start(command: str, jobs: int | None, games: int = 1_000_000, records: Path | None = None) -> subprocess.Popen:
    """``th COMMAND`` in a process group of its own; ``jobs=None`` leaves ``--jobs`` out (its default)."""
    args = [sys.executable, "-m", "treehouse", command, "--games", str(games), "--json"] + (["--jobs", str(jobs)] if jobs is not None else [])
    args += ["--records", str(records)] if records is not None else []
    args += {"simulate": ["-v", "classic"], "compare": ["classic", "classic-wiki"], "sweep": ["-v", "classic", "--param", "rules.dig_in_place=true,false"]}[command]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    STARTED.append(process)
    return process


#: Every run a test started: a test that fails half-way must not leave a million-game run behind.
STARTED: list[subprocess.Popen] = []


@pytest.fixture(autouse=True)
def _no_run_outlives_its_test():
    yield
    while STARTED:
        process = STARTED.pop()
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait(timeout=30)


def wait_for_workers(process: subprocess.Popen, jobs: int) -> set[int]:
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < jobs:
        assert process.poll() is None, process.communicate()
        workers = descendants(process.pid)
        time.sleep(0.2)
    assert len(workers) >= jobs, workers
    time.sleep(3)  # let a few chunks finish
    return descendants(process.pid) | workers


def wait_for_the_first_chunk(process: subprocess.Popen, records: Path) -> None:
    """Until the first chunk's last game is recorded (then a moment for its
    totals to reach the parent): a fixed wait, under the load of two suites
    at once, sometimes ended before any chunk had finished."""
    deadline = time.monotonic() + 180
    while not any(records.rglob("*game-000099.jsonl")):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the first chunk never finished"
        time.sleep(0.2)
    time.sleep(1)


def assert_all_gone(workers: set[int]) -> None:
    deadline = time.monotonic() + 15
    while alive(workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(workers), f"left behind: {alive(workers)}"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(
    "command, jobs",
    [("simulate", 2), ("simulate", 1), ("simulate", None), ("compare", 2), ("sweep", 2)],
)
def test_ctrl_c_prints_partial_results_exits_130_and_leaves_no_worker(command, jobs, tmp_path):
    process = start(command, jobs, records=tmp_path / "records")
    # by default a run this long hands itself to a worker per CPU after its first chunk
    workers = wait_for_workers(process, (2 if usable_cpus() > 1 else 0) if jobs is None else 0 if jobs == 1 else jobs)
    wait_for_the_first_chunk(process, tmp_path / "records")  # the partial results are never empty
    workers |= descendants(process.pid)
    began = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C does: the whole foreground group
    output, errors = process.communicate(timeout=60)
    assert time.monotonic() - began < 15, "Ctrl-C stops promptly"
    assert process.returncode == 130, errors[-2000:]
    assert "Traceback" not in errors, errors[-2000:]
    result = json.loads(output)
    assert result["partial"] is True
    lines = errors.strip().splitlines()
    assert lines[-1].startswith("interrupted: ") and "games played; the results above are partial" in lines[-1], lines
    assert_all_gone(workers)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(
    "command, signum, code",
    [
        ("simulate", signal.SIGTERM, 128 + signal.SIGTERM),
        ("simulate", signal.SIGHUP, 128 + signal.SIGHUP),
        ("simulate", signal.SIGKILL, -signal.SIGKILL),
        ("compare", signal.SIGTERM, 128 + signal.SIGTERM),
        ("sweep", signal.SIGHUP, 128 + signal.SIGHUP),
    ],
    ids=lambda value: getattr(value, "name", str(value)),
)
def test_a_signal_to_the_parent_alone_ends_every_worker(command, signum, code):
    process = start(command, 2)
    workers = wait_for_workers(process, 2)
    os.kill(process.pid, signum)  # the parent only, as a service manager or a closed terminal does
    output, errors = process.communicate(timeout=60)
    assert process.returncode == code, errors[-2000:]
    assert "Traceback" not in errors, errors[-2000:]
    assert_all_gone(workers)


def test_an_error_in_a_worker_ends_the_others(plugins, monkeypatch):
    """A chunk that fails: the error reaches the caller once every worker has ended."""
    before = descendants(os.getpid())
    with pytest.raises(Exception):
        run(Batch(batch(plugins).rule_sets, ("random", "no-such-bot")), 400, jobs=2)
    assert not alive(descendants(os.getpid()) - before)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=lambda signum: signum.name)
def test_a_signal_while_waiting_for_the_workers_is_raised_after_the_wait_not_inside_it(plugins, monkeypatch, signum):
    """Raised inside ``concurrent.futures.wait`` while it takes the futures'
    locks, a KeyboardInterrupt can leave one held, and the pool's manager
    thread then blocks on it for ever: the run hung after Ctrl-C under load.
    So the signal is noted there and raised once the wait is over."""
    import treehouse.playtest.work as work

    real_wait, waits_finished = work.wait, []

    def wait(*args, **kwargs):
        os.kill(os.getpid(), signum)  # its handler runs here, in this frame, at once
        done = real_wait(*args, **kwargs)
        waits_finished.append(True)
        return done

    monkeypatch.setattr(work, "wait", wait)
    before = descendants(os.getpid())
    with pytest.raises(Interrupted) as caught:
        run(batch(plugins), 400, jobs=2, plugins=plugins)
    assert waits_finished, "the signal was raised inside the wait"
    assert caught.value.exit_code == 128 + signum
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert not alive(descendants(os.getpid()) - before)


def test_ending_the_workers_waits_for_the_pools_manager_thread():
    """A pool's manager thread still running at the interpreter's exit races
    with the exit's wake-up write (Python 3.11's concurrent.futures), which
    printed "OSError: [Errno 9] Bad file descriptor" after a run's partial
    results (seen under CI load after SIGHUP).  So ending the workers waits
    for that thread, though ``shutdown()`` forgets it; a thread that takes a
    second to end stands in for a slow one here."""
    import threading
    from concurrent.futures import ProcessPoolExecutor

    import treehouse.playtest.work as work

    pool = ProcessPoolExecutor(max_workers=1)
    pool.submit(time.sleep, 30)
    real_manager = pool._executor_manager_thread
    slow = threading.Thread(target=time.sleep, args=(1.0,), daemon=True)
    slow.start()
    pool._executor_manager_thread = slow
    work._end_workers(pool)
    assert not slow.is_alive(), "the manager thread was not waited for"
    real_manager.join(timeout=30)
    assert not real_manager.is_alive()
