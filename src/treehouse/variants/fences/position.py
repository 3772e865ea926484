"""The Fences position and its notation.

A position is an immutable :class:`FencesPosition`: the 49 cells of the 7x7
frame (``None`` for an empty square or a corner, a
:class:`~treehouse.kernel.pieces.Pyramid` for a Fence, an ``int`` seat for a
Stack), each seat's Stack (colours bottom to top), each seat's destroyed
smalls, the smalls set aside, when each seat went out, the seat to move, the
step to play next and the number of completed turns.

Notation (seven fields separated by spaces, and an eighth when a house rule counts something)::

    BOARD STACKS DESTROYED ASIDE SEAT STEP TURN [TALLIES]

* ``BOARD``: seven rows from north to south joined by ``/``: the north
  ring ``N1..N5`` (5 cells), then ranks 5 to 1 (7 cells each: ``W``, files
  a to e, ``E``), then the south ring ``S1..S5`` (5 cells).  The corners are
  not squares and are not written.  A cell is ``.`` for an empty square,
  ``1``-``4`` for the Stack of that seat, or a Fence ``SCD``: size ``L``/``M``,
  colour ``r o y g b`` (with a Xeno set also ``c p w k t``: cyan, purple,
  white, black, clear), and ``*`` Standing or ``^ > v <`` Pointing north,
  east, south, west.
* ``STACKS``: per seat, comma-separated, the Stack's colours bottom to top
  (``rgby``), or ``x<check>`` for a seat that is out (``check`` counts the
  step checks of the game: 3 x completed turns + the step 1-3).
* ``DESTROYED``: per seat, comma-separated, the smalls Damage removed (``-``: none).
* ``ASIDE``: the smalls set aside at setup (``-``: none).
* ``SEAT``: the seat to move, from 1.  ``STEP``: ``fence``, ``act``, ``stack``,
  or during the setup ``place`` or ``draw``.
* ``TURN``: completed turns.
* ``TALLIES`` (only when a house rule keeps a count): ``name:1,0`` per
  count, separated by ``;`` (``wild-repair:1,0``): the per-seat counts of
  :meth:`FencesPosition.counted`.

The setup (``start: chosen``, the seed's) is a series of setup steps before
the first turn: each seat in turn draws a small blind and places it on the
board (``place``), then the draws go on round the table onto the Stacks
(``draw``).  During it ``STACKS`` shows ``-`` for a seat that has drawn
nothing yet and ``ASIDE`` holds the smalls still in the bag (afterwards,
those set aside).  See :func:`_check_setup`.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple

from treehouse.errors import IllegalPositionError, NotationError
from treehouse.kernel.pieces import Direction, Pyramid, Size
from treehouse.variants.fences.board import INSIDE, SIZE, SQUARES, at, square_name

#: The Rainbow colour scheme of a Treehouse set; two sets of one scheme give two of each.
COLOURS = ("red", "orange", "yellow", "green", "blue")
#: The Xeno scheme: a Rainbow set with a Xeno set gives ten colours, one of each (``sets: rainbow-xeno``).
XENO = ("cyan", "purple", "white", "black", "clear")
ALL_COLOURS = COLOURS + XENO
LETTER = {
    "red": "r", "orange": "o", "yellow": "y", "green": "g", "blue": "b",
    "cyan": "c", "purple": "p", "white": "w", "black": "k", "clear": "t",
}
COLOUR_OF = {letter: name for name, letter in LETTER.items()}
LETTERS = " ".join(LETTER.values())
RANK = {c: i for i, c in enumerate(ALL_COLOURS)}
#: The two Treehouse sets the game needs (10 large, 10 medium, 10 small), by
#: rule option ``sets``: each colour and how many pieces of each size have it.
SETS = {"two-rainbow": {c: 2 for c in COLOURS}, "rainbow-xeno": {c: 1 for c in ALL_COLOURS}}
FENCE_SIZES = (Size.LARGE, Size.MEDIUM)
#: With two sets of one scheme each Fence (size, colour) is in the game twice; so is each small colour.
COPIES = 2


def sets_of(colours) -> str:
    """Which two sets pieces of these colours come from: ``rainbow-xeno`` if any is a Xeno colour."""
    return "rainbow-xeno" if any(c in XENO for c in colours) else "two-rainbow"


def pieces(sets: str) -> list[str]:
    """The colours of one size of piece in ``sets``, each as often as it is there, in order."""
    return [c for c, n in SETS[sets].items() for _ in range(n)]
#: The steps a position may be at: a turn's three, then the setup's two
#: (``start: chosen``): draw a small and place it, draw a small onto the Stack.
STEP_NAMES = ("fence", "act", "stack", "place", "draw")
PLACE_PHASE = STEP_NAMES.index("place")
DRAW_PHASE = STEP_NAMES.index("draw")
SETUP_STEPS = STEP_NAMES[PLACE_PHASE:]

GLYPH = {Direction.UP: "*", Direction.NORTH: "^", Direction.EAST: ">", Direction.SOUTH: "v", Direction.WEST: "<"}
DIRECTION_OF = {g: d for d, g in GLYPH.items()}

def fence(size: Size, direction: Direction, colour: str) -> Pyramid:
    return Pyramid(size, direction, colour)


#: A named tuple made from its fields without the class's own ``__new__`` or
#: ``_replace`` (Python code run per call): what a rule makes for every move a
#: bot looks at is made this way (:func:`turned`, :meth:`FencesPosition.with_board`).
from_fields = tuple.__new__


def turned(piece: Pyramid, direction: Direction) -> Pyramid:
    """The Fence turned to stand (``UP``) or point ``direction``."""
    return from_fields(Pyramid, (piece[0], direction, piece[2]))


class FencesPosition(NamedTuple):
    board: tuple  # 49 cells: None | Pyramid (a Fence) | int (the seat whose Stack stands there)
    stacks: tuple  # per seat: colours bottom to top; () once out
    destroyed: tuple  # per seat: the smalls Damage removed, sorted
    aside: tuple  # smalls set aside at setup, sorted
    out: tuple  # per seat: 0 while in, else the check at which the Stack was emptied
    to_move: int = 0
    phase: int = 0  # the step to play next: 0 fence, 1 act, 2 stack; in the setup 3 place, 4 draw
    turn: int = 0  # completed turns
    #: What house rules count across a game, per seat: ``(("wild-repair", (1, 0)), ...)``, sorted by name.
    tallies: tuple = ()

    @property
    def players(self) -> int:
        return len(self.stacks)

    @property
    def step_name(self) -> str:
        return STEP_NAMES[self.phase]

    @property
    def setting_up(self) -> bool:
        """Is the position in the setup (a ``place`` or ``draw`` step)?"""
        return self.phase >= PLACE_PHASE

    def square_of(self, seat: int) -> int | None:
        """Where the seat's Stack stands (None once it is out, or before its first small is placed)."""
        if not self.stacks[seat]:
            return None
        return self.board.index(seat)

    def unplaced(self) -> tuple[int, ...]:
        """The seats that have not placed their Stack yet (only during the setup)."""
        if not self.setting_up:
            return ()
        return tuple(i for i, s in enumerate(self.stacks) if not s)

    def live(self) -> tuple[int, ...]:
        """The seats whose Stack is in (placed, or drawing during the setup), in seat order."""
        return tuple([i for i, s in enumerate(self.stacks) if s])

    # ``_replace`` for the fields the rules change on every move, at a third of its cost
    def with_board(self, board: tuple) -> FencesPosition:
        """The position with ``board``: ``_replace(board=board)``."""
        return from_fields(FencesPosition, (board, *self[1:]))

    def with_stacks(self, stacks: tuple) -> FencesPosition:
        """The position with ``stacks``: ``_replace(stacks=stacks)``."""
        return from_fields(FencesPosition, (self[0], stacks, *self[2:]))

    def at_step(self, phase: int, turn: int) -> FencesPosition:
        """The position at step ``phase`` after ``turn`` completed turns: ``_replace(phase=phase, turn=turn)``."""
        board, stacks, destroyed, aside, out, to_move, _phase, _turn, tallies = self
        return from_fields(FencesPosition, (board, stacks, destroyed, aside, out, to_move, phase, turn, tallies))

    def tally(self, name: str) -> tuple[int, ...]:
        """A house rule's per-seat count (zeros when it has counted nothing yet)."""
        for key, counts in self.tallies:
            if key == name:
                return counts
        return (0,) * len(self.stacks)

    def counted(self, name: str, seat: int, add: int = 1) -> FencesPosition:
        """The position with ``add`` more on ``seat``'s count ``name``: how a
        house rule remembers something across turns (``wild-repair`` counts
        repairs), in the position itself, so replay and resume rebuild it."""
        counts = list(self.tally(name))
        counts[seat] += add
        return self._with_tally(name, tuple(counts))

    def reset_tally(self, name: str, seat: int | None = None) -> FencesPosition:
        """The position with ``seat``'s count ``name`` back to 0 (every seat's
        when ``seat`` is ``None``): how a rule forgets, e.g. a memory that
        lasts until the seat's next turn (docs/fences-api.md)."""
        counts = [0 if seat is None or other == seat else count for other, count in enumerate(self.tally(name))]
        return self._with_tally(name, tuple(counts))

    def _with_tally(self, name: str, counts: tuple[int, ...]) -> FencesPosition:
        # a count of all zeros is no tally: the notation leaves it out, so the position leaves it out too
        tallies = dict(self.tallies)
        tallies[name] = counts
        kept = tuple(sorted((key, value) for key, value in tallies.items() if any(value)))
        return self if kept == self.tallies else self._replace(tallies=kept)


def sort_colours(colours) -> tuple[str, ...]:
    return tuple(sorted(colours, key=RANK.__getitem__))


def fence_token(piece: Pyramid) -> str:
    return f"{piece.size.value}{LETTER[piece.colour]}{GLYPH[piece.direction]}"


def colours_text(colours) -> str:
    return "".join(LETTER[c] for c in colours) or "-"


def format_position(state: FencesPosition) -> str:
    rows = []
    for y in range(SIZE - 1, -1, -1):
        cells = []
        for x in range(SIZE):
            square = at(x, y)
            if square is None:
                continue  # a corner
            cell = state.board[square]
            if cell is None:
                cells.append(".")
            elif isinstance(cell, int):
                cells.append(str(cell + 1))
            else:
                cells.append(fence_token(cell))
        rows.append("".join(cells))
    stacks = ",".join(
        "".join(LETTER[c] for c in stack) if stack else f"x{out}" if out else "-" for stack, out in zip(state.stacks, state.out)
    )
    destroyed = ",".join(colours_text(d) for d in state.destroyed)
    fields = ["/".join(rows), stacks, destroyed, colours_text(state.aside), str(state.to_move + 1), state.step_name, str(state.turn)]
    if state.tallies:
        fields.append(";".join(f"{name}:{','.join(map(str, counts))}" for name, counts in state.tallies))
    return " ".join(fields)


_CELL = re.compile(r"([LM][roygbcpwkt][*^>v<])|([1-9])|(\.)")
FIELDS = "BOARD STACKS DESTROYED ASIDE SEAT STEP TURN"


def _colours(text: str, what: str) -> tuple[str, ...]:
    if text == "-":
        return ()
    bad = [ch for ch in text if ch not in COLOUR_OF]
    if bad:
        raise NotationError(f"bad colour {bad[0]!r} in {what} {text!r}: expected letters from {LETTERS}, or '-' for none")
    return tuple(COLOUR_OF[ch] for ch in text)


def parse_position(text: str) -> FencesPosition:
    """Read the notation; structural faults raise :class:`NotationError`,
    rule faults (counts, places) :class:`IllegalPositionError`."""
    fields = text.split()
    if len(fields) not in (7, 8):
        raise NotationError(f"a fences position has 7 fields ({FIELDS}), and an eighth for tallies, not {len(fields)}: {text.strip()[:60]!r}")
    board_text, stacks_text, destroyed_text, aside_text, seat_text, step_text, turn_text = fields[:7]

    rows = board_text.split("/")
    if len(rows) != SIZE:
        raise NotationError(f"the board has {len(rows)} rows separated by '/': expected 7, north (N1..N5) first")
    board: list = [None] * (SIZE * SIZE)
    digits: dict[int, list[int]] = {}
    for row_number, row in enumerate(rows):
        y = SIZE - 1 - row_number
        cells, pos = [], 0
        while pos < len(row):
            match = _CELL.match(row, pos)
            if match is None:
                raise NotationError(
                    f"bad cell {row[pos:pos + 3]!r} in board row {row_number + 1} ({row!r}): expected '.', a seat digit"
                    f" or a fence like 'Lr*' (size L/M, colour {LETTERS}, * ^ > v <)"
                )
            cells.append(match)
            pos = match.end()
        squares = [s for s in (at(x, y) for x in range(SIZE)) if s is not None]
        if len(cells) != len(squares):
            what = "the north ring N1..N5" if y == SIZE - 1 else "the south ring S1..S5" if y == 0 else f"rank {y} (W{y}, a{y}..e{y}, E{y})"
            raise NotationError(f"board row {row_number + 1} ({row!r}) has {len(cells)} cells: expected {len(squares)}, for {what}")
        for square, match in zip(squares, cells):
            token = match.group(0)
            if match.group(1):
                board[square] = fence(Size(token[0]), DIRECTION_OF[token[2]], COLOUR_OF[token[1]])
            elif match.group(2):
                seat = int(token) - 1
                board[square] = seat
                digits.setdefault(seat, []).append(square)

    stacks, outs = [], []
    for entry in stacks_text.split(","):
        if entry.startswith("x"):
            try:
                check = int(entry[1:])
            except ValueError:
                raise NotationError(f"bad out-marker {entry!r} in STACKS: expected 'x' and the check number, e.g. 'x7'") from None
            if check < 1:
                raise IllegalPositionError(f"out-marker {entry!r}: the check number starts at 1")
            stacks.append(())
            outs.append(check)
        else:
            if entry == "" or (entry == "-" and step_text not in SETUP_STEPS):
                raise IllegalPositionError(
                    f"an empty Stack in STACKS {stacks_text!r}: a seat that is out is written 'x<check>'"
                    " ('-', nothing drawn yet, only during the setup)"
                )
            stacks.append(_colours(entry, "STACKS"))
            outs.append(0)
    destroyed = [sort_colours(_colours(d, "DESTROYED")) for d in destroyed_text.split(",")]
    if len(destroyed) != len(stacks):
        raise NotationError(f"DESTROYED {destroyed_text!r} has {len(destroyed)} entries but STACKS has {len(stacks)}: one per seat")
    aside = sort_colours(_colours(aside_text, "ASIDE"))
    try:
        to_move = int(seat_text) - 1
    except ValueError:
        raise NotationError(f"bad seat to move {seat_text!r}: expected a number from 1 to {len(stacks)}") from None
    if step_text not in STEP_NAMES:
        raise NotationError(f"bad step {step_text!r}: expected one of {', '.join(STEP_NAMES)}")
    try:
        turn = int(turn_text)
    except ValueError:
        raise NotationError(f"bad turn count {turn_text!r}: expected a whole number") from None

    players = len(stacks)
    if not 0 <= to_move < players:
        raise IllegalPositionError(f"seat {to_move + 1} is to move, but there are {players} seats")
    if turn < 0:
        raise IllegalPositionError(f"the turn count {turn} is negative")
    for seat, squares in sorted(digits.items()):
        if seat >= players:
            raise IllegalPositionError(f"a Stack of seat {seat + 1} stands at {square_name(squares[0])}, but there are {players} seats")
        if len(squares) > 1:
            raise IllegalPositionError(f"seat {seat + 1} has Stacks at {', '.join(square_name(s) for s in squares)}: one Stack each")
        if squares[0] not in INSIDE:
            raise IllegalPositionError(f"seat {seat + 1}'s Stack is at {square_name(squares[0])}, Outside: Stacks are only ever Inside")
    for seat, stack in enumerate(stacks):
        if stack and seat not in digits:
            raise IllegalPositionError(f"seat {seat + 1} has a Stack ({colours_text(stack)}) but no square on the board")
        if not stack and seat in digits:
            what = "has drawn nothing yet" if step_text in SETUP_STEPS else "is out"
            raise IllegalPositionError(f"seat {seat + 1} {what} but its digit stands at {square_name(digits[seat][0])}")

    fences = Counter((c.size, c.colour) for c in board if isinstance(c, Pyramid))
    smalls = Counter(c for stack in stacks for c in stack) + Counter(c for d in destroyed for c in d) + Counter(aside)
    sets = sets_of(list(smalls) + [colour for _size, colour in fences])
    which = "two sets of one scheme" if sets == "two-rainbow" else "a Rainbow and a Xeno set"
    for size in FENCE_SIZES:
        for colour in ALL_COLOURS:
            wanted = SETS[sets].get(colour, 0)
            if fences[size, colour] != wanted:
                raise IllegalPositionError(
                    f"the board has {fences[size, colour]} {size.name.lower()} {colour} Fences: with {which}"
                    f" each size and colour is on the board exactly {wanted} times"
                )
    for colour in ALL_COLOURS:
        wanted = SETS[sets].get(colour, 0)
        if smalls[colour] != wanted:
            raise IllegalPositionError(
                f"{smalls[colour]} small {colour} pyramids in Stacks, destroyed and aside: with {which} there are exactly {wanted} of each colour"
            )
    tallies = _tallies(fields[7], len(stacks)) if len(fields) == 8 else ()
    state = FencesPosition(
        tuple(board), tuple(stacks), tuple(destroyed), aside, tuple(outs), to_move, STEP_NAMES.index(step_text), turn, tallies
    )
    if state.setting_up:
        _check_setup(state)
    return state


#: The corner opposite each corner (two players place on opposite corners).
OPPOSITE_CORNER = {"a1": "e5", "e5": "a1", "a5": "e1", "e1": "a5"}


_TALLY = re.compile(r"^([a-z][a-z0-9-]*):(\d+(?:,\d+)*)$")


def _tallies(text: str, players: int) -> tuple:
    """The TALLIES field: ``name:1,0;other:0,2``, one count per seat, names sorted and distinct."""
    found = {}
    for part in text.split(";"):
        match = _TALLY.match(part)
        if match is None:
            raise NotationError(f"bad tally {part!r} in TALLIES: expected name:count,count (one count per seat), e.g. wild-repair:1,0")
        name, counts = match.group(1), tuple(int(c) for c in match.group(2).split(","))
        if len(counts) != players:
            raise IllegalPositionError(f"tally {name!r} has {len(counts)} counts: one per seat, {players}")
        if name in found:
            raise NotationError(f"tally {name!r} is written twice")
        found[name] = counts
    if list(found) != sorted(found):
        raise NotationError(f"TALLIES {text!r}: write the tallies sorted by name")
    if all(not any(counts) for counts in found.values()):
        raise NotationError(f"TALLIES {text!r} counts nothing: leave the field out")
    return tuple(found.items())


def drawn(state: FencesPosition) -> int:
    """How many smalls the setup has drawn so far (all of them in the Stacks)."""
    return sum(len(stack) for stack in state.stacks)


def _check_setup(state: FencesPosition) -> None:
    """A setup position is one the setup reaches: the draws go round the
    table from the first player (option ``first_player``), one small each, so
    after ``k`` draws the seat ``k`` places after the first is to draw and
    the Stacks differ in height by at most one, the taller ones from the
    first player on; a seat places (``place``) its first small and draws
    (``draw``) the others; nothing has moved yet, so no turn is complete,
    every Fence Stands on the Outside and no small is lost; with two players
    the Stacks are on opposite corners."""
    players, seat = state.players, state.to_move
    if state.turn != 0:
        raise IllegalPositionError(f"the setup comes before the first turn, so TURN must be 0, not {state.turn}")
    if any(state.out) or any(state.destroyed):
        raise IllegalPositionError("the setup comes before any Hit: no seat can be out or have destroyed smalls")
    for square, cell in enumerate(state.board):
        if cell is not None and type(cell) is not int and (square in INSIDE or cell.direction is not Direction.UP):
            raise IllegalPositionError(
                f"the Fence at {square_name(square)} has moved: during the setup every Fence Stands on the Outside"
            )
    count = drawn(state)
    rounds, extra = divmod(count, players)
    first = (seat - count) % players  # the seat the draws began with, if seat draws next
    heights = [rounds + (1 if (other - first) % players < extra else 0) for other in range(players)]
    if [len(stack) for stack in state.stacks] != heights:
        raise IllegalPositionError(
            f"after {count} draws with seat {seat + 1} to draw next the Stacks are {', '.join(map(str, heights))} high:"
            f" the setup's draws go round the table from the first player (here seat {first + 1}), one small each"
        )
    wanted = "place" if not state.stacks[seat] else "draw"
    if state.step_name != wanted:
        raise IllegalPositionError(
            f"seat {seat + 1} {'has no' if wanted == 'place' else 'has a'} Stack yet, so its setup step is {wanted}, not {state.step_name}"
        )
    if players == 2:
        placed = [(s, square_name(state.board.index(s))) for s in range(2) if state.stacks[s]]
        for s, square in placed:
            if square not in OPPOSITE_CORNER:
                raise IllegalPositionError(f"seat {s + 1}'s Stack is at {square}: with two players the Stacks start on opposite corners")
        if len(placed) == 2 and OPPOSITE_CORNER[placed[0][1]] != placed[1][1]:
            raise IllegalPositionError(
                f"seat 2's Stack is at {placed[1][1]}: with two players it goes on the corner opposite seat 1's, {OPPOSITE_CORNER[placed[0][1]]}"
            )


def all_cells(state: FencesPosition):
    """(square, cell) for every square of the frame."""
    return ((s, state.board[s]) for s in SQUARES)
