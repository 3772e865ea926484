"""What each step offers (the legal moves) and what a move does (its effect
and the attempt Hits it makes).

Everything here is pure: positions in, positions out.  The rule choices the
seed leaves open are documented in docs/rules/fences.md; the ones players may
disagree on are rule options (``rules`` below is the variant's Rules model).
"""

from __future__ import annotations

from itertools import permutations, product
from typing import NamedTuple

from treehouse.kernel.pieces import Direction
from treehouse.variants.fences.board import AROUND, BY_NAME, COMPASS, INSIDE, NEIGHBOUR, OUTSIDE, RAY, inward, same_line
from treehouse.kernel.pieces import Size
from treehouse.variants.fences.hits import Cause, Hit, Source, fence_source, ignoring_colour
from treehouse.variants.fences.memo import played_from
from treehouse.variants.fences.moves import DIG, FAIL, FencesMove, piece_key
from treehouse.variants.fences.position import RANK, FencesPosition, sort_colours, turned, with_board, with_stacks

_new = tuple.__new__

ACTIONS = ("TIP", "SWAP", "HOP", "DIG", "AIM")
UP = Direction.UP


def _is_fence(cell) -> bool:
    return cell is not None and type(cell) is not int


# --------------------------------------------------------------------------
# Step 1: move a Fence
# --------------------------------------------------------------------------


def fence_moves(state: FencesPosition, seat: int) -> tuple[FencesMove, ...]:
    """Every Fence move one space (not backwards along a Pointing Fence's line)
    to an empty square; those that end next to the Stack or take a Fence away
    from it, if there are any, else all of them."""
    square = state.square_of(seat)
    if square is None:
        return ()
    board = state.board
    around = AROUND[square]
    every, near = [], []
    for f, cell in enumerate(board):
        if not _is_fence(cell):
            continue
        key = piece_key(cell)
        for d in COMPASS:
            if cell.direction is not UP and d is cell.direction.opposite:
                continue  # backwards along its own line
            t = NEIGHBOUR[f][d]
            if t is None or board[t] is not None:
                continue
            move = FencesMove("move", key, f, t)
            every.append(move)
            if t in around or f in around:
                near.append(move)
    return tuple(near or every)


# --------------------------------------------------------------------------
# Step 2: the actions
# --------------------------------------------------------------------------


def tip_moves(state: FencesPosition, square: int) -> list[FencesMove]:
    moves = []
    for f, cell in enumerate(state.board):
        if _is_fence(cell) and cell.direction is UP and same_line(f, square):
            key = piece_key(cell)
            moves.extend(FencesMove("tip", key, f, d) for d in inward(f))
    return moves


def swap_moves(state: FencesPosition, square: int) -> list[FencesMove]:
    return [
        FencesMove("swap", piece_key(cell), f)
        for f, cell in enumerate(state.board)
        if _is_fence(cell) and same_line(f, square)
    ]


def hop_moves(state: FencesPosition, square: int) -> list[FencesMove]:
    board, moves = state.board, []
    for d in COMPASS:
        f = NEIGHBOUR[square][d]
        if f is None or not _is_fence(board[f]):
            continue
        key = piece_key(board[f])
        if f in INSIDE:
            moves.append(FencesMove("hop", key, f))  # the Stack over the Fence (it may bounce)
        far = NEIGHBOUR[square][d.opposite]
        if far is not None and board[far] is None:
            moves.append(FencesMove("hopfence", key, f))  # the Fence over the Stack
    return moves


def dig_moves(stack: tuple, destroyed: tuple, restores_any: bool = False, uniform: str = "noop") -> list[FencesMove]:
    """DIG: the top small to the bottom, and, under a lone small (or at any
    height with ``restores_any``), each colour of the destroyed smalls put
    back at the bottom.  A Stack of two or more smalls of one colour digs
    only under ``uniform`` ``noop`` (done, changing nothing); under ``hit``
    and ``reroll`` that Dig is impossible."""
    moves = []
    if len(stack) >= 2 and (uniform == "noop" or stack[-1:] + stack[:-1] != stack):
        moves.append(DIG)
    if len(stack) == 1 or restores_any:
        moves.extend(FencesMove("dig", arg=c) for c in sort_colours(set(destroyed)))
    return moves


def aim_moves(state: FencesPosition, square: int) -> list[FencesMove]:
    board, choices = state.board, []
    for f in sorted(AROUND[square]):
        cell = board[f]
        if _is_fence(cell):
            key = piece_key(cell)
            options = [d for d in (UP, *inward(f)) if d is not cell.direction]
            choices.append([None] + [(key, f, d) for d in options])
    moves = []
    for combo in product(*choices):
        picked = tuple(c for c in combo if c is not None)
        if picked:
            moves.append(FencesMove("aim", arg=picked))
    return moves


def _action_moves(
    state: FencesPosition, seat: int, square: int, action: str, restores_any: bool = False, uniform_dig: str = "noop"
) -> list[FencesMove]:
    if action == "TIP":
        return tip_moves(state, square)
    if action == "SWAP":
        return swap_moves(state, square)
    if action == "HOP":
        return hop_moves(state, square)
    if action == "DIG":
        return dig_moves(state.stacks[seat], state.destroyed[seat], restores_any, uniform_dig)
    return aim_moves(state, square)


def orders(stack: tuple) -> list[tuple]:
    """Every distinct reordering of a Stack, in a fixed order (as it stands first)."""
    found = sorted(set(permutations(stack)), key=lambda p: [RANK[c] for c in p])
    found.remove(stack)
    return [stack, *found]


def action_moves(
    state: FencesPosition, seat: int, face: str, uniform_dig: str = "noop", dig_restores_any: bool = False
) -> tuple:
    """The moves a rolled face offers; ``(FAIL,)`` when the action is impossible
    (the Stack is Hit and Damaged).  A Dig of two or more smalls of one colour
    is, by ``uniform_dig``: ``noop`` the move ``dig``, done and changing
    nothing; ``hit`` impossible; ``reroll`` ``()`` (roll again).
    ``dig_restores_any`` (the house rule ``dig-restores-any``) lets a Dig
    restore a destroyed small at any height."""
    square = state.square_of(seat)
    if face != "WILD":
        moves = _action_moves(state, seat, square, face, dig_restores_any, uniform_dig)
        if moves:
            return tuple(moves)
        if face == "DIG" and uniform_dig == "reroll" and len(state.stacks[seat]) >= 2:
            return ()
        return (FAIL,)
    stack = state.stacks[seat]
    fixed = [tuple(m)[:4] for a in ("TIP", "SWAP", "HOP", "AIM") for m in _action_moves(state, seat, square, a)]
    moves = []
    for order in orders(stack):
        # each move with the reorder (built directly: _replace is slow, and WILD offers hundreds)
        moves.extend([_new(FencesMove, (*fields, order)) for fields in fixed])
        for move in dig_moves(order, state.destroyed[seat], dig_restores_any, uniform_dig):
            # a reorder then a Dig that ends where it began changes nothing: offered
            # only where it is the one Dig there is (one colour, under noop)
            if move.arg is not None or order[-1:] + order[:-1] != stack or len(set(stack)) == 1:
                moves.append(move._replace(order=order))
    if moves:
        return tuple(moves)
    return tuple(FAIL._replace(order=order) for order in orders(stack))


# --------------------------------------------------------------------------
# Step 3: move the Stack
# --------------------------------------------------------------------------


def stack_moves(state: FencesPosition, seat: int, outside_attempts: bool = False) -> tuple[FencesMove, ...]:
    square = state.square_of(seat)
    if square is None:
        return ()
    return tuple(
        FencesMove("step", arg=d)
        for d in COMPASS
        if outside_attempts or NEIGHBOUR[square][d] in INSIDE
    )


# --------------------------------------------------------------------------
# The setup (start: chosen): draw a small, place it or put it on the Stack
# --------------------------------------------------------------------------

#: The corners, and the one opposite each (two players start on opposite corners).
CORNERS = tuple(BY_NAME[name] for name in ("a1", "a5", "e5", "e1"))
OPPOSITE = {a: b for a, b in zip(CORNERS, CORNERS[2:] + CORNERS[:2])}


def setup_moves(state: FencesPosition, seat: int, colour: str) -> tuple[FencesMove, ...]:
    """What ``seat`` may do with the small of ``colour`` it just drew: with no
    Stack yet, place it on any empty Inside square (two players: seat 1 any
    corner, seat 2 the corner opposite it); else put it on top of the Stack.
    ``()`` when no such small is left in the bag."""
    if colour not in state.aside:
        return ()
    if state.stacks[seat]:
        return (FencesMove("draw", arg=colour),)
    board = state.board
    if state.players == 2:
        other = state.square_of(1 - seat)
        squares = sorted(CORNERS) if other is None else (OPPOSITE[other],)
    else:
        squares = sorted(INSIDE)
    return tuple(FencesMove("place", square=s, arg=colour) for s in squares if board[s] is None)


# --------------------------------------------------------------------------
# Effects
# --------------------------------------------------------------------------


class Effect(NamedTuple):
    """What a move did: the new position, the attempt Hits, the Stacks that
    bounced (considered moved without leaving their square).  The variant's
    ``treehouse_apply_move`` hands it to ``treehouse_resolve`` through the
    engine (:class:`~treehouse.kernel.engine.Applied`)."""

    state: FencesPosition
    hits: tuple = ()
    bounced: frozenset = frozenset()


def _attempt(board, top: str, seat: int, square: int, target: int) -> Hit | None:
    """The Hit when ``seat``'s Stack on ``square`` tries to enter ``target``; None if it may."""
    cell = board[target]
    if target in OUTSIDE:
        return Hit(seat, Cause.OUTSIDE, square=target)
    if cell is None:
        return None
    if type(cell) is int:
        # only the stationary Stack is Hit; the mover's top colour can make it immune
        return Hit(cell, Cause.STACK_MOVED_ONTO, Source(Size.SMALL, top, square, seat))
    return Hit(seat, Cause.MOVED_ONTO, fence_source(cell, target))


#: The kinds of move :func:`_act` plays (what they do to the board is kept in the board's memo).
_ACTED = frozenset(("step", "tip", "swap", "hop", "hopfence", "aim"))
#: Those of them whose answer depends on the Stack's top colour (it names the mover in the
#: Hit of an attempt onto another Stack); the others' answer is the same for every top,
#: so all WILD reorders share one board after them.
_BY_TOP = frozenset(("step", "hop"))


def perform(
    state: FencesPosition, seat: int, move: FencesMove, swap_outside_ignores_colour: bool = True, swap_outside_moved: bool = True
) -> Effect:
    """Play ``move`` for ``seat``: the board change plus the attempt Hits."""
    stacks = state.stacks
    order = move.order
    if order is not None:
        stacks = (*stacks[:seat], order, *stacks[seat + 1 :])
    kind = move.kind
    board = state.board

    if kind in _ACTED:  # what it does to the board is kept in the board's memo
        top = stacks[seat][-1] if stacks[seat] else None
        acts = played_from(board).acts
        key = (seat, top if kind in _BY_TOP else top is None, kind, move.square, move.arg, swap_outside_ignores_colour, swap_outside_moved)
        done = acts.get(key)
        if done is None:
            done = acts[key] = _act(board, seat, top, kind, move.square, move.arg, swap_outside_ignores_colour, swap_outside_moved)
        cells, hits, bounced = done
        if cells is None:
            return _new(Effect, (state if order is None else with_stacks(state, stacks), hits, bounced))
        return _new(Effect, (with_stacks(state, stacks, cells), hits, bounced))  # the reorder and the board, in one position

    if order is not None:
        state = with_stacks(state, stacks)

    if kind == "move":
        f, t = move.square, move.arg
        cells = list(board)
        cells[t], cells[f] = cells[f], None
        return Effect(with_board(state, tuple(cells)))

    if kind in ("place", "draw"):
        # the setup: the small drawn leaves the bag for the Stack; no Hit (docs/rules/fences.md, Setup)
        aside = list(state.aside)
        aside.remove(move.arg)
        stacks = list(stacks)
        stacks[seat] = stacks[seat] + (move.arg,)
        cells = list(board)
        if kind == "place":
            cells[move.square] = seat
        return Effect(state._replace(board=tuple(cells), stacks=tuple(stacks), aside=tuple(aside)))

    if kind == "dig":
        destroyed = state.destroyed
        stack = stacks[seat]
        if move.arg is None:
            stack = stack[-1:] + stack[:-1]
        else:
            stack = (move.arg,) + stack
            left = list(destroyed[seat])
            left.remove(move.arg)
            destroyed = (*destroyed[:seat], tuple(left), *destroyed[seat + 1 :])
        stacks = (*stacks[:seat], stack, *stacks[seat + 1 :])
        return Effect(_new(FencesPosition, (board, stacks, destroyed, *state[3:])))

    # "fail", or any other kind: the rolled action is impossible
    return Effect(state, (Hit(seat, Cause.IMPOSSIBLE),))


def _act(
    board: tuple, seat: int, top: str | None, kind: str, f: int | None, arg, swap_outside_ignores_colour: bool, swap_outside_moved: bool
) -> tuple:
    """What an action or a step does to the board, for :func:`perform`: the
    board after it (``None``: unchanged), the attempt Hits and the Stacks
    that bounced.  It depends on the board, the Stack's top colour (for a
    step or a Hop only: :data:`_BY_TOP`) and the move, not on the order below
    the top, so :func:`perform` keeps it in the memo of the board
    (:mod:`~treehouse.variants.fences.memo`): a WILD offers the same action
    under every reorder of the Stack."""
    square = board.index(seat) if top is not None else None

    if kind == "step":
        target = NEIGHBOUR[square][arg]
        hit = _attempt(board, top, seat, square, target)
        if hit is not None:
            return None, (hit,), frozenset((seat,))
        cells = list(board)
        cells[square], cells[target] = None, seat
        return tuple(cells), (), frozenset()

    if kind == "tip":
        piece = turned(board[f], arg)
        end = f
        for n in RAY[f][arg]:
            if n in INSIDE and board[n] is None:
                end = n
            else:
                break
        cells = list(board)
        cells[f] = None
        cells[end] = piece
        return tuple(cells), (), frozenset()

    if kind == "swap":
        if f in OUTSIDE:
            # the Stack stays but "is still considered moved" (swap_outside_considered_moved), so the
            # lines already on it Hit too, "in addition to" the Swap's own Hit
            hit = Hit(seat, Cause.SWAP_OUTSIDE, fence_source(board[f], f))
            return None, (ignoring_colour(hit) if swap_outside_ignores_colour else hit,), frozenset((seat,)) if swap_outside_moved else frozenset()
        cells = list(board)
        cells[square], cells[f] = board[f], seat
        return tuple(cells), (), frozenset()

    if kind == "hop":
        d = next(d for d in COMPASS if NEIGHBOUR[square][d] == f)
        target = NEIGHBOUR[f][d]
        cells = list(board)
        if board[f].direction is UP:
            cells[f] = turned(board[f], d)  # a Standing Fence falls to point at the target square
        hit = _attempt(cells, top, seat, square, target)
        if hit is not None:
            return tuple(cells), (hit,), frozenset((seat,))
        cells[square], cells[target] = None, seat
        return tuple(cells), (), frozenset()

    if kind == "hopfence":
        d = next(d for d in COMPASS if NEIGHBOUR[square][d] == f)
        far = NEIGHBOUR[square][d.opposite]
        cells = list(board)
        cells[far], cells[f] = board[f], None
        return tuple(cells), (), frozenset()

    if kind == "aim":
        cells = list(board)
        for _piece, at, d in arg:
            cells[at] = turned(board[at], d)
        return tuple(cells), (), frozenset()

    # any other kind: the rolled action is impossible, as "fail"
    return None, (Hit(seat, Cause.IMPOSSIBLE),), frozenset()
