"""Fences' ``treehouse_look_moves`` on the compiled core: a position and its
moves encoded once, one kernel call, the answer built as :class:`Looks`.

The variant calls :func:`look_moves` only while it alone answers the hooks
a look stands for and the core is enabled (game.py); the answer equals the
kernel's default (:func:`treehouse.kernel.turn.look_moves`) value for value
(tests/fences/test_tiers.py).  Importing this module imports no numba:
the kernels come from :func:`kernels`, compiled ahead of time where they
can be, so a process that finds them built never loads numba at all.
"""

from __future__ import annotations

from math import factorial
from pathlib import Path

import numpy as np

from treehouse.kernel.fast import compiled
from treehouse.kernel.fast.compiled_game import PASS, REROLL, CompiledGame
from treehouse.kernel.pieces import Direction, Pyramid
from treehouse.kernel.turn import PASS as PASS_CHOICE
from treehouse.kernel.turn import Control, Looks, Outcome
from treehouse.variants.fences.fast import core_layout
from treehouse.variants.fences.hit_table import ALL_STAND
from treehouse.variants.fences.position import ALL_COLOURS, FENCE_SIZES, fence

COLOUR_CODE = {colour: i for i, colour in enumerate(ALL_COLOURS)}
DIRECTION_CODE = {
    Direction.UP: core_layout.UP, Direction.NORTH: core_layout.NORTH, Direction.EAST: core_layout.EAST,
    Direction.SOUTH: core_layout.SOUTH, Direction.WEST: core_layout.WEST,
}
#: Every Fence piece's cell code, by value.
FENCE_CODE = {
    fence(size, d, colour): core_layout.FENCE + (FENCE_SIZES.index(size) * 10 + COLOUR_CODE[colour]) * 5 + DIRECTION_CODE[d]
    for size in FENCE_SIZES
    for d in DIRECTION_CODE
    for colour in ALL_COLOURS
}
KIND_CODE = {
    "move": core_layout.K_MOVE, "tip": core_layout.K_TIP, "swap": core_layout.K_SWAP, "hop": core_layout.K_HOP, "hopfence": core_layout.K_HOPFENCE,
    "dig": core_layout.K_DIG, "aim": core_layout.K_AIM, "fail": core_layout.K_FAIL, "step": core_layout.K_STEP,
}
#: Every cell's code: empty, a seat's Stack, a Fence.
CELL = {None: core_layout.EMPTY, **{seat: seat + 1 for seat in range(4)}, **FENCE_CODE}
STEP_INDEX = {"fence": 0, "act": 1, "stack": 2}
#: About how long a cold compile of the kernels takes (the line on first use says it).
COMPILE_SECONDS = 30
UNIFORM_CODE = {"noop": core_layout.UNIFORM_NOOP, "hit": core_layout.UNIFORM_HIT, "reroll": core_layout.UNIFORM_REROLL}
#: The act step's faces; any other reads as AIM, as in rules.one_action_moves.
FACE_CODE = {"TIP": core_layout.F_TIP, "SWAP": core_layout.F_SWAP, "HOP": core_layout.F_HOP, "DIG": core_layout.F_DIG, "AIM": core_layout.F_AIM, "WILD": core_layout.F_WILD}
_PAD = [0] * core_layout.MAX_HEIGHT
#: A position's lines of sight, not found yet (the core finds them).
_NO_LINES = [-1] + [0] * (core_layout.LINES_WIDTH - 1)


def rule_flags(rules, judged: tuple[int, ...] = ALL_STAND) -> np.ndarray:
    """The rule options a look and the legal moves depend on, as the kernel
    reads them (``core_layout.R_*``), and the house rules' verdicts on Hits
    (``judged``, ``hit_table.table``).  The other options (heights, sets, the
    draft, the start) shape only the setup, which the core never plays."""
    flags = np.zeros(core_layout.RULE_COUNT, dtype=np.int64)
    flags[core_layout.R_VERDICT :] = judged
    flags[core_layout.R_EVERY_CHECK] = rules.line_hits == "every_check"
    flags[core_layout.R_ONE_PER_PIECE] = rules.one_hit_per_piece
    flags[core_layout.R_SWAP_IGNORES_COLOUR] = rules.swap_outside_ignores_colour
    flags[core_layout.R_SWAP_OUTSIDE_MOVED] = rules.swap_outside_considered_moved
    flags[core_layout.R_ALL_OUT_TIE] = rules.all_out_at_once == "tie"
    flags[core_layout.R_TURN_LIMIT] = rules.turn_limit
    flags[core_layout.R_LIMIT_DRAW] = rules.turn_limit_scoring == "draw"
    flags[core_layout.R_UNIFORM_DIG] = UNIFORM_CODE[rules.uniform_dig]
    flags[core_layout.R_OUTSIDE_ATTEMPTS] = rules.outside_attempts
    flags[core_layout.R_MOVER_HIT_ON_STACK] = rules.mover_hit_on_stack
    return flags


def _argument(kind: str, arg) -> int:
    """A move's argument as its code holds it: a square, a direction, a colour, or -1."""
    if kind == "move":
        return arg
    if kind == "tip" or kind == "step":
        return DIRECTION_CODE[arg]
    if kind == "dig" and arg is not None:
        return COLOUR_CODE[arg]
    return -1


def code(move) -> int:
    """A move as the kernels read it: one int64 (core_layout's docstring says
    the bits); the declines as the compiled game's PASS and REROLL.  A
    KeyError, an AttributeError or a TypeError for a move the core does not
    know (a house rule's, a setup step's): the caller then leaves it to the hooks."""
    if isinstance(move, Control):
        return PASS if move is PASS_CHOICE else REROLL
    kind = move.kind
    value = KIND_CODE[kind]
    if kind == "aim":
        for i, (_piece, at, d) in enumerate(move.arg):
            value |= (at + 1 | DIRECTION_CODE[d] << 6) << (core_layout.C_AIM + core_layout.AIM_TURN_BITS * i)
    else:
        square = move.square
        value |= (-1 if square is None else square) + 1 << core_layout.C_SQUARE | _argument(kind, move.arg) + 1 << core_layout.C_ARG
    if move.order is not None:
        order = 0
        for colour in reversed(move.order):
            order = order * core_layout.ORDER_BASE + COLOUR_CODE[colour] + 1
        value |= order << core_layout.C_ORDER
    return value


class MoveCodes:
    """Every move met so far, by value, and its code: a code is a pure
    function of the move, so an entry can never go stale; the table is
    emptied when full, which only bounds its memory.  The bots look at the
    same moves again and again (a WILD offers each action under every
    reorder), and finding a code costs a fraction of making it.  One table
    serves every game of a process (``th serve`` plays tables in threads:
    a dict's lookups and stores are atomic, and a value is the same whoever
    stores it)."""

    LIMIT = 1 << 15

    def __init__(self) -> None:
        self.codes: dict = {}

    def code(self, move) -> int:
        """One move's code (the compiled search's root moves)."""
        known = self.codes.get(move)
        if known is None:
            if len(self.codes) >= self.LIMIT:
                self.codes = {}
            known = self.codes[move] = code(move)
        return known

    def of(self, moves) -> np.ndarray:
        """The codes of ``moves``, as an int64 array."""
        codes = self.codes
        try:
            return np.fromiter(map(codes.__getitem__, moves), np.int64, len(moves))  # every move known: no Python loop
        except KeyError:  # a move not met yet
            pass
        if len(codes) + len(moves) > self.LIMIT:
            codes = self.codes = {}
        found = []
        for move in moves:
            known = codes.get(move)
            if known is None:
                known = codes[move] = code(move)
            found.append(known)
        return np.array(found, dtype=np.int64)


MOVES = MoveCodes()


def _square_of(board, seat: int) -> int:
    """Where ``seat``'s Stack stands, -1 where it is not on the board (out)."""
    try:
        return board.index(seat)
    except ValueError:
        return -1


def encode_position(state) -> np.ndarray:
    """The position as the kernel reads it (core's ``P_*`` layout), bar the step."""
    players = len(state.stacks)
    flat = [state.turn, 0, state.to_move, players]
    flat.extend(map(CELL.__getitem__, state.board))
    board = state.board
    for seat, (stack, out, destroyed) in enumerate(zip(state.stacks, state.out, state.destroyed)):
        flat.append(len(stack))
        flat.append(out)
        flat.append(sum(1 << core_layout.DESTROYED_BITS * COLOUR_CODE[colour] for colour in destroyed))  # how many of each colour
        flat.append(_square_of(board, seat))
        flat.extend(map(COLOUR_CODE.__getitem__, stack))
        flat.extend(_PAD[len(stack) :])
    flat.extend(_NO_LINES)
    return np.array(flat, dtype=np.int64)


def outcome_of(code: int, winners: int, players: int, rules) -> Outcome:
    """The :class:`Outcome` a kernel's code stands for, in Fences' words (Fences.treehouse_outcome)."""
    seats = tuple(p for p in range(players) if winners >> p & 1)
    if code == core_layout.O_LAST_STANDING:
        return Outcome(seats, "last stack standing")
    if code == core_layout.O_ALL_OUT:
        if rules.all_out_at_once == "tie":
            return Outcome(seats, "the last stacks were emptied at once: a tie")
        return Outcome((), "the last stacks were emptied at once: a draw")
    limit = rules.turn_limit
    if rules.turn_limit_scoring == "draw":
        return Outcome((), f"turn limit {limit}: a draw")
    return Outcome(seats, f"turn limit {limit}: most smalls")


def _warm(core) -> None:
    """Every kernel Python calls once on a small input (compiles it just in time, or loads it from numba's cache)."""
    position = np.zeros(core_layout.P_SEATS + 2 * core_layout.SEAT_WIDTH + core_layout.LINES_WIDTH, dtype=np.int64)
    position[-core_layout.LINES_WIDTH] = -1  # its lines not found yet
    position[core_layout.P_STEP], position[core_layout.P_PLAYERS] = 2, 2
    position[core_layout.P_BOARD + 8], position[core_layout.P_BOARD + 40] = 1, 2
    position[core_layout.P_SEATS] = position[core_layout.P_SEATS + core_layout.SEAT_WIDTH] = 1
    position[core_layout.P_SEATS + core_layout.SEAT_SQUARE] = 8
    position[core_layout.P_SEATS + core_layout.SEAT_WIDTH + core_layout.SEAT_SQUARE] = 40
    rules = np.zeros(core_layout.RULE_COUNT, dtype=np.int64)
    step = core_layout.K_STEP | (core_layout.NORTH + 1) << core_layout.C_ARG
    core.look(rules, position, 0, np.array([step], dtype=np.int64))
    after = np.empty_like(position)
    core.play(rules, position, step, after)
    core.advance(rules, after, position.copy())
    position[core_layout.P_STEP] = 1
    position[core_layout.P_SEATS + core_layout.SEAT_STACK] = 2
    position[core_layout.P_SEATS + core_layout.SEAT_HEIGHT] = 2
    faces = np.array([core_layout.F_WILD, core_layout.F_DIG], dtype=np.int64)
    core.look_faces(rules, position, faces, 0, 64)
    core.evaluate_seats(position, rules)
    codes = np.empty(64, dtype=np.int64)
    count = core.legal(rules, position, core_layout.F_DIG, codes)
    core.search(rules, faces, np.array([0.5, 0.5]), position, codes[:count].copy(), 2, 0, 2, 64, np.zeros(1, dtype=np.int64))


#: The core's module, named, not imported: its kernels are compiled ahead of
#: time where they can be (kernel/fast/ahead.py), and then it is never loaded.
CORE = "treehouse.variants.fences.fast.core"
_SOURCE = Path(core_layout.__file__).parent.parent.parent.parent  # the treehouse package
#: The files the kernels are compiled from: the core's, the generic search it
#: binds, and those whose constants they read (a change to any compiles
#: them again; tests/kernel/test_compiled.py checks the list).
SOURCES = tuple(
    str(_SOURCE / path)
    for path in (
        "variants/fences/fast/core.py",
        "variants/fences/fast/core_layout.py",
        "variants/fences/evaluate.py",
        "kernel/fast/compiled_search.py",
        "kernel/fast/compiled_game.py",
    )
)


def kernels():
    """The core's kernels (``core.AHEAD_OF_TIME``), prepared once a process;
    ``None`` where numba turns out not to import."""
    return compiled.kernels("fences", CORE, SOURCES, COMPILE_SECONDS, _warm)


def prepare() -> None:
    """Compile or load the kernels before their first use (once a process)."""
    kernels()


def usable() -> bool:
    """May a look use the core now?  Once it is prepared, yes; while it waits
    (:func:`compiled.waiting`: ``th play`` prepares it in the background, or
    a short run has not loaded it), not yet (the hooks answer meanwhile,
    with the same values); otherwise it is prepared now (and is unusable
    only where numba turns out not to import)."""
    if compiled.ready("fences"):
        return True
    if compiled.waiting("fences"):
        return False
    return kernels() is not None


#: Each rule set's flags, found by the rules object and the verdicts.  Rules
#: models are frozen, so an entry cannot go stale.  By identity, in the core's
#: glue only: found by value instead (the nine options read and hashed on
#: every call: this is asked at every look, listing and lead evaluation),
#: Fences' greedy-vs-search games took about 20% more CPU (measured).
_FLAGS: dict = {}


def flags_of(rules, judged: tuple[int, ...] = ALL_STAND) -> np.ndarray:
    key = (id(rules), judged)
    known = _FLAGS.get(key)
    if known is None or known[0] is not rules:  # the entry holds its rules, so an id is never reused under it
        if len(_FLAGS) > 64:
            _FLAGS.clear()
        known = _FLAGS[key] = (rules, rule_flags(rules, judged))
    return known[1]


def looks_of(state, rules, values: list, codes: list, winners: list | None, start: int = 0, end: int | None = None) -> Looks:
    """The kernel's answer for its moves ``[start, end)`` as :class:`Looks`:
    ``values`` and ``codes`` (``O_*``) as lists, ``winners`` too where a move
    ended the game (else ``None``).  Lists, not arrays: one ``tolist`` per
    kernel call, not one per face (a search makes thousands of looks a game)."""
    end = len(values) if end is None else end
    outcomes = {}
    if winners is not None:
        players = len(state.stacks)
        for i in range(start, end):
            if codes[i]:
                outcomes[i - start] = outcome_of(codes[i], winners[i], players, rules)
    return Looks(values[start:end], outcomes)


def most_choices(state) -> int:
    """The most choices ``legal`` can write in the game from ``state`` on:
    every reorder of the highest Stack (heights only fall, bar a lone small
    dug to 2) times every action there can be with its Fences (4 Tips and a
    Swap each, 8 Hops, 624 Aims, 11 Digs); more than the fence step's 4 a Fence."""
    height = max(2, max(len(stack) for stack in state.stacks))
    fences = sum(1 for cell in state.board if type(cell) is Pyramid)
    return factorial(height) * (5 * fences + 8 + 624 + 11)


def position(state, step) -> np.ndarray:
    """The position at ``step`` as the kernels read it."""
    encoded = encode_position(state)
    encoded[core_layout.P_STEP] = STEP_INDEX[step.name]
    return encoded


def compiled_game(rules, judged, state) -> CompiledGame | None:
    """``treehouse_compiled_game`` on the core: the generic search bound to
    Fences' kernels, the rule flags as its tables; ``None`` while the core is
    not usable (the hooks answer meanwhile)."""
    if not usable():
        return None
    return CompiledGame(kernels().search, flags_of(rules, judged), most_choices(state), FACE_CODE, position, MOVES.code)


def look_all_moves(rules, judged, state, step, faces, seat) -> list[Looks] | None:
    """``treehouse_look_all_moves`` on the core: every legal move of the step,
    for each face, generated and looked at in one kernel call; ``None``
    where the hooks must answer (a setup step, or a seat that is out and passes)."""
    index = STEP_INDEX.get(step.name)
    if index is None or not state.stacks[state.to_move] or not usable():
        return None
    encoded = encode_position(state)
    encoded[core_layout.P_STEP] = index
    codes = np.array([FACE_CODE.get(face, core_layout.F_AIM) for face in faces], dtype=np.int64)
    values, outcomes, winners, counts = kernels().look_faces(flags_of(rules, judged), encoded, codes, seat, most_choices(state))
    values, outcomes = values.tolist(), outcomes.tolist()
    winners = winners.tolist() if any(outcomes) else None
    found, start = [], 0
    for count in counts.tolist():
        found.append(looks_of(state, rules, values, outcomes, winners, start, start + count))
        start += count
    return found


def evaluate_seats(rules, judged, state) -> list[float]:
    """``treehouse_evaluate_seats`` on the core: a position in play judged for every seat in one call."""
    prepare()
    return kernels().evaluate_seats(encode_position(state), flags_of(rules, judged)).tolist()


def legal_codes(rules, state, step, face) -> list[int]:
    """The core's legal moves as codes (the differential tests compare them with the reference's, encoded)."""
    prepare()
    codes = np.empty(most_choices(state), dtype=np.int64)
    count = kernels().legal(flags_of(rules), position(state, step), FACE_CODE.get(face, core_layout.F_AIM), codes)
    return codes[:count].tolist()


def look_moves(rules, judged, state, step, moves, seat) -> Looks | None:
    """``treehouse_look_moves`` on the core: ``None`` where it cannot answer
    (a move of a kind it does not know, a setup step), so the hooks do."""
    index = STEP_INDEX.get(step.name)
    if index is None or not moves:
        return None
    try:
        codes = MOVES.of(moves)
    except (KeyError, AttributeError, TypeError, ValueError, IndexError):
        return None  # not a move of Fences' own (a house rule's): played through the hooks
    if not usable():
        return None
    encoded = encode_position(state)
    encoded[core_layout.P_STEP] = index
    values, outcomes, winners, ended = kernels().look(flags_of(rules, judged), encoded, seat, codes)
    return looks_of(state, rules, values.tolist(), outcomes.tolist(), winners.tolist() if ended else None)
