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

import asyncio
import logging
import os
import platform
import socket
import stat
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from treehouse import __version__
from treehouse.errors import ConfigError, TreehouseError
from treehouse.playtest.aggregate import ChunkResult
from treehouse.playtest.work import Batch, _worker_plugins, play_chunk, usable_cpus

INSTALL_HINT = "--cluster needs Dask: pip install 'treehouse[cluster]'"
#: The longest wait to learn that an address is a Dask scheduler: the name
#: looked up, the port connected, and Dask's handshake and identity answered.
CONNECT_SECONDS = 6
#: The default of --worker-timeout: how long to wait for a first worker, and
#: how long a run goes on with no live worker before it stops (partial).
WORKER_SECONDS = 60.0
#: How often a run waiting for a chunk asks the scheduler how many workers it has.
WORKER_CHECK_SECONDS = 1.0
#: The address schemes th connects with (ucx:// needs UCX on every machine; inproc:// is one process's own).
SCHEMES = ("tcp", "tls")
ADDRESS_HINT = "a scheduler address such as tcp://host:8786 (tls://host:8786 with --tls-ca-file, --tls-cert and --tls-key), or 'local'"


@dataclass(frozen=True)
class ClusterSettings:
    """How to reach a cluster, beyond its address: TLS files and the worker wait."""

    tls_ca_file: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    worker_seconds: float = WORKER_SECONDS
    #: Where a line about the wait goes (standard error in the CLI).
    say: Callable[[str], None] = lambda line: None


class NoLiveWorker(KeyboardInterrupt):
    """The run had no live worker for ``--worker-timeout`` seconds: it stops as
    Ctrl-C stops it (the games finished in order so far are kept), for ``reason``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.signum = None


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


def check_address(address: str) -> tuple[str, str, int]:
    """``(scheme, host, port)`` of a scheduler address, or one line saying
    what is wrong with it (before anything is connected, so nothing stalls)."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port

    if "://" not in address and ":" not in address:
        raise ConfigError(f"--cluster takes {ADDRESS_HINT}, not {address!r}")
    try:
        scheme, location = parse_address(address)
    except ValueError as error:
        raise ConfigError(f"--cluster {address!r}: {error}; give {ADDRESS_HINT}") from None
    if scheme == "ucx":
        raise ConfigError(f"--cluster {address!r}: ucx:// needs UCX-Py on every machine and is not supported by th; use tcp:// (or tls:// with --tls-ca-file, --tls-cert and --tls-key)")
    if scheme not in SCHEMES:
        raise ConfigError(f"--cluster {address!r}: th connects over tcp:// or tls://, not {scheme}://; give {ADDRESS_HINT}")
    try:
        host, port = parse_host_port(location, 8786)
    except ValueError as error:
        raise ConfigError(f"--cluster {address!r}: bad host or port ({error}); give {ADDRESS_HINT}") from None
    if not host or not 1 <= int(port) <= 65535:
        raise ConfigError(f"--cluster {address!r}: the port must be from 1 to 65535 and a host must be named; give {ADDRESS_HINT}")
    return scheme, host, int(port)


def _tls_file(option: str, path: str) -> str:
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        raise ConfigError(f"{option} {path}: {error.strerror or error}") from None
    if not stat.S_ISREG(mode):
        raise ConfigError(f"{option} {path} is not a regular file; give a PEM file")
    return path


def security(scheme: str, settings: ClusterSettings) -> Any:
    """The Dask ``Security`` for the connection: from --tls-* for tls://
    (or Dask's own ``distributed.comm.tls`` settings), none for tcp://."""
    from distributed.security import Security

    given = {"--tls-ca-file": settings.tls_ca_file, "--tls-cert": settings.tls_cert, "--tls-key": settings.tls_key}
    if scheme != "tls":
        named = [option for option, value in given.items() if value]
        if named:
            raise ConfigError(f"{named[0]} is for a tls:// scheduler address; this one is {scheme}://")
        return None
    if any(given.values()):
        missing = [option for option, value in given.items() if not value]
        if missing:
            raise ConfigError(f"tls:// needs --tls-ca-file, --tls-cert and --tls-key together; {missing[0]} is missing")
        files = {option: _tls_file(option, value) for option, value in given.items()}
        try:
            found = Security(tls_ca_file=files["--tls-ca-file"], tls_client_cert=files["--tls-cert"], tls_client_key=files["--tls-key"], require_encryption=True)
            found.get_connection_args("client")  # reads the files: a bad one is said here
        except (OSError, ValueError) as error:
            raise ConfigError(f"--tls-*: cannot use the certificate files: {error}") from None
        return found
    found = Security()  # Dask's configuration (distributed.comm.tls.*) may hold them
    if found.get_connection_args("client").get("ssl_context") is None:
        raise ConfigError("tls:// needs the scheduler's CA and a client certificate: add --tls-ca-file CA.pem --tls-cert CERT.pem --tls-key KEY.pem (docs/cluster.md)")
    return found


def _resolve(host: str, port: int, seconds: float) -> list[Any]:
    """``getaddrinfo`` within ``seconds`` (it has no timeout of its own)."""
    answer: dict[str, Any] = {}

    def look_up() -> None:
        try:
            answer["found"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as error:
            answer["error"] = error

    thread = threading.Thread(target=look_up, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise ConfigError(f"cannot reach a Dask scheduler: looking up the host {host!r} took over {seconds:g} s")
    if "error" in answer:
        raise ConfigError(f"cannot reach a Dask scheduler: no such host {host!r} ({answer['error'].strerror or answer['error']})")
    return answer["found"]


def probe(address: str, scheme: str, host: str, port: int, tls: Any, seconds: float = CONNECT_SECONDS) -> None:
    """Make sure a Dask scheduler answers at ``address`` within ``seconds`` in all:
    a closed port or an unknown host at once, anything else that accepts the
    connection but does not speak Dask's protocol (an HTTP server, a plain
    listener) by the deadline, each as one line."""
    began = time.monotonic()
    found = _resolve(host, port, seconds)
    family, kind, proto, _, where = found[0]
    try:
        with socket.socket(family, kind, proto) as plain:
            plain.settimeout(max(0.1, seconds - (time.monotonic() - began)))
            plain.connect(where)
    except socket.timeout:
        raise ConfigError(f"cannot reach a Dask scheduler at {address}: no answer within {seconds:g} s (a firewall?)") from None
    except OSError as error:
        raise ConfigError(f"cannot reach a Dask scheduler at {address}: {error.strerror or error}; start one with: dask scheduler") from None

    from distributed.comm import connect as dask_connect

    args = tls.get_connection_args("client") if tls is not None else {}

    async def identity() -> Any:
        comm = await dask_connect(address, timeout=max(0.1, seconds - (time.monotonic() - began)), **args)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    async def bounded() -> Any:
        return await asyncio.wait_for(identity(), max(0.1, seconds - (time.monotonic() - began)))

    try:
        answer = asyncio.run(bounded())
    except (asyncio.TimeoutError, TimeoutError):
        raise ConfigError(f"{address} accepts connections but is not a Dask scheduler: no Dask answer within {seconds:g} s") from None
    except Exception as error:  # a reply that is not Dask's protocol, a TLS handshake refused, ...
        words = str(error) or type(error).__name__
        if tls is not None and "SSL" in type(error).__name__ + words:
            raise ConfigError(f"cannot reach the Dask scheduler at {address} over TLS: {words}") from None
        hint = "; a scheduler started with TLS needs tls:// and --tls-ca-file, --tls-cert, --tls-key" if tls is None else ""
        raise ConfigError(f"{address} is not a Dask scheduler: it does not answer in Dask's protocol ({words}){hint}") from None
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind != "Scheduler":
        raise ConfigError(f"{address} is not a Dask scheduler{f' but a Dask {kind}' if kind else ''}; give the scheduler's address (dask scheduler prints it)")


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

    def __init__(
        self, client: Any, expected: dict[str, str], description: str, report_seconds: float = REPORT_SECONDS,
        worker_seconds: float = WORKER_SECONDS, say: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.client = client
        self.say = say
        self.expected = expected
        self.description = description
        self.run_id = uuid.uuid4().hex[:8]
        self.report_seconds = report_seconds
        self.worker_seconds = worker_seconds

    def _result(self, future: Any, tell: Callable[[], None] | None) -> ChunkResult:
        """``future``'s result, moving the bar while it is waited for; with no
        live worker for ``worker_seconds``, stop the run (:class:`NoLiveWorker`).

        The result is fetched a bounded time at once: a chunk may be finished
        while its result is still on a worker that then dies, and fetching it
        waits for it to be played again, which with no worker left would be for
        ever, out of the live-worker check's sight (a hang seen under load)."""
        checked = alone_since = None
        while True:
            if future.done():
                try:
                    return future.result(timeout=WORKER_CHECK_SECONDS)
                except TimeoutError:
                    pass  # its result was lost with a worker: it is played again, once one is alive
            else:
                time.sleep(0.1)
            if tell is not None:
                tell()
            now = time.monotonic()
            if checked is not None and now - checked < WORKER_CHECK_SECONDS:
                continue
            checked = now
            if self.client.nthreads():
                alone_since = None
            elif alone_since is None:
                alone_since = now
                self.say(f"no worker is alive on {self.description}; waiting up to {self.worker_seconds:g} s for one (--worker-timeout), Ctrl-C stops")
            elif now - alone_since >= self.worker_seconds:
                raise NoLiveWorker(f"no worker was alive on {self.description} for {self.worker_seconds:g} s (--worker-timeout)")

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
                result = self._result(pending[0], tell if topic is not None else None)  # moving the bar as the workers report games
                if topic is not None:
                    finished[result.start] = result.stop - result.start
                    tell()
                # Handed on while its future is held: the scheduler lets the chunk go only once
                # the caller has counted it (Ctrl-C in between kept it out of the partial results).
                yield result
                pending.pop(0)
                # Refill to the cluster's current size: workers may come and go.
                while len(pending) < 4 * self.threads():
                    nxt = next(queue, None)
                    if nxt is None:
                        break
                    submit(*nxt)
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
    for name in ("asyncio", "tornado.application", "tornado.general"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _GatherLeftovers) for f in logger.filters):
            logger.addFilter(_GatherLeftovers())


class _GatherLeftovers(logging.Filter):
    """Drops the report of distributed's ``AllExit`` left in a task nobody
    awaits: a fetch that :meth:`ClusterPool._result` gives up on (its result
    lost with a worker) leaves ``Client._gather``'s waiters behind, and one
    raising later printed "Task exception was never retrieved … AllExit"
    after the run's last line.  Every other record passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (type(error).__name__ == "AllExit" and type(error).__module__.startswith("distributed"))


@contextmanager
def connect(address: str, jobs: int | None, plugins: Any, settings: ClusterSettings = ClusterSettings()) -> Iterator[ClusterPool]:
    """A :class:`ClusterPool` on the scheduler at ``address``, or on a
    ``LocalCluster`` of ``jobs`` worker processes (one per CPU if ``jobs`` is
    not given, or is 1) for ``local``; every worker is checked before it is
    given a game.  An address is checked and probed first (:func:`probe`),
    so a bad one is one line at once, never a stall."""
    distributed = _distributed()
    _quiet_logs()
    cluster = None
    if address == "local":
        workers = jobs if jobs is not None and jobs > 1 else usable_cpus()
        # dashboard_address: a free port of the loopback; with None Dask still tries 8787 and warns when it is taken.
        with _workers_ignore_ctrl_c():
            cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0", host="127.0.0.1", silence_logs=logging.CRITICAL
            )
        client = distributed.Client(cluster, set_as_default=False)
        description = f"a local Dask cluster of {workers} worker processes"
    else:
        scheme, host, port = check_address(address)
        tls = security(scheme, settings)
        probe(address, scheme, host, port, tls)
        try:
            client = distributed.Client(address, timeout=CONNECT_SECONDS, set_as_default=False, security=tls)
        except (OSError, TimeoutError, ValueError) as error:
            raise ConfigError(f"cannot reach a Dask scheduler at {address}: {error}; start one with: dask scheduler") from None
        description = f"the Dask scheduler at {address}"
    try:
        if not client.nthreads():
            settings.say(f"no worker has joined {description} yet; waiting up to {settings.worker_seconds:g} s for one (start one with: dask worker {address}; Ctrl-C stops)")
            try:
                client.wait_for_workers(1, timeout=settings.worker_seconds)
            except TimeoutError:
                raise ConfigError(f"no worker joined {description} within {settings.worker_seconds:g} s; start some with: dask worker {address}") from None
        expected = fingerprint(plugins)
        for worker, found in sorted(client.run(worker_fingerprint, on_error="return").items()):
            if isinstance(found, BaseException):  # it could not even import treehouse and its plugins
                problem = f"treehouse does not load there ({type(found).__name__}: {found})"
            else:
                problem = mismatch(expected, found)
            if problem is not None:
                raise WorkerMismatch(f"worker {worker} refused: {problem}; install the same treehouse and plugins there")
        yield ClusterPool(client, expected, description, worker_seconds=settings.worker_seconds, say=settings.say)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """Start the local cluster's worker processes with SIGINT ignored (they
    inherit it): Ctrl-C then reaches this process alone, which cancels the
    work and closes the cluster, instead of every worker printing its own
    traceback as it dies."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
