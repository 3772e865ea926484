"""The menu of one decision in ``th play``: the numbered choices on screen, asked as one question or two.

Moves a variant splits (:meth:`~treehouse.kernel.variant.Variant.split_choice`;
Fences' WILD: the action, then the reorder; AIM: the Fences, then their
directions) are grouped by their first part; choosing a group of several
opens the second question.  A move's words carry the variant's warning
(:meth:`~treehouse.kernel.variant.Variant.move_notes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from treehouse.kernel.engine import Control, format_move
from treehouse.kernel.resume import describe


@dataclass
class Entry:
    """One numbered line of the menu: its words, its notation, and the moves it stands for."""

    words: str
    notation: str
    moves: list = field(default_factory=list)


class Menu:
    """The numbered choices on screen for one decision.

    The first question lists every move, except that moves the variant splits
    (:meth:`Variant.split_choice`) are grouped by their first part; choosing a
    group of several opens the second question, listing the group's moves by
    their second part.  ``page`` is the page of the list being shown.
    """

    def __init__(self, variant: Any, state: Any, moves: tuple, notes: dict | None = None) -> None:
        self.variant = variant
        self.moves = moves
        #: the variant's warnings beside some moves (Variant.move_notes: what a move costs the mover)
        self.notes = notes or {}
        self.parts = [None if isinstance(move, Control) else variant.split_choice(state, move) for move in moves]
        groups: dict[str, Entry] = {}
        entries: list[Entry] = []
        for move, parts in zip(moves, self.parts):
            if parts is None:
                entries.append(Entry(self._noted(describe(variant, move), [move]), format_move(variant, move), [move]))
                continue
            entry = groups.get(parts[0])
            if entry is None:
                entry = groups[parts[0]] = Entry(parts[0], "", [])
                entries.append(entry)
            entry.moves.append(move)
        for entry in groups.values():
            if len(entry.moves) == 1:
                entry.words = describe(variant, entry.moves[0])
                entry.notation = format_move(variant, entry.moves[0])
            else:
                entry.notation = f"{len(entry.moves)} ways"
            entry.words = self._noted(entry.words, entry.moves)
        self.first = entries
        self.entries = entries
        self.opened: Entry | None = None
        self.page = 0

    @property
    def second_question(self) -> bool:
        return self.opened is not None

    def open(self, entry: Entry) -> None:
        """Ask the second question: the moves of ``entry``, by their second part."""
        by_move = dict(zip(self.moves, self.parts))
        self.opened = entry
        self.entries = [Entry(self._noted(by_move[m][1], [m]), format_move(self.variant, m), [m]) for m in entry.moves]
        self.page = 0

    def _noted(self, words: str, moves: list) -> str:
        """``words`` with the note its moves share; moves with different notes say "depends"."""
        notes = {self.notes.get(move, "") for move in moves}
        if notes == {""}:
            return words
        if len(notes) == 1:
            return f"{words} {notes.pop()}"
        return f"{words} ⚠ depends on the choice"

    def back(self) -> None:
        self.opened, self.entries, self.page = None, self.first, 0
