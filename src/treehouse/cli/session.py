"""One game of ``th play`` at the terminal: the seats' table, its saving, takeback, hints and the story.

The :class:`Session` is the :class:`~treehouse.cli.human.Table` every
person's seat asks to draw the screen (its drawing half is
:class:`~treehouse.cli.screen.Screen`) and the game's observer: it tells the
story of every step (:mod:`treehouse.cli.story`), saves the record before
each decision, rebuilds the game from its seed to take a move back, and
asks the strongest ready bot for hints.
"""

from __future__ import annotations

import textwrap
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from treehouse.cli.advice import advise, hint_bot, hint_lines
from treehouse.cli.common import plugins, shown_path
from treehouse.cli.human import TakeBack
from treehouse.cli.menu import Menu
from treehouse.cli.screen import ENDING_ROWS, Screen
from treehouse.cli.seats import best_bot, build_seat
from treehouse.cli.story import event_lines, game_over_line, result_words, step_line, story_lines
from treehouse.errors import RecordError, printable
from treehouse.kernel.engine import Game
from treehouse.kernel.records import Record
from treehouse.kernel.resume import HUMAN, describe


def write_record(record: Record, path: Path) -> Path:
    """Write the whole record, making its folder first (atomically: a crash never leaves half a file)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RecordError(f"cannot write the record to {path}: {error.strerror or error}") from None
    return record.write(path)

def rewound(record: Record, cut: int, live: list[Any], observer: Any) -> tuple[Game, Any]:
    """The game of ``record`` taken back to its event ``cut`` (a person's decision), rebuilt from
    its seed (as ``--resume`` does, so the dice and every bot's stream are exactly where they
    were) with ``live`` seats; the moves taken back stay in the new record, marked undone."""
    from treehouse.kernel.resume import resume_game, saved_game

    kept = Record(meta=record.meta, header=record.header, events=record.events[:cut])
    saved = saved_game(kept, plugins())
    again = Record(meta=dict(record.meta), undone=[*record.undone, (cut, list(record.events[cut:]))])
    return resume_game(kept, saved, live, observer=observer, new_record=again)


def took_back_line(events: list) -> str:
    """``Took back 3 moves: back to turn 5.`` for the record's ``events`` taken back."""
    taken = sum(1 for event in events if event[0] == "move")
    return f"Took back {taken} move{'s' if taken != 1 else ''}: back to turn {events[0][1]}."


class Session(Screen):
    """One game at the terminal: draws it, saves it, rewinds it, and reports the bots' moves.

    It is the :class:`~treehouse.cli.human.Table` every person's seat asks to
    draw the screen.  With ``screen`` (a terminal, unless ``--plain``) each
    decision clears the terminal and draws one steady screen: the step's
    header, the board, the moves since your last decision, the roll and a
    page of moves, fitted to the terminal's size.  Without it (pipes, screen
    readers, tests) everything is printed one after the other, a transcript.
    """

    def __init__(
        self,
        console: Console,
        *,
        kinds: list[str],
        rule_set: str,
        description: str,
        rows: list[tuple[str, Any, str]],
        delay: float,
        watch: bool,
        record_path: Path,
        screen: bool = False,
        auto_forced: bool = True,
        show_odds: bool = False,
    ) -> None:
        self.console = console
        self.kinds = kinds
        self.rule_set = rule_set
        self.description = description
        self.rows = rows
        self.delay = delay
        self.watch = watch
        self.record_path = record_path
        self.screen = screen
        self.auto_forced = auto_forced
        self.show_odds = show_odds
        self.game: Game | None = None
        self.check: Any = None  # the ResumeCheck of a resumed (or rewound) game
        self.faces: list[str] = []
        #: The story since a person last decided: every step and event of every seat (the steady screen shows it).
        self.recent: list[str] = []
        #: Everything said in this session, for the log (``g``).
        self.log: list[str] = []
        #: The steps of a resumed game's recorded part, told again from its record (the log's start, ``g``).
        self.history: list[str] = []
        #: Tell the recorded part of the game into ``history`` as it is played back (a resumed game, not a takeback).
        self.tell_history = False
        self.told_takebacks: set[int] = set()  # the record's takebacks already in the history
        #: the events of the last step played (the game-over line says how the last Stack fell)
        self.last_events: tuple = ()
        #: Where each person's decision stands in the record's events (for takeback).
        self.decisions: list[int] = []
        self.forced_move: Any = None
        #: A resumed game whose first live choice has not come yet (then the turn it was saved on is said)
        self.resumed = False
        self.odds: Any = None  # the perfect bot that says the winning chances (--show-odds)
        #: The bot that gives hints, per (game, seat): a takeback builds a new game, so a new key.
        self.hint_bots: dict[tuple[int, int], Any] = {}

    @property
    def live(self) -> bool:
        """False while a resumed game is still re-deriving its recorded part."""
        return self.check is None or not self.check.replaying

    def who(self, seat: int) -> str:
        kind = self.kinds[seat]
        humans = self.kinds.count(HUMAN)
        if kind == HUMAN:
            return f"Player {seat + 1} (you)" if humans == 1 else f"Player {seat + 1}"
        return f"Player {seat + 1} ({kind})"

    def save(self) -> str:
        if self.game is None or self.game.record is None or not self.live:
            return shown_path(str(self.record_path))
        write_record(self.game.record, self.record_path)
        return shown_path(str(self.record_path))

    def say(self, line: str) -> None:
        """Print one line of what happened (a move, an announcement); the steady screen shows the last few."""
        self.console.print(line, markup=False)
        self.recent.append(line)
        self.log.append(line)

    def hint(self, seat: int, state: Any, step: Any, face: str | None, menu: Menu) -> str:
        """What the strongest ready bot would play here, and each move's value where it says."""
        game = self.game
        key = (id(game), seat)
        if key not in self.hint_bots:
            self.hint_bots[key] = hint_bot(plugins(), best_bot(game.variant, len(game.seats)), game, seat)
        hint = advise(self.hint_bots[key], state, step, face, menu.moves)
        variant = game.variant
        pages = self._pages(menu, self._board_lines(self._board()) + self._extra_roll_lines) if self.screen else None
        where, words = self._typed(menu, pages), {}
        for entry in menu.first:
            for move in entry.moves:
                if len(entry.moves) == 1:
                    words[move] = describe(variant, move)
                else:
                    words[move] = f"{entry.words}, then {menu.parts[menu.moves.index(move)][1]}"

        def label(move: Any, short: bool = False) -> str:
            return where.get(move, "?") if short else f"{where.get(move, '?')} ({words.get(move, '')})"

        ranked = sorted((i for i in range(len(menu.moves)) if menu.moves[i] != hint.move), key=lambda i: -hint.values[i]) if hint.values else []
        next_best = menu.moves[ranked[0]] if ranked else None  # the first of the hint's "Next best"
        try:
            reason = variant.hint_reason(state, step, face, hint.move, game.hooks, next_best=next_best)
        except Exception:  # a plugin's reason failing must not end the game: the hint says less
            reason = ""
        return "\n".join(hint_lines(hint, menu.moves, label, variant.score_unit(), printable(reason or "")))

    @staticmethod
    def _typed(menu: Menu, pages: list | None) -> dict:
        """For each move, what to type to play it from the question on screen:
        ``4``, ``4 then 2`` (a WILD action, then its order), ``b, then 4 then 2``
        from the second question, with the page it is on when it is not this one."""

        def on_page(number: int) -> str:
            if not pages or len(pages) == 1:
                return ""
            page = next(i for i, p in enumerate(pages) if p.start < number <= p.start + p.count)
            return "" if page == menu.page else f" (page {page + 1})"

        where = {}
        if menu.second_question:
            for number, entry in enumerate(menu.entries, start=1):
                where[entry.moves[0]] = f"{number}{on_page(number)}"
        for number, entry in enumerate(menu.first, start=1):
            back = "b, then " if menu.second_question else ""
            for second, move in enumerate(entry.moves, start=1):
                if move in where:
                    continue
                here = "" if menu.second_question else on_page(number)
                where[move] = f"{back}{number}{here}" if len(entry.moves) == 1 else f"{back}{number}{here} then {second}"
        return where

    def take_back(self, seat: int) -> str:
        """Raise :class:`TakeBack` to rewind to the previous decision a person made; else say why not."""
        now = len(self.game.record.events)
        if not any(index < now for index in self.decisions):
            return "✗ nothing to take back: this is the first decision a person makes in this game"
        raise TakeBack()

    def rewind(self) -> None:
        """Take the game back to the last decision a person made before the current one.

        The game is built again from its seed and the record up to that
        decision (as ``--resume`` does, so the dice and every bot's stream
        are exactly where they were); the moves taken back stay in the new
        record, marked undone.
        """
        game = self.game
        record = game.record
        now = len(record.events)
        cut = max(index for index in self.decisions if index < now)
        humans = self.kinds.count(HUMAN)
        live = [build_seat(kind, self, self.console, humans, i) for i, kind in enumerate(self.kinds)]
        self.decisions, self.faces, self.forced_move, self.hint_bots = [], [], None, {}
        self.game, self.check = rewound(record, cut, live, self)
        self.tell_history = False  # the log has the game so far; only the takeback is new
        self.recent = [took_back_line(record.events[cut:])]
        self.log.append(self.recent[0])
        if not self.screen:
            self.console.print(self.recent[0], markup=False)

    def _tell_takebacks(self, game: Game) -> None:
        """The takebacks the record keeps at this point of its recorded part, in the history (each once:
        a step with neither a roll nor a move leaves the point where it was for the next choice)."""
        at = len(game.record.events) if game.record is not None else 0
        for number, (cut, events) in enumerate(game.record.undone if game.record is not None else ()):
            if cut == at and events and number not in self.told_takebacks:
                self.told_takebacks.add(number)
                self.history.append(took_back_line(events))

    def forced(self, seat: int, move: Any) -> None:
        self.forced_move = move

    def _odds_line(self, game: Game, mover: int, after: Any) -> str | None:
        if game.hooks.treehouse_outcome(after, mover) is not None:
            return None
        following = game.hooks.treehouse_end_turn(after)
        chances = [self.odds.chance(following, seat) for seat in range(len(self.kinds))]
        return "Winning chances now: " + ", ".join(f"{self.who(s)} {100 * c:.1f}%" for s, c in enumerate(chances))

    def on_choice(self, game: Game, mover: int, step: Any, face: str | None, moves: tuple) -> None:
        if self.tell_history and not self.live:
            self._tell_takebacks(game)
            if self.kinds[mover] == HUMAN and len(moves) == 1 and self.auto_forced:
                self.forced_move = moves[0]  # played back from the record, as it was played: by itself
        if self.resumed and not self.check.pending:
            self.say(f"Resumed where it was saved: {f'turn {game.turn}' if game.turn else 'the setup'}.")
            self.resumed = False
        if face is not None:
            self.faces.append(face)
        if self.kinds[mover] == HUMAN and moves and (len(moves) > 1 or not self.auto_forced):
            self.decisions.append(len(game.record.events) if game.record is not None else 0)

    def on_step(self, game: Game, mover: int, step: Any, move: Any, before: Any, after: Any, events: tuple) -> None:
        faces, self.faces = self.faces, []
        forced, self.forced_move = self.forced_move, None
        if not self.live and not self.tell_history:
            return
        line = step_line(game, step, self.who(mover), faces, move)
        if forced is not None:
            line += " (the only move, played for you)"
        if not self.live:  # the recorded part of a resumed game: into the log's history, not on screen
            self.history += [line, *event_lines(events)]
            self.last_events = events
            return
        if forced is None and self.kinds[mover] == HUMAN:
            self.recent = []  # a person decided: the story on screen starts again from this move
        self.say(line)
        self.last_events = events
        for happened in event_lines(events):
            self.say(happened)
        if self.odds is not None:
            odds = self._odds_line(game, mover, after)
            if odds:
                self.say(odds)
        if self.delay and self.kinds[mover] != HUMAN:
            time.sleep(self.delay)

    def run(self) -> None:
        while not self.game.over:
            game = self.game
            turn_was_live = self.live
            try:
                game.play_turn()
            except TakeBack:
                self.rewind()
                continue
            if self.watch and self.live and turn_was_live and not game.over:
                self.board()
        game = self.game
        outcome = game.outcome
        ending = game_over_line(result_words(outcome, self.who), game.turn, outcome.reason, self.last_events)
        board = self._board()
        if self.screen:  # the story of the last turn, the banner, the final board and the result on one screen
            self.console.clear()
            below = len(textwrap.wrap(ending, self.width)) + ENDING_ROWS
            for line in story_lines(self.recent, self.width, self.console.height - 1 - self._board_lines(board) - below):
                self.console.print(line, markup=False, style="dim", soft_wrap=False)
        else:
            self.console.print()
        self.console.rule("Game over", style="dim")
        self.console.print(board)
        self.console.print(Text(ending, style="bold"), soft_wrap=not self.screen)  # a screen wraps at words; a pipe keeps one line
