"""A memo of pure answers about boards, found by the boards' identity: the bots' hot path.

The looking-ahead bots play hundreds of moves from one position in a row (a
WILD offers every action under every reorder of the Stack), so the same few
boards are asked about again and again: what an action does to the board,
which lines of sight a move made new, what a Stack sees along its row and
column, what a placed Stack is worth.  Each answer is a pure function of
boards and small values, some are cached by value elsewhere too
(``functools.lru_cache``), but a cache by value hashes a 49-cell board at
every question.  Here the answers about the boards in use
are found by identity instead.

It is only a memo: every answer is worked out from the arguments when it is
not there, so nothing passes through it from one hook to another that the
hook would not work out itself, and the answers are the same with or
without it (tests/fences/test_fast_paths.py compares).  An entry about a
board that is not the position's own holds that board, and is used for that
very object only (``is``), so an id reused by another board cannot match.
It is emptied whenever moves start being played from another board, or
when it grows past :data:`SIZE`: that only bounds its memory.
"""

from __future__ import annotations

#: Placed Stacks' values (and sights from squares) kept at most before they are
#: emptied (the other answers are about moves from one board, a few hundred at most).
SIZE = 1 << 13


class Memo:
    """The answers about one board the bots play moves from, and the boards those moves make."""

    __slots__ = ("board", "acts", "lines", "values", "sights")

    def __init__(self, board: tuple | None = None) -> None:
        self.board = board
        #: (seat, top colour, kind, square, arg, rule) -> what the action does to ``board`` (actions._act)
        self.acts: dict = {}
        #: id(board after) -> (board after, the line changes from ``board`` to it) (hits._line_changes)
        self.lines: dict = {}
        #: (id(board), seat, top colour, smalls) -> (board, the placed Stack's value) (evaluate)
        self.values: dict = {}
        #: (id(board), square) -> (board, the first pieces seen from the square) (hits.seen_from)
        self.sights: dict = {}


_memo = Memo()


def played_from(board: tuple) -> Memo:
    """The memo for moves played from ``board``: the same while moves are played from
    this very board, a fresh one once they are played from another."""
    global _memo
    memo = _memo
    if memo.board is not board:
        memo = _memo = Memo(board)
    return memo


def current() -> Memo:
    """The memo in use (for answers about boards found by identity, whichever position moves are played from)."""
    return _memo
