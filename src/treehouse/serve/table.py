"""One table: a game played by people in browsers and bots, in its own thread.

The engine is synchronous: a seat's ``choose`` returns the move.  So each
table plays its :class:`~treehouse.kernel.engine.Game` in a thread of its own,
and a person's seat (:class:`BrowserSeat`) waits there for their browser's
answer while the web server (:mod:`treehouse.serve.app`) keeps serving
everyone else.  Everything a page shows is one :meth:`Table.snapshot`, built
from the same hooks and words as ``th play``: the variant's SVG board, a
panel per seat and the picture's legend (as ``th replay --html``'s), every
event in words, the face's meaning (for the mover's page), the menu of moves
with the variant's notes (self-damaging moves marked), an illegal move's
explanation.

A table started from the lobby has an owner's key (its starter closes it with
it, :meth:`Table.end`), its bots held to the host's :class:`BotCaps`, and they
think one at a time with every other lobby table's (:data:`LOBBY_THINKING`).

The record is ``th play``'s: it is written (atomically) before each person's
decision and after every step, and a table read back from its record
(:meth:`Table.resume`) is rebuilt from its seed exactly as ``th play
--resume`` does (:func:`~treehouse.kernel.resume.resume_game`), its story
whole (its takebacks from the record's undone moves).  Beside the record,
``TABLE.tokens.json`` (owner-only) holds the seats' tokens, the owner's key,
the host command's choices (the same command resumes the table rather than
start another) and, once closed for good, why.

Takeback rule (stated on the page, :data:`TAKEBACK_RULE`): a person may take
back their last decision while no other person has decided since; the bots'
moves after it are taken back with it.
"""

from __future__ import annotations

import inspect
import json
import os
import random
import secrets
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from treehouse import __version__
from treehouse.bots.options import bot_name, check_bot_spec, format_bot_spec, make_bot, parse_bot_spec
from treehouse.cli.advice import advise, hint_bot, hint_lines
from treehouse.cli.common import effective_rules, plugins
from treehouse.cli.human import Mistake, TakeBack, moves_where, read_move
from treehouse.cli.menu import Menu
from treehouse.cli.seats import best_bot, default_variant, seat_kinds
from treehouse.cli.session import rewound, write_record
from treehouse.cli.story import event_lines, game_over_line, result_words, roll_line, step_line, when
from treehouse.cli.replay_page import _text_drawing
from treehouse.errors import RecordError, TreehouseError
from treehouse.kernel.engine import Game, format_move
from treehouse.kernel.records import Record
from treehouse.kernel.resume import HUMAN, describe, resume_game, saved_game
from treehouse.plugins import hook_failure
from treehouse.textfiles import FileLock, lock_file, read_text, write_text_atomically

TAKEBACK_RULE = "You may take back your last decision while no other person has decided since; the bots' moves after it are taken back too."
#: Seconds a bot's move stays on screen before the next step (people are watching).
DEFAULT_DELAY = 0.5
#: The most lines of what happened a page is sent (the latest; a long game's whole story is its record).
LOG_SHOWN = 400
#: The suffix of a table's seat tokens, beside its record (readable by the owner only).
TOKENS_SUFFIX = ".tokens.json"


@dataclass(frozen=True)
class BotCaps:
    """The host's caps on the bots of a table started from the lobby (``th serve
    --lobby-max-depth/--lobby-max-seconds``): for any bot that takes the option,
    ``depth`` at most :attr:`depth`, and ``seconds`` (its time limit per move) at most
    :attr:`seconds`, set to it when the spec gives none.  A spec over a cap is refused
    in one line rather than clamped: the seat would not be the bot that was asked for."""

    depth: int = 3
    seconds: float = 2.0

    def apply(self, spec: str) -> str:
        """``spec`` with its time limit set, or :class:`TreehouseError` when it asks more than the caps."""
        if spec == HUMAN:
            return spec
        name, options = parse_bot_spec(spec)
        try:
            taken = inspect.signature(plugins().bots[name].factory).parameters
        except (TypeError, ValueError):
            taken = {}
        how = "th serve --lobby-max-depth and --lobby-max-seconds set them"
        depth = options.get("depth")
        if "depth" in taken and isinstance(depth, (int, float)) and depth > self.depth:
            raise TreehouseError(f"{spec}: this server's tables from the lobby think at most {self.depth} steps deep, not {depth} (the host's caps: {how})")
        seconds = options.get("seconds")
        if "seconds" in taken:
            if isinstance(seconds, (int, float)) and seconds > self.seconds:
                raise TreehouseError(f"{spec}: this server's tables from the lobby think at most {self.seconds:g} s a move, not {seconds:g} (the host's caps: {how})")
            if not seconds:  # none (0): no limit, so the cap is the limit
                options = {**options, "seconds": float(self.seconds)}
        return check_bot_spec(plugins(), format_bot_spec(name, options))


class Stale(Mistake):
    """A message for a decision that is no longer the table's (the page is behind: it gets the board as it is)."""


class TableOver(RecordError):
    """The record's game is over: there is nothing to resume (its table is left as it is)."""


class TableClosed(BaseException):
    """The server is stopping: the waiting seat gives up (its game is saved already)."""


@dataclass
class Decision:
    """A person's pending choice: what they are asked, and where their answer goes."""

    ply: int
    seat: int
    state: Any
    step: Any
    face: str | None
    moves: tuple
    menu: Menu
    explain: Callable[[Any], str | None]
    answered: threading.Event = field(default_factory=threading.Event)
    answer: Any = None


#: What a seat's ``choose`` receives instead of a move when a takeback is asked.
_TAKE_BACK = object()


class BrowserSeat:
    """A person at a browser: ``choose`` offers the decision to the table and waits for the answer."""

    name = HUMAN

    def __init__(self, table: "Table") -> None:
        self.table = table
        self.game: Any = None
        self.index = 0

    def seated(self, game: Any, index: int) -> None:
        self.game, self.index = game, index

    def choose(self, state: Any, step: Any, face: str | None, moves: tuple, rng: random.Random) -> Any:
        table = self.table
        table.save()  # whatever happens next, the game so far is on disk
        if len(moves) == 1:  # the table's story says so (on_choice)
            return moves[0]
        decision = table.offer(self.index, state, step, face, moves)
        while not decision.answered.wait(0.5):
            if table.closed:
                raise TableClosed()
        if table.closed:
            raise TableClosed()
        if decision.answer is _TAKE_BACK:
            raise TakeBack()
        return decision.answer


#: The bots of the lobby's tables think one at a time, all tables together: however many a
#: visitor starts, a person's move anywhere competes with one thinking bot of theirs at most
#: (Python runs one thread at a time anyway; the others' bots wait their turn instead).
LOBBY_THINKING = threading.Semaphore(1)


class TakingTurns:
    """A bot of a lobby's table: it thinks (``choose``) only while holding :data:`LOBBY_THINKING`."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def __getattr__(self, name: str) -> Any:  # its name, seated(), ... are the bot's
        return getattr(self.bot, name)

    def choose(self, state: Any, step: Any, face: str | None, moves: tuple, rng: random.Random) -> Any:
        with LOBBY_THINKING:
            return self.bot.choose(state, step, face, moves, rng)


@dataclass
class LogLine:
    """One line of what happened; ``at`` is the record's length after it (to mark what is new to a seat)."""

    at: int
    text: str
    event: bool = False


class Table:
    """A game at a table (see the module docstring).  Built by :meth:`create` or :meth:`resume`."""

    def __init__(self, table_id: str, folder: Path, kinds: list[str], rule_set: str, delay: float) -> None:
        self.id = table_id
        self.record_path = folder / f"{table_id}.jsonl"
        self.tokens_path = folder / f"{table_id}{TOKENS_SUFFIX}"
        self.kinds = kinds
        self.rule_set = rule_set
        self.delay = delay
        self.tokens: dict[int, str] = {}
        self.game: Game | None = None
        self.check: Any = None
        self.lock = threading.RLock()
        self.hint_lock = threading.Lock()
        self.pending: Decision | None = None
        self.ply = 0
        self.faces: list[str] = []
        self.log: list[LogLine] = []
        #: (index in the record's events, seat) of every decision a person made
        self.decisions: list[tuple[int, int]] = []
        #: the step being played is a person's only move (its story line says so)
        self.forced = False
        #: the takebacks of a resumed record, (where, line), told as the story catches up with them
        self.taken_back: list[tuple[int, str]] = []
        self.last_events: tuple = ()
        self.failure: str | None = None
        self.closed = False
        self.title = ""
        self.thinking: int | None = None
        self.hint_bots: dict[tuple[int, int], Any] = {}
        self.listeners: list[Callable[[], None]] = []
        #: the key of the person who started it from the lobby (closes it), and the choices
        #: a host's command started it with (the same command again resumes it, adds none)
        self.owner: str | None = None
        self.choices: dict[str, Any] | None = None
        #: why it was closed for good (by its owner, or to make room), or None
        self.ended: str | None = None
        #: when a person last answered, or a page was last open (time.monotonic; the hub
        #: notes the pages): a bot's moves alone do not keep a table in use
        self.active = time.monotonic()
        self._lock_file: FileLock | None = None
        self._thread: threading.Thread | None = None

    # -- building ---------------------------------------------------------------

    @classmethod
    def create(
        cls,
        folder: Path,
        *,
        variant: str | None,
        players: int | None,
        seats: list[str],
        bot: str | None,
        seed: int | None,
        overrides: list[str],
        config: Path | None = None,
        delay: float = DEFAULT_DELAY,
        caps: BotCaps | None = None,
        owner: bool = False,
        choices: dict[str, Any] | None = None,
    ) -> "Table":
        """A new table with ``th play``'s choices (raises :class:`TreehouseError`, one line, for a
        bad one); ``caps``: its bots' (a table from the lobby), else as asked (the host's);
        ``owner``: give it an owner's key (:attr:`owner`, a lobby table's, to close it);
        ``choices``: the host's command's, kept to find it again (:meth:`started_by`)."""
        if variant is None and config is None:
            variant = default_variant()
        effective = effective_rules(variant, config, overrides, playing=True)
        game_variant = effective.variant()
        kinds = seat_kinds(game_variant, players, seats, False, bot)
        if caps is not None:
            kinds = [caps.apply(kind) for kind in kinds]
        for kind in kinds:
            if kind != HUMAN:
                factory = plugins().bots[bot_name(kind)].factory
                if not getattr(factory, "ready", lambda v, n: True)(game_variant, len(kinds)):
                    offer = getattr(factory, "offer", None)  # what readies it, in the bot's own words (perfect: th solve)
                    readies = offer(game_variant, len(kinds)) if offer is not None else None
                    raise TreehouseError(f"the {kind} bot cannot sit at a table here: {readies or 'seat another bot'}")
        house_rules = [plugins().house_rule(name, game_variant.name) for name in effective.house_rules]
        if seed is None:
            seed = secrets.randbelow(2**31)
        folder.mkdir(parents=True, exist_ok=True)
        table_id = new_table_id(folder, game_variant.name, seed)
        table = cls(table_id, folder, kinds, effective.name, delay)
        table.tokens = {seat: secrets.token_urlsafe(24) for seat, kind in enumerate(kinds) if kind == HUMAN}
        table.owner = secrets.token_urlsafe(24) if owner else None
        table.choices = choices
        table._claim()
        try:
            # made empty and owner-only first: an atomic write keeps the mode of the file it replaces
            os.close(os.open(table.tokens_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            table._write_tokens()
            live = table._live_seats()
            meta = {"seed": seed, "rule_set": effective.name, "seats": kinds, "treehouse": __version__}
            table.game = Game(
                game_variant, live, random.Random(seed), turn_cap=effective.turn_cap, house_rules=house_rules, record=Record(meta=meta), observer=table
            )
            table.title = f"{game_variant.name} ({effective.name} rules), seed {seed}"
            table.save()
        except BaseException:
            table.release()
            raise
        return table

    @classmethod
    def resume(cls, record_path: Path, delay: float = DEFAULT_DELAY) -> "Table":
        """The unfinished game of ``record_path`` (written by a table), ready to continue where it stopped."""
        old = Record.read(record_path)
        if old.footer is not None:
            raise TableOver(f"{record_path.name}: the game is over")
        saved = saved_game(old, plugins(), record_path.name)
        table = cls(record_path.stem, record_path.parent, saved.seat_kinds, saved.rule_set, delay)
        try:
            data = json.loads(read_text(table.tokens_path, RecordError, "seat tokens"))
            table.tokens = {int(s) - 1: str(t) for s, t in data["seats"].items()}
            table.owner = str(data["owner"]) if data.get("owner") else None
            table.choices = dict(data["choices"]) if data.get("choices") else None
            closed = data.get("closed")
        except (ValueError, KeyError, TypeError, AttributeError):
            raise RecordError(f"{table.tokens_path.name}: not a table's seat tokens") from None
        if closed:
            raise TableOver(f"{record_path.name}: the table was {closed}")
        if sorted(table.tokens) != [s for s, kind in enumerate(saved.seat_kinds) if kind == HUMAN]:
            raise RecordError(f"{table.tokens_path.name} does not give one token per person's seat of {record_path.name}")
        table._claim()
        try:
            table.game, table.check = resume_game(old, saved, table._live_seats(), observer=table, new_record=Record(meta=dict(old.meta), undone=list(old.undone)))
        except BaseException:
            table.release()
            raise
        table.title = f"{saved.variant.name} ({saved.rule_set} rules), seed {saved.seed}"
        # who took back: the seat of the first move taken back (the decision the takeback returned to)
        table.taken_back = sorted(
            ((at, table.takeback_line(next((e[2] for e in events if e[0] == "move"), events[0][2]), events)) for at, events in old.undone if events),
            key=lambda entry: entry[0],
        )
        return table

    def _write_tokens(self) -> None:
        data: dict[str, Any] = {"seats": {str(s + 1): t for s, t in self.tokens.items()}}
        if self.owner:
            data["owner"] = self.owner
        if self.choices:
            data["choices"] = self.choices
        if self.ended:
            data["closed"] = self.ended
        write_text_atomically(self.tokens_path, json.dumps(data), RecordError, "seat tokens")

    def started_by(self, choices: dict[str, Any]) -> bool:
        """Was this table started by a host's command with these choices (a seed left out matches any)?"""
        if self.choices is None or self.ended:
            return False
        ours = dict(self.choices)
        if choices.get("seed") is None:
            ours["seed"] = None
        return ours == choices

    def is_owner(self, key: str | None) -> bool:
        return bool(self.owner and key) and secrets.compare_digest(self.owner.encode(), key.encode())

    def end(self, reason: str) -> None:
        """Close the table for good: its game stops where it is (its record stays, for ``th
        replay``), it is marked so it is never resumed, and its pages are told ``reason``."""
        self.stop()
        self.ended = reason
        try:
            self._write_tokens()
        finally:
            self.release()
        self.pending = None
        self.thinking = None
        self.changed()

    def _claim(self) -> None:
        self._lock_file = lock_file(self.record_path, RecordError, "record")

    def release(self) -> None:
        if self._lock_file is not None:
            self._lock_file.release()
            self._lock_file = None

    def _live_seats(self) -> list[Any]:
        def bot(kind: str) -> Any:
            made = make_bot(plugins(), kind)
            return TakingTurns(made) if self.owner is not None else made  # a lobby's table: its bots take turns

        return [BrowserSeat(self) if kind == HUMAN else bot(kind) for kind in self.kinds]

    # -- who is who -------------------------------------------------------------

    def who(self, seat: int) -> str:
        kind = self.kinds[seat]
        return f"Player {seat + 1}" if kind == HUMAN else f"Player {seat + 1} ({kind})"

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is, or ``None`` (compared in constant time)."""
        if not token:
            return None
        found = None
        for seat, own in self.tokens.items():
            if secrets.compare_digest(own.encode(), token.encode()):
                found = seat
        return found

    @property
    def live(self) -> bool:
        return self.check is None or not self.check.replaying

    # -- saving and telling the pages -------------------------------------------

    def save(self) -> None:
        if self.game is not None and self.game.record is not None and self.live and not self.closed:  # closed: the record is another's to take
            write_record(self.game.record, self.record_path)

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    # -- the game's observer ----------------------------------------------------

    def on_choice(self, game: Game, mover: int, step: Any, face: str | None, moves: tuple) -> None:
        if self.closed:  # stopped or closed for good: no more steps (a table of bots would play on unseen)
            raise TableClosed()
        if face is not None:
            self.faces.append(face)
        self.forced = self.kinds[mover] == HUMAN and len(moves) == 1  # also as a resumed game catches up
        if self.kinds[mover] == HUMAN and len(moves) > 1:
            self.decisions.append((len(game.record.events), mover))
        elif self.kinds[mover] != HUMAN and moves and self.live:
            self.thinking = mover
            self.changed()

    def _tell_takebacks(self, before: int) -> None:
        """Put the resumed record's takebacks made before event ``before`` into the story."""
        with self.lock:
            while self.taken_back and self.taken_back[0][0] < before:
                at, text = self.taken_back.pop(0)
                self.log.append(LogLine(at, text))

    def on_step(self, game: Game, mover: int, step: Any, move: Any, before: Any, after: Any, events: tuple) -> None:
        faces, self.faces = self.faces, []
        forced, self.forced = self.forced, False
        at = len(game.record.events)
        self._tell_takebacks(before=at)
        if not self.log or at > self.log[-1].at:  # a resumed game's steps are logged once, as it catches up
            line = step_line(game, step, self.who(mover), faces, move)
            if forced:
                line += " (the only move, played by itself)"
            with self.lock:
                self.log.append(LogLine(at, line))
                self.log.extend(LogLine(at, text.strip(), event=True) for text in event_lines(events))
        self.last_events = events
        if not self.live:
            return
        self.thinking = None
        self.save()
        self.changed()
        if self.delay and self.kinds[mover] != HUMAN:
            time.sleep(self.delay)

    # -- a person's decision ----------------------------------------------------

    def offer(self, seat: int, state: Any, step: Any, face: str | None, moves: tuple) -> Decision:
        """Put a person's decision on the table and tell every page."""
        hooks = self.game.hooks
        variant = self.game.variant

        def explain(move: Any) -> str | None:
            try:
                return hooks.treehouse_explain_illegal(state, step, face, move, moves)
            except Exception:  # a plugin's explanation failing must not end the game: say less
                return None

        menu = Menu(variant, state, moves, variant.move_notes(state, step, moves, hooks))
        with self.lock:
            self.ply += 1
            self.thinking = None
            self.pending = Decision(self.ply, seat, state, step, face, moves, menu, explain)
            decision = self.pending
        self.changed()
        return decision

    def play(self, seat: int, ply: int, index: int | None, notation: str | None) -> None:
        """Answer the pending decision for ``seat`` (a move by its index, or typed);
        :class:`Mistake` (one line) when it is not this seat's turn or the move is not legal."""
        with self.lock:
            decision = self._decision_for(seat, ply)
            if index is not None:
                if not 0 <= index < len(decision.moves):
                    raise Mistake(f"there is no move {index}: the moves are numbered from 0 to {len(decision.moves) - 1}")
                move = decision.moves[index]
            else:
                move = read_move(notation or "", self.game.variant, decision.moves, decision.explain, moves_where(decision.step, decision.face))
            self._answer(decision, move)

    def _decision_for(self, seat: int, ply: int) -> Decision:
        decision = self.pending
        if self.game is None or self.game.over:
            raise Mistake("the game is over")
        if decision is None:
            raise Mistake("no one can move now: wait for the bots")
        if decision.seat != seat:
            raise Mistake(f"it is {self.who(decision.seat)}'s turn, not yours")
        if decision.ply != ply:
            raise Stale("that move was for an earlier position; here is the board as it is now")
        return decision

    def _answer(self, decision: Decision, answer: Any) -> None:
        self.active = time.monotonic()
        self.pending = None
        decision.answer = answer
        decision.answered.set()

    def _made_decisions(self) -> list[tuple[int, int]]:
        """The people's decisions made so far (not the one being made), as (index in the record, seat)."""
        now = len(self.game.record.events)
        return [entry for entry in self.decisions if entry[0] < now]

    def takeback_seat(self) -> int | None:
        """The seat that may take back now (:data:`TAKEBACK_RULE`), or ``None``."""
        with self.lock:
            if self.pending is None or self.game is None:
                return None
            made = self._made_decisions()
            return made[-1][1] if made else None

    def take_back(self, seat: int) -> None:
        """Take back ``seat``'s last decision (the game thread rewinds); :class:`Mistake` if the rule forbids it."""
        with self.lock:
            allowed = self.takeback_seat()
            if allowed is None:
                raise Mistake("nothing to take back now" if self.pending is not None else "wait for the bots before taking back")
            if allowed != seat:
                raise Mistake(f"only {self.who(allowed)} can take back now: {TAKEBACK_RULE}")
            self._answer(self.pending, _TAKE_BACK)

    def hint(self, seat: int, ply: int) -> list[str]:
        """What the strongest ready bot would play at ``seat``'s decision (run off the event loop: a search takes a while)."""
        with self.lock:
            decision = self._decision_for(seat, ply)
            game = self.game
        with self.hint_lock, LOBBY_THINKING if self.owner is not None else nullcontext():  # a lobby's: its turn, as its bots
            key = (id(game), seat)
            if key not in self.hint_bots:
                self.hint_bots[key] = hint_bot(plugins(), best_bot(game.variant, len(game.seats)), game, seat)
            hint = advise(self.hint_bots[key], decision.state, decision.step, decision.face, decision.moves)
        variant = game.variant
        return hint_lines(hint, decision.moves, lambda move, short=False: format_move(variant, move) if short else describe(variant, move), variant.score_unit())

    def takeback_line(self, seat: int, undone: list[tuple]) -> str:
        """The story's line for ``seat``'s takeback of the events ``undone``."""
        taken = sum(1 for event in undone if event[0] == "move")
        return f"{self.who(seat)} took back {taken} move{'s' if taken != 1 else ''}: back to {when(undone[0][1]).lower()}."

    def _rewind(self) -> None:
        """Back to the decision being taken back, rebuilt from the seed (as ``th play``'s takeback)."""
        record = self.game.record
        cut, seat = self._made_decisions()[-1]
        with self.lock:
            self.decisions, self.faces, self.forced, self.hint_bots = [], [], False, {}
            self.log = [line for line in self.log if line.at <= cut]
            self.log.append(LogLine(cut, self.takeback_line(seat, record.events[cut:])))
            self.game, self.check = rewound(record, cut, self._live_seats(), self)

    # -- playing ----------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"table {self.id}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            while not self.game.over:
                try:
                    self.game.play_turn()
                except TakeBack:
                    self._rewind()
            self.save()
        except TableClosed:
            return
        except TreehouseError as error:
            self.failure = str(error)
        except Exception as error:  # a plugin's bug: one line on the page, the record kept as it was saved
            failure = hook_failure(error)
            self.failure = str(failure) if failure is not None else f"{type(error).__name__}: {error}"
        self.pending = None
        self.thinking = None
        self.changed()

    def stop(self) -> None:
        """No more steps or writes: a person's seat waiting for an answer gives up at once."""
        self.closed = True
        decision = self.pending
        if decision is not None:
            decision.answered.set()

    def close(self, wait: float = 0.5) -> None:
        """:meth:`stop`, wait up to ``wait`` seconds for the thread (a bot thinking
        cannot be interrupted: its daemon thread ends with the process), release the record."""
        self.stop()
        if self._thread is not None:
            self._thread.join(timeout=wait)
        self.release()

    # -- what a page shows --------------------------------------------------------

    def result_line(self) -> str | None:
        game = self.game
        if game is None or game.outcome is None:
            return None
        return game_over_line(result_words(game.outcome, self.who), game.turn, game.outcome.reason, self.last_events)

    def board(self) -> dict[str, str]:
        """The board as the variant's SVG, or its terminal drawing as text when it draws none."""
        hooks, state = self.game.hooks, self.game.state
        svg = hooks.treehouse_render_svg(state)
        if svg:
            return {"svg": svg}
        return {"text": _text_drawing(hooks, state)}

    def snapshot(self) -> dict[str, Any]:
        """Everything every page shows, as JSON-ready data (the same for every viewer: no tokens in it)."""
        if self.taken_back and self.live:  # a takeback was the record's last word: the story is caught up now
            self._tell_takebacks(before=len(self.game.record.events) + 1)
        with self.lock:
            game = self.game
            decision = self.pending
            status = {"over": self.result_line(), "failure": self.failure, "ended": self.ended}
            data: dict[str, Any] = {
                "type": "state",
                "table": self.id,
                "title": self.title,
                "rule_set": self.rule_set,
                "seats": self.seats(),
                "header": self.header(decision),
                "board": self.board(),
                "legend": self.legend(),
                "log": [{"at": line.at, "text": line.text, "event": line.event} for line in self.log[-LOG_SHOWN:]],
                "last_decision": {str(seat + 1): at for at, seat in self._made_decisions()},
                "takeback_rule": TAKEBACK_RULE,
                "takeback_seat": None,
                "thinking": self.who(self.thinking) if self.thinking is not None else None,
                "decision": None,
                **status,
            }
            if decision is not None:
                allowed = self.takeback_seat()
                data["takeback_seat"] = allowed + 1 if allowed is not None else None
                data["decision"] = {
                    "ply": decision.ply,
                    "seat": decision.seat + 1,
                    "roll": roll_line(game.hooks, self.faces, decision.step, decision.face, decision.menu),
                    "roll_seen": self.roll_seen(decision),
                    "entries": menu_entries(decision.menu),
                }
            return data

    def header(self, decision: Decision | None) -> str:
        """Where the game is and who may act now: a seat only while it has a choice to make
        (the moves that need none, and the bots' pauses, name no one)."""
        game = self.game
        if self.ended:
            return "Closed"
        if game.outcome is not None:
            return "Game over"
        if self.failure:
            return "Stopped"
        if decision is not None:
            step = "" if decision.step.name == "act" else f" · {decision.step.name}"
            return f"{when(game.turn)}{step} · {self.who(decision.seat)} to move"
        if self.thinking is not None:
            return f"{when(game.turn)} · {self.who(self.thinking)} is thinking"
        return f"{when(game.turn)} · playing on: no one is choosing"

    def roll_seen(self, decision: Decision) -> str:
        """The decision's roll as the other pages say it: whose it is, without the face's
        meaning (the variant words it to the mover: "your Stack")."""
        who = self.who(decision.seat)
        earlier = self.faces[:-1] if decision.face is not None else self.faces
        line = f"{who} rolled {', '.join(earlier)} first (nothing to do, or declined), then rolled again. " if earlier else ""
        if decision.face is None:
            return f"{line}{who} is choosing."
        verb = "drew" if getattr(decision.step, "setup", False) else "rolled"
        return f"{line}{who} {verb} {decision.face} and is choosing."

    def seats(self) -> list[dict[str, Any]]:
        """Each seat: who sits there, whether it is out, and the variant's panel of it (the replay page's)."""
        variant, state = self.game.variant, self.game.state
        try:
            out = set(variant.seats_out(state))
        except Exception:  # a plugin's hook failing must not stop the page: say less
            out = set()
        seats = []
        for seat, kind in enumerate(self.kinds):
            try:
                panel = [[str(label), str(value)] for label, value in variant.seat_panel(state, seat)]
            except Exception:
                panel = []
            seats.append({"number": seat + 1, "name": self.who(seat), "kind": kind, "out": seat in out, "panel": panel})
        return seats

    def legend(self) -> str:
        """What the picture's symbols mean (the variant's words, as on the replay page)."""
        try:
            return self.game.variant.picture_legend() or ""
        except Exception:
            return ""


def menu_entries(menu: Menu) -> list[dict[str, Any]]:
    """The menu's first question, each entry with the moves it stands for (a split move's second question as its parts)."""
    index = {move: i for i, move in enumerate(menu.moves)}
    entries = []
    for entry in menu.first:
        if len(entry.moves) > 1:
            menu.open(entry)
            parts = [{"index": index[e.moves[0]], "words": e.words, "notation": e.notation} for e in menu.entries]
            menu.back()
        else:
            parts = [{"index": index[entry.moves[0]], "words": entry.words, "notation": entry.notation}]
        noted = any(menu.notes.get(move) for move in entry.moves)  # the variant's note: what the move costs the mover
        entries.append({"words": entry.words, "notation": entry.notation, "moves": parts, "warning": noted})
    return entries


def new_table_id(folder: Path, variant: str, seed: int) -> str:
    """A fresh name for a table and its record: when, what and which seed (never from a client)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = f"{stamp}-{variant}-{seed}"
    name, number = base, 1
    while (folder / f"{name}.jsonl").exists() or (folder / f"{name}{TOKENS_SUFFIX}").exists():
        number += 1
        name = f"{base}-{number}"
    return name


def unfinished_records(folder: Path) -> list[Path]:
    """The records in ``folder`` with a seat-tokens file beside them (tables), finished or not; the caller tries each."""
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.glob("*.jsonl") if (folder / f"{path.stem}{TOKENS_SUFFIX}").is_file())
