"""A person at the terminal as a seat: the screen is drawn, the answer read from the console.

:class:`HumanSeat` implements the :class:`~treehouse.kernel.seats.Seat`
protocol.  Asked to choose, it has the table (``th play``'s session, see
:mod:`treehouse.cli.play`) draw the position, the roll and the numbered moves,
then reads a line:

* a number from the list, or a move typed in the variant's notation;
* ``?`` help, ``r`` the rules in force, ``s`` save, ``q`` save and quit;
* ``l`` every move, ``/WORDS`` the moves containing WORDS (long lists are cut short).

A typo, an illegal move or a number out of range prints one line and asks
again.  ``q`` and the end of input raise :class:`QuitGame` (the session saves
and exits); Ctrl-C raises ``KeyboardInterrupt`` as usual (likewise).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from rich.console import Console

from treehouse.errors import TreehouseError
from treehouse.kernel.engine import Control, format_move, parse_move

HELP_KEYS = ("?", "h", "help")
RULES_KEYS = ("r", "rules")
SAVE_KEYS = ("s", "save")
QUIT_KEYS = ("q", "quit", "exit")
LIST_KEYS = ("l", "list")

HELP = """\
Pick a move by its number, or type it in notation (shown after each move).
  ?   this help
  l   list every move (a long list is cut short)
  /W  list the moves whose words or notation contain W, e.g. /hop
  r   the rules in force
  s   save the game (it is also saved before each of your moves)
  q   save and quit; resume with th play --resume FILE
Ctrl-C or end of input (Ctrl-D) also saves and quits."""


class QuitGame(BaseException):
    """The person stopped the game: ``q`` or the end of input.  The session saves it.

    A ``BaseException``, like ``KeyboardInterrupt``: it is not an error, and
    it must pass through the engine's handling of plugin failures untouched.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Table(Protocol):
    """What a human seat needs from the game session around it."""

    def show_choice(self, seat: int, step: Any, face: str | None, moves: tuple) -> None: ...

    def show_rules(self) -> None: ...

    def show_moves(self, moves: tuple, numbers: list[int] | None = None, limit: int | None = ...) -> None: ...

    def find_moves(self, moves: tuple, words: str) -> None: ...

    def save(self) -> str: ...


class Mistake(Exception):
    """An answer that is not a move; the message is the one line to print."""


def read_answer(text: str, variant: Any, moves: tuple) -> Any:
    """The legal move an answer names (a 1-based number or notation), or raise :class:`Mistake`."""
    text = text.strip()
    count = len(moves)
    hint = f"type a number from 1 to {count}, a move as listed, or ? for help"
    if text.isdecimal() or (text.startswith("-") and text[1:].isdecimal()):  # isdigit() would take '²', which int() refuses
        number = int(text)
        if 1 <= number <= count:
            return moves[number - 1]
        raise Mistake(f"there is no move {number}: {hint}")
    try:
        move = parse_move(variant, text)
    except TreehouseError as error:
        raise Mistake(f"cannot read {text!r} ({error}): {hint}") from None
    except Exception as error:  # a variant's parser that raises something else is still a typo to the user
        raise Mistake(f"cannot read {text!r} ({type(error).__name__}: {error}): {hint}") from None
    if move not in moves:
        if isinstance(move, Control):
            raise Mistake(f"you cannot {move.value} now: {hint}")
        raise Mistake(f"{format_move(variant, move)!r} is not one of your moves with this roll: {hint}")
    return moves[moves.index(move)]  # the legal move itself, with its own words and notation


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
        self.table.save()  # whatever happens next, the game so far is on disk
        self.table.show_choice(self.index, step, face, moves)
        variant = self.game.variant
        while True:
            try:
                text = self.console.input(f"[bold]{self.prompt}[/bold] (1-{len(moves)}, ? help, q quit): ")
            except EOFError:
                self.console.print()
                raise QuitGame("end of input") from None
            answer = text.strip()
            if not answer:
                continue
            key = answer.lower()
            if key in HELP_KEYS:
                self.console.print(HELP, markup=False)
            elif key in RULES_KEYS:
                self.table.show_rules()
            elif key in SAVE_KEYS:
                path = self.table.save()
                self.console.print(f"Saved to {path}", markup=False)
            elif key in QUIT_KEYS:
                raise QuitGame("quit")
            elif key in LIST_KEYS:
                self.table.show_moves(moves, limit=None)
            elif key.startswith("/"):
                self.table.find_moves(moves, answer[1:])
            else:
                try:
                    return read_answer(answer, variant, moves)
                except Mistake as mistake:
                    self.console.print(f"✗ {mistake}", style="red", markup=False)
