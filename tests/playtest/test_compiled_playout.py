"""The playtest's two tiers give the same games: the compiled playout of
random seats (playtest/compiled_playout.py) against the engine and its
observer (work.play_game), summary for summary, and the generator it
writes again against Python's own."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.kernel.fast import compiled
from treehouse.playtest import work
from treehouse.playtest.work import Batch, RuleSpec, _Table, play_chunk, play_game
from tiers import CLASSIC_OPTION_SETS

pytestmark = pytest.mark.usefixtures("compiled_core")


def table_of(plugins, rules, seats=("random", "random"), turn_cap=1000, house_rules=(), seed=1, rotate=False):
    spec = RuleSpec("classic", "classic", tuple(sorted(rules.model_dump(mode="json").items())), turn_cap, house_rules)
    batch = Batch((spec,), seats, seed=seed, rotate=rotate)
    return _Table(spec, seats, plugins), batch


@pytest.fixture(scope="module")
def playout_module():
    """The generator's kernels, and the glue's seeding (numba: only once the core is on)."""
    from types import SimpleNamespace

    from treehouse.kernel.fast import playout_kernels
    from treehouse.playtest import compiled_playout

    return SimpleNamespace(**vars(playout_kernels), seed_key=compiled_playout.seed_key)


@settings(max_examples=60, deadline=None)
@given(seed=st.one_of(st.integers(min_value=-(2**200), max_value=2**200), st.text(max_size=30)))
def test_the_generator_draws_what_pythons_draws(playout_module, seed):
    """Seeded as random.Random(seed) is (an int of any size, or a string),
    the same numbers past the first twist; and each seat's stream, seeded
    from 64 bits drawn, the same as random.Random(rng.getrandbits(64))."""
    import numpy as np

    python = random.Random(seed)
    mt = np.empty(playout_module.N + 1, dtype=np.int64)
    playout_module._seed(mt, playout_module.seed_key(seed), playout_module._unseeded())
    assert [playout_module._random(mt) for _ in range(700)] == [python.random() for _ in range(700)]
    seat = random.Random(python.getrandbits(64))
    seat_mt = np.empty_like(mt)
    playout_module._seed(seat_mt, playout_module._seat_key(mt), playout_module._unseeded())
    assert [playout_module._random(seat_mt) for _ in range(5)] == [seat.random() for _ in range(5)]


@pytest.mark.parametrize("value", [0, 1, 2**32 - 1, 2**32, 2**64 - 1])
def test_a_key_has_the_fewest_words_its_number_needs(playout_module, value):
    """random.Random(n) keys on the fewest words n needs: a seat's 64-bit draw below 2**32 is one word."""
    import numpy as np

    for key in (playout_module.seed_key(value), playout_module._key(value & 0xFFFFFFFF, value >> 32)):
        python = random.Random(value)
        mt = np.empty(playout_module.N + 1, dtype=np.int64)
        playout_module._seed(mt, key, playout_module._unseeded())
        assert [playout_module._random(mt) for _ in range(3)] == [python.random() for _ in range(3)]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", sorted(CLASSIC_OPTION_SETS))
def test_every_game_is_summarised_as_the_engine_and_observer_do(plugins, options, players):
    """Game by game, under every rule option and seat count: the winners,
    the reason, the length, the decisions, every face's counts, the
    variant's statistics, the lead, all equal."""
    table, batch = table_of(plugins, CLASSIC_OPTION_SETS[options], ("random",) * players, seed=f"tiers-{options}")
    playout = table.compiled_playout(load=True)
    assert playout is not None
    fast = table.play_compiled(playout, batch, 0, 60)
    slow = [play_game(table, batch, index) for index in range(60)]
    assert fast == slow
    assert any(summary.counters.get("house_moves") for summary, _ in slow)  # the statistics are there to compare
    if options == "reroll-decline":
        assert any(summary.faces[face][3] for summary, _ in slow for face in summary.faces)  # rerolls counted


def test_the_turn_cap_and_rotated_seats_are_the_engines(plugins):
    """Games stopped by a short turn cap, and seats rotated with their seeds shared, summarised alike."""
    table, batch = table_of(plugins, CLASSIC_OPTION_SETS["official"], ("random",) * 3, turn_cap=60, seed=7, rotate=True)
    playout = table.compiled_playout(load=True)
    fast = table.play_compiled(playout, batch, 0, 45)
    slow = [play_game(table, batch, index) for index in range(45)]
    assert fast == slow
    assert any(summary.timeout for summary, _ in slow) and not all(summary.timeout for summary, _ in slow)
    assert len({entrants for _, entrants in slow}) == 3


def test_a_chunk_adds_up_to_the_same_totals(plugins):
    """play_chunk with the compiled playout against the engine: the same aggregate to the last bit."""
    table, batch = table_of(plugins, CLASSIC_OPTION_SETS["official"], seed="chunk")
    assert table.compiled_playout(load=True) is not None
    fast = play_chunk(batch, 0, 100, plugins)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_Table, "compiled_playout", lambda self, load=False: None)
        slow = play_chunk(batch, 0, 100, plugins)
    assert fast.sides == slow.sides


@pytest.mark.parametrize(
    "why, change",
    [
        ("a search seat", {"seats": ("random", "search(depth=1)")}),
        ("a greedy seat", {"seats": ("greedy", "random")}),
        ("a house rule answers the legal moves", {"house_rules": ("no-house-moves",)}),
    ],
)
def test_the_engine_plays_where_anything_else_could_answer(plugins, why, change):
    table, _ = table_of(plugins, CLASSIC_OPTION_SETS["official"], **change)
    assert table.compiled_playout(load=True) is None, why


@pytest.mark.parametrize(
    "variant, seats",
    [("fences", ("random", "random")), ("classic", ("greedy", "greedy")), ("classic", ("random", "search(depth=1)"))],
)
def test_a_long_run_that_the_playout_cannot_play_never_imports_numba(variant, seats):
    """A run of 2,000 games or more asks for the playout first; where it
    cannot be had (Fences offers no compiled game; a seat that is not random)
    numba is not imported for it: a long Fences run of random seats once
    loaded it for nothing, 176 MB against 45 MB and a fifth slower."""
    code = (
        "import sys; from treehouse.plugins import load_plugins; from treehouse.playtest.work import RuleSpec, _Table; "
        f"plugins = load_plugins(); cls = plugins.variant({variant!r}); "
        f"spec = RuleSpec({variant!r}, {variant!r}, tuple(sorted(cls.Rules().model_dump(mode='json').items())), 1000); "
        f"table = _Table(spec, {seats!r}, plugins); "
        "print(table.compiled_playout(load=True), sorted(name for name in ('numpy', 'numba') if name in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "None []"


def test_a_short_run_waits_for_the_core_to_be_loaded_by_something_else(plugins):
    """Without ``load``, the playout is taken only once the variant's core is loaded in this process."""
    table, _ = table_of(plugins, CLASSIC_OPTION_SETS["official"])
    compiled.reset_for_tests()
    assert table.compiled_playout() is None
    table.variant.prepare_compiled()
    assert table.compiled_playout() is not None


def test_off_the_core_the_engine_plays(plugins, monkeypatch):
    monkeypatch.setenv(compiled.COMPILED_ENV, "0")
    compiled.reset_for_tests()
    table, _ = table_of(plugins, CLASSIC_OPTION_SETS["official"])
    assert table.compiled_playout(load=True) is None


def test_records_are_written_by_the_engine(plugins, tmp_path):
    """A run that keeps records plays through the engine (it writes every event)."""
    table, batch = table_of(plugins, CLASSIC_OPTION_SETS["official"])
    table.variant.prepare_compiled()
    kept = play_chunk(Batch(batch.rule_sets, batch.seats, seed=batch.seed, records=str(tmp_path)), 0, 5, plugins)
    assert len(list(tmp_path.glob("game-*.jsonl"))) == 5
    assert kept.sides == play_chunk(batch, 0, 5, plugins).sides


def test_th_simulate_says_the_same_on_both_tiers(monkeypatch):
    """The command as typed: the same JSON whether its games were played compiled or through the engine."""
    monkeypatch.setattr(work, "COMPILED_PLAYOUT_AFTER_GAMES", 200)
    runner = CliRunner()
    command = ["simulate", "--variant", "classic", "--players", "3", "--games", "300", "--seed", "9", "--jobs", "1", "--json"]
    fast = runner.invoke(app, command)
    assert fast.exit_code == 0, fast.output
    assert compiled.ready("classic")
    monkeypatch.setattr(_Table, "compiled_playout", lambda self, load=False: None)
    slow = runner.invoke(app, command)
    assert slow.exit_code == 0, slow.output
    drop = lambda text: {key: value for key, value in json.loads(text).items() if key not in ("seconds", "games_per_second", "elapsed")}  # noqa: E731
    assert drop(fast.stdout) == drop(slow.stdout)


def test_a_run_loads_the_playout_only_when_long_enough_to_pay_for_it(plugins, monkeypatch):
    """run_chunks loads it for a run of COMPILED_PLAYOUT_AFTER_GAMES games or more, not for a shorter one."""
    monkeypatch.setattr(work, "COMPILED_PLAYOUT_AFTER_GAMES", 150)
    _, batch = table_of(plugins, CLASSIC_OPTION_SETS["official"], seed="long")
    compiled.reset_for_tests()
    short = [result.sides[0] for result in work.run_chunks(batch, 100, jobs=1, plugins=plugins)]
    assert not compiled.ready("classic")
    long = [result.sides[0] for result in work.run_chunks(batch, 200, jobs=1, plugins=plugins)]
    assert compiled.ready("classic")
    assert long[0] == short[0]  # the first chunk's games, the same however they were played
