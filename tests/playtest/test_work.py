"""The work unit and the executor: reproducibility, common random numbers, records."""

from __future__ import annotations

import pytest

from contextlib import contextmanager

from treehouse.config import resolve
from treehouse.hookspecs import hookimpl
from treehouse.kernel.engine import PASS
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.playtest.metrics import differences, summary
from treehouse.playtest.work import Batch, RuleSpec, chunks, play_chunk, run, seating


def spec(plugins, name="classic", overrides=()):
    return RuleSpec.from_effective(resolve(plugins, variant=name, overrides=overrides))


def test_chunks_depend_on_the_games_only():
    assert chunks(250, 100) == [(0, 100), (100, 200), (200, 250)]
    assert chunks(3, 100) == [(0, 3)]


def test_same_seed_same_statistics_for_any_jobs(plugins):
    batch = Batch((spec(plugins),), ("random", "random"), seed=7)
    one = summary(run(batch, 240, jobs=1, plugins=plugins).sides[0])
    two = summary(run(batch, 240, jobs=2).sides[0])
    assert one == two


def _watch_pools(monkeypatch, cpus: int, after_seconds: float) -> list[int]:
    """Pretend to have ``cpus`` CPUs and hand a run to workers after ``after_seconds``; the ``jobs`` of every worker pool started."""
    from treehouse.playtest import work

    started: list[int] = []
    real_pool = work._worker_pool

    @contextmanager
    def watched(jobs):
        started.append(jobs)
        with real_pool(jobs) as pool:
            yield pool

    monkeypatch.setattr(work, "_worker_pool", watched)
    monkeypatch.setattr(work, "usable_cpus", lambda: cpus)
    monkeypatch.setattr(work, "WORKERS_AFTER_SECONDS", after_seconds)
    return started


def test_by_default_a_long_run_hands_the_rest_to_a_worker_per_cpu_with_the_same_totals(plugins, monkeypatch):
    batch = Batch((spec(plugins),), ("random", "random"), seed=11)
    one = summary(run(batch, 400, jobs=1, plugins=plugins).sides[0])
    pools = _watch_pools(monkeypatch, cpus=2, after_seconds=0.0)  # any pace is too slow: workers after the first chunk
    done: list[int] = []
    auto = run(batch, 400, jobs=None, plugins=plugins, progress=done.append)
    assert pools == [2]
    assert summary(auto.sides[0]) == one
    assert sorted(done) == list(range(1, 401))  # every game counted once, here or in a worker


def test_by_default_a_short_run_or_a_single_cpu_starts_no_worker(plugins, monkeypatch):
    batch = Batch((spec(plugins),), ("random", "random"), seed=11)
    one = summary(run(batch, 300, jobs=1, plugins=plugins).sides[0])
    for cpus, after_seconds in ((2, 1e9), (1, 0.0)):
        pools = _watch_pools(monkeypatch, cpus, after_seconds)
        assert summary(run(batch, 300, jobs=None, plugins=plugins).sides[0]) == one
        assert pools == [], (cpus, after_seconds)


def test_by_default_a_run_of_one_chunk_stays_here_however_slow(plugins, monkeypatch):
    pools = _watch_pools(monkeypatch, cpus=2, after_seconds=0.0)
    run(Batch((spec(plugins),), ("random", "random"), seed=11), 100, jobs=None, plugins=plugins)
    assert pools == []


def test_a_game_does_not_depend_on_its_chunk(plugins):
    batch = Batch((spec(plugins),), ("random", "random"), seed=3)
    whole = play_chunk(batch, 0, 30, plugins).sides[0]
    pieces = play_chunk(batch, 0, 11, plugins)
    pieces.merge(play_chunk(batch, 11, 30, plugins))
    piece = pieces.sides[0]
    assert (piece.wins, piece.lengths, piece.faces, piece.counters) == (whole.wins, whole.lengths, whole.faces, whole.counters)
    other_seed = play_chunk(Batch(batch.rule_sets, batch.seats, seed=4), 0, 30, plugins).sides[0]
    assert other_seed.lengths != whole.lengths


def test_a_rule_set_against_itself_differs_in_nothing(plugins):
    a = spec(plugins)
    total = run(Batch((a, a), ("random", "random"), seed=1), 200, plugins=plugins)
    rows = differences(total.sides[0], total.sides[1], total.paired)
    assert all(r.diff.value == 0 and not r.significant for r in rows)
    assert summary(total.sides[0]) == summary(total.sides[1])


class SkipSeatTwo:
    """A lopsided house rule: the second seat can only pass."""

    name = "skip-seat-two"

    @hookimpl(wrapper=True)
    def treehouse_legal_moves(self, state, step, face):
        moves = yield
        return (PASS,) if moves and state.to_move == 1 else moves


class LopsidedPlugin:
    @hookimpl
    def treehouse_register_house_rules(self, register):
        register("skip-seat-two", lambda variant, options: SkipSeatTwo(), variants="classic", description="seat 2 always passes")


def test_a_lopsided_house_rule_is_flagged():
    from treehouse.plugins import load_plugins

    plugins = load_plugins(extra=[("lopsided", LopsidedPlugin())])
    a = spec(plugins)
    b = spec(plugins, overrides=["house_rules=[skip-seat-two]"])
    total = run(Batch((a, b), ("random", "random"), seed=1), 200, plugins=plugins)
    rows = {r.name: r for r in differences(total.sides[0], total.sides[1], total.paired)}
    assert rows["AdvantageP1"].significant and rows["AdvantageP1"].diff.low > 0.2
    assert rows["win rate seat 2"].significant and rows["win rate seat 2"].diff.high < 0
    assert rows["passes per game"].significant


def test_rotation_gives_every_entrant_every_chair_on_the_same_seed():
    batch = Batch((), ("a", "b", "c"), seed=1, rotate=True)
    assert [seating(batch, i) for i in range(4)] == [(0, (0, 1, 2)), (0, (1, 2, 0)), (0, (2, 0, 1)), (1, (0, 1, 2))]
    assert seating(Batch((), ("a", "b"), seed=1), 5) == (5, (0, 1))


def test_records_are_written_only_when_asked_and_replay(plugins, tmp_path):
    batch = Batch((spec(plugins),), ("random", "random"), seed=2, records=str(tmp_path))
    result = run(batch, 5, plugins=plugins).sides[0]
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == [f"game-{i:06d}.jsonl" for i in range(5)]
    game = replay(Record.read(files[0]), plugins)
    assert game.turn in result.lengths


def test_classic_counts_house_moves_and_passes(plugins):
    agg = play_chunk(Batch((spec(plugins),), ("random", "random"), seed=1), 0, 20, plugins).sides[0]
    assert agg.counters["house_moves"] > 0 and agg.counters["passes"] > 0
    # every step is exactly one of: an own move, a House move, a pass
    assert agg.counters["house_moves"] + agg.counters["passes"] + agg.counters["own_moves"] == agg.decisions_total
    passed = sum(counts[4] for counts in agg.faces.values())
    assert passed == agg.counters["passes"]


# -- a playtest takes the compiled core from its first look --


def _core_answers(monkeypatch) -> list[bool]:
    """With the compiled core wanted: for each of classic's looks, whether the core answered it (not the hooks)."""
    from treehouse.kernel.fast import compiled
    from treehouse.variants.classic import game
    from treehouse.variants.classic.fast import looks

    if not compiled.enabled():
        import pytest

        pytest.skip("the compiled core is off here")
    monkeypatch.delenv(compiled.COMPILED_ENV, raising=False)
    compiled.reset_for_tests()  # 'prepared' forgotten (the kernels stay in memory), as in a fresh process
    answers: list[bool] = []

    def watched(variant, hooks=looks.LOOK_HOOKS):
        core = looks.core_for(variant, hooks)
        answers.append(isinstance(core, looks.ClassicCore))
        return core

    monkeypatch.setattr(game, "core_for", watched)
    return answers


@pytest.mark.parametrize("variant, seats", [("classic", ("search", "search")), ("fences", ("greedy", "search"))])
def test_a_playtest_of_one_game_takes_the_core_from_its_first_look(plugins, monkeypatch, variant, seats):
    """A build loads in milliseconds, so even one game is played on the core."""
    from dataclasses import replace

    from treehouse.kernel.fast import compiled

    if not compiled.enabled():
        pytest.skip("the compiled core is off here")
    monkeypatch.delenv(compiled.COMPILED_ENV, raising=False)
    compiled.reset_for_tests()
    waited: list[bool] = []
    real_waiting = compiled.waiting
    monkeypatch.setattr(compiled, "waiting", lambda name: waited.append(real_waiting(name)) or waited[-1])
    short = replace(spec(plugins, variant, ("start=corners",) if variant == "fences" else ()), turn_cap=6)
    play_chunk(Batch((short,), seats, seed=2), 0, 1, plugins, on_game=lambda: None)
    assert not any(waited)
    assert compiled.ready(variant)


def test_classic_search_looks_are_the_cores_from_the_first_game(plugins, monkeypatch):
    answers = _core_answers(monkeypatch)
    play_chunk(Batch((spec(plugins),), ("search", "search"), seed=4), 0, 1, plugins, on_game=lambda: None)
    assert answers and all(answers)


