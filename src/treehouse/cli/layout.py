"""Laying out a list of moves on a screen of fixed size: columns, then pages.

Pure text functions, so the layout is tested without a terminal.  A page is
filled row by row down each column; a page takes as many columns as its
longest entry allows (three, two, or one), so short moves (Fences' steps)
share a screen and long ones (a WILD action) get the whole width.  An
entry longer than the width is wrapped at words under its own text, never
cut: its end says the square and the warning (⚠) a player must see.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

#: Spaces between two columns.
GAP = 2
#: The most columns a page uses.
MOST_COLUMNS = 3


@dataclass(frozen=True)
class Page:
    """Entries ``start`` to ``start + count - 1`` (0-based), in ``columns`` columns."""

    start: int
    count: int
    columns: int


def paginate(texts: list[str], width: int, rows: int) -> list[Page]:
    """Split ``texts`` into pages of at most ``rows`` lines of ``width`` columns."""
    rows = max(1, rows)
    pages: list[Page] = []
    start = 0
    while start < len(texts):
        for columns in range(MOST_COLUMNS, 0, -1):
            count = min(rows * columns, len(texts) - start)
            column_width = (width - GAP * (columns - 1)) // columns
            if columns == 1 or all(len(t) <= column_width for t in texts[start : start + count]):
                break
        if columns == 1:  # one column: as many entries as their wrapped lines fit in, at least one
            count, used = 0, 0
            while start + count < len(texts) and (count == 0 or used + len(wrapped(texts[start + count], width)) <= rows):
                used += len(wrapped(texts[start + count], width))
                count += 1
        # a page that needs fewer columns than it could use still lays out the rest in them
        pages.append(Page(start, count, columns))
        start += count
    return pages or [Page(0, 0, 1)]


def page_lines(texts: list[str], page: Page, width: int, rows: int) -> list[str]:
    """The lines of one page: its entries down the columns, each cut to fit."""
    entries = texts[page.start : page.start + page.count]
    columns = page.columns
    if columns == 1:
        return [fit(line, width) for entry in entries for line in wrapped(entry, width)][: max(1, rows)]
    depth = min(max(1, rows), -(-len(entries) // columns)) if entries else 0
    column_width = (width - GAP * (columns - 1)) // columns
    lines = []
    for row in range(depth):
        cells = []
        for column in range(columns):
            index = column * depth + row
            if index < len(entries):
                cells.append(fit(entries[index], column_width))
        lines.append((" " * GAP).join(cell.ljust(column_width) for cell in cells).rstrip())
    return lines


def wrapped(text: str, width: int) -> list[str]:
    """``text`` wrapped at words to ``width``, its later lines under its words (past ``12. ``)."""
    if len(text) <= width:
        return [text]
    number = re.match(r" *\d+\. ", text)
    indent = " " * len(number.group()) if number and len(number.group()) < width // 2 else ""
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [text]


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, with an ellipsis when cut."""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def numbered(words: list[str]) -> list[str]:
    """``1. words`` with the numbers right-aligned."""
    digits = len(str(len(words)))
    return [f"{n:>{digits}}. {w}" for n, w in enumerate(words, start=1)]


def text_pages(lines: list[str], rows: int) -> list[list[str]]:
    """Long text (help, the rules) cut into screens of at most ``rows`` lines."""
    rows = max(1, rows)
    return [lines[start : start + rows] for start in range(0, len(lines), rows)] or [[]]

