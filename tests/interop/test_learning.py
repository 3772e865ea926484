"""A learner learns through the OpenSpiel adapter: the short version of benchmarks/bench_learning.py.

OpenSpiel's tabular Q-learner trains through ``rl_environment`` on the
benchmark's short race for 2,000 episodes (seeded), and its greedy policy's exact
chance of beating uniform random (every reachable state walked: no
sampling noise) is compared with the untrained learner's on the same game.
An untrained learner breaks every tie at random, so it is exactly random; a
learner that learned nothing from its episodes could not clear the margin.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.example("pyramid-race")

pytest.importorskip("pyspiel", reason="OpenSpiel is the openspiel extra")
pytest.importorskip("pyramid_race", reason="the learning game is examples/pyramid-race")

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_learning.py"
#: Episodes trained, and the least gain in the chance of winning that counts as learning:
#: the untrained learner wins 1/9 of the time; the best policy 0.231 (the benchmark's table).
EPISODES, MARGIN = 2000, 0.03


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_learning", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_q_learning_beats_the_untrained_learner_by_a_clear_margin(bench):
    np.random.seed(0)
    players = bench.agents(bench.environment(0), 0)
    untrained = bench.exact_win_probability({})
    assert untrained == pytest.approx(bench.exact_win_probability(None))  # an empty table plays as random does
    bench.train(players, EPISODES, 1)
    table = {key: dict(values) for key, values in players[bench.LEARNER]._q_values.items()}
    trained = bench.exact_win_probability(table)
    assert trained >= untrained + MARGIN, (untrained, trained)


def test_the_wilson_interval_brackets_the_rate(bench):
    low, high = bench.wilson(600, 1000)
    assert low < 0.6 < high and high - low == pytest.approx(0.0603, abs=1e-3)
