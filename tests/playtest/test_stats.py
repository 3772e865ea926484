"""The statistics against known answers: published Wilson bounds, hand-computed moments, SPRT on synthetic streams."""

from __future__ import annotations

import math
import random

import pytest

from treehouse.playtest.stats import SPRT, Z95, Estimate, Moments, delta_interval, holm, quantile, wilson


@pytest.mark.parametrize(
    "successes, trials, low, high",
    [
        # Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score, no continuity correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_newcombes_published_intervals(successes, trials, low, high):
    got = wilson(successes, trials)
    assert got[0] == pytest.approx(low, abs=5e-5) and got[1] == pytest.approx(high, abs=5e-5)


def test_wilson_edge_cases():
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(10, 10)
    assert high == pytest.approx(1.0) and low == pytest.approx(0.7225, abs=5e-5)  # 10/10: [0.7225, 1]
    a, b = wilson(30, 100)
    c, d = wilson(70, 100)
    assert a == pytest.approx(1 - d) and b == pytest.approx(1 - c)  # symmetric in success/failure


def test_quantiles_by_nearest_rank():
    hist = {1: 1, 2: 1, 3: 1, 4: 1}
    assert quantile(hist, 0.5) == 2  # at least half the values are <= 2
    assert quantile(hist, 0.9) == 4
    assert quantile({10: 9, 50: 1}, 0.9) == 10
    assert quantile({10: 8, 50: 2}, 0.9) == 50
    assert quantile({7: 3}, 0.5) == 7
    assert quantile({}, 0.5) is None


def test_moments_mean_interval_by_hand():
    m = Moments(("x",))
    for v in (1, 2, 3, 4):
        m.add([v])
    est = delta_interval(lambda means: means[0], m)
    # mean 2.5, sample variance 5/3, standard error sqrt(5/3/4)
    half = Z95 * math.sqrt(5 / 3 / 4)
    assert est.value == pytest.approx(2.5)
    assert (est.low, est.high) == (pytest.approx(2.5 - half), pytest.approx(2.5 + half))


def test_delta_method_ratio_by_hand():
    # y/x over pairs (x, y): (1, 1), (2, 1), (3, 2), (2, 2).  R = 6/8.
    m = Moments(("x", "y"))
    for x, y in ((1, 1), (2, 1), (3, 2), (2, 2)):
        m.add([x, y])
    est = delta_interval(lambda means: means[1] / means[0], m)
    r = 6 / 8
    residuals = [y - r * x for x, y in ((1, 1), (2, 1), (3, 2), (2, 2))]
    var_u = sum(u * u for u in residuals) / 3  # residuals have mean 0
    half = Z95 * math.sqrt(var_u / 4) / 2  # divided by the mean of x
    assert est.value == pytest.approx(r)
    assert est.high - est.value == pytest.approx(half, rel=1e-5)


def test_moments_merge_equals_one_pass():
    rng = random.Random(3)
    rows = [[rng.random(), rng.randint(0, 5)] for _ in range(50)]
    whole, left, right = Moments(("a", "b")), Moments(("a", "b")), Moments(("a", "b"))
    for i, row in enumerate(rows):
        whole.add(row)
        (left if i < 20 else right).add(row)
    left.merge(right)
    assert left.n == whole.n
    assert left.s1 == pytest.approx(whole.s1) and left.s2 == pytest.approx(whole.s2)


def test_a_constant_quantity_has_a_zero_width_interval():
    m = Moments(("x",))
    for _ in range(10):
        m.add([0.5])
    est = delta_interval(lambda means: means[0], m)
    assert (est.low, est.high) == (0.5, 0.5) and est.p_value(0.5) == 1.0 and not est.excludes(0.5)


def test_estimate_p_value():
    est = Estimate(1.0, 1.0 - Z95, 1.0 + Z95)  # standard error 1
    assert est.p_value() == pytest.approx(0.3173, abs=1e-4)


def test_holm_by_hand():
    # sorted: 0.001 <= .05/4, 0.012 <= .05/3, 0.03 > .05/2 -> stop
    assert holm([0.03, 0.001, 0.5, 0.012]) == [False, True, False, True]
    assert holm([1.0, 1.0]) == [False, False]
    assert holm([None, 0.001]) == [False, True]


def _stream(rng, pa, pb):
    while True:
        a = 1.0 if rng.random() < pa else 0.0
        b = 1.0 if rng.random() < pb else 0.0
        yield b - a


def _run_sprt(rng, pa, pb, delta=0.1, limit=50_000):
    test = SPRT(delta, 0.0, alpha=0.05, beta=0.05)
    stream = _stream(rng, pa, pb)
    for _ in range(limit):
        decision = test.update([next(stream)])
        if decision:
            return decision, test.n
    return None, test.n


def test_sprt_confirms_a_real_difference_and_rules_out_none():
    rng = random.Random(2024)
    found = [_run_sprt(rng, 0.45, 0.55)[0] for _ in range(40)]
    none = [_run_sprt(rng, 0.5, 0.5)[0] for _ in range(40)]
    # alpha = beta = 5%: of 40 runs, a handful of wrong verdicts at most
    assert found.count("H1") >= 35 and None not in found
    assert none.count("H0") >= 35 and None not in none


def test_sprt_decides_at_once_on_a_zero_variance_stream():
    test = SPRT(0.05)
    assert test.update([0.0] * 100) == "H0"
    test = SPRT(-0.05)
    assert test.update([0.0] * 100) == "H0"


def test_sprt_works_in_either_direction():
    rng = random.Random(5)
    test = SPRT(-0.1)
    stream = _stream(rng, 0.55, 0.45)
    decision = None
    while decision is None:
        decision = test.update([next(stream)])
    assert decision == "H1"


def test_sprt_bounds_are_walds():
    test = SPRT(0.05, alpha=0.05, beta=0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95)) and test.upper == pytest.approx(math.log(0.9 / 0.05))
    with pytest.raises(ValueError):
        SPRT(0.0, 0.0)
