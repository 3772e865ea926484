"""The Dask backend, for real: a scheduler and workers started as processes on 127.0.0.1.

The same seed must give the same JSON as the local runner, a worker killed
mid-run must lose nothing, and a worker without our plugins is refused
before any game is played.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("distributed")

import treehouse  # noqa: E402
from treehouse.cli.app import app  # noqa: E402
from treehouse.playtest import cluster  # noqa: E402

BIN = Path(sys.executable).parent
DASK = str(BIN / "dask")
TH = str(BIN / "th")


class DaskProcesses:
    """A scheduler and its workers, each its own process group, all killed at the end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.processes: list[subprocess.Popen] = []
        self.workers: dict[str, subprocess.Popen] = {}
        self.address = ""

    def _start(self, args: list[str], name: str, env: dict | None = None) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "wb")
        process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env={**os.environ, **(env or {})})
        log.close()
        self.processes.append(process)
        return process

    def scheduler(self) -> str:
        file = self.folder / "scheduler.json"
        self._start([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", str(file)], "scheduler")
        deadline = time.monotonic() + 60
        while not file.exists() or not file.read_text().strip().endswith("}"):
            if time.monotonic() > deadline:
                raise RuntimeError("the scheduler did not start: " + (self.folder / "scheduler.log").read_text())
            time.sleep(0.2)
        self.address = json.loads(file.read_text())["address"]
        return self.address

    def worker(self, name: str, env: dict | None = None, preload: Path | None = None) -> subprocess.Popen:
        args = [DASK, "worker", self.address, "--nthreads", "1", "--nworkers", "1", "--no-nanny", "--host", "127.0.0.1", "--name", name, "--no-dashboard"]
        if preload is not None:
            args += ["--preload", str(preload)]
        self.workers[name] = self._start(args, name, env)
        return self.workers[name]

    def wait_for_workers(self, count: int) -> None:
        from distributed import Client

        with Client(self.address, set_as_default=False, timeout=30) as client:
            client.wait_for_workers(count, timeout=90)

    def close(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)



class _Kept(logging.Handler):
    """Keeps the records a logger lets through (its filters applied)."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    processes = DaskProcesses(tmp_path_factory.mktemp("dask"))
    try:
        processes.scheduler()
        processes.worker("one")
        processes.worker("two")
        processes.wait_for_workers(2)
        yield processes
    finally:
        processes.close()


def _json(args: list[str]) -> dict:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    data.pop("seconds")
    return data


def _strip(data: dict) -> dict:
    data.pop("seconds", None)
    return data


def test_simulate_on_the_cluster_equals_the_local_run(dask_cluster):
    common = ["simulate", "--variant", "fences", "--games", "250", "--seed", "11", "--json"]
    local = _json(common)
    assert _json([*common, "--cluster", dask_cluster.address]) == local
    assert _json([*common, "--jobs", "2"]) == local
    assert local["games"] == 250


def test_rotated_seats_follow_the_same_game_plan_on_the_cluster(dask_cluster):
    """Different bots rotate through the seats by the game's index alone, so the workers seat them as this process does."""
    common = ["simulate", "--variant", "classic", "--games", "203", "--seed", "4", "--seat", "greedy", "--seat", "random", "--json"]
    local = _json([*common, "--jobs", "1"])
    assert local["seats_rotated"] and len(local["entrants"]) == 2
    assert _json([*common, "--cluster", dask_cluster.address]) == local


def test_a_long_run_of_random_seats_is_played_compiled_on_the_workers_with_the_engines_results(dask_cluster, monkeypatch):
    """2,000 games of random seats: the workers load the compiled playout
    (the batch says the run is long enough) and give the statistics the
    engine gives here, played game by game with the playout withheld."""
    from distributed import Client

    from treehouse.playtest.work import _Table

    def playout_loaded() -> bool:  # run on each worker (defined here, so it travels by value)
        from treehouse.kernel.fast import compiled

        return compiled.ready("classic")

    common = ["simulate", "--variant", "classic", "--games", "2000", "--seed", "13", "--json"]
    cluster = _json([*common, "--cluster", dask_cluster.address])
    with Client(dask_cluster.address, set_as_default=False, timeout=30) as client:
        assert all(client.run(playout_loaded).values())
    monkeypatch.setattr(_Table, "compiled_playout", lambda self, load=False: None)
    assert cluster == _json([*common, "--jobs", "1"])


def test_compare_and_sweep_on_the_cluster_equal_the_local_run(dask_cluster):
    compare = ["compare", "classic", "--set-b", "dig_in_place=false", "--games", "200", "--seed", "5", "--json"]
    a, b = _json(compare), _json([*compare, "--cluster", dask_cluster.address])
    for side in ("a", "b"):
        a[side].pop("seconds"), b[side].pop("seconds")
    assert a == b
    sweep = ["sweep", "--variant", "fences", "--param", "rules.line_hits=new,every_check", "--games", "150", "--json"]
    assert _json([*sweep, "--cluster", dask_cluster.address]) == _json(sweep)


def test_a_worker_killed_mid_run_loses_nothing(dask_cluster, tmp_path):
    """Kill a worker while it is playing chunks: they are played again elsewhere, and the totals are the local run's."""
    from distributed import Client

    games, seed = 3000, 4
    victim = dask_cluster.worker("victim")
    dask_cluster.wait_for_workers(3)
    command = [TH, "simulate", "--variant", "classic", "--games", str(games), "--seed", str(seed), "--json", "--cluster", dask_cluster.address]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        with Client(dask_cluster.address, set_as_default=False, timeout=30) as client:
            names = {info["name"]: address for address, info in client.scheduler_info(n_workers=-1)["workers"].items()}
            deadline = time.monotonic() + 120
            while not client.processing().get(names["victim"]):
                assert run.poll() is None, "the run ended before the victim worker was given a chunk"
                assert time.monotonic() < deadline, "the victim worker was never given a chunk"
                time.sleep(0.05)
            os.kill(victim.pid, signal.SIGKILL)
        stdout, stderr = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 0, stderr.decode()
    on_cluster = _strip(json.loads(stdout))
    local = _json(["simulate", "--variant", "classic", "--games", str(games), "--seed", str(seed), "--json", "--jobs", "2"])
    assert on_cluster["games"] == games
    assert on_cluster == local


def refusal_by_a_lone_worker(folder: Path, **worker) -> tuple[str, str]:
    """``th simulate`` on a scheduler whose one worker is started with ``worker``'s
    options: the one error line it must end with, and the scheduler's address."""
    processes = DaskProcesses(folder)
    try:
        processes.scheduler()
        processes.worker("lone", **worker)
        processes.wait_for_workers(1)
        result = subprocess.run(
            [TH, "simulate", "--variant", "classic", "--games", "100", "--cluster", processes.address, "--json"],
            capture_output=True, text=True, timeout=120,
        )
    finally:
        processes.close()
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""  # no results: nothing was played
    lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, result.stderr
    return lines[0], processes.address


def test_a_worker_without_a_plugin_is_refused_before_any_game(tmp_path):
    line, address = refusal_by_a_lone_worker(tmp_path, env={"TREEHOUSE_BLOCK_PLUGINS": "fences"})
    assert "refused: plugin fences is missing" in line and address.rsplit(":", 1)[0] in line


def test_a_worker_with_another_treehouse_version_is_refused_before_any_game(tmp_path):
    # The worker's process runs this before it imports anything of ours for a game, as an older install would read.
    older = tmp_path / "older_treehouse.py"
    older.write_text("import treehouse\ntreehouse.__version__ = '0.0.1'\n")
    line, _address = refusal_by_a_lone_worker(tmp_path, preload=older)
    assert f"refused: treehouse is 0.0.1, this machine has {treehouse.__version__}" in line, line


def test_mismatch_names_the_first_difference():
    ours = {"python": "3.12", "treehouse": "0.1.0", "plugin fences": "treehouse 0.1.0"}
    assert cluster.mismatch(ours, dict(ours)) is None
    assert cluster.mismatch(ours, {**ours, "plugin extra": "x 1"}) is None  # more plugins than ours is fine
    assert cluster.mismatch(ours, {**ours, "treehouse": "0.2.0"}) == "treehouse is 0.2.0, this machine has 0.1.0"
    theirs = {k: v for k, v in ours.items() if k != "plugin fences"}
    assert cluster.mismatch(ours, theirs) == "plugin fences is missing (this machine has treehouse 0.1.0)"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--cluster", "nonsense"], "--cluster takes a scheduler address such as tcp://host:8786 (tls://host:8786 with --tls-ca-file, --tls-cert and --tls-key), or 'local', not 'nonsense'"),
        (["--cluster", "tcp://127.0.0.1:9", "--records", "RECORDS"], "--records writes each game on the disk of the worker that played it"),
        (["--cluster", "tcp://127.0.0.1:9"], "cannot reach a Dask scheduler at tcp://127.0.0.1:9: Connection refused"),
    ],
)
def test_bad_cluster_options_are_one_line(args, message, monkeypatch, tmp_path):
    args = [str(tmp_path / "r") if a == "RECORDS" else a for a in args]
    result = CliRunner().invoke(app, ["simulate", "--variant", "classic", "--games", "10", *args])
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0 and message in result.stderr


def test_without_dask_one_line_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    result = CliRunner().invoke(app, ["simulate", "--variant", "classic", "--games", "10", "--cluster", "local"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --cluster needs Dask: pip install 'treehouse[cluster]'"


def test_tune_on_the_cluster_gives_the_same_trials_and_best_rule_set(dask_cluster, tmp_path):
    pytest.importorskip("optuna")
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "rule_set: fences\nseats: [random, random]\n"
        "options: {stack_height_2p: {low: 2, high: 5}, line_hits: [new, every_check]}\n"
        "targets: {first_seat_win_rate: 0.5 ± 0.05, mean_turns: [4, 6]}\n"
        "games: {first: 10, factor: 3, rungs: 2}\nchunk: 10\n"
    )
    folders = {}
    for name, extra in (("local", []), ("cluster", ["--cluster", dask_cluster.address])):
        folders[name] = tmp_path / name
        result = CliRunner().invoke(app, ["tune", str(spec), "--budget-games", "200", "--seed", "6", "--out", str(folders[name]), *extra])
        assert result.exit_code == 0, result.output
    for file in ("trials.csv", "best-1.yaml", "best-2.yaml", "best-3.yaml"):
        assert (folders["cluster"] / file).read_text() == (folders["local"] / file).read_text()


def wait_until_the_run_fetched_a_chunk(client, run) -> None:
    """Until ``run`` has fetched a chunk's result and let it go, so a partial
    result has games in it (a fixed wait after the first chunk started ended
    before any had finished under CI load).  Its chunks are the keys new to
    the scheduler (others may be left by earlier tests); they are fetched in
    order, and one leaves the scheduler only once the run has it."""

    def chunk_keys(dask_scheduler):  # a local function: Dask pickles it by value
        return [key for key in dask_scheduler.tasks if isinstance(key, str) and key.startswith("treehouse-chunk-")]

    earlier, seen = set(client.run_on_scheduler(chunk_keys)), set()
    deadline = time.monotonic() + 120
    while True:
        keys = set(client.run_on_scheduler(chunk_keys))
        if seen - keys:
            return
        seen |= keys - earlier
        assert run.poll() is None and time.monotonic() < deadline, "the run ended or never fetched a chunk"
        time.sleep(0.02)


def test_ctrl_c_cancels_the_cluster_work_and_prints_partial_results(dask_cluster):
    """SIGINT mid-run: exit 130, the games finished in order so far, and no chunk left on the cluster."""
    from distributed import Client

    def tasks_left(dask_scheduler):
        return sum(1 for task in dask_scheduler.tasks.values() if task.key.startswith("treehouse-chunk") and task.state in ("processing", "queued", "no-worker", "waiting"))

    command = [TH, "simulate", "--variant", "fences", "--games", "20000", "--seed", "2", "--json", "--cluster", dask_cluster.address]
    with Client(dask_cluster.address, set_as_default=False, timeout=30) as client:
        run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        try:
            wait_until_the_run_fetched_a_chunk(client, run)
            assert run.poll() is None, "the run ended before it could be interrupted"
            run.send_signal(signal.SIGINT)
            stdout, stderr = run.communicate(timeout=120)
            deadline = time.monotonic() + 30
            while client.run_on_scheduler(tasks_left):
                assert time.monotonic() < deadline, "chunks were left running on the cluster"
                time.sleep(0.2)
        finally:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130, stderr.decode()
    assert stdout, stderr.decode()
    partial = json.loads(stdout)
    assert partial["partial"] is True and 0 < partial["games"] < 20000 and partial["games"] % 100 == 0
    local = _json(["simulate", "--variant", "fences", "--games", str(partial["games"]), "--seed", "2", "--json"])
    partial.pop("seconds"), partial.pop("partial")
    assert partial == local  # the first games, exactly as a run of that many plays them


def test_the_progress_bar_moves_per_game_on_the_cluster(dask_cluster, plugins):
    """Workers report their games as they finish (a few times a second), so
    one slow chunk moves the bar game by game rather than all at the end."""
    from treehouse.config import resolve
    from treehouse.playtest.work import Batch, RuleSpec, run

    spec = RuleSpec.from_effective(resolve(plugins, variant="fences"))
    batch = Batch((spec,), ("greedy", "greedy"), seed=4)  # about 40 ms a game
    reports: list[tuple[int, float]] = []
    with cluster.connect(dask_cluster.address, 1, plugins) as pool:
        pool.report_seconds = 0.0  # every game
        total = run(batch, 25, pool=pool, chunk=25, progress=lambda done: reports.append((done, time.monotonic())))
        ended = time.monotonic()
    assert [done for done, _ in reports] == list(range(1, 26))  # each game once, in order
    assert total.stop == 25
    first, last = reports[0][1], reports[-1][1]
    # measured from the first game's report: a worker's first game also loads the compiled rules (numba)
    assert last - first > 0.1 and last - first > 0.5 * (ended - first), "the games were reported together, at the chunk's end"



# --------------------------------------------------------------------------
# every wait bounded: addresses that are no scheduler, no workers, lost workers
# --------------------------------------------------------------------------


class Listener:
    """Something on 127.0.0.1 that accepts connections but is no Dask scheduler:
    a plain TCP listener that never answers, or an HTTP server, in its own process."""

    PROGRAMS = {
        "silent": "import socket, sys\ns = socket.create_server(('127.0.0.1', 0))\nprint(s.getsockname()[1], flush=True)\nkept = []\nwhile True:\n    kept.append(s.accept()[0])\n",
        "http": "import http.server, sys\nserver = http.server.HTTPServer(('127.0.0.1', 0), http.server.SimpleHTTPRequestHandler)\nprint(server.server_address[1], flush=True)\nserver.serve_forever()\n",
    }

    def __init__(self, kind: str) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", self.PROGRAMS[kind]], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
        self.address = f"tcp://127.0.0.1:{int(self.process.stdout.readline())}"

    def close(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


@pytest.fixture(params=["silent", "http"])
def not_a_scheduler(request):
    listener = Listener(request.param)
    yield listener.address
    listener.close()


def _one_error_line(result) -> str:
    assert "Traceback" not in result.output, result.output[-2000:]
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


@pytest.mark.parametrize("command", ["simulate", "tune"])
def test_an_address_that_answers_but_is_no_scheduler_fails_in_one_line_in_bounded_time(not_a_scheduler, command, tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text("rule_set: classic\nseats: [random, random]\noptions: {dig_in_place: [true, false]}\ntargets: {mean_turns: [4, 6]}\n")
    args = ["simulate", "--variant", "classic", "--games", "10"] if command == "simulate" else ["tune", str(spec), "--out", str(tmp_path / "out")]
    began = time.monotonic()
    result = CliRunner().invoke(app, [*args, "--cluster", not_a_scheduler])
    seconds = time.monotonic() - began
    assert result.exit_code == 2
    assert f"{not_a_scheduler} accepts connections but is not a Dask scheduler" in _one_error_line(result)
    assert seconds < cluster.CONNECT_SECONDS + 4  # the probe's deadline, and no wait after it (it used to be 900 s)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())  # nothing written


@pytest.mark.parametrize(
    "address, words",
    [
        ("tcp://127.0.0.1:abc", "bad host or port"),
        ("tcp://[::1", "ipv6 needs brackets"),
        ("foo://x", "th connects over tcp:// or tls://, not foo://"),
        ("inproc://x", "not inproc://"),
        ("ucx://127.0.0.1:8786", "ucx:// needs UCX-Py on every machine and is not supported by th"),
        ("tls://127.0.0.1:8786", "tls:// needs the scheduler's CA and a client certificate: add --tls-ca-file CA.pem --tls-cert CERT.pem --tls-key KEY.pem"),
        ("tcp://no-such-host.invalid:8786", "no such host 'no-such-host.invalid'"),
    ],
)
def test_a_bad_address_is_one_line_at_once(address, words):
    began = time.monotonic()
    result = CliRunner().invoke(app, ["simulate", "--variant", "classic", "--games", "10", "--cluster", address])
    assert result.exit_code == 2
    assert words in _one_error_line(result)
    assert time.monotonic() - began < cluster.CONNECT_SECONDS  # no retrying until a timeout


def test_a_malformed_address_leaves_no_noise_at_exit():
    """In a real process: no 40 s stall and no ``Exception ignored in: Client.__del__`` after the line."""
    began = time.monotonic()
    result = subprocess.run([TH, "simulate", "--variant", "classic", "--games", "10", "--cluster", "tcp://127.0.0.1:abc"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert [line for line in result.stderr.splitlines() if line.strip()] == [line for line in result.stderr.splitlines() if line.startswith("error: --cluster 'tcp://127.0.0.1:abc'")]
    assert "Exception ignored" not in result.stderr and result.stderr.count("\n") == 1
    assert time.monotonic() - began < 30  # the interpreter's start and Dask's import, no stall


def test_a_scheduler_with_no_workers_says_so_at_once_and_waits_visibly(tmp_path):
    processes = DaskProcesses(tmp_path)
    try:
        processes.scheduler()
        run = subprocess.Popen(
            [TH, "simulate", "--variant", "classic", "--games", "10", "--cluster", processes.address, "--worker-timeout", "3"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        )
        try:
            first = run.stderr.readline()  # said before the wait, not after it
            assert f"no worker has joined the Dask scheduler at {processes.address} yet; waiting up to 3 s for one" in first
            assert run.poll() is None  # still waiting, visibly
            stdout, rest = run.communicate(timeout=120)
        finally:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
    finally:
        processes.close()
    assert run.returncode == 2 and stdout == ""
    assert rest.strip() == f"error: no worker joined the Dask scheduler at {processes.address} within 3 s; start some with: dask worker {processes.address}"


def test_a_run_whose_last_worker_dies_stops_with_partial_results_and_says_why(tmp_path):
    processes = DaskProcesses(tmp_path)
    try:
        processes.scheduler()
        worker = processes.worker("last")
        processes.wait_for_workers(1)
        command = [TH, "simulate", "--variant", "fences", "--games", "100000", "--seed", "3", "--json", "--cluster", processes.address, "--worker-timeout", "3"]
        run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        try:
            from distributed import Client

            with Client(processes.address, set_as_default=False, timeout=30) as client:
                wait_until_the_run_fetched_a_chunk(client, run)
            os.killpg(worker.pid, signal.SIGKILL)
            stdout, stderr = run.communicate(timeout=120)
        finally:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
    finally:
        processes.close()
    lines = stderr.decode().splitlines()
    assert run.returncode == 1, stderr.decode()
    assert any(f"no worker is alive on the Dask scheduler at {processes.address}; waiting up to 3 s" in line for line in lines), lines
    assert lines[-1].startswith(f"stopped, no worker was alive on the Dask scheduler at {processes.address} for 3 s (--worker-timeout): ")
    assert "the results above are partial" in lines[-1]
    partial = json.loads(stdout)
    assert partial["partial"] is True and 0 < partial["games"] < 100000 and partial["games"] % 100 == 0



def test_a_result_lost_with_the_last_worker_stops_the_run_instead_of_waiting_for_ever(tmp_path):
    """A chunk finished on a worker that dies before its result is fetched:
    fetching it waits for the chunk to be played again, which with no worker
    left never happens (the run hung under CI load).  The pool fetches a
    bounded time at once and keeps checking for a live worker."""
    from distributed import Client

    cluster._quiet_logs()
    reported = _Kept()
    logging.getLogger("asyncio").addHandler(reported)
    processes = DaskProcesses(tmp_path)
    try:
        processes.scheduler()
        worker = processes.worker("last")
        processes.wait_for_workers(1)
        with Client(processes.address, set_as_default=False, timeout=30) as client:
            future = client.submit(sum, [1, 2, 3], pure=False)
            deadline = time.monotonic() + 60
            while not future.done():  # finished: the result is held by the worker, not fetched
                assert time.monotonic() < deadline, "the task never finished"
                time.sleep(0.01)
            said: list[str] = []
            pool = cluster.ClusterPool(client, {}, "the test's scheduler", worker_seconds=2, say=said.append)
            raised: list[BaseException] = []

            def fetch() -> None:
                try:
                    pool._result(future, None)
                except BaseException as error:
                    raised.append(error)

            # The worker frozen, then killed while the fetch is under way: the
            # result is lost mid-fetch, every time (a kill alone races the fetch).
            os.killpg(worker.pid, signal.SIGSTOP)
            fetching = threading.Thread(target=fetch, daemon=True)
            fetching.start()
            time.sleep(2.5)
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=30)
            fetching.join(timeout=60)
            assert not fetching.is_alive(), "fetching a lost result waited for ever"
    finally:
        processes.close()
    gc.collect()  # a waiter the given-up fetch left behind is reported as it is collected
    logging.getLogger("asyncio").removeHandler(reported)
    lines = [reported.format(record) for record in reported.records]
    assert not [line for line in lines if "AllExit" in line], lines
    assert [type(error) for error in raised] == [cluster.NoLiveWorker], raised
    assert said == ["no worker is alive on the test's scheduler; waiting up to 2 s for one (--worker-timeout), Ctrl-C stops"]


def test_the_leftovers_of_a_fetch_given_up_are_not_reported_but_every_other_error_is():
    """A fetch given up on leaves distributed's AllExit in a task nobody
    awaits; asyncio reported it after the run's last line (a CI run)."""
    from distributed.client import AllExit

    cluster._quiet_logs()
    logger = logging.getLogger("asyncio")
    handler = _Kept()
    logger.addHandler(handler)
    try:
        for error in (AllExit(), ValueError("a real one")):
            try:
                raise error
            except Exception as raised:
                logger.error("Task exception was never retrieved: %s", type(raised).__name__, exc_info=(type(raised), raised, raised.__traceback__))
    finally:
        logger.removeHandler(handler)
    seen = [record.getMessage() for record in handler.records]
    assert seen == ["Task exception was never retrieved: ValueError"]


def test_ctrl_c_on_a_local_cluster_prints_no_worker_tracebacks(tmp_path):
    """SIGINT to the whole process group, as a terminal's Ctrl-C sends it: the
    workers ignore it (the run stops them), so only the run's own lines show."""
    records = tmp_path / "records"
    run = subprocess.Popen(
        [TH, "simulate", "--variant", "classic", "--games", "1000000", "--json", "--cluster", "local", "--jobs", "2", "--records", str(records)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        assert run.stderr.readline().startswith("playing on a local Dask cluster of 2 worker processes")
        deadline = time.monotonic() + 120
        while not any(records.rglob("*game-000099.jsonl")):  # a chunk has finished: the partial result is not empty
            assert run.poll() is None and time.monotonic() < deadline, "no chunk finished"
            time.sleep(0.2)
        time.sleep(1)  # a moment for its totals to reach the run
        os.killpg(run.pid, signal.SIGINT)
        stdout, rest = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130
    said = [line for line in rest.strip().splitlines() if not line.startswith("Wrote every game's record to ")]  # --records says where
    assert "Traceback" not in rest and len(said) == 1, rest[-3000:]
    assert said[0].startswith("interrupted") and json.loads(stdout)["partial"] is True


def _self_signed(folder: Path) -> tuple[str, str]:
    """A certificate and key for 127.0.0.1 (its own CA), made by openssl."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=127.0.0.1"],
        check=True, capture_output=True, timeout=60,
    )
    return str(cert), str(key)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test's certificate")
def test_tls_works_with_the_tls_options_and_is_refused_in_one_line_without_them(tmp_path):
    cert, key = _self_signed(tmp_path)
    tls = ["--tls-ca-file", cert, "--tls-cert", cert, "--tls-key", key]
    processes = DaskProcesses(tmp_path)
    try:
        file = tmp_path / "scheduler.json"
        processes._start([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--protocol", "tls", *tls, "--scheduler-file", str(file)], "scheduler")
        deadline = time.monotonic() + 60
        while not file.exists() or not file.read_text().strip().endswith("}"):
            assert time.monotonic() < deadline, (tmp_path / "scheduler.log").read_text()
            time.sleep(0.2)
        address = json.loads(file.read_text())["address"]
        assert address.startswith("tls://")
        processes._start([DASK, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-nanny", "--host", "127.0.0.1", "--no-dashboard", *tls], "worker")
        args = ["simulate", "--variant", "classic", "--games", "200", "--seed", "4", "--json"]
        on_tls = _json([*args, "--cluster", address, *tls, "--worker-timeout", "90"])
        assert on_tls == _json(args)
        assert "tls:// needs the scheduler's CA and a client certificate" in _one_error_line(CliRunner().invoke(app, [*args, "--cluster", address]))
        assert "--tls-key is missing" in _one_error_line(CliRunner().invoke(app, [*args, "--cluster", address, *tls[:4]]))
        assert "a scheduler started with TLS needs tls://" in _one_error_line(CliRunner().invoke(app, [*args, "--cluster", address.replace("tls://", "tcp://")]))
    finally:
        processes.close()


@pytest.mark.parametrize(
    "args, words",
    [
        (["--cluster", "tcp://127.0.0.1:9", "--tls-cert", "x.pem"], "--tls-cert is for a tls:// scheduler address; this one is tcp://"),
        (["--cluster", "tls://127.0.0.1:9", "--tls-ca-file", "absent.pem", "--tls-cert", "absent.pem", "--tls-key", "absent.pem"], "--tls-ca-file absent.pem: No such file or directory"),
        (["--cluster", "local", "--worker-timeout", "0"], "--worker-timeout is in seconds, above 0"),
        (["--cluster", "local", "--worker-timeout", "nan"], "--worker-timeout is in seconds, above 0"),
    ],
)
def test_bad_tls_and_worker_timeout_options_are_one_line(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["simulate", "--variant", "classic", "--games", "10", *args])
    assert result.exit_code == 2
    assert words in _one_error_line(result)
