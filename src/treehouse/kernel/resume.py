"""Continuing a saved game exactly, and walking through a record step by step.

**Resuming.**  A game saved by ``th play`` records its seed (``meta["seed"]``)
and its seat kinds (``meta["seats"]``) next to the rules.  Everything random in
a game flows from that one seed (:class:`~treehouse.kernel.engine.Game` draws
the setup, the dice and every seat's own stream from it), so the game can be
rebuilt from scratch and played forward instead of restored from a snapshot:

1. the :class:`Game` is built again from the recorded rules and seed, with the
   same kinds of seats, so the setup is the same;
2. the dice roll from the seed again, and every roll is checked
   against the record (:class:`ResumeCheck`, the game's observer);
3. a person's seat is wrapped in a :class:`ResumingSeat` that plays the
   recorded moves back; a bot's seat is wrapped too, but the bot chooses again
   from its own seeded stream and its choice is checked against the record;
4. when the record runs out, the wrappers hand every choice to the live seats.

The game then continues exactly as it would have without the interruption:
the dice stream and every bot's stream are where they were, and the engine
keeps writing the same record, whose first events are the saved ones.  A
record that does not re-derive from its seed (edited, or made with other
bots or another version of a rule) raises :class:`RecordError` naming the
first difference.  Nothing here changes the engine: it only uses a seat
wrapper and the engine's observer.

**Walking.**  :func:`walk` replays any record (no seed needed: the recorded
faces stand in for the dice) and returns one :class:`Frame` per recorded
choice, with the position before and after, for ``th replay``: it is
:func:`treehouse.kernel.replay.replay` with an observer, so the record is
checked as it is walked.  The replay's :class:`~treehouse.kernel.replay.Script`
of recorded events is also what :class:`ResumeCheck` consumes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Sequence

from treehouse.errors import RecordError
from treehouse.kernel.engine import REROLL, Control, Game, Step, format_move
from treehouse.kernel.records import Record
from treehouse.kernel.replay import Script, recorded_start, replay
from treehouse.kernel.seats import Seat, seat_in

#: The seat kind of a person in ``meta["seats"]``.
HUMAN = "human"


# --------------------------------------------------------------------------
# reading what a saved game needs
# --------------------------------------------------------------------------


@dataclass
class SavedGame:
    """What a record says about the game it comes from, checked."""

    variant: Any
    house_rules: list[Any]
    house_rule_names: list[str]
    turn_cap: int | None
    seed: int
    seat_kinds: list[str]
    rule_set: str


def saved_game(record: Record, plugins: Any, source: str = "the record") -> SavedGame:
    """Read the variant, rules, seed and seats of a record made by ``th play``.

    Raises :class:`RecordError` (one line) when the record lacks them or was
    made with rules or plugins this installation does not have.
    """
    header = record.header or {}
    meta = record.meta or {}
    start = recorded_start(record, plugins, subject=source, purpose="continued")
    variant = start.variant
    seed = meta.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"{source} has no seed, so it cannot be continued (it was not saved by th play); watch it with th replay")
    kinds = meta.get("seats")
    seats = header.get("seats")
    if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds) or not isinstance(seats, list) or len(kinds) != len(seats):
        raise RecordError(f"{source} does not say who sat where (meta.seats), so it cannot be continued; watch it with th replay")
    return SavedGame(
        variant=variant,
        house_rules=start.house_rules,
        house_rule_names=start.house_rule_names,
        turn_cap=header.get("turn_cap"),
        seed=seed,
        seat_kinds=list(kinds),
        rule_set=str(meta.get("rule_set") or variant.name),
    )


# --------------------------------------------------------------------------
# resuming
# --------------------------------------------------------------------------


class ResumeCheck(Script):
    """The recorded events, consumed in order while a game is played forward
    (the replay's :class:`~treehouse.kernel.replay.Script`, checking more).

    Used as (part of) the game's observer: every roll is compared with the
    record.  :attr:`replaying` stays true until something asks for an event
    past the end of the record; from then on the game is live.
    """

    def __init__(self, record: Record, variant: Any, seed: int) -> None:
        super().__init__(record, variant)
        self.seed = seed
        self.replaying = bool(self.events)

    def _mismatch(self, turn: int, what: str) -> RecordError:
        return RecordError(
            f"turn {turn}: {what}; the record does not follow from its seed {self.seed} "
            "with these rules and bots (was it edited, or made by another version?)"
        )

    def expect(self, kind: str, turn: int, seat: int, step: Step) -> Any:
        """The next recorded event's value, checked to be a ``kind`` of ``seat`` in ``step``."""
        event_kind, event_turn, event_seat, event_step, value = self.events[self.index]
        if (event_kind, event_turn, event_seat, event_step) != (kind, turn, seat, step.name):
            raise self._mismatch(
                turn,
                f"the game comes to a {kind} by player {seat + 1} ({step.name}), "
                f"but the record has a {event_kind} by player {event_seat + 1} on turn {event_turn} ({event_step})",
            )
        self.index += 1
        return value

    # -- the observer ---------------------------------------------------------

    def on_choice(self, game: Game, mover: int, step: Step, face: str | None, moves: tuple) -> None:
        if face is None:
            return
        if not self.pending:
            self.replaying = False
            return
        recorded = self.expect("roll", game.turn, mover, step)
        if recorded != face:
            raise self._mismatch(game.turn, f"the seed rolls {face} where the record has {recorded}")

    def on_step(self, game: Game, mover: int, step: Step, move: Any, before: Any, after: Any, events: tuple) -> None:
        pass


class ResumingSeat:
    """A seat that plays the record back, then hands over to ``live``.

    With ``scripted`` (a person), the recorded moves are played as they are.
    Otherwise (a bot) ``live`` chooses again, from its own seeded stream, and
    must choose what the record says.
    """

    def __init__(self, live: Seat, check: ResumeCheck, scripted: bool) -> None:
        self.live = live
        self.check = check
        self.scripted = scripted
        self.name = live.name
        self.index = 0
        self.game: Game | None = None

    def seated(self, game: Game, index: int) -> None:
        self.game, self.index = game, index
        seat_in(self.live, game, index)

    def choose(self, state, step, face, moves, rng):
        check = self.check
        if not check.pending:
            check.replaying = False
            return self.live.choose(state, step, face, moves, rng)
        turn = self.game.turn if self.game is not None else 0
        text = check.expect("move", turn, self.index, step)
        recorded = check.move(text, moves, turn)
        if self.scripted:
            return recorded
        chosen = self.live.choose(state, step, face, moves, rng)
        if chosen != recorded:
            raise check._mismatch(
                turn, f"the {self.name} bot (player {self.index + 1}) plays {format_move(check.variant, chosen)!r} where the record has {text!r}"
            )
        return chosen


class Observers:
    """Several game observers as one (the engine takes one)."""

    def __init__(self, *observers: Any) -> None:
        self.observers = [o for o in observers if o is not None]

    def on_choice(self, *args: Any) -> None:
        for observer in self.observers:
            observer.on_choice(*args)

    def on_step(self, *args: Any) -> None:
        for observer in self.observers:
            observer.on_step(*args)


def resume_game(
    record: Record,
    saved: SavedGame,
    live_seats: Sequence[Seat],
    *,
    observer: Any = None,
    new_record: Record | None = None,
) -> tuple[Game, ResumeCheck]:
    """Rebuild the game of ``record`` from its seed, ready to be played forward.

    ``live_seats`` are the seats to hand over to (built from
    ``saved.seat_kinds``; a :data:`HUMAN` kind is played back from the
    record).  Playing the returned game (``game.play_turn()``) first
    re-derives and checks the recorded part, then continues live; while
    ``check.replaying`` is true the game is still in the recorded part.
    ``new_record`` receives every event, old and new.  Raises
    :class:`RecordError` when the setup differs from the record's; later
    differences are raised as the game reaches them.
    """
    check = ResumeCheck(record, saved.variant, saved.seed)
    seats = [ResumingSeat(live, check, kind == HUMAN) for live, kind in zip(live_seats, saved.seat_kinds)]
    game = Game(
        saved.variant,
        seats,
        random.Random(saved.seed),
        turn_cap=saved.turn_cap,
        house_rules=saved.house_rules,
        record=new_record,
        observer=Observers(check, observer),
    )
    check.variant = game.variant  # the game's own, whose notation includes its house rules' moves
    recorded = (record.header or {}).get("position")
    start = saved.variant.format_position(game.state)
    if recorded != start:
        raise RecordError(f"the seed {saved.seed} sets up {start!r}, but the record starts from {recorded!r}")
    return game, check


def finish_catch_up(game: Game, check: ResumeCheck) -> None:
    """Play forward until the recorded part is used up (or the game ends).

    Useful when no live seat should be asked anything before the record is
    verified; the next choice after this returns is live.
    """
    while check.pending and not game.over:
        game.play_turn()


# --------------------------------------------------------------------------
# walking a record
# --------------------------------------------------------------------------


@dataclass
class Frame:
    """One recorded choice: who, in which step, after which rolls, and the positions."""

    turn: int
    seat: int  # 0-based
    step: str
    rolls: list[str]
    move: Any
    before: Any
    after: Any
    notation: str = ""
    words: str = ""
    #: what the step's resolution reported (``treehouse_resolve``'s events)
    events: tuple = ()


@dataclass
class Walk:
    """A record as frames: frame 0 is the start, then one per recorded choice."""

    variant: Any
    start: Any
    frames: list[Frame] = field(default_factory=list)
    #: rolls after the last choice (a game saved with a roll pending)
    trailing_rolls: list[str] = field(default_factory=list)
    outcome: Any = None


class _Collector:
    """The observer of :func:`walk`'s replay: one :class:`Frame` per step."""

    def __init__(self, walk: Walk) -> None:
        self.walk = walk
        self.rolls: list[str] = []

    def on_choice(self, game, mover, step, face, moves):
        if face is not None:
            self.rolls.append(face)

    def on_step(self, game, mover, step, move, before, after, events):
        variant = self.walk.variant = game.variant  # the game's own: its house rules' moves have words too
        self.walk.frames.append(
            Frame(game.turn, mover, step.name, self.rolls, move, before, after, format_move(variant, move), describe(variant, move), events)
        )
        self.rolls = []


def describe(variant: Any, move: Any) -> str:
    """A move in plain words; the engine's control choices in words too."""
    if isinstance(move, Control):
        return "decline and roll again" if move is REROLL else "decline: end the step without moving"
    return variant.hooks.treehouse_describe_move(move)


def walk(record: Record, plugins: Any) -> Walk:
    """Every recorded choice of ``record`` with the positions around it.

    The frames are collected while :func:`treehouse.kernel.replay.replay`
    plays the record back, which also checks it (a damaged record, or one
    made with other rules, raises :class:`RecordError`).
    """
    start = recorded_start(record, plugins)
    result = Walk(start.variant, start.position)
    collector = _Collector(result)
    game = replay(record, plugins, observer=collector)
    result.trailing_rolls = collector.rolls
    result.outcome = game.outcome
    return result
