"""The statistics of playtesting, as small pure functions.

* :func:`wilson` -- the Wilson score interval of a proportion;
* :func:`quantile` -- a quantile of a histogram (the nearest-rank definition);
* :class:`Moments` -- streaming first and second moments of a vector of
  per-game quantities, mergeable, from which :func:`delta_interval` gives a
  confidence interval for any smooth function of the means (the delta method);
* :class:`SPRT` -- the sequential probability ratio test on paired differences.

Nothing here plays a game; everything is checked against known answers in
``tests/playtest``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``trials`` (no continuity correction).

    Returns ``(low, high)``; ``(0.0, 1.0)`` when there are no trials.
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(max(p * (1 - p) / trials + z2 / (4 * trials * trials), 0.0))
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(histogram: Mapping[int, int], q: float) -> int | None:
    """The ``q``-quantile of the values counted in ``histogram`` (value -> count).

    Nearest rank: the smallest value ``x`` such that at least a share ``q`` of
    the values are ``<= x``.  The median of 1, 2, 3, 4 is therefore 2.
    """
    total = sum(histogram.values())
    if total == 0:
        return None
    rank = max(1, math.ceil(q * total - 1e-9))
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= rank:
            return value
    return max(histogram)  # pragma: no cover - unreachable


def normal_p_value(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


@dataclass
class Moments:
    """Running sums of a fixed-length vector of per-game quantities.

    ``s1[i]`` is the sum of quantity ``i`` and ``s2[i*k + j]`` the sum of the
    products of quantities ``i`` and ``j``.  Two ``Moments`` over the same
    names merge by adding, so work split into chunks gives the same totals
    (merged in chunk order, even the same floating-point bits).
    """

    names: tuple[str, ...]
    n: int = 0
    s1: list[float] = field(default_factory=list)
    s2: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        k = len(self.names)
        if not self.s1:
            self.s1 = [0.0] * k
        if not self.s2:
            self.s2 = [0.0] * (k * k)

    def add(self, values: Sequence[float]) -> None:
        k = len(self.names)
        s1, s2 = self.s1, self.s2
        self.n += 1
        nonzero = [(i, v) for i, v in enumerate(values) if v]
        for i, v in nonzero:
            s1[i] += v
            row = i * k
            for j, w in nonzero:
                s2[row + j] += v * w

    def merge(self, other: Moments) -> None:
        if other.names != self.names:
            raise ValueError("cannot merge moments of different quantities")
        self.n += other.n
        self.s1 = [a + b for a, b in zip(self.s1, other.s1)]
        self.s2 = [a + b for a, b in zip(self.s2, other.s2)]

    def means(self) -> list[float]:
        return [s / self.n for s in self.s1] if self.n else [0.0] * len(self.names)

    def covariance(self) -> list[list[float]]:
        """The sample covariance matrix (divisor ``n - 1``)."""
        k, n = len(self.names), self.n
        if n < 2:
            return [[0.0] * k for _ in range(k)]
        m = self.means()
        return [[(self.s2[i * k + j] - n * m[i] * m[j]) / (n - 1) for j in range(k)] for i in range(k)]


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% interval (``low``/``high`` are ``None`` when not estimable)."""

    value: float | None
    low: float | None = None
    high: float | None = None

    @property
    def se(self) -> float | None:
        if self.low is None or self.high is None or self.value is None:
            return None
        return (self.high - self.low) / (2 * Z95)

    def excludes(self, point: float = 0.0) -> bool:
        return self.low is not None and self.high is not None and not (self.low <= point <= self.high)

    def p_value(self, point: float = 0.0) -> float | None:
        se = self.se
        if self.value is None or se is None:
            return None
        if se == 0:
            return 1.0 if self.value == point else 0.0
        return normal_p_value((self.value - point) / se)


def delta_interval(function: Callable[[Sequence[float]], float | None], moments: Moments, z: float = Z95) -> Estimate:
    """``function(means)`` with a normal interval from the delta method.

    The gradient is taken numerically (central differences), so ``function``
    may be any smooth function of the mean vector: a mean, a ratio of means, a
    difference between two halves of a paired vector.  Where it is not smooth
    (the max in Balance) the interval is the one of the active branch.
    """
    means = moments.means()
    value = function(means)
    if value is None or moments.n < 2:
        return Estimate(value)
    k = len(means)
    gradient = []
    for i in range(k):
        h = 1e-6 * max(1.0, abs(means[i]))
        up, down = list(means), list(means)
        up[i] += h
        down[i] -= h
        f_up, f_down = function(up), function(down)
        gradient.append(0.0 if f_up is None or f_down is None else (f_up - f_down) / (2 * h))
    cov = moments.covariance()
    active = [i for i, g in enumerate(gradient) if g]
    variance = sum(gradient[i] * gradient[j] * cov[i][j] for i in active for j in active) / moments.n
    half = z * math.sqrt(max(variance, 0.0))
    if half < 1e-12:  # numerical noise of an exactly constant quantity
        half = 0.0
    return Estimate(value, value - half, value + half)


def holm(p_values: Sequence[float | None], alpha: float = 0.05) -> list[bool]:
    """Holm-Bonferroni: which of several hypotheses to reject at family-wise level ``alpha``."""
    order = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    reject = [False] * len(p_values)
    m = len(order)
    for rank, (p, i) in enumerate(order):
        if p > alpha / (m - rank):
            break
        reject[i] = True
    return reject


class SPRT:
    """Wald's sequential test on a stream of paired differences (the GSPRT of chess-engine testing).

    H0: the mean difference is ``delta0``; H1: it is ``delta1``.  The log
    likelihood ratio uses the normal approximation with the variance
    estimated from the stream::

        LLR = n (delta1 - delta0) (mean - (delta0 + delta1) / 2) / variance

    and the test stops when it leaves ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``:
    above, H1 is accepted (the difference is confirmed); below, H0 (ruled out).
    """

    def __init__(self, delta1: float, delta0: float = 0.0, alpha: float = 0.05, beta: float = 0.05, min_samples: int = 20):
        if delta1 == delta0:
            raise ValueError("the SPRT needs two different hypotheses (delta1 != delta0)")
        if not (0 < alpha < 1 and 0 < beta < 1):
            raise ValueError("alpha and beta must lie between 0 and 1")
        self.delta0, self.delta1, self.alpha, self.beta = delta0, delta1, alpha, beta
        self.lower = math.log(beta / (1 - alpha))
        self.upper = math.log((1 - beta) / alpha)
        self.min_samples = min_samples
        self.n = 0
        self.total = 0.0
        self.total_sq = 0.0

    def update(self, values: Iterable[float]) -> str | None:
        for value in values:
            self.n += 1
            self.total += value
            self.total_sq += value * value
        return self.decision()

    def update_sums(self, n: int, total: float, total_sq: float) -> str | None:
        self.n, self.total, self.total_sq = n, total, total_sq
        return self.decision()

    def llr(self) -> float:
        if self.n < 2:
            return 0.0
        mean = self.total / self.n
        variance = max((self.total_sq - self.n * mean * mean) / (self.n - 1), 1e-9)
        return self.n * (self.delta1 - self.delta0) * (mean - (self.delta0 + self.delta1) / 2) / variance

    def decision(self) -> str | None:
        """``"H1"``, ``"H0"``, or ``None`` while the test goes on."""
        if self.n < self.min_samples:
            return None
        llr = self.llr()
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


#: The smallest p-value printed as a number; below it, ``< 0.001``.
SMALLEST_P = 0.001


def p_text(p: float | None) -> str:
    """A p-value for people: three decimals, or ``< 0.001`` (never ``0.0000``)."""
    if p is None:
        return "n/a"
    return f"< {SMALLEST_P:g}" if p < SMALLEST_P else f"{p:.3f}"
