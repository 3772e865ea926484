"""The Dask backend, for real: a scheduler and workers started as processes on 127.0.0.1.

The same seed must give the same JSON as the local runner, a worker killed
mid-run must lose nothing, and a worker without our plugins is refused
before any game is played.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
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
        (["--cluster", "nonsense"], "--cluster takes a scheduler address such as tcp://host:8786, or 'local', not 'nonsense'"),
        (["--cluster", "tcp://127.0.0.1:9", "--records", "RECORDS"], "--records writes each game on the disk of the worker that played it"),
        (["--cluster", "tcp://127.0.0.1:9"], "cannot reach a Dask scheduler at tcp://127.0.0.1:9"),
    ],
)
def test_bad_cluster_options_are_one_line(args, message, monkeypatch, tmp_path):
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
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


def test_ctrl_c_cancels_the_cluster_work_and_prints_partial_results(dask_cluster):
    """SIGINT mid-run: exit 130, the games finished in order so far, and no chunk left on the cluster."""
    from distributed import Client

    def tasks_left(dask_scheduler):
        return sum(1 for task in dask_scheduler.tasks.values() if task.key.startswith("treehouse-chunk") and task.state in ("processing", "queued", "no-worker", "waiting"))

    command = [TH, "simulate", "--variant", "classic", "--games", "20000", "--seed", "2", "--json", "--cluster", dask_cluster.address]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        with Client(dask_cluster.address, set_as_default=False, timeout=30) as client:
            deadline = time.monotonic() + 120
            while not client.run_on_scheduler(tasks_left):
                assert run.poll() is None and time.monotonic() < deadline, "the run ended or never started"
                time.sleep(0.1)
            time.sleep(3)  # a few chunks of 100 games finish (about half a second each)
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
    partial = json.loads(stdout)
    assert partial["partial"] is True and 0 < partial["games"] < 20000 and partial["games"] % 100 == 0
    local = _json(["simulate", "--variant", "classic", "--games", str(partial["games"]), "--seed", "2", "--json"])
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
        began = time.monotonic()
        total = run(batch, 25, pool=pool, chunk=25, progress=lambda done: reports.append((done, time.monotonic())))
        ended = time.monotonic()
    assert [done for done, _ in reports] == list(range(1, 26))  # each game once, in order
    assert total.stop == 25
    first, last = reports[0][1], reports[-1][1]
    assert last - first > 0.3 * (ended - began), "the games were reported together, at the chunk's end"
