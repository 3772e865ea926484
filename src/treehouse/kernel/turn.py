"""The values a turn is made of, and playing one move through a game's hooks.

Steps, the engine's control choices, what apply and resolve may answer
(:class:`Applied`, :class:`Resolved`), outcomes, and the functions that play
a move in the head (:func:`play_move`, :func:`look_moves`) or write it
(:func:`format_move`).  They live apart from the engine so that the
game-hook machinery (:mod:`treehouse.kernel.hooks`), records and variants
can use them without importing the engine, and the engine can import all
of those without a cycle.  :mod:`treehouse.kernel.engine` re-exports every
name here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Sequence


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


def chance_verb(step: Any) -> str:
    """What a step's chance node did, in words: a setup step draws (Fences: a
    small from the bag), a turn's step rolls the die."""
    return "drew" if getattr(step, "setup", False) else "rolled"


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


class Applied(NamedTuple):
    """What ``treehouse_apply_move`` may return instead of a bare position:
    the position and what the move did (``effect``, any immutable value the
    variant likes), which the engine hands to ``treehouse_resolve``.  So
    resolving never has to work the move out again, and nothing is cached
    on the variant object between the two hooks."""

    state: Any
    effect: Any


class Resolved(NamedTuple):
    """What ``treehouse_resolve`` may return instead of a bare position: the
    position and the ``events`` of the step, a tuple of immutable values
    saying what happened (a Hit, a loss, a player out).  The kernel never
    looks inside an event: it hands the events to the game's observer and
    writes their words (:func:`describe_event`) into the record."""

    state: Any
    events: tuple = ()


def describe_event(event: Any) -> str:
    """An event in plain words: its ``describe()``, else its ``str()``."""
    describe = getattr(event, "describe", None)
    return describe() if callable(describe) else str(event)


def play_move(hooks: Any, state: Any, step: Step, move: Any) -> tuple[Any, tuple]:
    """Apply and resolve ``move`` through a game's hooks, as the engine does:
    the resolved position and the step's events.  For bots that play moves
    in their head and tools that list what moves lead to."""
    effect = None
    if move is PASS:
        after = state
    else:
        after = hooks.treehouse_apply_move(state, step, move)
        if type(after) is Applied:
            after, effect = after
    after = hooks.treehouse_resolve(after, state, step, move, effect)
    if type(after) is Resolved:
        return after
    return after, ()


def turn_cut_short(before: Any, after: Any) -> bool:
    """Did the step from ``before`` to ``after`` end its turn before the
    turn's last step?  A variant ends a turn early by handing the move on in
    ``treehouse_resolve`` (Fences: a seat that goes out plays no more
    steps); the turn's remaining steps are then not played, and
    ``treehouse_end_turn`` is not called.  Everything that walks a turn (the
    engine, the bots' model, the interop adapters) asks this."""
    return after.to_move != before.to_move


def format_move(variant: Any, move: Any) -> str:
    """A move's notation; control choices are written as their names."""
    return move.value if isinstance(move, Control) else variant.hooks.treehouse_format_move(move)


def parse_move(variant: Any, text: str) -> Any:
    """Read a move written by :func:`format_move`."""
    stripped = text.strip().lower()
    for control in Control:
        if stripped == control.value:
            return control
    move = variant.hooks.treehouse_parse_move(text)
    if move is None:
        return variant.parse_move(text)  # no plugin took it: the variant's own words on what it expected
    return move


class Looks(NamedTuple):
    """What ``treehouse_look_moves`` answers: many moves of one position,
    each played in the head (applied, resolved, its outcome checked) and
    judged for one seat.  (A named tuple: a search makes one per face of
    every node it looks at last.)

    ``values[i]`` is the seat's evaluation (``treehouse_evaluate``; 0.0 when
    no plugin evaluates) of the position after ``moves[i]``; ``outcomes``
    maps the index of each move that ends the game to its :class:`Outcome`
    (its value is then 0.0 and means nothing).  Bots turn an outcome into a
    score of their own."""

    values: Sequence[float]
    outcomes: Mapping[int, Outcome] = MappingProxyType({})
    #: How many of the choices looked at are ``REROLL`` (``treehouse_look_all_moves``
    #: only: a reroll is valued, never played in the head).
    rerolls: int = 0


def merged_looks(count: int, *parts: tuple[Sequence[int], Looks]) -> Looks:
    """One :class:`Looks` at ``count`` moves from looks at parts of them (say,
    a compiled core's at the variant's own moves and the hooks' at a house
    rule's): each part is the indices of its moves, in order, and its Looks."""
    values = [0.0] * count
    outcomes: dict[int, Outcome] = {}
    for indices, looks in parts:
        for index, value in zip(indices, looks.values):
            values[index] = value
        for index, outcome in looks.outcomes.items():
            outcomes[indices[index]] = outcome
    return Looks(values, dict(sorted(outcomes.items())))


def look_moves(hooks: Any, state: Any, step: Step, moves: Sequence, seat: int) -> Looks:
    """The answer the hooks give one move at a time, for ``treehouse_look_moves``:
    each move played as the engine plays it (:func:`play_move`; a setup
    step's move only applied, as the setup phase does, and never the end of
    a game), then the outcome checked and the position evaluated for
    ``seat``.  The kernel's default, and the oracle a compiled answer
    must equal."""
    evaluates = bool(hooks.implementers("treehouse_evaluate"))
    evaluate, outcome_of, apply = hooks.treehouse_evaluate, hooks.treehouse_outcome, hooks.treehouse_apply_move
    mover = state.to_move
    values: list[float] = []
    outcomes: dict[int, Outcome] = {}
    for index, move in enumerate(moves):
        if step.setup:
            after = apply(state, step, move)
            after, outcome = (after.state if type(after) is Applied else after), None
        else:
            after, _events = play_move(hooks, state, step, move)
            outcome = outcome_of(after, mover)
        if outcome is not None:
            outcomes[index] = outcome
            values.append(0.0)
            continue
        score = evaluate(after, seat) if evaluates else None
        values.append(0.0 if score is None else float(score))
    return Looks(values, outcomes)
