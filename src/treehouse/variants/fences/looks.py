"""Fences' ``treehouse_look_moves`` on the compiled core: a position and its
moves encoded once, one kernel call, the answer built as :class:`Looks`.

The variant calls :func:`look_moves` only while it alone answers the hooks
a look stands for and the core is enabled (game.py); the answer equals the
kernel's default (:func:`treehouse.kernel.turn.look_moves`) value for value
(tests/fences/test_tiers.py).  Importing this module imports numba, so
only do it once :func:`treehouse.kernel.compiled.enabled` said yes.
"""

from __future__ import annotations

import numpy as np

from treehouse.kernel import compiled
from treehouse.kernel.pieces import Direction
from treehouse.kernel.turn import Looks, Outcome
from treehouse.variants.fences import core
from treehouse.variants.fences.moves import FencesMove
from treehouse.variants.fences.position import ALL_COLOURS, FENCE_SIZES, FENCES

COLOUR_CODE = {colour: i for i, colour in enumerate(ALL_COLOURS)}
DIRECTION_CODE = {
    Direction.UP: core.UP, Direction.NORTH: core.NORTH, Direction.EAST: core.EAST,
    Direction.SOUTH: core.SOUTH, Direction.WEST: core.WEST,
}
#: Every Fence piece's cell code (pieces are interned: one object per size, direction, colour).
FENCE_CODE = {
    piece: core.FENCE + (FENCE_SIZES.index(size) * 10 + COLOUR_CODE[colour]) * 5 + DIRECTION_CODE[d]
    for (size, d, colour), piece in FENCES.items()
}
KIND_CODE = {
    "move": core.K_MOVE, "tip": core.K_TIP, "swap": core.K_SWAP, "hop": core.K_HOP, "hopfence": core.K_HOPFENCE,
    "dig": core.K_DIG, "aim": core.K_AIM, "fail": core.K_FAIL, "step": core.K_STEP,
}
STEP_INDEX = {"fence": 0, "act": 1, "stack": 2}
_PAD = [0] * core.MOVE_WIDTH


def rule_flags(rules) -> np.ndarray:
    """The rule options a look depends on, as the kernel reads them (``core.R_*``).
    The others (heights, sets, the draft, the start, ``outside_attempts``,
    ``uniform_dig``) shape the setup or the legal moves, which the look is given."""
    flags = np.zeros(core.RULE_COUNT, dtype=np.int64)
    flags[core.R_EVERY_CHECK] = rules.line_hits == "every_check"
    flags[core.R_ONE_PER_PIECE] = rules.one_hit_per_piece
    flags[core.R_SWAP_IGNORES_COLOUR] = rules.swap_outside_ignores_colour
    flags[core.R_SWAP_OUTSIDE_MOVED] = swap_outside_moves(rules)
    flags[core.R_ALL_OUT_TIE] = rules.all_out_at_once == "tie"
    flags[core.R_TURN_LIMIT] = rules.turn_limit
    flags[core.R_LIMIT_DRAW] = rules.turn_limit_scoring == "draw"
    return flags


def swap_outside_moves(rules) -> bool:
    """Is a Stack that Swaps with an Outside Fence considered moved (it stays on its square)?"""
    return False


def encode_move(move: FencesMove, orders: dict) -> list[int]:
    """One move as a kernel row (core's layout); ``orders`` keeps the WILD
    reorders met in this call, encoded once each."""
    kind = move.kind
    code = KIND_CODE[kind]  # a KeyError for a kind the core does not know: the caller falls back
    square = move.square
    arg = move.arg
    if kind == "move":
        row = [code, square, arg]
    elif kind == "tip" or kind == "step":
        row = [code, -1 if square is None else square, DIRECTION_CODE[arg]]
    elif kind == "dig":
        row = [code, -1, -1 if arg is None else COLOUR_CODE[arg]]
    elif kind == "aim":
        row = [code, -1, -1]
    else:
        row = [code, -1 if square is None else square, -1]
    order = move.order
    if order is None:
        row.extend((0, 0, 0, 0, 0, 0))
    else:
        encoded = orders.get(order)
        if encoded is None:
            encoded = orders[order] = [len(order), *(COLOUR_CODE[c] for c in order), *([0] * (5 - len(order)))]
        row.extend(encoded)
    if kind == "aim":
        row.append(len(arg))
        for _piece, at, d in arg:
            row.append(at)
            row.append(DIRECTION_CODE[d])
        row.extend(_PAD[: core.MOVE_WIDTH - len(row)])
    else:
        row.extend((0, 0, 0, 0, 0, 0, 0, 0, 0))
    return row


def encode_position(state) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The board, Stacks, heights and out-checks as the kernel reads them."""
    board = np.array(
        [0 if cell is None else cell + 1 if type(cell) is int else FENCE_CODE[cell] for cell in state.board], dtype=np.int64
    )
    players = len(state.stacks)
    stacks = np.zeros((players, core.MAX_HEIGHT), dtype=np.int64)
    heights = np.zeros(players, dtype=np.int64)
    for seat, stack in enumerate(state.stacks):
        heights[seat] = len(stack)
        for i, colour in enumerate(stack):
            stacks[seat, i] = COLOUR_CODE[colour]
    return board, stacks, heights, np.array(state.out, dtype=np.int64)


def outcome_of(code: int, winners: int, players: int, rules) -> Outcome:
    """The :class:`Outcome` a kernel's code stands for, in Fences' words (Fences.treehouse_outcome)."""
    seats = tuple(p for p in range(players) if winners >> p & 1)
    if code == core.O_LAST_STANDING:
        return Outcome(seats, "last stack standing")
    if code == core.O_ALL_OUT:
        if rules.all_out_at_once == "tie":
            return Outcome(seats, "the last stacks were emptied at once: a tie")
        return Outcome((), "the last stacks were emptied at once: a draw")
    limit = rules.turn_limit
    if rules.turn_limit_scoring == "draw":
        return Outcome((), f"turn limit {limit}: a draw")
    return Outcome(seats, f"turn limit {limit}: most smalls")


_prepared = False


def _warm() -> None:
    """Every kernel once on a small input (compiles it, or loads it from the cache)."""
    board = np.zeros(49, dtype=np.int64)
    board[8], board[40] = 1, 2
    moves = np.zeros((1, core.MOVE_WIDTH), dtype=np.int64)
    moves[0, core.M_KIND], moves[0, core.M_ARG] = core.K_STEP, core.NORTH
    stacks = np.zeros((2, core.MAX_HEIGHT), dtype=np.int64)
    core.look(board, stacks, np.ones(2, dtype=np.int64), np.zeros(2, dtype=np.int64), 0, 2, 0, 0, moves, np.zeros(core.RULE_COUNT, dtype=np.int64))


def prepare() -> None:
    """Compile or load the kernels before their first use (once a process)."""
    global _prepared
    if not _prepared:
        compiled.prepare("fences", core.__file__, 4, _warm)
        _prepared = True


def look_moves(rules, state, step, moves, seat) -> Looks | None:
    """``treehouse_look_moves`` on the core: ``None`` where it cannot answer
    (a move of a kind it does not know, a setup step), so the hooks do."""
    index = STEP_INDEX.get(step.name)
    if index is None or not moves:
        return None
    orders: dict = {}
    flat: list[int] = []
    try:
        for move in moves:
            flat.extend(encode_move(move, orders))
    except (KeyError, AttributeError, TypeError):
        return None  # not a move of Fences' own (a house rule's): played through the hooks
    prepare()
    board, stacks, heights, out = encode_position(state)
    encoded = np.array(flat, dtype=np.int64).reshape(len(moves), core.MOVE_WIDTH)
    values, codes, winners = core.look(
        board, stacks, heights, out, state.turn, index, state.to_move, seat, encoded, rule_flags(rules)
    )
    outcomes = {}
    if codes.any():
        players = len(state.stacks)
        for i in np.flatnonzero(codes).tolist():
            outcomes[i] = outcome_of(int(codes[i]), int(winners[i]), players, rules)
    return Looks(values.tolist(), outcomes)
