"""Playing the chunks of a batch on a Dask cluster (``--cluster ADDRESS`` or ``--cluster local``).

The work is exactly the local runner's: :func:`~treehouse.playtest.work.play_chunk`
over the same fixed chunks, merged in chunk order by the caller, so a seed
gives byte-identical totals here, with ``--jobs N`` or in one process.  Dask
decides only *where* a chunk runs; a chunk whose worker is lost is run again
elsewhere by the scheduler (the chunk is pure, so running it twice is safe).

Dask is imported only when a cluster is asked for; without the extra the
user gets one line telling them what to install.  Before any game is played
every worker is asked for its Python, its treehouse and its plugins: a worker
that lacks one of ours or holds another version is refused, by name.  A
worker that joins later is checked by the chunk itself before it plays.
"""

from __future__ import annotations

import logging
import platform
import time
import uuid
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from treehouse import __version__
from treehouse.errors import ConfigError, TreehouseError
from treehouse.playtest.aggregate import ChunkResult
from treehouse.playtest.work import Batch, _worker_plugins, play_chunk, usable_cpus

INSTALL_HINT = "--cluster needs Dask: pip install 'treehouse[cluster]'"
#: How long to wait for the scheduler to answer, and for a first worker to join.
CONNECT_SECONDS = 20
WORKER_SECONDS = 60


class WorkerMismatch(TreehouseError):
    """A worker whose Python, treehouse or plugins differ from this machine's."""


def fingerprint(plugins: Any) -> dict[str, str]:
    """What a worker must match to play the same games: Python (``random``'s
    algorithms), treehouse, and each plugin's distribution and version."""
    found = {"python": ".".join(platform.python_version_tuple()[:2]), "treehouse": __version__}
    for name, info in sorted(plugins.loaded.items()):
        found[f"plugin {name}"] = f"{info.distribution} {info.version}".strip()
    return found


def worker_fingerprint() -> dict[str, str]:
    """This process's :func:`fingerprint` (run on each worker)."""
    return fingerprint(_worker_plugins())


def mismatch(expected: dict[str, str], found: dict[str, str]) -> str | None:
    """The first way ``found`` (a worker's) falls short of ``expected`` (ours), or None.
    A worker may hold plugins we lack: the games never ask for them."""
    for key, value in expected.items():
        theirs = found.get(key)
        if theirs is None:
            return f"{key} is missing (this machine has {value})"
        if theirs != value:
            return f"{key} is {theirs}, this machine has {value}"
    return None


#: How often a worker tells the client how far into its chunk it is (seconds).
REPORT_SECONDS = 0.25


class GameReporter:
    """``on_game`` in a worker: every :data:`REPORT_SECONDS` at most, logs
    ``(chunk start, games finished in it)`` under ``topic`` on the scheduler,
    which hands it to the client subscribed to it (the progress bar).  The
    counts are running totals, so a lost message or a chunk run twice (after
    a lost worker) never makes the bar count a game twice."""

    def __init__(self, worker: Any, topic: str, start: int, every: float = REPORT_SECONDS) -> None:
        self.worker, self.topic, self.start, self.every = worker, topic, start, every
        self.finished = 0
        self.last = time.monotonic()

    def __call__(self) -> None:
        self.finished += 1
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self.worker.log_event(self.topic, (self.start, self.finished))


def play_checked(expected: dict[str, str], batch: Batch, start: int, stop: int, topic: str | None = None, every: float = REPORT_SECONDS) -> ChunkResult:
    """The task a worker runs: check this worker once more, then play the
    chunk, reporting its games under ``topic`` as they finish."""
    from distributed import get_worker

    problem = mismatch(expected, worker_fingerprint())
    if problem is not None:
        raise WorkerMismatch(f"worker {get_worker().address} refused: {problem}; install the same treehouse and plugins there")
    return play_chunk(batch, start, stop, on_game=GameReporter(get_worker(), topic, start, every) if topic else None)


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ConfigError(INSTALL_HINT) from None
    return distributed


class ClusterPool:
    """Chunks played on a Dask client's workers, results handed back in chunk order.

    The same seam as the local process pool (:func:`~treehouse.playtest.work.run_chunks`
    calls :meth:`results`): a few chunks per worker thread are kept in flight,
    so an early stop (the SPRT) or Ctrl-C cancels little, and closing the
    generator cancels every future still pending.
    """

    def __init__(self, client: Any, expected: dict[str, str], description: str, report_seconds: float = REPORT_SECONDS) -> None:
        self.client = client
        self.expected = expected
        self.description = description
        self.run_id = uuid.uuid4().hex[:8]
        self.report_seconds = report_seconds

    def threads(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def results(self, batch: Batch, work: list[tuple[int, int]], on_game: Callable[[], None] | None = None) -> Iterator[ChunkResult]:
        queue = iter(work)
        pending: list[Any] = []
        sizes = dict(work)  # chunk start -> stop
        topic = f"treehouse-games-{self.run_id}-{id(batch):x}" if on_game is not None else None
        finished: dict[int, int] = {}  # chunk start -> games reported finished (the client's thread writes it)
        told = 0  # games passed on to on_game

        def reported(event: tuple[float, tuple[int, int]]) -> None:
            start, games = event[1]
            finished[start] = max(finished.get(start, 0), min(games, sizes[start] - start))

        def tell() -> None:
            nonlocal told
            total = sum(finished.values())
            for _ in range(total - told):
                on_game()
            told = max(told, total)

        def submit(start: int, stop: int) -> None:
            key = f"treehouse-chunk-{self.run_id}-{id(batch):x}-{start}"
            pending.append(self.client.submit(play_checked, self.expected, batch, start, stop, topic, self.report_seconds, key=key, pure=False))

        if topic is not None:
            self.client.subscribe_topic(topic, reported)
        try:
            for start, stop in queue:
                submit(start, stop)
                if len(pending) >= 4 * self.threads():
                    break
            while pending:
                if topic is not None:
                    while not pending[0].done():  # move the bar as the workers report games
                        time.sleep(0.1)
                        tell()
                result = pending.pop(0).result()
                if topic is not None:
                    finished[result.start] = result.stop - result.start
                    tell()
                # Refill to the cluster's current size: workers may come and go.
                while len(pending) < 4 * self.threads():
                    nxt = next(queue, None)
                    if nxt is None:
                        break
                    submit(*nxt)
                yield result
        finally:
            if pending:
                self.client.cancel(pending)
            if topic is not None:
                self.client.unsubscribe_topic(topic)


def _quiet_logs() -> None:
    # A lost worker is expected and handled (its chunks are rerun): the
    # scheduler's warnings about it would only alarm the reader.
    for name in ("distributed", "distributed.scheduler", "distributed.core", "distributed.nanny", "distributed.worker", "distributed.client"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


@contextmanager
def connect(address: str, jobs: int | None, plugins: Any) -> Iterator[ClusterPool]:
    """A :class:`ClusterPool` on the scheduler at ``address``, or on a
    ``LocalCluster`` of ``jobs`` worker processes (one per CPU if ``jobs`` is
    not given, or is 1) for ``local``; every worker is checked before it is
    given a game."""
    distributed = _distributed()
    _quiet_logs()
    cluster = None
    try:
        if address == "local":
            workers = jobs if jobs is not None and jobs > 1 else usable_cpus()
            cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1", silence_logs=logging.CRITICAL
            )
            client = distributed.Client(cluster, set_as_default=False)
            description = f"a local Dask cluster of {workers} worker processes"
        else:
            if "://" not in address and ":" not in address:
                raise ConfigError(f"--cluster takes a scheduler address such as tcp://host:8786, or 'local', not {address!r}")
            try:
                client = distributed.Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
            except (OSError, TimeoutError, ValueError) as error:
                raise ConfigError(f"cannot reach a Dask scheduler at {address}: {error}; start one with: dask scheduler") from None
            description = f"the Dask scheduler at {address}"
    except ConfigError:
        if cluster is not None:
            cluster.close()
        raise
    try:
        try:
            client.wait_for_workers(1, timeout=WORKER_SECONDS)
        except TimeoutError:
            raise ConfigError(f"no worker joined {description} within {WORKER_SECONDS} s; start some with: dask worker {address}") from None
        expected = fingerprint(plugins)
        for worker, found in sorted(client.run(worker_fingerprint, on_error="return").items()):
            if isinstance(found, BaseException):  # it could not even import treehouse and its plugins
                problem = f"treehouse does not load there ({type(found).__name__}: {found})"
            else:
                problem = mismatch(expected, found)
            if problem is not None:
                raise WorkerMismatch(f"worker {worker} refused: {problem}; install the same treehouse and plugins there")
        yield ClusterPool(client, expected, description)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
