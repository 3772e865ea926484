"""Drawing a Fences position: the 7x7 frame (the 5x5 Inside in a box, the
Outside ring around it, no corners, every Outside square named on its edge),
then one line per Stack (or, once the game is over, how it ended).

Every piece is readable without colour (``NO_COLOR``): a Fence is its size,
colour letter and a glyph (``▲`` Standing, ``↑ → ↓ ←`` Pointing), a Stack is
its seat and its colour letters top first, the top one in capitals.
"""

from __future__ import annotations

from rich.text import Text

from treehouse.kernel.pieces import Direction
from treehouse.variants.fences.board import FILES, NAMES, at
from treehouse.variants.fences.position import LETTER, PLACE_PHASE, STEP_NAMES, FencesPosition

GLYPH = {Direction.UP: "▲", Direction.NORTH: "↑", Direction.EAST: "→", Direction.SOUTH: "↓", Direction.WEST: "←"}
STYLE = {
    "red": "bold red", "orange": "bold dark_orange", "yellow": "bold yellow", "green": "bold green", "blue": "bold dodger_blue1",
    "cyan": "bold cyan", "purple": "bold medium_purple", "white": "bold bright_white", "black": "bold grey42", "clear": "bold grey82",
}
CELL = 7


def _cell(state: FencesPosition, square: int | None) -> Text:
    cell = None if square is None else state.board[square]
    text = Text()
    if cell is None:
        text.append("·" if square is not None else " ", style="dim")
    elif type(cell) is int:
        stack = state.stacks[cell]
        text.append(f"{cell + 1}:", style="bold reverse" if cell == state.to_move else "bold")
        for depth, colour in enumerate(reversed(stack)):
            letter = LETTER[colour]
            text.append(letter.upper() if depth == 0 else letter, style=STYLE[colour] + (" underline" if depth == 0 else ""))
    else:
        text.append(f"{cell.size.value}{LETTER[cell.colour]}{GLYPH[cell.direction]}", style=STYLE[cell.colour])
    return text


def _padded(text: Text, width: int = CELL) -> Text:
    pad = width - text.cell_len
    left = pad // 2
    return Text(" " * left) + text + Text(" " * (pad - left))


def _names(prefix: str, margin: str) -> Text:
    """The names of one edge's Outside squares (``N1`` ... ``N5``), each over its cell."""
    return Text(margin + " " + "".join(f"{prefix}{x}".center(CELL) for x in range(1, 6)) + "\n", style="dim")


def render_board(state: FencesPosition) -> Text:
    """The frame, with every Outside square named on all four edges
    (``N1``-``N5`` above, ``S1``-``S5`` below, ``W1``-``W5`` and ``E1``-``E5``
    beside the ranks) and the files in the box's borders, so notation can be
    typed without counting."""
    out = Text()
    margin = " " * 7 + " " * CELL  # rank label and W name, west ring
    files = "".join(f"{f:─^{CELL}}" for f in FILES)
    out.append_text(_names("N", margin))
    out.append(margin + " ")
    for x in range(1, 6):
        out.append_text(_padded(_cell(state, at(x, 6))))
    out.append("\n")
    out.append(margin + "┌" + files + "┐\n")
    for y in range(5, 0, -1):
        out.append(f" {y}  W{y} ", style="dim")
        out.append_text(_padded(_cell(state, at(0, y))))
        out.append("│")
        for x in range(1, 6):
            out.append_text(_padded(_cell(state, at(x, y))))
        out.append("│")
        out.append_text(_padded(_cell(state, at(6, y))))
        out.append(f" E{y} {y}\n", style="dim")
    out.append(margin + "└" + files + "┘\n")
    out.append(margin + " ")
    for x in range(1, 6):
        out.append_text(_padded(_cell(state, at(x, 0))))
    out.append("\n")
    out.append_text(_names("S", margin))
    return out


def turn_of_check(check: int) -> int:
    """The turn (from 1) of a step check: a check counts 3 x completed turns + the step (1-3)."""
    return (check - 1) // 3 + 1


def render_position(state: FencesPosition, console_width: int = 80, over: str | None = None) -> Text:
    """The board and one line per Stack; ``over`` (the outcome's reason,
    when the game has ended) replaces the line saying who is to play."""
    text = render_board(state)
    for seat, stack in enumerate(state.stacks):
        marker = "*" if seat == state.to_move and over is None else " "
        text.append(f"{marker} Player {seat + 1}  ", style="bold")
        if not stack:
            text.append("nothing drawn yet" if state.setting_up else f"out on turn {turn_of_check(state.out[seat])}", style="dim")
        else:
            text.append(f"{NAMES[state.square_of(seat)]}  {len(stack)} high  top first: ")
            for depth, colour in enumerate(reversed(stack)):
                text.append((colour.upper() if depth == 0 else colour) + " ", style=STYLE[colour])
        lost = state.destroyed[seat]
        text.append(f"  destroyed: {''.join(LETTER[c] for c in lost) or '-'}\n", style="dim")
    aside = "".join(LETTER[c] for c in state.aside) or "-"
    if over is not None:
        text.append(f"Game over on turn {state.turn + (state.phase != 0)}: {over}; set aside: {aside}\n", style="dim")  # the turn it ended in, as th play counts
        return text
    if state.setting_up:
        doing = "to draw a small and place it" if state.phase == PLACE_PHASE else "to draw a small onto their Stack"
        text.append(f"Setup: Player {state.to_move + 1} {doing}; in the bag: {aside}\n", style="dim")
        return text
    doing = f"to play step {state.phase + 1} ({STEP_NAMES[state.phase]})"
    text.append(f"Turn {state.turn + 1}, Player {state.to_move + 1} {doing}; set aside: {aside}\n", style="dim")
    return text


def _ring_cell(state: FencesPosition, square: int) -> Text:
    """An Outside square with its name in it (``N1 Lg▲``, ``W4  ·``), so the
    compact drawing needs no rows or columns of names."""
    text = Text(NAMES[square] + " ", style="dim")
    piece = _cell(state, square)
    return text + (Text(" ") + piece + Text(" ") if piece.plain == "·" else piece)


def _seat_lines(state: FencesPosition, seat: int, over: str | None) -> list[Text]:
    """One seat in three short lines: where, its colours top first, what it lost."""
    stack = state.stacks[seat]
    marker = "*" if seat == state.to_move and over is None else " "
    head = Text(f"{marker} Player {seat + 1}", style="bold")
    if not stack:
        head.append("  " + ("no Stack yet" if state.setting_up else f"out on turn {turn_of_check(state.out[seat])}"), style="dim")
        colours = Text("")
    else:
        head.append(f" at {NAMES[state.square_of(seat)]}, {len(stack)} high")
        colours = Text("  ")
        for depth, colour in enumerate(reversed(stack)):
            colours.append((colour.upper() if depth == 0 else colour) + " ", style=STYLE[colour])
        colours.rstrip()
    lost = Text(f"  destroyed: {''.join(LETTER[c] for c in state.destroyed[seat]) or '-'}", style="dim")
    return [head, colours, lost] if stack else [head, lost]


def render_compact(state: FencesPosition, console_width: int = 80, over: str | None = None) -> Text:
    """The position in nine rows where it can (for ``th play``'s steady screen
    at 80x24, so the story of the last turn fits under it): the Outside
    squares carry their names, and the Stacks are told in a column beside the
    frame.  Whose turn and step it is the screen's header says, and how a
    finished game ended the line under it (``over`` only hides the marker of
    the seat to move)."""
    rows: list[Text] = []
    margin = " " * (CELL + 1)  # the west ring (its squares name the ranks: W5 is beside rank 5)
    files = "".join(f"{f:─^{CELL}}" for f in FILES)
    north = Text(margin + " ")
    for x in range(1, 6):
        north.append_text(_padded(_ring_cell(state, at(x, 6))))
    rows.append(north)
    rows.append(Text(margin + "┌" + files + "┐"))  # the files in the box's borders
    for y in range(5, 0, -1):
        line = _padded(_ring_cell(state, at(0, y)), CELL + 1)
        line.append("│")
        for x in range(1, 6):
            line.append_text(_padded(_cell(state, at(x, y))))
        line.append("│")
        line.append_text(_padded(_ring_cell(state, at(6, y)), CELL + 1))
        rows.append(line)
    rows.append(Text(margin + "└" + files + "┘"))
    south = Text(margin + " ")
    for x in range(1, 6):
        south.append_text(_padded(_ring_cell(state, at(x, 0))))
    rows.append(south)
    aside = "".join(LETTER[c] for c in state.aside) or "-"
    panel = [line for seat in range(len(state.stacks)) for line in _seat_lines(state, seat, over)]
    panel.append(Text(f"  {'in the bag' if state.setting_up else 'set aside'}: {aside}", style="dim"))
    panel.append(Text("  (colours top first)", style="dim"))
    for row in rows:
        row.rstrip()
    board_width = max(row.cell_len for row in rows)
    beside = console_width - board_width - 1
    text = Text()
    if len(panel) <= len(rows) and all(line.cell_len <= beside for line in panel):
        for index, row in enumerate(rows):
            text.append_text(row)
            if index < len(panel):
                text.append(" " * (board_width - row.cell_len + 1))
                text.append_text(panel[index])
            text.append("\n")
    else:  # too many seats (or too tall a Stack) for the column: the seats under the frame
        for row in [*rows, *panel]:
            text.append_text(row)
            text.append("\n")
    return text
