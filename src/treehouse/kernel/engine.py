"""The turn engine: one game, played one turn at a time.

The whole flow of a turn is :meth:`Game._play_turns`.  For each step of the
turn (most games have one; Fences has three) it

1. rolls the die, if the step rolls (a chance node);
2. lists the legal moves for that face (none: roll again);
3. lets the seat choose one;
4. applies it (the variant may say what the move did, as an :class:`Applied`);
5. resolves what follows from it, given what the move did (the variant may
   report what happened, as a :class:`Resolved` with its events);
6. hands the step and its events to the observer and the record;
7. checks the outcome,

and then hands the turn on (a step after which another seat is to move
ends the turn early: :func:`~treehouse.kernel.turn.turn_cut_short`).  Every one of those steps is a hook
(:mod:`treehouse.hookspecs`), so a variant or a house rule can change it; the
engine itself knows no game.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Protocol, Sequence

from treehouse.errors import PluginError, TreehouseError
from treehouse.kernel.die import Die
from treehouse.kernel.hooks import KernelDefaults, game_hooks
from treehouse.kernel.records import Record
from treehouse.kernel.seats import Seat, seat_in
from treehouse.kernel.turn import (  # noqa: F401  (re-exported: the engine is where callers look first)
    ONE_ROLLED_STEP,
    PASS,
    REROLL,
    Applied,
    Control,
    Looks,
    Outcome,
    Resolved,
    Step,
    describe_event,
    format_move,
    look_moves,
    parse_move,
    play_move,
    turn_cut_short,
)
from treehouse.kernel.variant import Variant

__all__ = [
    "Applied", "Control", "Game", "GameObserver", "KernelDefaults", "MAX_ROLLS_PER_STEP", "ONE_ROLLED_STEP", "Outcome", "PASS", "REROLL",
    "Resolved", "Step", "describe_event", "format_move", "parse_move", "play_move", "turn_cut_short",
]

#: Rolls in a row that may give nothing to do before the engine calls the variant broken.
MAX_ROLLS_PER_STEP = 1000


def _raised_in(error: BaseException, function: Any) -> bool:
    """Did ``error`` pass through ``function``'s code on its way up?"""
    code = getattr(function, "__code__", None)
    traceback = error.__traceback__
    while traceback is not None:
        if traceback.tb_frame.f_code is code:
            return True
        traceback = traceback.tb_next
    return False


class GameObserver(Protocol):
    """Watches a game step by step (the playtest runner counts with one).

    ``on_choice`` is called for every roll or step with the legal moves it
    offered (empty: the face is rerolled); ``on_step`` after every step is
    applied and resolved, with the step's ``events`` (what the variant's
    ``treehouse_resolve`` reported happened; ``()`` when it reported
    nothing).  A ``REROLL`` choice shows as a further ``on_choice``.
    """

    def on_choice(self, game: Game, mover: int, step: Step, face: str | None, moves: tuple) -> None: ...

    def on_step(self, game: Game, mover: int, step: Step, move: Any, before: Any, after: Any, events: tuple) -> None: ...


class Game:
    """One game of one variant between seats, driven by one seeded ``random.Random``.

    ``rng`` is the game's one source of chance: the setup and the dice draw
    from it, and each seat gets its own stream derived from it first, so a
    bot's thinking never shifts the dice a person sees.
    """

    def __init__(
        self,
        variant: Variant,
        seats: Sequence[Seat],
        rng: random.Random,
        *,
        turn_cap: int | None = None,
        house_rules: Sequence[Any] = (),
        record: Record | None = None,
        hooks: Any = None,
        observer: GameObserver | None = None,
    ) -> None:
        lo, hi = variant.player_range()
        if not lo <= len(seats) <= hi:
            raise TreehouseError(f"{variant.name} is played by {lo} to {hi} players, not {len(seats)}")
        self.seats = tuple(seats)
        self.hooks = hooks if hooks is not None else game_hooks(variant, house_rules)
        # The variant object the hooks hold, so that what it is asked directly
        # (notation, descriptions) goes through the game's hooks, house rules included.
        self.variant = getattr(self.hooks, "variant", None) or variant
        self.turn_cap = turn_cap
        # Each seat gets its own stream, drawn first; the setup and then the dice
        # use ``rng`` itself.  So what a bot draws never shifts the dice.
        self.seat_rngs = tuple(random.Random(rng.getrandbits(64)) for _ in self.seats)
        self.dice_rng = rng
        try:
            self.state = self.hooks.treehouse_setup(variant, len(self.seats), rng)
        except TreehouseError:
            raise
        except Exception as error:  # a plugin's bug (or a stub not written yet): name it in one line
            raise self.hooks.blame(error) from error
        self._check_position(self.state, "treehouse_setup")
        self.turn = 0
        self.outcome: Outcome | None = None
        self.record = record
        self.observer = observer
        self._bind_defaults()
        #: True until the setup phase is played (a variant's seats choosing before
        #: turn 1: Fences' draws and placings); only variants with setup steps have one.
        self.setting_up = "treehouse_setup_step" not in self.hooks.kernel_only
        if record is not None:
            record.start(self.variant, self.seats, self.state, turn_cap, getattr(self.hooks, "house_rule_specs", []))
        for index, seat in enumerate(self.seats):
            seat_in(seat, self, index)

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def play(self) -> Outcome:
        """Play turns until the game ends (a win, a tie, or the turn cap)."""
        if self.outcome is None:
            if self.setting_up:
                self.play_setup()
            self._play_turns(whole_game=True)
        return self.outcome

    def play_turn(self) -> Outcome | None:
        """Play one whole turn and return the outcome if the game ended.

        The first call of a game whose variant has a setup phase plays the
        whole setup instead (:meth:`play_setup`) and returns ``None``."""
        if self.outcome is not None:
            raise TreehouseError("the game is over")
        if self.setting_up:
            self.play_setup()
            return None
        return self._play_turns(whole_game=False)

    def _play_turns(self, whole_game: bool) -> Outcome | None:
        """The flow of a turn: one turn, or (``whole_game``) every turn to the
        end of the game in this one frame, which is a simulation's hot loop.
        Returns the outcome if the game ended."""
        hooks, observer = self.hooks, self.observer
        roll_and_choose = self._roller()
        apply_move, resolve, outcome_of, end_turn = hooks.treehouse_apply_move, self._resolve, hooks.treehouse_outcome, hooks.treehouse_end_turn
        events, default_steps, turn_cap = self._events, self._default_steps, self.turn_cap
        state = self.state
        while True:
            try:
                mover = state.to_move
            except AttributeError:  # checked here, where it costs nothing until it fails
                raise hooks.wrong_answer("treehouse_end_turn", state, "a position with to_move") from None
            self.turn = turn = self.turn + 1
            try:
                for step in default_steps or hooks.treehouse_turn_steps(state):
                    before = state
                    move = roll_and_choose(before, step, mover)  # 1. roll, 2. legal moves, 3. choose
                    if move is None:
                        continue  # a step without a roll had nothing to do
                    # 4. apply the move, 5. resolve its consequences (play_move, inline: the hot loop)
                    effect = None
                    if move is PASS:
                        after = before
                    else:
                        after = apply_move(before, step, move)
                        if type(after) is Applied:
                            after, effect = after
                    step_events = ()
                    if resolve is not None:
                        after = resolve(after, before, step, move, effect)
                        if type(after) is Resolved:
                            after, step_events = after
                    self.state = state = after
                    # 6. tell the record and the observer what happened
                    if step_events and events is not None:
                        events.append(("resolved", turn, mover, step.name, step_events))
                    if observer is not None:
                        observer.on_step(self, mover, step, move, before, after, step_events)
                    # 7. check the outcome
                    outcome = outcome_of(after, mover)
                    if outcome is not None:
                        return self._finish(outcome)
                    if after.to_move != mover:  # the variant ended the turn here (turn_cut_short)
                        break
                else:
                    self.state = state = end_turn(state)
            except TreehouseError:
                raise
            except Exception as error:  # a plugin's bug: name the plugin in one line, chain the traceback
                failure = self._failure(error, mover)
                if failure is error:
                    raise
                if locals().get("after", 0) is None and not _raised_in(error, type(self.seats[mover]).choose):
                    # a hook tripped over a missing position: blame the one that gave it
                    applied = before if move is PASS else apply_move(before, step, move)  # hooks are pure: asking again is safe
                    hook = "treehouse_apply_move" if applied is None else "treehouse_resolve"
                    raise hooks.wrong_answer(hook, None, "the position after the move") from error
                raise failure from error
            if turn_cap is not None and turn >= turn_cap:
                return self._finish(Outcome((), "turn cap"))
            if not whole_game:
                return None

    def play_setup(self) -> None:
        """Play the setup phase: the steps before turn 1 in which seats choose
        (Fences: each draws a small blind and places it).

        The variant names each step (``treehouse_setup_step``, ``None`` when
        the setup is over) and its seat (``to_move``).  A step is played as a
        turn's step is, through the same hooks: its chance node is rolled if it
        rolls, the seat chooses among the legal moves, the move is applied; the
        observer sees it and the record keeps it (as turn 0), so setup choices
        replay and resume like any move.  There is no resolve and no outcome
        check: the setup is not play.  It runs once, before the first turn, so
        the turns' loop never pays for it."""
        hooks, observer = self.hooks, self.observer
        roll_and_choose = self._roller()
        while not self.over:
            before = self.state
            mover = before.to_move
            try:
                step = hooks.treehouse_setup_step(before)
                if step is None:
                    break
                move = roll_and_choose(before, step, mover)
                if move is None or isinstance(move, Control):
                    raise PluginError(f"variant {self.variant.name}: setup step {step.name!r} offers seat {mover + 1} no move")
                after = hooks.treehouse_apply_move(before, step, move)
                if type(after) is Applied:
                    after = after.state  # what the move did matters to resolve only, and the setup is not resolved
                if after == before:
                    raise PluginError(f"variant {self.variant.name}: setup step {step.name!r} left the position unchanged")
            except TreehouseError:
                raise
            except Exception as error:
                failure = self._failure(error, mover)
                if failure is error:
                    raise
                raise failure from error
            self.state = after
            if observer is not None:
                observer.on_step(self, mover, step, move, before, after, ())
        self.setting_up = False

    def _failure(self, error: Exception, mover: int) -> BaseException:
        """What an exception raised while ``mover`` played a step becomes: the
        observer's own complaint as it is, a seat's or a plugin's bug as one
        line naming it (the caller chains the traceback; a turn's caller first
        looks for a hook that gave no position)."""
        observer = self.observer
        if observer is not None and (_raised_in(error, type(observer).on_step) or _raised_in(error, type(observer).on_choice)):
            return error  # the observer's own complaint (a test's, say): not a plugin's bug
        seat = self.seats[mover]
        if _raised_in(error, type(seat).choose):
            return PluginError(f"seat {mover + 1} ({seat.name}) failed: {type(error).__name__}: {error}")
        return self.hooks.blame(error)

    def _roller(self) -> Callable[[Any, Step, int], Any]:
        """``roll_and_choose(state, step, mover)``: roll (if the step rolls)
        until a face gives something to do, and return the seat's choice;
        ``None`` when a step without a roll has no move.

        Built once per call of :meth:`_play_turns` or :meth:`play_setup`, with
        everything it reads from the game bound here, so that each step costs
        one call (the observer and the record are read now: they are set
        before play)."""
        hooks, events, observer, seats, seat_rngs = self.hooks, self._events, self.observer, self.seats, self.seat_rngs
        legal_moves, choose_move, seat_chooses = hooks.treehouse_legal_moves, hooks.treehouse_choose_move, self._seat_chooses
        fair_faces, die_roll, dice_rng = self._fair_faces, self._die_roll, self.dice_rng
        dice_random = dice_rng.random
        game = self

        def roll_and_choose(state: Any, step: Step, mover: int) -> Any:
            rolls, rolled = step.rolls, 0
            while True:
                face = None
                if rolls:
                    if fair_faces is not None:  # the fair die's roll (Die.roll), inline: the hot loop
                        face = fair_faces[int(dice_random() * len(fair_faces))]
                    elif die_roll is not None:
                        face = die_roll(dice_rng)
                    else:  # the chance node, then one outcome drawn from it
                        chance = hooks.treehouse_chance(state, step)
                        face = hooks.treehouse_roll(state, step, chance, dice_rng)
                        if all(face != outcome for outcome, _ in chance):  # a plugin's roll (only then: the kernel's is on the die)
                            raise hooks.wrong_answer("treehouse_roll", face, f"one of the chance node's outcomes ({', '.join(str(o) for o, _ in chance)})")
                    if events is not None:
                        events.append(("roll", game.turn, mover, step.name, face))
                moves = legal_moves(state, step, face)
                if observer is not None:
                    observer.on_choice(game, mover, step, face, moves)
                if moves:
                    seat = seats[mover]
                    if seat_chooses:
                        move = seat.choose(state, step, face, moves, seat_rngs[mover])
                    else:
                        move = choose_move(state, step, face, moves, seat, seat_rngs[mover])
                    if move not in moves:
                        raise PluginError(f"seat {mover + 1} ({seat.name}) chose {move!r}, which is not a legal move")
                    if events is not None:
                        events.append(("move", game.turn, mover, step.name, move))
                    if move is not REROLL:
                        return move
                elif not rolls:
                    return None
                # nothing can be done with this face, or the seat chose to roll again: roll again, within reason
                rolled += 1
                if rolled == MAX_ROLLS_PER_STEP:
                    if not isinstance(moves, (tuple, list)):
                        raise hooks.wrong_answer("treehouse_legal_moves", moves, "a tuple of moves")
                    raise PluginError(f"variant {game.variant.name}: {MAX_ROLLS_PER_STEP} rolls in a row left nothing to play")

        return roll_and_choose

    def _bind_defaults(self) -> None:
        """Where only the kernel answers a hook, run its default without a call
        through the hooks (the answer is the same; the hot loop is shorter)."""
        hooks, inline = self.hooks, self.hooks.kernel_only
        self._default_steps = ONE_ROLLED_STEP if "treehouse_turn_steps" in inline else None
        self._resolve = None if "treehouse_resolve" in inline else hooks.treehouse_resolve
        # The die's own chance node and roll: the die rolls itself, as the kernel's default would.
        self._die_roll = self.variant.die.roll if {"treehouse_chance", "treehouse_roll"} <= inline else None
        die = self.variant.die if self._die_roll is not None else None
        self._fair_faces = die.faces if type(die) is Die and die.weights is None else None  # Die.roll's fair case, inlined
        self._seat_chooses = "treehouse_choose_move" in inline
        # The engine writes events straight into the record's list: this is the hot loop.
        self._events = self.record.events if self.record is not None else None

    def _check_position(self, state: Any, hook: str) -> None:
        """Once per game: a position the kernel can use (it reads ``to_move``)."""
        to_move = getattr(state, "to_move", None)
        if type(to_move) is not int or not 0 <= to_move < len(self.seats):
            raise self.hooks.wrong_answer(hook, state, f"a position whose to_move is a seat from 0 to {len(self.seats) - 1}")

    def _finish(self, outcome: Outcome) -> Outcome:
        winners = getattr(outcome, "winners", None)
        if not isinstance(winners, tuple) or not isinstance(getattr(outcome, "reason", None), str) or any(
            type(seat) is not int or not 0 <= seat < len(self.seats) for seat in winners
        ):
            raise self.hooks.wrong_answer("treehouse_outcome", outcome, f"an Outcome whose winners are seats from 0 to {len(self.seats) - 1}")
        self.outcome = outcome
        if self.record is not None:
            self.record.end(self.turn, outcome, self.state)
        return outcome
