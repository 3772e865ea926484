"""Fences moves as integer ids, and positions as a vector of numbers (docs/interop.md).

A move's id names what it does, not which Fence it names: the Fence is the
one on the square, so ids stay the same from position to position.  Squares
are numbered 0-44 in board order (:data:`~treehouse.variants.fences.board.SQUARES`,
south-west first), the four directions ``n e s w`` are 0-3, and the five
orientations ``up n e s w`` are 0-4.  An action (step 2) without WILD is one of

====================  =======  ==========================================
kind                  ids      id
====================  =======  ==========================================
tip FENCE DIR         0-179    square * 4 + direction
swap FENCE            180-224  180 + square
hop FENCE             225-269  225 + square
hopfence FENCE        270-314  270 + square
dig                   315      315
dig +COLOUR           316-320  316 + colour (r o y g b)
fail                  321      321
aim TURNS             322-1617 322 + sum over the Fences turned of
                               (1 + orientation) * 6 ** k, where k is the
                               direction (n e s w) from the Stack to the Fence
====================  =======  ==========================================

that is ``A = 1618`` ids.  After them come the moves of the other steps:
``move FENCE SQUARE`` (step 1) at ``A + square * 4 + direction moved``
(180 ids), ``step DIR`` (step 3) at ``A + 180 + direction``, and the
setup's (``start: chosen``) ``place COLOUR SQUARE`` at ``A + 184 + square``
and ``draw COLOUR`` at ``A + 229`` (the colour is the chance node's outcome
just drawn, so the id leaves it out): ``B = A + 230`` ids.
A WILD action ``wild:ORDER ACTION`` is ``B + perm * A + id(ACTION)``, where
``perm`` is the rank (lexicographic, 0 to h! - 1, h the Stack height at
setup) of the reordering as a permutation of the h places bottom to top
(places above a shorter Stack stay put; where colours repeat, the first such
permutation).  ``wild:2134 tip b3 e``: the two bottom smalls change places.

The observation for a seat is, per square of the 7x7 frame (49 cells,
corners empty; the square's index ``y * 7 + x``), ``14 + players`` numbers:
a Large Fence, a Medium Fence, its orientation (5, one-hot), its colour (5,
one-hot), the square is off the board (a corner), the square is Inside, and
the Stack of each seat (counted from the observer); then for each seat from
the observer on, its Stack bottom to top (h x 5 colours one-hot, h the height
at setup), its destroyed smalls by colour (5 counts), whether it is out (1)
and the check it went out at (a count, 0 while in: who went out last decides a
tie); then the smalls set aside by colour (5 counts), the step to play next
(``fence act stack place draw``, one-hot), the seat to move counted from the
observer (one-hot) and the completed turns (a count: the turn limit and the
turn cap read it).  That is the whole position but a house rule's tallies;
a rule that keeps one adds them with an ``observation`` of its own
(:class:`TallyObservation`; docs/interop.md, "What an observation holds").
"""

from __future__ import annotations

from functools import lru_cache
from math import factorial

import numpy as np

from treehouse.errors import PluginError
from treehouse.kernel.pieces import Direction, Size
from treehouse.variants.fences.board import COMPASS, INSIDE, NAMES, NEIGHBOUR, SQUARES
from treehouse.variants.fences.position import COLOURS, LETTER, STEP_NAMES

SQUARE_INDEX = {square: i for i, square in enumerate(SQUARES)}
ORIENTATIONS = (Direction.UP, *COMPASS)
DIR_WORD = ("n", "e", "s", "w")
ORIENT_WORD = ("up", "n", "e", "s", "w")
COLOUR_INDEX = {colour: i for i, colour in enumerate(COLOURS)}
SQUARES_N = len(SQUARES)

TIP, SWAP, HOP, HOPFENCE = 0, 180, 225, 270
DIG, RESTORE, FAIL, AIM = 315, 316, 321, 322
ACTION_IDS = AIM + 6**4  # A
MOVE = ACTION_IDS
STEP = MOVE + SQUARES_N * 4
PLACE = STEP + 4
DRAW = PLACE + SQUARES_N
BASE_IDS = DRAW + 1  # B


def _perm_rank(perm: list[int]) -> int:
    """The lexicographic rank of a permutation of ``range(len(perm))``."""
    rank, left = 0, sorted(perm)
    for i, p in enumerate(perm):
        j = left.index(p)
        rank += j * factorial(len(perm) - 1 - i)
        left.pop(j)
    return rank


def _perm_of_rank(rank: int, n: int) -> list[int]:
    left, perm = list(range(n)), []
    for i in range(n):
        j, rank = divmod(rank, factorial(n - 1 - i))
        perm.append(left.pop(j))
    return perm


@lru_cache(maxsize=4096)
def order_rank(stack: tuple, order: tuple, height: int) -> int:
    """The rank of the first permutation of ``stack``'s places that gives
    ``order``, among the permutations of ``height`` places (a shorter Stack
    leaves the places above it where they are).  Remembered: a WILD
    decision asks it for every action after each reorder, of a few Stacks."""
    used, perm = set(), []
    for colour in order:
        j = next(j for j, c in enumerate(stack) if c == colour and j not in used)
        used.add(j)
        perm.append(j)
    return _perm_rank(perm + list(range(len(perm), height)))


def _direction_between(a: int, b: int) -> int:
    for k, d in enumerate(COMPASS):
        if NEIGHBOUR[a][d] == b:
            return k
    raise PluginError(f"fences encoding: {NAMES[b]} is not next to {NAMES[a]}")


class FencesActions:
    """The ids of Fences moves for one player count (see the module's docstring)."""

    def __init__(self, height: int) -> None:
        self.height = height
        self.size = BASE_IDS + factorial(height) * ACTION_IDS

    def _action(self, position, move) -> int:
        kind = move.kind
        if kind == "tip":
            return TIP + SQUARE_INDEX[move.square] * 4 + COMPASS.index(move.arg)
        if kind == "swap":
            return SWAP + SQUARE_INDEX[move.square]
        if kind == "hop":
            return HOP + SQUARE_INDEX[move.square]
        if kind == "hopfence":
            return HOPFENCE + SQUARE_INDEX[move.square]
        if kind == "dig":
            return DIG if move.arg is None else RESTORE + COLOUR_INDEX[move.arg]
        if kind == "fail":
            return FAIL
        if kind == "aim":
            stack_square = position.square_of(position.to_move)
            code = 0
            for _piece, square, direction in move.arg:
                code += (1 + ORIENTATIONS.index(direction)) * 6 ** _direction_between(stack_square, square)
            return AIM + code
        raise PluginError(f"fences encoding: no id for a {kind!r} move")

    def encode(self, position, move) -> int:
        kind = move.kind
        if move.order is not None:
            rank = order_rank(position.stacks[position.to_move], move.order, self.height)
            return BASE_IDS + rank * ACTION_IDS + self._action(position, move)
        if kind == "move":
            return MOVE + SQUARE_INDEX[move.square] * 4 + _direction_between(move.square, move.arg)
        if kind == "step":
            return STEP + COMPASS.index(move.arg)
        if kind == "place":
            return PLACE + SQUARE_INDEX[move.square]
        if kind == "draw":
            return DRAW
        return self._action(position, move)

    def describe(self, action: int) -> str:
        """An id as text without a position (a move's notation names its Fence)."""
        if action >= BASE_IDS:
            rank, rest = divmod(action - BASE_IDS, ACTION_IDS)
            places = "".join(str(p + 1) for p in _perm_of_rank(rank, self.height))
            return f"wild:{places} {self.describe(rest)}"
        if action == DRAW:
            return "draw"
        if action >= PLACE:
            return f"place {NAMES[SQUARES[action - PLACE]]}"
        if action >= STEP:
            return f"step {DIR_WORD[action - STEP]}"
        if action >= MOVE:
            square, d = divmod(action - MOVE, 4)
            return f"move {NAMES[SQUARES[square]]} {DIR_WORD[d]}"
        if action >= AIM:
            code, turns = action - AIM, []
            for k in range(4):
                code, o = divmod(code, 6)
                if o:
                    turns.append(f"{DIR_WORD[k]}:{ORIENT_WORD[o - 1]}")
            return f"aim {','.join(turns)}"
        if action == FAIL:
            return "fail"
        if action >= RESTORE:
            return f"dig +{LETTER[COLOURS[action - RESTORE]]}"
        if action == DIG:
            return "dig"
        for start, kind in ((HOPFENCE, "hopfence"), (HOP, "hop"), (SWAP, "swap")):
            if action >= start:
                return f"{kind} {NAMES[SQUARES[action - start]]}"
        square, d = divmod(action - TIP, 4)
        return f"tip {NAMES[SQUARES[square]]} {DIR_WORD[d]}"


CELL_FIXED = 14  # L, M, 5 orientations, 5 colours, corner, inside


class FencesObservation:
    """A position seen by one seat, as numbers (see the module's docstring)."""

    def __init__(self, players: int, height: int) -> None:
        self.players, self.height = players, height
        self.cell = CELL_FIXED + players
        self.seat_size = height * len(COLOURS) + len(COLOURS) + 2
        self.size = 49 * self.cell + players * self.seat_size + len(COLOURS) + len(STEP_NAMES) + players + 1

    def board_planes(self) -> FencesPlanes:
        """The same position as planes of the 7x7 frame and scaled scalars, for
        learning (the interop's ``observation='planes'``; docs/interop.md)."""
        return FencesPlanes(self.players, self.height)

    def encode(self, position, seat: int) -> np.ndarray:
        players, cell_size = self.players, self.cell
        out = np.zeros(self.size, np.float32)
        board = out[: 49 * cell_size].reshape(49, cell_size)
        on_board = set(SQUARES)
        for square in range(49):
            row = board[square]
            if square not in on_board:
                row[12] = 1
                continue
            if square in INSIDE:
                row[13] = 1
            cell = position.board[square]
            if cell is None:
                continue
            if type(cell) is int:
                row[CELL_FIXED + (cell - seat) % players] = 1
                continue
            row[0 if cell.size is Size.LARGE else 1] = 1
            row[2 + ORIENTATIONS.index(cell.direction)] = 1
            row[7 + COLOUR_INDEX[cell.colour]] = 1
        at = 49 * cell_size
        for offset in range(players):
            other = (seat + offset) % players
            block = out[at : at + self.seat_size]
            for level, colour in enumerate(position.stacks[other][: self.height]):
                block[level * len(COLOURS) + COLOUR_INDEX[colour]] = 1
            for colour in position.destroyed[other]:
                block[self.height * len(COLOURS) + COLOUR_INDEX[colour]] += 1
            block[-2] = 1 if not position.stacks[other] else 0
            block[-1] = position.out[other]
            at += self.seat_size
        for colour in position.aside:
            out[at + COLOUR_INDEX[colour]] += 1
        at += len(COLOURS)
        out[at + position.phase] = 1
        at += len(STEP_NAMES)
        out[at + (position.to_move - seat) % players] = 1
        out[at + players] = position.turn
        return out


#: Counts with no bound of their own are squashed into [0, 1) as ``n / (n + scale)``
#: (order kept, nothing lost): the check a seat went out at, the completed turns.
COUNT_SCALE = 50.0
#: Smalls of one colour in a game (two Rainbow sets): what destroyed and aside counts are divided by.
PER_COLOUR = 2.0


class FencesPlanes:
    """A position seen by one seat, for learning: the 7x7 frame as planes
    (channels first, every value 0 or 1) and scalars scaled into [0, 1]
    (docs/interop.md, "Board planes").  Planes, per square ``(y, x)``: a
    Large Fence, a Medium Fence, its orientation (5), its colour (5); the
    Stack of seat ``observer + k`` (``players``); the colour of the Stack
    standing there at each level from the bottom (``height x 5``); the square
    is Inside; the square is Outside (corners are neither).  Scalars, for each
    seat from the observer: smalls left (``/ height``), destroyed by colour
    (``/ 2``), out, the check it went out at (squashed); then the smalls
    aside by colour (``/ 2``), the step (one-hot), the seat to move from the
    observer (one-hot), the completed turns (squashed)."""

    def __init__(self, players: int, height: int) -> None:
        self.players, self.height = players, height
        letters = [LETTER[colour] for colour in COLOURS]
        self.plane_names = (
            ["large", "medium"] + [f"orientation {word}" for word in ORIENT_WORD] + [f"fence {c}" for c in letters]
            + [f"stack of seat +{k}" for k in range(players)]
            + [f"stack level {level + 1} {c}" for level in range(height) for c in letters]
            + ["inside", "outside"]
        )
        seat_names = ["smalls left", *(f"destroyed {c}" for c in letters), "out", "out at check"]
        self.scalar_names = (
            [f"seat +{k} {name}" for k in range(players) for name in seat_names]
            + [f"aside {c}" for c in letters] + [f"step {name}" for name in STEP_NAMES]
            + [f"to move +{k}" for k in range(players)] + ["completed turns"]
        )
        self.shape = (len(self.plane_names), 7, 7)
        self.scalar_size = len(self.scalar_names)
        self._stack_plane = 12
        self._level_plane = 12 + players
        fixed = np.zeros(self.shape, np.float32)
        for square in SQUARES:
            fixed[-2 if square in INSIDE else -1, square // 7, square % 7] = 1
        self._fixed = fixed

    def encode_planes(self, position, seat: int) -> tuple[np.ndarray, np.ndarray]:
        players, height = self.players, self.height
        planes = self._fixed.copy()
        for square, cell in enumerate(position.board):
            if cell is None:
                continue
            y, x = divmod(square, 7)
            if type(cell) is int:
                planes[self._stack_plane + (cell - seat) % players, y, x] = 1
                for level, colour in enumerate(position.stacks[cell][:height]):
                    planes[self._level_plane + level * 5 + COLOUR_INDEX[colour], y, x] = 1
                continue
            planes[0 if cell.size is Size.LARGE else 1, y, x] = 1
            planes[2 + ORIENTATIONS.index(cell.direction), y, x] = 1
            planes[7 + COLOUR_INDEX[cell.colour], y, x] = 1
        scalars = np.zeros(self.scalar_size, np.float32)
        at = 0
        for offset in range(players):
            other = (seat + offset) % players
            scalars[at] = len(position.stacks[other]) / height
            for colour in position.destroyed[other]:
                scalars[at + 1 + COLOUR_INDEX[colour]] += 1 / PER_COLOUR
            scalars[at + 6] = 1 if not position.stacks[other] else 0
            checks = position.out[other]
            scalars[at + 7] = checks / (checks + COUNT_SCALE)
            at += 8
        for colour in position.aside:
            scalars[at + COLOUR_INDEX[colour]] += 1 / PER_COLOUR
        at += len(COLOURS)
        scalars[at + position.phase] = 1
        at += len(STEP_NAMES)
        scalars[at + (position.to_move - seat) % players] = 1
        scalars[at + players] = position.turn / (position.turn + COUNT_SCALE)
        return planes, scalars


class TallyObservation:
    """A house rule's per-seat counts (``FencesPosition.tally``) as numbers,
    for the rule's ``observation(players)`` (docs/interop.md): for each name,
    one count per seat, the observer's first and then round the table."""

    def __init__(self, players: int, *names: str) -> None:
        self.players, self.names = players, names
        self.size = players * len(names)

    def encode(self, position, seat: int) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        for k, name in enumerate(self.names):
            counts = position.tally(name)
            for offset in range(self.players):
                out[k * self.players + offset] = counts[(seat + offset) % self.players]
        return out
