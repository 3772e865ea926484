"""The work unit of playtesting, and the local executor that runs it.

:func:`play_chunk` is a pure function of plain, picklable data: it plays games
``[start, stop)`` of a :class:`Batch` and returns a
:class:`~treehouse.playtest.aggregate.ChunkResult` that merges with the
others.  Game ``i`` is seeded from ``(seed, i)`` alone (``random.Random(f"{seed}:{i}")``,
which Python hashes with SHA-512, the same in every process), so the split of
the games into chunks and of the chunks among workers changes nothing.  The
chunks are fixed by the number of games, never by the number of workers, and
merged in order: the totals are the same to the last floating-point bit for
any ``--jobs``.

:func:`run` hands the chunks to a ``concurrent.futures.ProcessPoolExecutor``,
or to a :class:`ChunkPool` given to it: the Dask backend
(:mod:`treehouse.playtest.cluster`) is one, calling the same ``play_chunk``
on the same chunks and handing the results back in the same order.
"""

from __future__ import annotations

import numbers
import os
import random
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

from treehouse.bots.options import bot_factory
from treehouse.errors import PluginError, TreehouseError
from treehouse.kernel.fast import compiled
from treehouse.kernel.fast.compiled_game import hooks_play_out
from treehouse.kernel.engine import PASS, Game
from treehouse.kernel.records import Record
from treehouse.playtest.aggregate import FORCED, IMPOSSIBLE, PASSED, REROLLED, ROLLED, Aggregate, ChunkResult, GameSummary, Paired

#: Games per chunk: the unit of work, of merging and of the SPRT's looks.
CHUNK = 100

#: ``jobs=None`` (the commands' default): the chunks are played in this process
#: until, at the pace so far, the rest would take longer than this here; the
#: rest then goes to one worker process per CPU.  Starting them costs a few
#: tenths of a second, so a short run is quicker without.
WORKERS_AFTER_SECONDS = 1.0

#: A run of at least this many games loads the compiled playout
#: (playtest/compiled_playout.py) where its seats are random: loading numba
#: and the kernels costs about a second, and each classic game saved about
#: 1 ms.  A shorter run takes it only where its process has loaded it already.
COMPILED_PLAYOUT_AFTER_GAMES = 2000

#: The signals that end a run as Ctrl-C does (the workers end with it).
ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C or a signal: ``partial`` holds the games finished
    in order so far (``None`` before the first), ``signum`` the signal.  A run
    that stopped itself (a cluster with no live worker) has no signal but a
    ``reason``, said in the line after the partial results."""

    def __init__(self, partial: ChunkResult | None = None, signum: int | None = signal.SIGINT, reason: str | None = None) -> None:
        super().__init__(partial, signum)
        self.partial, self.signum, self.reason = partial, signum, reason

    @property
    def exit_code(self) -> int:
        """The shell's convention: 128 + the signal (130 for Ctrl-C); 1 for a run that stopped itself."""
        return 1 if self.signum is None else 128 + int(self.signum)


class _ChunkInterrupted(Exception):
    """Raised out of :func:`play_chunk` in this process when Ctrl-C arrives mid-chunk: the games before it, added up."""

    def __init__(self, partial: ChunkResult, signum: int) -> None:
        super().__init__(partial.start, partial.stop)
        self.partial, self.signum = partial, signum


@dataclass(frozen=True)
class RuleSpec:
    """A resolved rule set as plain data (what a worker needs to rebuild it)."""

    name: str
    variant: str
    rules: tuple[tuple[str, Any], ...]
    turn_cap: int
    house_rules: tuple[str, ...] = ()

    @classmethod
    def from_effective(cls, effective: Any) -> RuleSpec:
        rules = effective.rules.model_dump(mode="json")
        return cls(effective.name, effective.variant_class.name, tuple(sorted(rules.items())), effective.turn_cap, tuple(effective.house_rules))


@dataclass(frozen=True)
class Batch:
    """A batch of games: one rule set (simulate) or two played in pairs (compare).

    ``seats`` are bot specs (``random``, ``search(depth=2)``), one per seat:
    plain text, so a worker process rebuilds each bot from its spec.  With ``rotate``, games come in
    groups of one per seat that share a seed, the entrants rotated one chair
    each game, so every bot meets the same dice from every chair.
    """

    rule_sets: tuple[RuleSpec, ...]
    seats: tuple[str, ...]
    seed: int | str = 1
    rotate: bool = False
    records: str | None = None
    #: Load the compiled playout of random seats where it applies (the run is
    #: long enough to pay for loading it: :func:`run_chunks` decides); where
    #: it is loaded already, it is used whatever this says.  Never changes a result.
    compiled_playout: bool = False


def game_seed(seed: int | str, index: int) -> str:
    """The seed of game ``index``'s generator in a batch seeded ``seed``."""
    return f"{seed}:{index}"


def game_rng(seed: int | str, index: int) -> random.Random:
    """The generator of game ``index`` of a batch seeded ``seed``."""
    return random.Random(game_seed(seed, index))


def seating(batch: Batch, index: int) -> tuple[int, tuple[int, ...]]:
    """The seed group of game ``index`` and the entrant in each seat."""
    n = len(batch.seats)
    if not batch.rotate or n < 2:
        return index, tuple(range(n))
    group, turn = divmod(index, n)
    return group, tuple((seat + turn) % n for seat in range(n))


class Observer:
    """Counts one game as it is played (a :class:`~treehouse.kernel.engine.GameObserver`)."""

    __slots__ = ("faces", "decisions", "multi", "pending", "pending_face", "pending_forced", "counters", "last_mover", "step_statistics", "evaluate", "players",
                 "leader", "lead_changes", "evaluated_steps", "last_not_leading")

    def __init__(self, game: Game | None = None) -> None:
        self.faces: dict[str, list[int]] = {}
        self.decisions = 0
        self.multi = 0
        self.pending = False
        self.pending_face: str | None = None
        self.pending_forced = False
        self.counters: dict[str, float] = {}
        self.last_mover: int | None = None
        self.step_statistics = None
        self.evaluate = None
        self.leader: int | None = None
        self.lead_changes = 0
        self.evaluated_steps = 0
        self.last_not_leading: list[int] = []
        self.players = 0
        if game is not None:
            self.attach(game)

    def attach(self, game: Game) -> None:
        from treehouse.kernel.hooks import sole_implementation

        hooks = game.hooks
        if hooks.implementers("treehouse_step_statistics"):
            # every plugin's counters added up (the game's hook sums them); one plugin's, called directly
            self.step_statistics = sole_implementation(hooks.manager.hook.treehouse_step_statistics) or hooks.treehouse_step_statistics
        if hooks.implementers("treehouse_evaluate"):
            evaluate_seats, players = hooks.treehouse_evaluate_seats, len(game.seats)
            self.evaluate = lambda state: evaluate_seats(state, players)
        self.players = len(game.seats)
        self.last_not_leading = [0] * self.players
        game.observer = self

    def _face(self, face: str) -> list[int]:
        counts = self.faces.get(face)
        if counts is None:
            counts = self.faces[face] = [0, 0, 0, 0, 0]
        return counts

    def on_choice(self, game, mover, step, face, moves) -> None:
        if step.setup:
            return  # the setup phase (Fences' draws) is not play: its draws are not die faces, its choices not turns
        if self.pending:  # the choice before this one was a REROLL
            if self.pending_face is not None:
                self._face(self.pending_face)[REROLLED] += 1
        counts = None
        if face is not None:
            counts = self.faces.get(face) or self._face(face)
            counts[ROLLED] += 1
        n = len(moves)
        if n == 0:
            self.pending = False
            if counts is not None:
                counts[IMPOSSIBLE] += 1
            return
        self.decisions += 1
        forced = False
        if n > 1:
            self.multi += 1
        elif counts is not None:
            counts[FORCED] += 1
            forced = True
        self.pending = True
        self.pending_face = face
        self.pending_forced = forced

    def on_step(self, game, mover, step, move, before, after, events) -> None:
        if step.setup:
            return
        face = self.pending_face
        if face is not None:
            if move is PASS:
                self._face(face)[PASSED] += 1
            if events and any(getattr(event, "impossible", False) for event in events):
                # the variant played the impossible action out (Fences' fail): impossible, not forced
                counts = self._face(face)
                counts[IMPOSSIBLE] += 1
                if self.pending_forced:
                    counts[FORCED] -= 1
        self.pending = False
        self.pending_face = None
        self.last_mover = mover
        if self.step_statistics is not None:
            answer = self.step_statistics(before, after, step, move, mover, face)
            if answer:
                counters = self.counters
                for key, value in answer.items():
                    counters[key] = counters.get(key, 0) + value
        if self.evaluate is not None:
            self._track_lead(after)

    def _track_lead(self, state) -> None:
        scores = self.evaluate(state)
        self.evaluated_steps = steps = self.evaluated_steps + 1
        if len(scores) == 2:  # the common table: the same answer as below, without max, count and index
            first, second = scores
            leader = 0 if first > second else 1 if second > first else None
        else:
            best = max(scores)
            leader = scores.index(best) if scores.count(best) == 1 else None
        last_not_leading = self.last_not_leading
        if leader is not None:  # one seat leads
            if leader != self.leader:
                if self.leader is not None:
                    self.lead_changes += 1
                self.leader = leader
            for seat in range(self.players):
                if seat != leader:
                    last_not_leading[seat] = steps
        else:  # a tie for the lead: nobody leads, the last leader stays the one a change is counted from
            last_not_leading[:] = [steps] * self.players

    def summary(self, game: Game) -> GameSummary:
        outcome = game.outcome
        decided = None
        lead = None
        if self.evaluate is not None:
            if self.evaluated_steps:
                _check_scores(game, self.evaluate(game.state))  # once per game, off the per-step path
            lead = self.lead_changes
            if len(outcome.winners) == 1 and self.evaluated_steps:
                decided = (self.evaluated_steps - self.last_not_leading[outcome.winners[0]]) / self.evaluated_steps
        return GameSummary(
            winners=outcome.winners,
            reason=outcome.reason,
            timeout=outcome.reason == "turn cap",
            turns=game.turn,
            decisions=self.decisions,
            multi=self.multi,
            faces=self.faces,
            counters=self.counters,
            last_mover=self.last_mover,
            lead_changes=lead,
            evaluated_steps=self.evaluated_steps,
            decided_share=decided,
        )


@lru_cache(maxsize=1)
def _worker_plugins():
    from treehouse.plugins import load_plugins

    return load_plugins()


class _Table:
    """A rule set rebuilt in a worker: the variant object, house rules and seat factories."""

    def __init__(self, spec: RuleSpec, seats: tuple[str, ...], plugins: Any) -> None:
        cls = plugins.variant(spec.variant)
        self.spec = spec
        self.variant = cls(cls.Rules(**dict(spec.rules)))
        self.house_rules = [plugins.house_rule(name, cls.name.lower()) for name in spec.house_rules]
        self.factories = [bot_factory(plugins, spec) for spec in seats]

    def compiled_playout(self, load: bool = False) -> Any:
        """The compiled playout of this rule set's games
        (:mod:`treehouse.playtest.compiled_playout`), or ``None`` where
        they are played through the engine.  Without ``load``, only where
        the variant's compiled core is loaded in this process already."""
        if not load and not self.variant.compiled_prepared():
            return None
        from treehouse.bots.random_bot import RandomBot
        from treehouse.kernel.hooks import game_hooks

        seats = [factory() for factory in self.factories]
        hooks = game_hooks(self.variant, self.house_rules)
        # Asked before numpy and numba are imported (about 130 MB and half a
        # second), by compiled.enabled() or the module: a variant that offers
        # no compiled game, a game whose setup draws (Fences) or a seat that
        # is not random never loads them.
        if not all(type(seat) is RandomBot for seat in seats) or not hooks.implementers("treehouse_compiled_game") or not hooks_play_out(hooks):
            return None
        if not compiled.enabled():
            return None
        from treehouse.playtest import compiled_playout

        return compiled_playout.playout_for(hooks, self.variant, seats, self.spec.turn_cap)

    def play_compiled(self, playout: Any, batch: Batch, start: int, stop: int) -> list[tuple[GameSummary, tuple[int, ...]]]:
        """Games ``[start, stop)`` of ``batch`` played by ``playout``: what :func:`play_game` gives for each."""
        from treehouse.playtest import compiled_playout

        seatings = [seating(batch, index) for index in range(start, stop)]
        summaries = compiled_playout.play(playout, [game_seed(batch.seed, group) for group, _ in seatings])
        return [(summary, entrants) for summary, (_, entrants) in zip(summaries, seatings)]


def play_game(table: _Table, batch: Batch, index: int, record_path: Path | None = None) -> tuple[GameSummary, tuple[int, ...]]:
    """Play game ``index`` of ``batch`` under one rule set; its summary and seating."""
    group, entrants = seating(batch, index)
    seats = [table.factories[e]() for e in entrants]
    meta = {"seed": batch.seed, "game": index, "rule_set": table.spec.name, "seats": [batch.seats[e] for e in entrants]}  # who sat where (rotated seats move)
    record = Record(meta=meta) if record_path else None
    game = Game(table.variant, seats, game_rng(batch.seed, group), turn_cap=table.spec.turn_cap, house_rules=table.house_rules, record=record)
    observer = Observer(game)
    try:
        game.play()
        summary = observer.summary(game)
    except TreehouseError:
        raise
    except Exception as error:  # the observer tripped over a hook's answer: one line naming the hook, not a traceback
        raise _blame_observed(game, error) from None
    if record is not None:
        record.write(record_path)
    return summary, entrants


def _check_scores(game: Game, scores: Any) -> None:
    """``treehouse_evaluate``'s answers for every seat must be numbers (a
    string or a bool would compare and rank seats without an error)."""
    for score in scores:
        if isinstance(score, bool) or not isinstance(score, numbers.Real):
            raise game.hooks.wrong_answer("treehouse_evaluate", score, "a number")


def _blame_observed(game: Game, error: Exception) -> TreehouseError:
    if game.state is None:
        return game.hooks.wrong_answer("treehouse_apply_move", None, "the position after the move")
    culprit = game.hooks.blame(error)
    if not str(culprit).startswith("a plugin failed"):
        return culprit
    from treehouse.kernel.engine import _raised_in

    if _raised_in(error, Observer.on_choice):
        hook, expected = "treehouse_legal_moves", "a tuple of moves"
    elif _raised_in(error, Observer._track_lead):
        hook, expected = "treehouse_evaluate", "a number"
    else:
        hook, expected = "treehouse_step_statistics", "a dict of counter name -> number"
    return PluginError(f"{hook} gave an answer that is not {expected} ({type(error).__name__}: {error}); answered by plugin {game.hooks.answered_by(hook)}")


def play_chunk(batch: Batch, start: int, stop: int, plugins: Any = None, on_game: Callable[[], None] | None = None) -> ChunkResult:
    """The work unit: play games ``[start, stop)`` of ``batch`` and add them up.

    Pure in effect: the result depends on ``(batch, start, stop)`` only (and
    on the installed plugins).  With two rule sets, game ``i`` is played under
    each from the same seed (common random numbers) and the pair is added to
    the paired sums.  ``plugins`` defaults to the worker's own
    :func:`~treehouse.plugins.load_plugins`.  ``on_game()`` is called after
    each game (the progress bar); in a worker of :func:`run_chunks`, each game
    is reported to the parent.
    """
    on_game = on_game if on_game is not None else _report_game
    plugins = plugins if plugins is not None else _worker_plugins()
    players = len(batch.seats)
    tables = [_Table(spec, batch.seats, plugins) for spec in batch.rule_sets]
    sides = [Aggregate(players, entrants=batch.seats) for _ in tables]
    paired = Paired.empty(players, len(sides[0].bots)) if len(tables) == 2 else None
    folder = Path(batch.records) if batch.records else None
    prefixes = [""] if len(tables) == 1 else [f"{'ab'[i]}-" for i in range(len(tables))]
    # A rule set whose games the compiled playout plays has them all played at once; the others game by game.
    playouts = [None if folder else table.compiled_playout(load=batch.compiled_playout) for table in tables]
    played = [None if playout is None else table.play_compiled(playout, batch, start, stop) for table, playout in zip(tables, playouts)]
    def play(index: int) -> None:  # game index under each rule set, added up
        summaries = [
            done[index - start] if done is not None else play_game(table, batch, index, folder / f"{prefix}game-{index:06d}.jsonl" if folder else None)
            for table, prefix, done in zip(tables, prefixes, played)
        ]
        vectors = [side.add(summary, entrants) for side, (summary, entrants) in zip(sides, summaries)]
        if paired is not None:
            paired.add(vectors[0], vectors[1], summaries[0][0].counters, summaries[1][0].counters)
        if on_game is not None:
            on_game()

    index = start
    try:
        while index < stop:
            play(index)
            index += 1
    except KeyboardInterrupt as stop_signal:  # Ctrl-C in this process: keep the games before this one
        raise _ChunkInterrupted(ChunkResult(start, index, sides, paired), getattr(stop_signal, "signum", signal.SIGINT)) from None
    return ChunkResult(start, stop, sides, paired)


def chunks(games: int, size: int = CHUNK, first: int = 0) -> list[tuple[int, int]]:
    """The fixed split of games ``[first, games)`` into work units (it never depends on the workers)."""
    return [(start, min(start + size, games)) for start in range(first, games, size)]


def check_batch(batch: Batch, plugins: Any) -> None:
    """Fail early, in one line, on what a worker would trip over."""
    for spec in batch.rule_sets:
        table = _Table(spec, batch.seats, plugins)
        lo, hi = table.variant.player_range()
        if not lo <= len(batch.seats) <= hi:
            raise TreehouseError(f"{spec.name} is played by {lo} to {hi} players, not {len(batch.seats)}")


class ChunkPool(Protocol):
    """Somewhere else to play chunks (a cluster): given the batch and its
    chunks, yield each chunk's :func:`play_chunk` result in chunk order,
    calling ``on_game()`` once for each game as it is reported finished
    (every game of a chunk by the time its result is yielded); closing the
    generator cancels what is still pending."""

    def results(self, batch: Batch, work: list[tuple[int, int]], on_game: Callable[[], None] | None) -> Iterator[ChunkResult]: ...


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system says)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def run_chunks(
    batch: Batch,
    games: int,
    jobs: int | None = 1,
    plugins: Any = None,
    chunk: int = CHUNK,
    pool: ChunkPool | None = None,
    first: int = 0,
    on_game: Callable[[], None] | None = None,
) -> Iterator[ChunkResult]:
    """Play the batch and yield each chunk's result in chunk order.

    With a ``pool`` (a cluster), the chunks are played there; else
    ``jobs == 1`` plays in this process (with ``plugins``, if given);
    otherwise chunks go to a pool of ``jobs`` worker processes, a few ahead.
    ``jobs=None`` plays here while the run is short, and hands the rest of
    a long one to a worker per CPU (:func:`_here_while_short`); where a
    chunk is played never changes its result.
    Closing the generator early (the SPRT has decided) cancels what is left.
    ``on_game()`` is called as each game finishes (with a cluster ``pool``,
    as the workers report them, a few times a second).
    """
    if batch.records:
        Path(batch.records).mkdir(parents=True, exist_ok=True)
    work = chunks(games, chunk, first)
    if not batch.records and games - first >= COMPILED_PLAYOUT_AFTER_GAMES:
        batch = replace(batch, compiled_playout=True)  # long enough to pay for loading it, wherever the chunks are played
    if pool is not None:
        yield from pool.results(batch, work, on_game)
        return
    if batch.compiled_playout:  # loaded here, before the pace is taken and any worker starts (they inherit it)
        for spec in batch.rule_sets:
            _Table(spec, batch.seats, plugins if plugins is not None else _worker_plugins()).compiled_playout(load=True)
    if jobs is None:
        work = yield from _here_while_short(batch, work, plugins, on_game)
        jobs = min(usable_cpus(), len(work))
    if jobs <= 1:
        for start, stop in work:
            yield play_chunk(batch, start, stop, plugins, on_game)
        return
    window = 3 * jobs
    with _worker_pool(jobs) as (pool, finished_games):
        pending: list[Future] = []
        queue = iter(work)
        with _signals_deferred():
            for start, stop in queue:
                pending.append(pool.submit(play_chunk, batch, start, stop))
                if len(pending) >= window:
                    break
        while pending:
            with _signals_deferred() as raise_if_signalled:
                while not pending[0].done():  # report each game as the workers finish it
                    wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                    raise_if_signalled()
                    _drain(finished_games, on_game)
                result = pending.pop(0).result()
                _drain(finished_games, on_game)
                nxt = next(queue, None)
                if nxt is not None:
                    pending.append(pool.submit(play_chunk, batch, *nxt))
            yield result


def _here_while_short(batch: Batch, work: list[tuple[int, int]], plugins: Any, on_game: Callable[[], None] | None) -> Iterator[ChunkResult]:
    """Play chunks in this process while, at the pace so far, the rest would
    take under :data:`WORKERS_AFTER_SECONDS` here; return the chunks left,
    for worker processes (all of them with one CPU, or one chunk: the caller
    plays those here).

    The first pace is one game played apart and not kept (a chunk is the
    unit of the totals), so that a run of a few chunks of slow bots goes to
    the workers whole rather than after its first chunk."""
    if usable_cpus() < 2 or len(work) < 2:
        return work
    first, games = work[0][0], work[-1][1] - work[0][0]
    started = time.perf_counter()
    play_chunk(replace(batch, records=None), first, first + 1, plugins)
    if (time.perf_counter() - started) * games > WORKERS_AFTER_SECONDS:
        return work
    started = time.perf_counter()
    for played, (start, stop) in enumerate(work):
        left = len(work) - played
        if played and left > 1 and (time.perf_counter() - started) / played * left > WORKERS_AFTER_SECONDS:
            return work[played:]
        yield play_chunk(batch, start, stop, plugins, on_game)
    return []


#: In a worker process: where it reports each finished game (set by :func:`_start_worker`).
_finished_games: Any = None


def _report_game() -> None:
    if _finished_games is not None:
        _finished_games.put(1)


def _drain(finished_games: Any, on_game: Callable[[], None] | None) -> None:
    while not finished_games.empty():
        finished_games.get()
        if on_game is not None:
            on_game()


def _start_worker(finished_games: Any) -> None:
    """A worker's first act: report games to the parent, leave Ctrl-C to the
    parent (which stops the run and reports), and die with the parent even
    when it is killed outright (Linux's parent-death signal)."""
    global _finished_games
    _finished_games = finished_games
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in ENDING_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() == 1:  # the parent died before the line above: go now
            os._exit(1)
    except (OSError, AttributeError):
        pass  # not Linux: the parent's own cleanup still ends the workers


@contextmanager
def _worker_pool(jobs: int) -> Iterator[tuple[ProcessPoolExecutor, Any]]:
    """``jobs`` worker processes that never outlive this run: however it ends
    (done, an error, Ctrl-C, SIGTERM, SIGHUP, the generator closed early),
    the workers end too, at once rather than after their current chunk."""
    import multiprocessing

    finished_games = multiprocessing.get_context().SimpleQueue()
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(finished_games,))
    try:
        yield pool, finished_games
    except BaseException:
        _end_workers(pool)
        raise
    else:
        pool.shutdown(wait=True)
    finally:
        finished_games.close()


#: The longest wait for a stopped pool's manager thread (it ends in well under a second once its workers are gone).
MANAGER_SECONDS = 30.0


def _end_workers(pool: ProcessPoolExecutor) -> None:
    processes = list((getattr(pool, "_processes", None) or {}).values())
    # Taken before shutdown(), which forgets it: the pool's manager thread,
    # to be waited for below.
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join(timeout=5)
    # Wait for the manager thread to end too: one still running at the
    # interpreter's exit may close its wake-up pipe while the exit writes to
    # it (concurrent.futures' _python_exit), which prints "OSError: [Errno 9]
    # Bad file descriptor" after the partial results (a race in Python 3.11,
    # seen under CI load).  With the workers gone it ends soon.
    if manager is not None:
        manager.join(timeout=MANAGER_SECONDS)


@contextmanager
def _signals_deferred() -> Iterator[Callable[[], None]]:
    """While the parent hands out chunks and waits for them, Ctrl-C, SIGTERM
    and SIGHUP are noted and raised (as :class:`Interrupted`) at the next
    check, or on leaving, rather than wherever they land: raised inside
    ``concurrent.futures.wait`` while it takes the futures' locks one by one,
    a KeyboardInterrupt leaves some of them held, and the pool's manager
    thread then blocks on one for ever (the Ctrl-C hang seen under load).
    In the main thread only, where signals are handled."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    noted: list[int] = []

    def note(signum: int, frame: Any) -> None:
        noted.append(signum)

    def raise_if_signalled() -> None:
        if noted:
            raise Interrupted(None, noted[0])

    watched = [signum for signum in (signal.SIGINT, *ENDING_SIGNALS) if signal.getsignal(signum) is not signal.SIG_IGN]
    previous = {signum: signal.signal(signum, note) for signum in watched}
    try:
        yield raise_if_signalled
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    raise_if_signalled()


@contextmanager
def _signals_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP end the run as Ctrl-C does (the workers end too, the
    games so far are reported); only the main thread can catch signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise Interrupted(None, signum)

    previous = {signum: signal.signal(signum, interrupt) for signum in ENDING_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def run(
    batch: Batch,
    games: int,
    jobs: int | None = 1,
    plugins: Any = None,
    progress: Callable[[int], None] | None = None,
    stop: Callable[[ChunkResult], bool] | None = None,
    chunk: int = CHUNK,
    pool: ChunkPool | None = None,
    first: int = 0,
) -> ChunkResult:
    """Play ``games`` games of ``batch`` and return the merged totals.

    ``progress(games_done)`` is called after each game (games finished in
    any order: the bar's count, from ``first``); ``stop(total)`` may end the
    run early after any chunk (the decision then depends on the chunk order
    only, so it too is the same for any ``jobs``, or ``pool``).
    ``first`` skips games ``[0, first)``: merged onto a run of those, the
    totals are the same as one run of all ``games`` (``th tune`` grows a
    promising trial's games so).

    Ctrl-C, SIGTERM or SIGHUP raise :class:`Interrupted` holding the games
    finished in order so far (a prefix ``[first, n)`` of the games, so it too
    is the same for any ``jobs``), once every worker has ended.
    """
    total: ChunkResult | None = None
    done = first

    def on_game() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done)

    with _signals_interrupt():
        stream = run_chunks(batch, games, jobs, plugins, chunk, pool, first=first, on_game=on_game)
        try:
            for result in stream:
                total = result if total is None else total.merge(result)
                if stop is not None and stop(total):
                    break
        except _ChunkInterrupted as stopped:
            partial = stopped.partial
            if partial.stop > partial.start:
                total = partial if total is None else total.merge(partial)
            raise Interrupted(total, stopped.signum) from None
        except KeyboardInterrupt as stopped:
            raise Interrupted(total, getattr(stopped, "signum", signal.SIGINT), getattr(stopped, "reason", None)) from None
        finally:
            stream.close()
    if total is None:
        raise TreehouseError("no games to play: --games must be at least 1")
    return total
