"""A person at the terminal as a seat: the screen is drawn, the answer read from the console.

:class:`HumanSeat` implements the :class:`~treehouse.kernel.seats.Seat`
protocol.  Asked to choose, it has the table (``th play``'s session, see
:mod:`treehouse.cli.session`) draw the position, the roll and the numbered moves,
then reads a line:

* a number from the list, or a move typed in the variant's notation;
* ``u`` take back to your previous decision, ``h`` a hint from the strongest bot;
* ``?`` help, ``r`` the rules in force, ``s`` save, ``q`` save and quit;
* ``g`` the game so far (every step and event, paged);
* ``+`` / ``-`` the next or previous page of moves, ``l`` every move with
  its notation (a screenful at a time), ``/WORDS`` the moves containing WORDS.

Moves a variant splits into two questions (Fences' WILD: the action, then the
reorder; :meth:`~treehouse.kernel.variant.Variant.split_choice`) are asked as
two questions; ``b`` goes back to the first.  A move with no alternative plays
itself (the table announces it) unless the table asks for every move.

A typo, an illegal move or a number out of range prints one line and asks
again; an illegal move says which rule it breaks when the variant can tell
(the ``treehouse_explain_illegal`` hook).  ``q`` and the end of input raise
:class:`QuitGame` (the session saves and exits); ``u`` raises
:class:`TakeBack` (the session rewinds); Ctrl-C raises ``KeyboardInterrupt``
as usual (the session saves and exits).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from rich.console import Console

from treehouse.cli.menu import Menu
from treehouse.errors import TreehouseError
from treehouse.kernel.engine import Control, format_move, parse_move

HELP_KEYS = ("?", "help")
HINT_KEYS = ("h", "hint")
UNDO_KEYS = ("u", "undo", "takeback")
RULES_KEYS = ("r", "rules")
SAVE_KEYS = ("s", "save")
QUIT_KEYS = ("q", "quit", "exit")
LIST_KEYS = ("l", "list")
LOG_KEYS = ("g", "log")
NEXT_PAGE_KEYS = ("+", "n", "more")
PREVIOUS_PAGE_KEYS = ("-", "p")
BACK_KEYS = ("b", "back")

HELP = """\
Pick a move by its number, or type it in notation (l shows the notation).
  u   take back: go back to your previous decision
  h   hint: what the strongest bot would play, and why
  + - the next / previous page of moves     l  every move, with notation, paged
  g   the game so far: every step and event, a screenful at a time
  /W  the moves whose words or notation contain W, e.g. /hop
  b   back to the first question (after choosing a WILD action)
  r   the rules in force    ?  this help
  s   save (the game is also saved before each of your moves)
  q   save and quit; resume with th play --resume FILE (Ctrl-C, Ctrl-D too)"""


class QuitGame(BaseException):
    """The person stopped the game: ``q`` or the end of input.  The session saves it.

    A ``BaseException``, like ``KeyboardInterrupt``: it is not an error, and
    it must pass through the engine's handling of plugin failures untouched.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class TakeBack(BaseException):
    """The person asked to take back their last decision (``u``); the session rewinds.

    A ``BaseException`` for the same reason as :class:`QuitGame`: it is
    control flow through the engine, not a plugin's failure.
    """


class Table(Protocol):
    """What a human seat needs from the game session around it."""

    #: Play a move with no alternative without asking (and announce it).
    auto_forced: bool

    def show_choice(self, seat: int, step: Any, face: str | None, menu: Menu, message: str = "") -> None: ...

    def show_text(self, text: Any, seat: int, step: Any, face: str | None, menu: Menu) -> None: ...

    def show_rules(self, seat: int, step: Any, face: str | None, menu: Menu) -> None: ...

    def show_all(self, seat: int, step: Any, face: str | None, menu: Menu) -> None: ...

    def show_log(self, seat: int, step: Any, face: str | None, menu: Menu) -> None: ...

    def find_moves(self, menu: Menu, words: str) -> str: ...

    def page_count(self, menu: Menu) -> int: ...

    def hint(self, seat: int, state: Any, step: Any, face: str | None, menu: Menu) -> str: ...

    def take_back(self, seat: int) -> str: ...

    def forced(self, seat: int, move: Any) -> None: ...

    def save(self) -> str: ...


class Mistake(Exception):
    """An answer that is not a move; the message is the one line to print."""


def read_number(text: str, count: int) -> int | None:
    """The 1-based number an answer picks, ``None`` if it is not a number; :class:`Mistake` out of range."""
    text = text.strip()
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdecimal()):  # ASCII digits only: not '²', not the Arabic-Indic '٣'
        return None
    number = int(text)
    if 1 <= number <= count:
        return number
    raise Mistake(f"there is no move {number}: type a number from 1 to {count}, a move, or ? for help")


def read_move(text: str, variant: Any, moves: tuple, explain: Any = None, where: str = "with this roll") -> Any:
    """The legal move ``text`` names in the variant's notation, or raise :class:`Mistake`
    (one line; ``explain(move)`` says which rule an illegal move breaks, or ``None``;
    ``where`` says which moves these are when it cannot: "with this roll", "in this step")."""
    text = text.strip()
    try:
        move = parse_move(variant, text)
    except TreehouseError as error:
        # the variant's words reach the person whole, as it wrote them (even where
        # they quote the move again): cutting them could cut what they explain
        raise Mistake(f"cannot read {text!r}: {error}") from None
    except Exception as error:  # a variant's parser that raises something else is still a typo to the user
        raise Mistake(f"cannot read {text!r}: {type(error).__name__}: {error}") from None
    if move not in moves:
        if isinstance(move, Control):
            raise Mistake(f"you cannot {move.value} now")
        notation = format_move(variant, move)
        reason = explain(move) if explain is not None else None
        if reason:
            raise Mistake(f"{notation}: {reason}")
        raise Mistake(f"{notation!r} is not one of your moves {where}")
    return moves[moves.index(move)]  # the legal move itself, with its own words and notation


def moves_where(step: Any, face: str | None) -> str:
    """Which moves a decision offers, for the line refusing one: a setup step draws, it does not roll."""
    if getattr(step, "setup", False):
        return "with this draw" if face is not None else "in the setup"
    return "with this roll" if face is not None else "in this step"


class HumanSeat:
    """A person choosing at the console (see the module docstring)."""

    name = "human"

    def __init__(self, table: Table, console: Console, prompt: str = "Your move") -> None:
        self.table = table
        self.console = console
        self.prompt = prompt
        self.game: Any = None
        self.index = 0

    def seated(self, game: Any, index: int) -> None:
        self.game, self.index = game, index

    def choose(self, state: Any, step: Any, face: str | None, moves: tuple, rng: random.Random) -> Any:
        table = self.table
        table.save()  # whatever happens next, the game so far is on disk
        if len(moves) == 1 and table.auto_forced:
            table.forced(self.index, moves[0])
            return moves[0]
        variant = self.game.variant
        hooks = self.game.hooks
        menu = Menu(variant, state, moves, variant.move_notes(state, step, moves, hooks))

        def explain(move: Any) -> str | None:
            try:
                return hooks.treehouse_explain_illegal(state, step, face, move, moves)
            except Exception:  # a plugin's explanation failing must not end the game: say less
                return None

        show = lambda message="": table.show_choice(self.index, step, face, menu, message)  # noqa: E731
        show()
        while True:
            pages = table.page_count(menu)
            last = menu.page + 1 == pages  # + from the last page goes round to the first
            where = f"page {menu.page + 1}/{pages}, {'+ first page' if last else '+ more'}, " if pages > 1 else ""
            question = "choice" if menu.second_question else "move"  # the second question of a split move (WILD: the order; AIM: the directions)
            try:
                text = self.console.input(f"[bold]{self.prompt}[/bold] ({question} 1-{len(menu.entries)}, {where}? help, q quit): ")
            except EOFError:
                self.console.print()
                raise QuitGame("end of input") from None
            answer = text.strip()
            if not answer:
                continue
            key = answer.lower()
            if key in HELP_KEYS:
                legend = variant.legend()
                table.show_text(f"{HELP}\n\n{legend}" if legend else HELP, self.index, step, face, menu)
            elif key in RULES_KEYS:
                table.show_rules(self.index, step, face, menu)
            elif key in SAVE_KEYS:
                show(f"Saved to {table.save()}")
            elif key in QUIT_KEYS:
                raise QuitGame("quit")
            elif key in UNDO_KEYS:
                show(table.take_back(self.index))  # raises TakeBack when there is something to take back
            elif key in HINT_KEYS:
                show(table.hint(self.index, state, step, face, menu))
            elif key in LOG_KEYS:
                table.show_log(self.index, step, face, menu)
            elif key in LIST_KEYS:
                table.show_all(self.index, step, face, menu)
            elif key in NEXT_PAGE_KEYS or key in PREVIOUS_PAGE_KEYS:
                step_by = 1 if key in NEXT_PAGE_KEYS else -1
                menu.page = (menu.page + step_by) % pages
                show()
            elif key in BACK_KEYS and menu.second_question:
                menu.back()
                show()
            elif key.startswith("/"):
                show(table.find_moves(menu, answer[1:]))
            else:
                try:
                    number = read_number(answer, len(menu.entries))
                    if number is None:
                        return read_move(answer, variant, moves, explain, moves_where(step, face))
                except Mistake as mistake:
                    show(f"✗ {mistake}")
                    continue
                entry = menu.entries[number - 1]
                if len(entry.moves) == 1:
                    return entry.moves[0]
                menu.open(entry)
                show()
