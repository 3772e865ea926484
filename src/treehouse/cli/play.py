"""``th play`` and ``th replay``: play any variant at the terminal, save, resume, and step through records.

Exit statuses: 0 when a game ends, when ``q`` or the end of input saves and
quits, and when ``th replay`` is left; 130 when Ctrl-C saves and quits (the
shell's convention for an interrupt); 2 for a user's mistake (a bad option, a
damaged or foreign record, an unwritable record path), with one line on
standard error.
"""

from __future__ import annotations

import os
import random
import secrets
import sys
import textwrap
import time
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from platformdirs import user_data_dir
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from treehouse import __version__
from treehouse.bots.options import BotOptionError, bot_name, check_bot_spec, make_bot
from treehouse.cli.advice import advise, hint_bot, hint_lines
from treehouse.cli.common import INTERRUPTED, ConfigOption, SetOption, VariantOption, effective_rules, err, fail, out, plugins, run_guarded, shown, shown_path
from treehouse.cli.happened import event_lines, game_over_line
from treehouse.cli.human import HumanSeat, Menu, QuitGame, TakeBack
from treehouse.cli.screen import fit, numbered, page_lines, paginate, text_pages
from treehouse.errors import RecordError, TreehouseError, printable, unknown
from treehouse.kernel.engine import Game
from treehouse.kernel.records import Record
from treehouse.plugins import hook_failure
from treehouse.textfiles import FileLock, lock_file, refuse_existing
from treehouse.kernel.resume import HUMAN, describe, resume_game, saved_game, walk
from treehouse.plugins import game_hooks

#: The variant ``th play`` starts when none is named: the first one installed.
DEFAULT_VARIANTS = ("fences", "classic")
#: A list of moves longer than this is cut to its first ``SHORT_LIST`` (``l`` shows all).
LONG_LIST = 30
SHORT_LIST = 20
#: Lines of what happened kept, and the most shown on the steady screen.
#: The fewest rows of moves the steady screen shows (the board scrolls up if it must).
MIN_ROWS = 3
#: Seconds between bot moves when a person is watching a terminal.
DEFAULT_DELAY = 0.6
#: The longest pause --delay takes (an hour; more is surely a typo).
MAX_DELAY = 3600

# --------------------------------------------------------------------------
# choosing the seats
# --------------------------------------------------------------------------


def default_variant() -> str:
    loaded = plugins()
    for name in DEFAULT_VARIANTS:
        if name in loaded.aliases:
            return name
    return sorted(loaded.variants)[0] if loaded.variants else "classic"


def best_bot(variant: Any = None, players: int = 2) -> str:
    """The strongest registered bot that is ready for this game (ties: the first
    by name).  A bot factory may say it is not ready with ``ready(variant,
    players)``: ``perfect`` is ready only once ``th solve`` has cached its table."""
    bots = sorted(plugins().bots.values(), key=lambda info: info.name)
    bots = [info for info in bots if variant is None or getattr(info.factory, "ready", lambda v, n: True)(variant, players)]
    if not bots:
        raise TreehouseError("no bot is installed, so every seat must be --seat human")
    return max(bots, key=lambda info: info.strength).name


def seat_kind(text: str) -> str:
    """``human``, or a bot spec checked and in canonical form (``search(depth=2)``)."""
    if text.strip().lower() == HUMAN:
        return HUMAN
    try:
        name = bot_name(text)
    except BotOptionError:
        name = None  # check_bot_spec says what is wrong with it
    if name is not None and name not in plugins().bots:
        raise unknown("seat kind", name, {HUMAN, *plugins().bots})
    return check_bot_spec(plugins(), text)


def seat_kinds(variant: Any, players: int | None, kinds: list[str], watch: bool, bot: str | None = None) -> list[str]:
    """The kind of every seat: the ones given, then seat 1 human (not with --watch),
    then ``bot`` (a spec) or else the best bot."""
    kinds = [seat_kind(kind) for kind in kinds]
    filler = check_bot_spec(plugins(), bot) if bot is not None else None
    if watch and HUMAN in kinds:
        raise TreehouseError("--watch seats bots only; leave out --seat human (or --watch)")
    lo, hi = variant.player_range()
    count = players if players is not None else max(len(kinds), variant.default_players)
    if not lo <= count <= hi:
        raise TreehouseError(f"{variant.name} is played by {lo} to {hi} players, not {count}")
    if len(kinds) > count:
        raise TreehouseError(f"{len(kinds)} --seat options for {count} players; give at most one per player")
    if not kinds and not watch:
        kinds = [HUMAN]
    while len(kinds) < count:
        kinds.append(filler or best_bot(variant, count))
    return kinds


def prepare_bots(variant: Any, kinds: list[str]) -> None:
    """Let a bot that is not ready for this game (``perfect`` with no solved table)
    prepare before play starts: say so, and show its progress rather than freeze."""
    from treehouse.cli.solving import solve_progress

    for name in dict.fromkeys(bot_name(kind) for kind in kinds if kind != HUMAN):
        factory = plugins().bots[name].factory
        prepare = getattr(factory, "prepare", None)
        if prepare is None:
            continue
        tolerance = getattr(prepare, "tolerance", None)  # a solve's progress counts down to it; without one, no bar
        with solve_progress(tolerance() if tolerance else 0.0, quiet=tolerance is None) as progress:
            prepare(variant, len(kinds), lambda message, name=name: err.print(f"{name}: {message}", markup=False), progress)


def build_seat(kind: str, table: Any, console: Console, humans: int, index: int) -> Any:
    if kind == HUMAN:
        prompt = "Your move" if humans == 1 else f"Player {index + 1}, your move"
        return HumanSeat(table, console, prompt)
    return make_bot(plugins(), kind)


# --------------------------------------------------------------------------
# the session: the screen, saving, and the bots' moves
# --------------------------------------------------------------------------


def default_record_path(variant: str, seed: int) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path(user_data_dir("treehouse")) / "games" / f"{stamp}-{variant}-{seed}.jsonl"


def write_record(record: Record, path: Path) -> Path:
    """Write the whole record, making its folder first (atomically: a crash never leaves half a file)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RecordError(f"cannot write the record to {path}: {error.strerror or error}") from None
    return record.write(path)


def roll_line(hooks: Any, faces: list[str], step: Any, face: str | None, menu: Menu) -> str:
    """The roll of a decision and what its face lets the player do (``faces``: the step's rolls so far,
    ending with ``face``), as the game's hooks say; ``th serve``'s pages say the same."""
    earlier = faces[:-1] if face is not None else faces
    line = f"Rolled {', '.join(earlier)} first (nothing to do, or declined), then rolled again. " if earlier else ""
    if face is not None:
        meaning = hooks.treehouse_describe_face(face) or ""
        verb = "Drew" if getattr(step, "setup", False) else "Rolled"  # a setup step draws (Fences: a small from the bag)
        line += f"{verb} {face}" + (f": {meaning}." if meaning else ".")
    else:
        line += f"No roll in this step ({step.name})."
    if menu.second_question or any(len(entry.moves) > 1 for entry in menu.entries):
        first, second = hooks.variant.choice_questions(face)
        line = f"{face or step.name}: {menu.opened.words}. {second}; b goes back." if menu.second_question else f"{line} {first}"
    return line


def step_line(game: Game, step: Any, who: str, faces: list[str], move: Any) -> str:
    """One step in words: ``Turn 3 (fence) · Player 1 rolled HOP: ...`` (``th play``'s transcript, ``th serve``'s log)."""
    rolled = ", then ".join(faces)
    words = describe(game.variant, move)
    steps = "" if step.name == "act" else f" ({step.name})"
    verb = "drew" if getattr(step, "setup", False) else "rolled"  # a setup step draws (Fences: a small from the bag)
    return f"{when(game.turn)}{steps} · {who}" + (f" {verb} {rolled}: {words}" if rolled else f": {words}")


def result_words(outcome: Any, who: Any) -> str:
    """``Player 1 wins``, ``Player 1 and Player 2 tie`` or ``A draw`` (``who(seat)`` names a seat)."""
    if not outcome.winners:
        return "A draw"
    names = " and ".join(who(w) for w in outcome.winners)
    return f"{names} {'wins' if len(outcome.winners) == 1 else 'tie'}"


def rewound(record: Record, cut: int, live: list[Any], observer: Any) -> tuple[Game, Any]:
    """The game of ``record`` taken back to its event ``cut`` (a person's decision), rebuilt from
    its seed (as ``--resume`` does, so the dice and every bot's stream are exactly where they
    were) with ``live`` seats; the moves taken back stay in the new record, marked undone."""
    from treehouse.kernel.resume import resume_game, saved_game

    kept = Record(meta=record.meta, header=record.header, events=record.events[:cut])
    saved = saved_game(kept, plugins())
    again = Record(meta=dict(record.meta), undone=[*record.undone, (cut, list(record.events[cut:]))])
    return resume_game(kept, saved, live, observer=observer, new_record=again)


class Session:
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
        #: the events of the last step played (the game-over line says how the last Stack fell)
        self.last_events: tuple = ()
        #: Where each person's decision stands in the record's events (for takeback).
        self.decisions: list[int] = []
        self.forced_move: Any = None
        #: A resumed game whose first live choice has not come yet (then the turn it was saved on is said)
        self.resumed = False
        self.odds: Any = None  # the perfect bot that says the winning chances (--show-odds)
        self._extra_roll_lines = 0  # the roll's words past one line, on the last screen drawn
        #: The bot that gives hints, per (game, seat): a takeback builds a new game, so a new key.
        self.hint_bots: dict[tuple[int, int], Any] = {}

    # -- who is who -------------------------------------------------------

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

    # -- saving -------------------------------------------------------------

    def save(self) -> str:
        if self.game is None or self.game.record is None or not self.live:
            return shown_path(str(self.record_path))
        write_record(self.game.record, self.record_path)
        return shown_path(str(self.record_path))

    # -- drawing ------------------------------------------------------------

    @property
    def width(self) -> int:
        return min(self.console.width, 80)

    def board(self) -> None:
        self.console.print(self._board())

    def _board(self) -> Any:
        game = self.game
        board = game.hooks.treehouse_render(game.state, self.width)
        if isinstance(board, Text):
            board.rstrip()  # a drawing's closing newline would be a blank line on a full screen
        return board

    def say(self, line: str) -> None:
        """Print one line of what happened (a move, an announcement); the steady screen shows the last few."""
        self.console.print(line, markup=False)
        self.recent.append(line)
        self.log.append(line)

    def _roll_line(self, step: Any, face: str | None, menu: Menu) -> str:
        return roll_line(self.game.hooks, self.faces, step, face, menu)

    def _texts(self, menu: Menu) -> list[str]:
        return numbered([entry.words for entry in menu.entries])

    def _budget(self, board_lines: int, message_lines: int, entries: int) -> tuple[list[str], int]:
        """(the story's lines to show, rows of moves) that fit the terminal's height.

        The story since the person's last decision is shown in full, wrapped at
        words, as far as it fits beside the moves (which keep half the room
        when they need it, and never fewer than ``MIN_ROWS`` rows); its oldest
        lines fold into one line pointing at the log."""
        height, width = self.console.height, self.width
        fixed = 1 + board_lines + 1 + 1 + 1  # header, board, roll, one line of message, prompt
        free = height - fixed - max(0, message_lines - 1)  # a reply longer than a line takes story room first
        story = [part for line in self.recent for part in (textwrap.wrap(line, width, subsequent_indent="    ") or [""])]
        wanted = max(1, min(entries, MIN_ROWS))  # the moves: a page of at least a few; the story has the rest
        room = max(free - wanted, 0)
        if len(story) > room:
            kept = story[len(story) - (room - 1) :] if room > 1 else []
            story = ([f"… {len(story) - len(kept)} earlier line{'s' if len(story) - len(kept) != 1 else ''} (g: the log)"] + kept) if room else []
        rows = max(wanted, free - len(story))
        return story, rows

    def _pages(self, menu: Menu, board_lines: int) -> list:
        _story, rows = self._budget(board_lines, 0, len(menu.entries))
        return paginate(self._texts(menu), self.width, rows)

    def _board_lines(self, board: Any) -> int:
        return len(self.console.render_lines(board, self.console.options.update(width=self.width), pad=False))

    def page_count(self, menu: Menu, step: Any = None, face: str | None = None) -> int:
        if self.screen:
            return len(self._pages(menu, self._board_lines(self._board()) + self._extra_roll_lines))
        count = len(menu.entries)
        return 1 if count <= LONG_LIST else -(-count // SHORT_LIST)

    def show_choice(self, seat: int, step: Any, face: str | None, menu: Menu, message: str = "") -> None:
        if not self.screen:
            self._show_transcript(seat, step, face, menu, message)
            return
        console, width = self.console, self.width
        board = self._board()
        board_lines = self._board_lines(board)
        message_lines = [part for line in message.splitlines() for part in (textwrap.wrap(line, width, subsequent_indent="  ") or [""])] if message else []
        roll = textwrap.wrap(self._roll_line(step, face, menu), width) or [""]  # at words: no line starts with a stray "."
        roll_lines = len(roll)
        self._extra_roll_lines = roll_lines - 1
        story, rows = self._budget(board_lines + roll_lines - 1, len(message_lines), len(menu.entries))
        console.clear()
        console.rule(self._header(seat, step), style="dim")
        console.print(board)
        for line in story:
            console.print(line, markup=False, style="dim", soft_wrap=False)
        for line in roll:
            console.print(line, markup=False, soft_wrap=False)
        texts = self._texts(menu)
        if not message_lines:
            message_lines = [""]  # the line a reply appears on, kept so the prompt stays put
        pages = paginate(texts, width, rows)
        menu.page = min(menu.page, len(pages) - 1)
        # a reply too long even without the story hides the page's last rows for this once
        overflow = 1 + board_lines + roll_lines + len(story) + rows + len(message_lines) + 1 - self.console.height
        shown = max(1, rows - max(0, overflow))
        for line in page_lines(texts, pages[menu.page], width, rows)[:shown]:
            console.print(line, markup=False, soft_wrap=False)
        for line in message_lines:
            console.print(fit(line, width), markup=False, style="red" if message.startswith("✗") else None)

    def _header(self, seat: int, step: Any) -> str:
        steps = "" if step.name == "act" else f" · {step.name}"
        return f"{when(self.game.turn)}{steps} · {self.who(seat)} to move"

    def _show_transcript(self, seat: int, step: Any, face: str | None, menu: Menu, message: str) -> None:
        console = self.console
        if message:  # a reply to what was typed: the screen above still stands
            for line in message.splitlines():
                console.print(line, markup=False, style="red" if line.startswith("✗") else None)
            return
        console.print()
        console.rule(self._header(seat, step), style="dim")
        self.board()
        console.print()
        console.print(self._roll_line(step, face, menu), markup=False)
        self.show_moves(menu)

    def show_moves(self, menu: Menu, numbers: list[int] | None = None, every: bool = False) -> None:
        """The numbered entries, with their notation (``numbers``: only these, 1-based; a long list a page at a time)."""
        console = self.console
        count = len(menu.entries)
        if numbers is None:
            if every or count <= LONG_LIST:
                numbers = list(range(1, count + 1))
            else:
                first = menu.page * SHORT_LIST
                numbers = list(range(first + 1, min(count, first + SHORT_LIST) + 1))
        rows = [(f"{n}.", menu.entries[n - 1].words, menu.entries[n - 1].notation) for n in numbers]
        width = self.width
        widths = [max(len(cell) for cell in column) for column in zip(*rows)] if rows else [0, 0, 0]
        if sum(widths) + 5 <= width:
            grid = Table.grid(padding=(0, 3))
            grid.add_column(no_wrap=True)
            grid.add_column(style="dim", no_wrap=True)
            number_width = len(f"{count}.")
            for number, words, notation in rows:
                grid.add_row(f"{number:>{number_width}} {words}", "" if words == notation else notation)
        else:
            grid = Table.grid(padding=(0, 1))
            grid.add_column(justify="right", no_wrap=True)
            grid.add_column(overflow="fold")
            for number, words, notation in rows:
                grid.add_row(number, Text(words) + (Text(f"  ({notation})", style="dim") if words != notation else Text("")))
        console.print(grid, soft_wrap=False)
        if len(numbers) < count and not every and numbers == list(range(numbers[0], numbers[-1] + 1)):
            console.print(
                f"Moves {numbers[0]}-{numbers[-1]} of {count}: + the next page, l lists all, /WORDS finds moves (e.g. /{_first_word(rows)}).",
                markup=False,
            )

    def show_log(self, seat: int, step: Any, face: str | None, menu: Menu) -> None:
        """Every line said this game so far, a screenful at a time; then the board again (``g``)."""
        self.show_text(Text("\n".join(self.log) or "Nothing has happened yet."), seat, step, face, menu)

    def show_all(self, menu: Menu) -> None:
        self.show_moves(menu, every=True)

    def find_moves(self, menu: Menu, words: str) -> str:
        """The entries whose words or notation contain ``words`` (the ``/`` key)."""
        wanted = words.strip().lower()
        numbers = [n for n, entry in enumerate(menu.entries, 1) if wanted in entry.words.lower() or wanted in entry.notation.lower()]
        if not numbers:
            return f"✗ no move contains {words.strip()!r}: l lists them all"
        if not self.screen:
            self.show_moves(menu, numbers)
            return ""
        shown = FOUND_SHOWN
        listed = "; ".join(f"{n}. {menu.entries[n - 1].words}" for n in numbers[:shown])  # the moves themselves, not just numbers
        more = f"; and {len(numbers) - shown} more (l lists all)" if len(numbers) > shown else ""
        return f"{len(numbers)} contain {words.strip()!r}: {listed}{more}"

    def show_text(self, text: Any, seat: int, step: Any, face: str | None, menu: Menu) -> None:
        """Help or the rules, then the board and moves again.  On the steady
        screen a text taller than the terminal is shown a screenful at a time."""
        renderable = Text(text) if isinstance(text, str) else text
        if not self.screen:
            self.console.print(renderable)
            self.show_choice(seat, step, face, menu)
            return
        with self.console.capture() as captured:
            self.console.print(renderable)
        pages = text_pages(captured.get().rstrip("\n").split("\n"), self.console.height - 1)
        for number, page in enumerate(pages, start=1):
            self.console.clear()
            self.console.print(Text.from_ansi("\n".join(page)))
            last = number == len(pages)
            prompt = "Press Enter to go back to the board. " if last else f"Page {number}/{len(pages)}: Enter for more, b and Enter to go back to the board. "
            try:
                answer = self.console.input(prompt)
            except EOFError:
                break
            if answer.strip().lower() in ("b", "q"):
                break
        self.show_choice(seat, step, face, menu)

    def show_rules(self, seat: int, step: Any, face: str | None, menu: Menu) -> None:
        table = Table(title=f"{self.rule_set}: {self.description}", title_justify="left")
        for column in ("rule", "in force", "setting (from)"):
            table.add_column(column, overflow="fold")
        fields = type(self.game.variant.rules).model_fields
        for key, value, source in self.rows:
            field = fields.get(key.removeprefix("rules.")) if key.startswith("rules.") else None
            words = field.description if field is not None and field.description else key
            where = shown_path(source) if source.endswith(".yaml") else source
            table.add_row(_escape(words), _escape(value_words(value)), _escape(f"{key} ({where})"))
        guide = self.game.variant.how_to_play()
        self.show_text(Group(Text(guide), table) if guide else table, seat, step, face, menu)

    # -- hints, odds and takeback -------------------------------------------

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

        return "\n".join(hint_lines(hint, menu.moves, label, variant.score_unit()))

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
        taken = sum(1 for event in record.events[cut:] if event[0] == "move")
        self.recent = [f"Took back {taken} move{'s' if taken != 1 else ''}: back to turn {record.events[cut][1]}."]
        if not self.screen:
            self.console.print(self.recent[0], markup=False)

    def forced(self, seat: int, move: Any) -> None:
        self.forced_move = move

    def _odds_line(self, game: Game, mover: int, after: Any) -> str | None:
        if game.hooks.treehouse_outcome(after, mover) is not None:
            return None
        following = game.hooks.treehouse_end_turn(after)
        chances = [self.odds.chance(following, seat) for seat in range(len(self.kinds))]
        return "Winning chances now: " + ", ".join(f"{self.who(s)} {100 * c:.1f}%" for s, c in enumerate(chances))

    # -- the game's observer ------------------------------------------------

    def on_choice(self, game: Game, mover: int, step: Any, face: str | None, moves: tuple) -> None:
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
        if not self.live:
            return
        line = step_line(game, step, self.who(mover), faces, move)
        if forced is not None:
            line += " (the only move, played for you)"
        elif self.kinds[mover] == HUMAN:
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

    # -- playing --------------------------------------------------------------

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
        if self.screen:
            self.console.clear()  # the banner, the last moves and the final board on one screen
            wrapped = [part for line in self.recent[-ENDING_RECENT:] for part in textwrap.wrap(line, self.width, subsequent_indent="    ")]
            for line in wrapped[-ENDING_RECENT - 1 :]:  # in full, at words; the newest lines if they are long
                self.console.print(line, markup=False, style="dim", soft_wrap=False)
        else:
            self.console.print()
        self.console.rule("Game over", style="dim")
        self.board()
        outcome = game.outcome
        result = result_words(outcome, self.who)
        self.console.print(Text(game_over_line(result, game.turn, outcome.reason, self.last_events), style="bold"), soft_wrap=not self.screen)  # a screen wraps at words; a pipe keeps one line


def _write_replay_page(path: Path, title: str, walked: Any, record: Record, hooks: Any, who: Any, taken_back: dict) -> None:
    from treehouse.cli.replay_page import SharedParts, replay_page, steps_data
    from treehouse.textfiles import write_text_atomically

    chances = _chances(walked, record, hooks)
    shared = SharedParts()
    steps = steps_data(walked, record, hooks, who, taken_back, chances, shared)
    page = replay_page(title, steps, chances, shared, walked.variant.picture_legend())
    write_text_atomically(path, page, RecordError, "replay page")


def _chances(walked: Any, record: Record, hooks: Any) -> list[float] | None:
    """Player 1's exact winning chance at every step, where the perfect table is cached; else None."""
    from treehouse.variants.classic.perfect import PerfectBot

    players = len((record.header or {}).get("seats") or [])
    if not PerfectBot.ready(walked.variant, players):
        return None
    from treehouse.variants.classic.solver import load_cached

    bot = PerfectBot.from_solution(load_cached(walked.variant.rules))
    chances = [bot.chance(walked.start, 0)]
    for index, frame in enumerate(walked.frames, start=1):
        if index == len(walked.frames) and walked.outcome is not None:
            chances.append(1.0 if 0 in walked.outcome.winners else 0.0)
        else:
            chances.append(bot.chance(hooks.treehouse_end_turn(frame.after), 0))
    return chances


#: The moves a search (``/WORDS``) names on the steady screen; l lists the rest.
FOUND_SHOWN = 3

#: The lines of what happened last shown above the final board (80x24 holds them with the Fences board).
ENDING_RECENT = 2


def when(turn: int) -> str:
    """A step's place in the game for people: its turn, or the setup (turn 0,
    the kernel's setup phase, before the first turn)."""
    return f"Turn {turn}" if turn else "Setup"


def _taken_back(record: Record, variant: Any, who: Any) -> dict[int, list[str]]:
    """The moves taken back in ``record``, as lines to show after the step they followed
    (the index of a step: how many recorded moves, rerolls aside, came before)."""
    from treehouse.kernel.engine import parse_move

    def words(value: Any) -> str:
        """A taken-back move in words where its notation alone says them (classic's words
        come from the legal moves, which a taken-back branch is not replayed for), else its notation."""
        try:
            return describe(variant, parse_move(variant, value)) or str(value)
        except TreehouseError:
            return str(value)

    shown: dict[int, list[str]] = {}
    for at, events in record.undone:
        steps = sum(1 for event in record.events[:at] if event[0] == "move" and str(event[4]) != "reroll")
        moves = [f"{when(turn)} · {who(seat)}: {words(value)}" for kind, turn, seat, _step, value in events if kind == "move"]
        if moves:
            shown.setdefault(steps, []).append("Taken back here: " + "; ".join(moves))
    return shown


def _first_word(rows: list[tuple[str, str, str]]) -> str:
    """A word from the last move listed, to show what ``/WORDS`` does."""
    words = [w.strip(",.:;()") for w in rows[-1][1].split()] if rows else []
    words = [w for w in words if len(w) > 2 and w.isalpha()]
    return words[-1] if words else "word"


def value_words(value: Any) -> str:
    """A setting's value for a person: ``yes``/``no``, a word, a number, a list."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(value_words(v) for v in value) or "none"
    if value is None:
        return "none"
    return str(value)


def _escape(text: str) -> str:
    return shown(text)


# --------------------------------------------------------------------------
# th play
# --------------------------------------------------------------------------


def play(
    variant: VariantOption = None,
    players: Annotated[Optional[int], typer.Option("--players", "-p", help="How many players (default: the variant's usual number).")] = None,
    seats: Annotated[Optional[list[str]], typer.Option("--seat", help="Who sits in each seat, in order: human or a bot, with options if any (random, search(depth=2), ...). Repeat per seat.")] = None,
    bot: Annotated[Optional[str], typer.Option("--bot", help="The bot in every seat --seat leaves out, e.g. search(nodes=2000) (default: the strongest installed).")] = None,
    seed: Annotated[Optional[int], typer.Option("--seed", help="The seed every die roll and bot choice flows from (default: a random one, recorded).")] = None,
    config: ConfigOption = None,
    overrides: SetOption = None,
    delay: Annotated[Optional[float], typer.Option("--delay", min=0, max=MAX_DELAY, help="Seconds to pause after each bot move (default: 0.6 in a terminal, else 0).")] = None,
    watch: Annotated[bool, typer.Option("--watch", help="Bots in every seat; you watch.")] = False,
    record: Annotated[Optional[Path], typer.Option("--record", help="Write the game's record here (default: a new file in your data directory).", dir_okay=False)] = None,
    resume: Annotated[Optional[Path], typer.Option("--resume", help="Continue the game saved in this record.", dir_okay=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="Let --record overwrite a file that exists.")] = False,
    plain: Annotated[bool, typer.Option("--plain", help="Print a plain transcript instead of redrawing one screen per move (for screen readers; pipes get it anyway).")] = False,
    ask_forced: Annotated[bool, typer.Option("--ask-forced", help="Ask even when there is only one move (by default it plays itself, announced in one line).")] = False,
    show_odds: Annotated[bool, typer.Option("--show-odds", help="Two-player classic: print each player's exact winning chance after every turn (needs th solve's table).")] = False,
) -> None:
    """Play a game at the terminal: you against bots, people against each other, or bots alone (--watch).

    Pick a move by number or type it; u takes back, h hints, ? help, r rules,
    s save, q save and quit.
    Every game is saved as a record; continue it with --resume FILE and watch
    it again with th replay FILE.
    """
    if delay is None:
        delay = DEFAULT_DELAY if sys.stdout.isatty() else 0.0
    locks = run_guarded(claim_records, record, resume, force)
    try:
        _play(variant, players, seats, bot, seed, config, overrides, delay, watch, record, resume, plain, ask_forced, show_odds)
    finally:
        for lock in locks:
            lock.release()


def claim_records(record: Path | None, resume: Path | None, force: bool) -> list[FileLock]:
    """Lock the records this game reads and writes against a second ``th play``,
    and refuse to overwrite an existing file unasked (``--force``)."""
    locks: list[FileLock] = []
    try:
        if resume is not None:
            locks.append(lock_file(resume, RecordError, "record"))
        if record is not None and (resume is None or os.path.realpath(record) != os.path.realpath(resume)):
            locks.append(lock_file(record, RecordError, "record"))
            if (record.is_file() or record.is_symlink()) and not force:
                raise RecordError(f"{record} already exists; add --force to overwrite it, or continue its game with th play --resume {record}")
    except RecordError:
        for lock in locks:
            lock.release()
        raise
    return locks


def _play(variant, players, seats, bot, seed, config, overrides, delay, watch, record, resume, plain, ask_forced, show_odds) -> None:
    if resume is not None:
        given = [flag for flag, value in (("--variant", variant), ("--players", players), ("--seat", seats), ("--bot", bot), ("--seed", seed), ("--config", config), ("--set", overrides)) if value not in (None, [])]
        if watch:
            given.append("--watch")
        if given:
            raise fail(f"--resume continues the saved game with its own rules, seats and seed; leave out {', '.join(given)}")
        session = run_guarded(_resumed_session, resume, record, delay)
    else:
        session = run_guarded(_new_session, variant, players, seats or [], bot, seed, config, overrides, delay, watch, record)
    session.screen = out.is_terminal and not plain and not session.watch
    session.auto_forced = not ask_forced
    if show_odds:
        session.odds = run_guarded(_odds_bot, session)
    _run(session)


def _odds_bot(session: Session) -> Any:
    """The perfect bot that says the winning chances, seated as an onlooker (--show-odds)."""
    from treehouse.variants.classic.perfect import PerfectBot

    game = session.game
    if not PerfectBot.ready(game.variant, len(game.seats)):
        if not PerfectBot.solvable(game.variant, len(game.seats)):
            raise TreehouseError(f"--show-odds needs the exact table, which exists for two-player classic only, not {len(game.seats)}-player {game.variant.name}")
        raise TreehouseError("--show-odds needs the exact table for these rules: run th solve first (about two minutes, once)")
    bot = PerfectBot()
    bot.seated(game, 0)
    return bot


def _new_session(variant_name, players, seats, bot, seed, config, overrides, delay, watch, record_path) -> Session:
    if variant_name is None and config is None:
        variant_name = default_variant()
    effective = effective_rules(variant_name, config, overrides)
    variant = effective.variant()
    kinds = seat_kinds(variant, players, seats, watch, bot)
    house_rules = [plugins().house_rule(name, variant.name) for name in effective.house_rules]
    if seed is None:
        seed = secrets.randbelow(2**31)
    path = record_path or default_record_path(variant.name, seed)
    session = Session(
        out, kinds=kinds, rule_set=effective.name, description=effective.description, rows=effective.rows(), delay=delay, watch=watch, record_path=path
    )
    prepare_bots(variant, kinds)
    humans = kinds.count(HUMAN)
    live = [build_seat(kind, session, out, humans, i) for i, kind in enumerate(kinds)]
    meta = {"seed": seed, "rule_set": effective.name, "seats": kinds, "treehouse": __version__}
    session.game = Game(
        variant, live, random.Random(seed), turn_cap=effective.turn_cap, house_rules=house_rules, record=Record(meta=meta), observer=session
    )
    session.save()  # an unwritable path fails now, before anyone has played
    who = ", ".join(session.who(i) for i in range(len(kinds)))
    out.print(f"{variant.name} ({_escape(effective.name)} rules), seed {seed}: {_escape(who)}.")
    session.say(f"Recording to {printable(shown_path(str(path)))}")  # on screen until the person's first move (plain text: no markup to escape)
    return session


def _resumed_session(resume: Path, record_path: Path | None, delay: float) -> Session:
    from treehouse.kernel.replay import replay

    old = Record.read(resume)
    source = shown_path(str(resume))
    if old.footer is not None:
        winners = old.footer.get("winners") or []
        result = f"player {' and '.join(map(str, winners))} won" if winners else "a draw"
        raise RecordError(f"the game in {source} is over ({result} on turn {old.footer.get('turn')}); watch it with th replay {source}")
    saved = saved_game(old, plugins(), source)
    try:
        replay(old, plugins())  # damaged or foreign records are refused here, with the kernel's words
    except RecordError as error:
        raise RecordError(f"{source}: {error}") from None
    for kind in saved.seat_kinds:
        if kind == HUMAN:
            continue
        try:
            if bot_name(kind) not in plugins().bots:
                raise RecordError(f"{source} was played with the bot {kind!r}, which is not installed; known: {', '.join(sorted(plugins().bots))}")
            check_bot_spec(plugins(), kind)
        except BotOptionError as error:
            raise RecordError(f"{source}: {error}") from None
    rows = [("variant", saved.variant.name, "record"), ("turn_cap", saved.turn_cap, "record"), ("house_rules", saved.house_rule_names, "record")]
    rows += [(f"rules.{k}", v, "record") for k, v in saved.variant.rules.model_dump(mode="json").items()]
    path = record_path or resume
    session = Session(
        out, kinds=saved.seat_kinds, rule_set=saved.rule_set, description=saved.variant.description, rows=rows, delay=delay, watch=HUMAN not in saved.seat_kinds, record_path=path
    )
    humans = saved.seat_kinds.count(HUMAN)
    live = [build_seat(kind, session, out, humans, i) for i, kind in enumerate(saved.seat_kinds)]
    session.game, session.check = resume_game(old, saved, live, observer=session, new_record=Record(meta=dict(old.meta), undone=list(old.undone)))
    out.print(f"Resuming {_escape(source)}: {saved.variant.name} ({_escape(saved.rule_set)} rules), seed {saved.seed}.")
    session.resumed = True  # the turn it was saved on is said at the first live choice, once the record is played back
    if path != resume:
        session.say(f"Recording to {printable(shown_path(str(path)))}")  # on screen until the person's first move (plain text: no markup to escape)
    return session


def _run(session: Session) -> None:
    """Play to the end; q, end of input and Ctrl-C save first.  See the module docstring for exit codes."""
    try:
        session.run()
    except QuitGame:
        raise typer.Exit(_saved(session, 0)) from None
    except KeyboardInterrupt:
        out.print()
        raise typer.Exit(_saved(session, INTERRUPTED)) from None
    except TreehouseError as error:
        if os.environ.get("TREEHOUSE_DEBUG"):
            raise
        raise fail(str(error)) from None
    except Exception as error:  # a plugin's hook failed while drawing (treehouse_render, say): one line, the game kept
        failure = hook_failure(error)
        if failure is None or os.environ.get("TREEHOUSE_DEBUG"):
            raise
        fail(str(failure))
        raise typer.Exit(_saved(session, 2)) from None
    path = run_guarded(session.save)
    out.print(f"Record: {_escape(path)}  (th replay {_escape(path)})", highlight=False)


def _saved(session: Session, code: int) -> int:
    if not session.live:
        out.print("Stopped before the saved game was caught up; its record is unchanged.")
        return code
    try:
        path = session.save()
    except RecordError as error:
        fail(f"the game could not be saved: {error}")
        return 2
    out.print(f"Game saved to {_escape(path)}", highlight=False)
    out.print(f"Resume it with: th play --resume {_escape(path)}", highlight=False)
    return code


# --------------------------------------------------------------------------
# th replay
# --------------------------------------------------------------------------

REPLAY_HELP = """\
Enter or n: next step   p: previous step   a number: jump to that turn
s: the start   e: the end   ?: this help   q: quit"""


def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON lines), as written by th play; with --check, a folder of them.")],
    turn: Annotated[Optional[int], typer.Option("--turn", "-t", help="Start at this turn.")] = None,
    show_all: Annotated[bool, typer.Option("--all", help="Print every step, one after another, and exit.")] = False,
    html: Annotated[Optional[Path], typer.Option("--html", help="Write the game as one self-contained web page (board, slider, step buttons) to FILE.html, and exit.", dir_okay=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="Let --html replace a file that exists.")] = False,
    check: Annotated[bool, typer.Option("--check", help="Replay and check every record (*.jsonl) in the folder FILE in one process: a line per bad record, a summary, exit 1 if any is bad.")] = False,
) -> None:
    """Step through a recorded game: next, previous, jump to a turn; each step shows the roll, the move and the position."""
    if check:
        from treehouse.cli.check_records import check_folder

        return check_folder(file)
    if html is not None:  # before the record is read: never write over it, nor over any file unasked
        run_guarded(refuse_existing, html, force, RecordError, "--html", [file])
    record = run_guarded(Record.read, file)
    source = shown_path(str(file))
    try:
        walked = walk(record, plugins())
    except TreehouseError as error:
        raise fail(f"{source}: {error}") from None
    meta = record.meta or {}
    header = record.header or {}
    seats = meta.get("seats") or header.get("seats") or []
    hooks = game_hooks(walked.variant)

    def who(seat: int) -> str:
        kind = printable(seats[seat]) if seat < len(seats) else "?"
        return f"Player {seat + 1} ({kind})"

    frames = walked.frames
    last = len(frames)
    taken_back = _taken_back(record, walked.variant, who)

    def show(index: int) -> None:
        out.print()
        if index == 0:
            out.rule(f"Start · step 0 of {last}", style="dim")
            position = walked.start
        else:
            frame = frames[index - 1]
            steps = "" if frame.step == "act" else f" · {frame.step}"
            out.rule(f"{when(frame.turn)}{steps} · step {index} of {last}", style="dim")
            rolled = ", then ".join(frame.rolls)
            line = f"{who(frame.seat)} rolled {rolled}: {frame.words}" if rolled else f"{who(frame.seat)}: {frame.words}"
            out.print(line, markup=False)
            for happened in event_lines(frame.events):
                out.print(happened, markup=False)
            position = frame.after
        out.print(hooks.treehouse_render(position, min(out.width, 80)))
        for line in taken_back.get(index, []):
            out.print(line, markup=False)
        if index == last:
            footer = record.footer
            if footer is not None:
                winners = footer.get("winners") or []
                result = f"Player {' and '.join(map(str, winners))} won" if winners else "A draw"
                final = frames[-1].events if frames else ()
                out.print(Text(game_over_line(result, footer.get("turn"), printable(footer.get("reason", "")), final), style="bold"))
            else:
                pending = f" (rolled {', '.join(walked.trailing_rolls)}, move not made)" if walked.trailing_rolls else ""
                out.print(f"The record stops here: the game was saved before it ended{pending}.", markup=False)

    title = f"{source}: {walked.variant.name}"
    if meta.get("rule_set"):
        title += f" ({meta['rule_set']} rules)"
    if meta.get("seed") is not None:
        title += f", seed {meta['seed']}"
    out.print(_escape(title) + f", {len(seats)} players, {last} steps.")
    if html is not None:
        run_guarded(_write_replay_page, html, title, walked, record, hooks, who, taken_back)
        out.print(f"Wrote the replay page to {_escape(shown_path(str(html)))} (open it in a browser).", highlight=False)
        return
    if show_all:
        for index in range(last + 1):
            show(index)
        return

    def turn_index(number: int) -> int | None:
        for index, frame in enumerate(frames, start=1):
            if frame.turn >= number:
                return index
        return None

    index = 0
    if turn is not None:
        found = turn_index(turn) if turn >= 1 else None
        if found is None:
            raise fail(f"{source} has no turn {turn}: its last turn is {frames[-1].turn if frames else 0}")
        index = found
    show(index)
    out.print(REPLAY_HELP, markup=False)
    while True:
        try:
            text = out.input("replay> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            out.print()
            return
        if text in ("", "n", "next"):
            if index >= last:
                out.print("That was the last step (p goes back, q quits).", markup=False)
                continue
            index += 1
        elif text in ("p", "prev", "previous", "b"):
            if index == 0:
                out.print("This is the start (n goes forward, q quits).", markup=False)
                continue
            index -= 1
        elif text in ("s", "start"):
            index = 0
        elif text in ("e", "end"):
            index = last
        elif text in ("?", "h", "help"):
            out.print(REPLAY_HELP, markup=False)
            continue
        elif text in ("q", "quit", "exit"):
            return
        elif text.isascii() and text.isdecimal():  # ASCII digits only: not '²', not the Arabic-Indic '٣'
            found = turn_index(int(text))
            if found is None or frames[found - 1].turn != int(text):
                out.print(f"✗ there is no turn {text}: the turns go from 1 to {frames[-1].turn if frames else 0}", style="red", markup=False)
                continue
            index = found
        else:
            out.print(f"✗ unknown command {text!r}: n next, p previous, a turn number, s start, e end, q quit", style="red", markup=False)
            continue
        show(index)
