"""The steady screen of ``th play``: the board, the story, the roll and a page of moves on one terminal screen.

With a terminal (unless ``--plain``) each decision clears the screen and
draws the step's header, the position (compact when the usual drawing
leaves the story too little room), the story since the person's last
decision, the roll and a page of moves, fitted to the terminal's size;
help, the rules, the log and every move are shown a screenful at a time
(:func:`page_through`).  Without one (pipes, screen readers, tests)
everything is printed one after the other, a transcript.  The layout of a
list of moves is :mod:`treehouse.cli.layout`'s.
"""

from __future__ import annotations

import textwrap
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from treehouse.cli.common import shown, shown_path
from treehouse.cli.layout import fit, numbered, page_lines, paginate, text_pages
from treehouse.cli.menu import Menu
from treehouse.cli.story import roll_line, story_lines, when

#: A list of moves longer than this is cut to its first ``SHORT_LIST`` (``l`` shows all) in a transcript.
LONG_LIST = 30
SHORT_LIST = 20
#: The fewest rows of moves the steady screen shows (the board scrolls up if it must).
MIN_ROWS = 3
#: The rows of the steady screen besides the board, the story and the moves: header, roll, reply, prompt.
SCREEN_ROWS = 4
#: The rows of story a steady screen keeps room for (a bot's turn with its Hits); a drawing that leaves
#: fewer gives way to the variant's compact one.
STORY_ROWS = 8
#: The moves a search (``/WORDS``) names on the steady screen; l lists the rest.
FOUND_SHOWN = 3
#: The rows the last screen keeps under the result: the record's line and the shell's prompt after it.
ENDING_ROWS = 2


def page_through(console: Any, renderable: Any) -> None:
    """Show ``renderable`` (help, the rules, the log) on a cleared terminal a
    screenful at a time, Enter for the next, ``b`` back; then return, so the
    caller draws its screen again."""
    from rich.text import Text

    with console.capture() as captured:
        console.print(renderable, soft_wrap=False)  # wrapped at words to the width here (the console soft-wraps: the terminal would cut words)
    pages = text_pages(captured.get().rstrip("\n").split("\n"), console.height - 1)
    for number, page in enumerate(pages, start=1):
        console.clear()
        console.print(Text.from_ansi("\n".join(page)))
        last = number == len(pages)
        prompt = "Press Enter to go back to the board. " if last else f"Page {number}/{len(pages)}: Enter for more, b and Enter to go back to the board. "
        try:
            answer = console.input(prompt)
        except EOFError:
            break
        if answer.strip().lower() in ("b", "q"):
            break


def drawing(hooks: Any, state: Any, console: Console, width: int, compact: bool = False) -> Any:
    """The position drawn by the game's hooks; with ``compact`` (a steady screen), in the variant's
    compact form (``treehouse_render_compact``) when the usual one leaves fewer than ``STORY_ROWS``
    rows of the terminal for the story beside a page of moves."""
    board = hooks.treehouse_render(state, width)
    if compact and console.height - rendered_rows(console, board, width) - SCREEN_ROWS - MIN_ROWS < STORY_ROWS:
        board = hooks.treehouse_render_compact(state, width) or board
    if isinstance(board, Text):
        board.rstrip()  # a drawing's closing newline would be a blank line on a full screen
    return board

def rendered_rows(console: Console, renderable: Any, width: int) -> int:
    """How many rows ``renderable`` takes on ``console`` at ``width`` columns."""
    return len(console.render_lines(renderable, console.options.update(width=width), pad=False))


class Screen:
    """The drawing half of a :class:`~treehouse.cli.session.Session`: what the
    :class:`~treehouse.cli.human.Table` protocol shows.  It reads the session's
    ``console``, ``screen`` (a steady screen, or a transcript), ``game``,
    ``faces`` (the step's rolls so far), ``recent`` (the story since the
    person's last decision), ``history`` and ``log`` (the game so far), the rules' ``rule_set``,
    ``description`` and ``rows``, and its ``who(seat)`` (the header names
    who moves, and the others at the table where the width allows)."""

    _extra_roll_lines = 0  # the roll's words past one line, on the last screen drawn

    @property
    def width(self) -> int:
        return min(self.console.width, 80)

    def board(self) -> None:
        self.console.print(self._board())

    def _board(self) -> Any:
        return drawing(self.game.hooks, self.game.state, self.console, self.width, compact=self.screen)

    def _roll_line(self, step: Any, face: str | None, menu: Menu) -> str:
        return roll_line(self.game.hooks, self.faces, step, face, menu, board_above=True)

    def _texts(self, menu: Menu) -> list[str]:
        return numbered([entry.words for entry in menu.entries])

    def _budget(self, board_lines: int, message_lines: int, texts: list[str]) -> tuple[list[str], int]:
        """(the story's lines to show, rows of moves) that fit the terminal's height.

        The story since the person's last decision is shown in full, wrapped at
        words, as far as it fits beside the moves (which keep half the room
        when they need it, and never fewer than ``MIN_ROWS`` rows); its oldest
        lines fold into one line pointing at the log."""
        height, width = self.console.height, self.width
        fixed = SCREEN_ROWS + board_lines  # header, board, roll, one line of message, prompt
        free = height - fixed - max(0, message_lines - 1)  # a reply longer than a line takes story room first
        # the moves: the rows they need in columns, up to a page of at least a few; the story has the rest
        wanted = next((r for r in range(1, MIN_ROWS) if len(paginate(texts, width, r)) == 1), MIN_ROWS)
        story = story_lines(self.recent, width, max(free - wanted, 0))
        rows = max(wanted, free - len(story))
        return story, rows

    def _pages(self, menu: Menu, board_lines: int) -> list:
        _story, rows = self._budget(board_lines, 0, self._texts(menu))
        return paginate(self._texts(menu), self.width, rows)

    def _board_lines(self, board: Any) -> int:
        return rendered_rows(self.console, board, self.width)

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
        story, rows = self._budget(board_lines + roll_lines - 1, len(message_lines), self._texts(menu))
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
        header = f"{when(self.game.turn)}{steps} · {self.who(seat)} to move"
        against = f" · against {', '.join(self.who(s) for s in range(len(self.game.seats)) if s != seat)}"
        return header + against if len(header + against) <= self.width - 4 else header  # a rule's title fits or is cut

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
        """Every step and event of the game so far (a resumed game's from its record), a screenful at a time; then the board again (``g``)."""
        lines = [*self.history, *self.log]
        self.show_text(Text("\n".join(lines) or "Nothing has happened yet."), seat, step, face, menu)

    def show_all(self, seat: int, step: Any, face: str | None, menu: Menu) -> None:
        """Every move with its notation (``l``); on the steady screen a screenful at a time, then the board again."""
        if not self.screen:
            self.show_moves(menu, every=True)
            return
        with self.console.capture() as captured:
            self.show_moves(menu, every=True)
        self.show_text(Text.from_ansi(captured.get().rstrip("\n")), seat, step, face, menu)

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
        page_through(self.console, renderable)
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
            table.add_row(shown(words), shown(value_words(value)), shown(f"{key} ({where})"))
        guide = self.game.variant.how_to_play()
        self.show_text(Group(Text(guide), table) if guide else table, seat, step, face, menu)


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
