"""The die as an explicit chance node: its faces and their probabilities.

Rules code never calls :mod:`random`; the engine passes a seeded
``random.Random`` to :meth:`Die.roll`.  Search bots and exact solvers read
:meth:`Die.outcomes` instead of rolling, as OpenSpiel's chance nodes do.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from math import lcm

from treehouse.errors import unknown


@dataclass(frozen=True)
class Die:
    """A die with named faces.  ``weights`` default to a fair die."""

    name: str
    faces: tuple[str, ...]
    weights: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if not self.faces:
            raise ValueError("a die needs at least one face")
        if self.weights is not None and len(self.weights) != len(self.faces):
            raise ValueError("a die needs one weight per face")

    def outcomes(self) -> tuple[tuple[str, Fraction], ...]:
        """Every face with its exact probability; the probabilities sum to 1."""
        weights = self.weights or (1,) * len(self.faces)
        total = sum(weights)
        return tuple((face, Fraction(w, total)) for face, w in zip(self.faces, weights))

    def roll(self, rng: random.Random) -> str:
        """One roll, drawn from ``rng`` (the only source of chance in a game)."""
        faces = self.faces
        if self.weights is None:
            return faces[int(rng.random() * len(faces))]
        return rng.choices(faces, cum_weights=list(accumulate(self.weights)))[0]

    def face(self, name: str) -> str:
        """Look a face up by name, case-insensitively, or fail listing the faces."""
        wanted = name.strip().upper()
        for face in self.faces:
            if face.upper() == wanted:
                return face
        raise unknown("action", name, [face.lower() for face in self.faces])


def draw(outcomes: tuple[tuple[str, Fraction], ...], rng: random.Random) -> str:
    """One outcome of a chance node (``(outcome, probability)`` pairs summing
    to 1), drawn from ``rng``.

    It draws as :meth:`Die.roll` does: equal probabilities take one
    ``rng.random()`` (so a fair die's outcomes give the fair die's rolls),
    others ``rng.choices`` with whole-number weights.
    """
    first = outcomes[0][1]
    if all(p == first for _, p in outcomes):
        return outcomes[int(rng.random() * len(outcomes))][0]
    denominator = lcm(*(p.denominator for _, p in outcomes))
    weights = accumulate(int(p * denominator) for _, p in outcomes)
    return rng.choices([outcome for outcome, _ in outcomes], cum_weights=list(weights))[0]


def chance_problem(outcomes) -> str | None:
    """What is wrong with a chance node (``None`` when nothing): it must be a
    non-empty tuple of ``(outcome, Fraction)`` pairs, outcomes distinct
    strings, probabilities positive and summing to exactly 1."""
    if not isinstance(outcomes, tuple) or not outcomes:
        return f"a chance node is a non-empty tuple of (outcome, probability) pairs, not {outcomes!r}"
    for pair in outcomes:
        if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str) and isinstance(pair[1], Fraction)):
            return f"a chance node's entries are (outcome text, Fraction) pairs, not {pair!r}"
        if pair[1] <= 0:
            return f"outcome {pair[0]!r} has probability {pair[1]}: leave out what cannot happen"
    names = [outcome for outcome, _ in outcomes]
    if len(set(names)) != len(names):
        return f"a chance node names an outcome twice: {names}"
    total = sum(p for _, p in outcomes)
    if total != 1:
        return f"a chance node's probabilities sum to {total}, not 1"
    return None


#: The Treehouse die.  A d6 read as 1 TIP, 2 SWAP, 3 HOP, 4 DIG, 5 AIM, 6 WILD is the same die.
TREEHOUSE_DIE = Die("treehouse", ("TIP", "SWAP", "HOP", "DIG", "AIM", "WILD"))
