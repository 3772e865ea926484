"""The values a turn is made of: steps, the engine's control choices, outcomes.

They live apart from the engine so that the game-hook machinery
(:mod:`treehouse.kernel.hooks`) can use them without importing the engine,
and the engine can import that machinery without a cycle.
:mod:`treehouse.kernel.engine` re-exports every name here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True)
class Step:
    """One step of a turn.  ``rolls`` says whether the die is rolled first
    (the step's chance node); ``setup`` marks a step of the setup phase,
    played before the first turn (:func:`~treehouse.hookspecs.treehouse_setup_step`)."""

    name: str
    rolls: bool = True
    setup: bool = False


#: The default turn: one step, roll then move.
ONE_ROLLED_STEP = (Step("act", rolls=True),)


class Control(StrEnum):
    """Choices that are not moves on the board; the engine handles them itself."""

    #: Decline: end the step without moving (only where the rules allow it).
    PASS = "pass"
    #: Decline and roll the die again (the same player, the same step).
    REROLL = "reroll"


PASS = Control.PASS
REROLL = Control.REROLL


@dataclass(frozen=True)
class Outcome:
    """How a game ended.  ``winners`` are 0-based seats: one is a win,
    several a tie among them, none a draw (``reason`` says why)."""

    winners: tuple[int, ...]
    reason: str

    @property
    def is_draw(self) -> bool:
        return not self.winners
