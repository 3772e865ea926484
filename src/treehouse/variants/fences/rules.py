"""The rules of Fences, in plain Python: the reference.

Every rule is written here once, as docs/rules/fences.md states it (that page
quotes the seed beside each rule and gives the reason for every reading):

* the setup: the Fences on the Outside, the blind draws, placing the Stacks;
* the legal moves of each step: move a Fence (step 1), the rolled action
  (step 2), move the Stack (step 3), and the setup's ``place`` and ``draw``;
  each condition a move must meet is a ``*_breaks`` function naming the rule
  broken (:class:`Broken`), which the move lists filter by and
  :mod:`~treehouse.variants.fences.explain` words for a player;
* performing a move: the position after it, the *attempt* Hits it made and
  the Stacks that stayed though "considered moved" (:class:`Effect`);
* the Hits of a check: the attempts, the *line* Hits, one Hit per piece;
* Damage: colour immunity (:func:`~treehouse.variants.fences.hits.immune`),
  one small per Damaging Hit, all at once, and going out;
* the step and turn advance, and the outcome.

The bots' evaluation is in :mod:`~treehouse.variants.fences.evaluate`, the
board's geometry in :mod:`~treehouse.variants.fences.board`, the position
and its notation in :mod:`~treehouse.variants.fences.position`, the moves and
theirs in :mod:`~treehouse.variants.fences.moves`, and the Hit values in
:mod:`~treehouse.variants.fences.hits`.

Everything here is a pure function: positions in, positions out, built only
through :class:`~treehouse.variants.fences.position.FencesPosition` (its
``_replace``, or on every move's path its cheaper ``with_board``,
``with_stacks`` and ``at_step``).  The few answers kept are kept by value, in
``functools.lru_cache`` caches of pure functions (the lines of a board and
their Hits, an action's moves from a board, a Stack's orders, a seat's
destroyed smalls): never on an object, never by identity, so they are the
answers worked out afresh.  They are small on purpose: a search meets a
board again within a few hundred moves, and larger caches keep no more
answers that are asked again, only more boards in memory, which slows
everything (measured: benchmarks/bench_reference_tier.py).  ``rules``
arguments are the variant's rule options (:class:`~treehouse.variants.fences.game.FencesRules`).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from enum import Enum
from functools import lru_cache
from itertools import permutations, product
from typing import NamedTuple

from treehouse.errors import IllegalPositionError
from treehouse.kernel.pieces import Direction, Pyramid, Size
from treehouse.kernel.turn import Outcome, Step
from treehouse.variants.fences.board import AROUND, BY_NAME, COMPASS, INSIDE, NEIGHBOUR, OUTSIDE, RAY, RING, direction_between, inward, same_line
from treehouse.variants.fences.hits import Cause, Hit, HitReport, Source, StackOut, fence_source, ignoring_colour, immune
from treehouse.variants.fences.moves import DIG, FAIL, FencesMove, piece_key, reordered_all
from treehouse.variants.first_player import first_seat
from treehouse.variants.fences.position import (
    ALL_COLOURS,
    DRAW_PHASE,
    FENCE_SIZES,
    PLACE_PHASE,
    RANK,
    FencesPosition,
    from_fields,
    drawn,
    fence,
    pieces,
    sort_colours,
    turned,
)

UP = Direction.UP

#: The three steps of a turn: move a Fence, roll and act, move the Stack.
STEPS = (Step("fence", rolls=False), Step("act", rolls=True), Step("stack", rolls=False))
STEP_INDEX = {step.name: i for i, step in enumerate(STEPS)}
#: The setup's steps (``start: chosen``), played by the kernel's setup phase
#: before the first turn.  Each draws a small blind from the bag (the chance
#: node), then the drawer places it: to start the Stack, or on top of it.
PLACE = Step("place", rolls=True, setup=True)
DRAW = Step("draw", rolls=True, setup=True)

#: The actions of the die's faces (WILD: reorder the Stack, then one of them).
ACTIONS = ("TIP", "SWAP", "HOP", "DIG", "AIM")


class Broken(Enum):
    """The rule a move breaks: what a ``*_breaks`` function answers for a
    move the rules do not allow (``None``: it breaks none of them).  The move
    lists keep only the moves that break none; explain.py words each member
    for a player who typed such a move."""

    #: step 1: a Pointing Fence moving back along its own line
    BACKWARDS = "backwards"
    #: step 1: one space off the board
    OFF_THE_BOARD = "off the board"
    #: step 1 and the setup: the square is taken
    OCCUPIED = "occupied"
    #: step 1: a Fence that neither ends next to the Stack nor leaves it, while one can
    NOT_NEAR = "not near"
    #: TIP: a Fence already Pointing
    NOT_STANDING = "not standing"
    #: TIP and SWAP: a Fence outside the Stack's row and column
    NOT_IN_LINE = "not in line"
    #: TIP and AIM: pointing toward no Inside square
    NOT_INWARD = "not inward"
    #: HOP and AIM: a Fence not beside the Stack
    NOT_BESIDE = "not beside"
    #: HOP: the Stack over an Outside Fence
    OVER_OUTSIDE = "over outside"
    #: HOP a Fence: no square on the Stack's far side
    NO_FAR_SQUARE = "no far square"
    #: HOP a Fence: the square on the Stack's far side is taken
    FAR_OCCUPIED = "far occupied"
    #: DIG: a lone small cannot go to its own bottom
    LONE_SMALL = "lone small"
    #: DIG: one colour all through, and Digging it is impossible (uniform_dig hit or reroll)
    CHANGES_NOTHING = "changes nothing"
    #: DIG: no destroyed small of that colour
    NOT_DESTROYED = "not destroyed"
    #: DIG: a destroyed small goes back only under a lone small
    NOT_UNDER_A_LONE_SMALL = "not under a lone small"
    #: WILD then DIG: the Dig gives back the Stack as it stood before the reorder
    GIVES_BACK_THE_STACK = "gives back the stack"
    #: AIM: a Fence turned to the orientation it has
    ALREADY_SO = "already so"
    #: step 3: a step Outside, with outside_attempts off
    OUTSIDE = "outside"
    #: the setup, two players: the first Stack off the corners
    NOT_A_CORNER = "not a corner"
    #: the setup, two players: the second Stack off the corner opposite the first
    NOT_OPPOSITE = "not opposite"


def is_fence(cell) -> bool:
    return isinstance(cell, Pyramid)


def is_stack(cell) -> bool:
    return isinstance(cell, int)


# --------------------------------------------------------------------------
# The setup
# --------------------------------------------------------------------------

#: Where Stacks start under ``start: corners``, by player count (seats clockwise from a1).
CORNER_STARTS = {2: ("a1", "e5"), 3: ("a1", "a5", "e5"), 4: ("a1", "a5", "e5", "e1")}
#: The corners, and the one opposite each (two players start on opposite corners).
CORNERS = tuple(BY_NAME[name] for name in ("a1", "a5", "e5", "e1"))
OPPOSITE = {a: b for a, b in zip(CORNERS, CORNERS[2:] + CORNERS[:2])}


def draft(rules, players: int, rng, first: int = 0) -> tuple[tuple, tuple]:
    """The Stacks (bottom to top) and the smalls set aside, drawn blind in turn
    order from seat ``first`` (``start: corners`` and ``random``); ``draft:
    distinct`` draws again a colour the drawer already has."""
    height = rules.height(players)
    bag = pieces(rules.sets)
    order = [(first + offset) % players for offset in range(players)]
    for _attempt in range(1000):
        pool = list(bag)
        stacks = [[] for _ in range(players)]
        ok = True
        for _round in range(height):
            for seat in order:
                allowed = [i for i, c in enumerate(pool) if rules.draft == "random" or c not in stacks[seat]]
                if not allowed:
                    ok = False
                    break
                stacks[seat].append(pool.pop(allowed[int(rng.random() * len(allowed))]))
            if not ok:
                break
        if ok:
            return tuple(tuple(s) for s in stacks), sort_colours(pool)
    raise IllegalPositionError(f"cannot draft {players} Stacks of {height} distinct colours")  # pragma: no cover


def setup_position(rules, players: int, rng) -> FencesPosition:
    """The position a game starts from: every Fence Standing on the Outside in
    a random layout; under ``start: chosen`` (the seed's) the smalls still in
    the bag for the setup steps, else the Stacks drawn and placed at once."""
    fences = [fence(size, UP, colour) for size in FENCE_SIZES for colour in pieces(rules.sets)]
    rng.shuffle(fences)
    board = [None] * 49
    for square, piece in zip(RING, fences):
        board[square] = piece
    nobody = ((),) * players
    first = first_seat(rules.first_player, players, rng)
    if rules.start == "chosen":
        bag = sort_colours(pieces(rules.sets))
        return FencesPosition(tuple(board), nobody, nobody, bag, (0,) * players, first, PLACE_PHASE, 0)
    if players == 2 or rules.start == "corners":
        squares = [BY_NAME[name] for name in CORNER_STARTS[players]]
    else:
        squares = rng.sample(sorted(INSIDE), players)
    for seat, square in enumerate(squares):
        board[square] = seat
    stacks, aside = draft(rules, players, rng, first)
    return FencesPosition(tuple(board), stacks, nobody, aside, (0,) * players, first, 0, 0)


def draw_chances(state: FencesPosition, distinct: bool) -> tuple[tuple[str, Fraction], ...]:
    """The setup's blind draw for the seat to move: each colour left in the
    bag, as likely as its count.  ``distinct`` (``draft: distinct``) leaves out
    the colours the drawer's Stack already has, unless only those are left."""
    counts = Counter(state.aside)
    if distinct:
        fresh = Counter({c: n for c, n in counts.items() if c not in state.stacks[state.to_move]})
        counts = fresh or counts
    total = sum(counts.values())
    return tuple((colour, Fraction(counts[colour], total)) for colour in ALL_COLOURS if counts[colour])


def setup_moves(state: FencesPosition, seat: int, colour: str) -> tuple[FencesMove, ...]:
    """What ``seat`` may do with the small of ``colour`` it just drew: with no
    Stack yet, place it on any empty Inside square (two players: the first
    player any corner, the other the corner opposite it); else put it on top
    of the Stack.
    ``()`` when no such small is left in the bag."""
    if colour not in state.aside:
        return ()
    if state.stacks[seat]:
        return (FencesMove("draw", arg=colour),)
    return tuple(FencesMove("place", square=s, arg=colour) for s in sorted(INSIDE) if place_breaks(state, seat, s) is None)


def place_breaks(state: FencesPosition, seat: int, square: int) -> Broken | None:
    """May ``seat`` place its first small on the Inside ``square``?"""
    if state.board[square] is not None:
        return Broken.OCCUPIED
    if state.players == 2:
        other = state.square_of(1 - seat)
        if other is None and square not in CORNERS:
            return Broken.NOT_A_CORNER
        if other is not None and square != OPPOSITE[other]:
            return Broken.NOT_OPPOSITE
    return None


# --------------------------------------------------------------------------
# Step 1: move a Fence
# --------------------------------------------------------------------------


def fence_moves(state: FencesPosition, seat: int) -> tuple[FencesMove, ...]:
    """Every Fence move one space to an empty square, never backwards along a
    Pointing Fence's own line; of those, the ones that end next to the Stack
    or take a Fence away from it if there are any, else all of them."""
    square = state.square_of(seat)
    if square is None:
        return ()
    board = state.board
    every, near = [], []
    for f, cell in enumerate(board):
        if not is_fence(cell):
            continue
        for d in COMPASS:
            if fence_step_breaks(board, f, d) is None:
                t = NEIGHBOUR[f][d]
                move = FencesMove("move", piece_key(cell), f, t)
                every.append(move)
                if nears(square, f, t):
                    near.append(move)
    return tuple(near or every)


def fence_step_breaks(board: tuple, f: int, d: Direction) -> Broken | None:
    """May the Fence at ``f`` move one space ``d``?  To an empty square, never
    backwards along a Pointing Fence's own line."""
    cell = board[f]
    if cell.direction is not UP and d is cell.direction.opposite:
        return Broken.BACKWARDS
    t = NEIGHBOUR[f][d]
    if t is None:
        return Broken.OFF_THE_BOARD
    if board[t] is not None:
        return Broken.OCCUPIED
    return None


def nears(square: int, f: int, t: int) -> bool:
    """Does a Fence moving from ``f`` to ``t`` end next to the Stack on
    ``square``, or leave it?  Only such moves count while there is one."""
    around = AROUND[square]
    return t in around or f in around


# --------------------------------------------------------------------------
# Step 2: the actions
# --------------------------------------------------------------------------


def tip_moves(board: tuple, square: int) -> list[FencesMove]:
    """TIP: a Standing Fence in the Stack's row or column, to point toward an Inside square."""
    return [FencesMove("tip", piece_key(cell), f, d) for f, cell in enumerate(board) if is_fence(cell) for d in inward(f) if tip_breaks(board, square, f, d) is None]


def tip_breaks(board: tuple, square: int, f: int, d: Direction) -> Broken | None:
    """May the Fence at ``f`` be tipped ``d`` by the Stack on ``square``?
    A Standing Fence in the Stack's row or column, toward an Inside square."""
    if board[f].direction is not UP:
        return Broken.NOT_STANDING
    if not same_line(f, square):
        return Broken.NOT_IN_LINE
    if d not in inward(f):
        return Broken.NOT_INWARD
    return None


def swap_moves(board: tuple, square: int) -> list[FencesMove]:
    """SWAP: any Fence in the Stack's row or column, Inside or Outside."""
    return [FencesMove("swap", piece_key(cell), f) for f, cell in enumerate(board) if is_fence(cell) and swap_breaks(square, f) is None]


def swap_breaks(square: int, f: int) -> Broken | None:
    """May the Stack on ``square`` swap with the Fence at ``f``?  Any Fence in its row or column."""
    return None if same_line(f, square) else Broken.NOT_IN_LINE


def hop_moves(board: tuple, square: int) -> list[FencesMove]:
    """HOP: the Stack over an adjacent Inside Fence (it may bounce), or an
    adjacent Fence over the Stack to an empty square on the other side."""
    moves = []
    for f in AROUND[square]:
        if not is_fence(board[f]):
            continue
        key = piece_key(board[f])
        if hop_breaks(square, f) is None:
            moves.append(FencesMove("hop", key, f))
        if hop_fence_breaks(board, square, f) is None:
            moves.append(FencesMove("hopfence", key, f))
    return moves


def hop_breaks(square: int, f: int) -> Broken | None:
    """May the Stack on ``square`` hop over the Fence at ``f``?  An Inside
    Fence beside it (the Stack may still bounce back)."""
    if f not in AROUND[square]:
        return Broken.NOT_BESIDE
    if f not in INSIDE:
        return Broken.OVER_OUTSIDE
    return None


def hop_fence_breaks(board: tuple, square: int, f: int) -> Broken | None:
    """May the Fence at ``f`` hop over the Stack on ``square``?  A Fence
    beside it, to the empty square on the Stack's far side."""
    side = direction_between(square, f)
    if side is None:
        return Broken.NOT_BESIDE
    far = NEIGHBOUR[square][side.opposite]
    if far is None:
        return Broken.NO_FAR_SQUARE
    if board[far] is not None:
        return Broken.FAR_OCCUPIED
    return None


def dig_moves(stack: tuple, destroyed: tuple, restores_any: bool = False, uniform: str = "noop") -> list[FencesMove]:
    """DIG: the top small to the bottom, and, under a lone small (or at any
    height with ``restores_any``), each colour of the destroyed smalls put
    back at the bottom.  A Stack of two or more smalls of one colour digs
    only under ``uniform`` ``noop`` (done, changing nothing); under ``hit``
    and ``reroll`` that Dig is impossible."""
    moves = [DIG] if dig_breaks(stack, uniform) is None else []
    if destroyed:
        moves.extend(FencesMove("dig", arg=c) for c in sort_colours(set(destroyed)) if restore_breaks(stack, destroyed, c, restores_any) is None)
    return moves


def dig_breaks(stack: tuple, uniform: str = "noop") -> Broken | None:
    """May the Stack Dig its top small to the bottom?  Two smalls or more;
    one colour all through only under ``uniform_dig: noop``."""
    if len(stack) < 2:
        return Broken.LONE_SMALL
    if uniform != "noop" and dug(stack) == stack:
        return Broken.CHANGES_NOTHING
    return None


def restore_breaks(stack: tuple, destroyed: tuple, colour: str, restores_any: bool = False) -> Broken | None:
    """May the Stack Dig a destroyed small of ``colour`` back under it?  One
    it lost, under a lone small (at any height with ``restores_any``)."""
    if colour not in destroyed:
        return Broken.NOT_DESTROYED
    if len(stack) != 1 and not restores_any:
        return Broken.NOT_UNDER_A_LONE_SMALL
    return None


def dug(stack: tuple) -> tuple:
    """The Stack after a Dig: the top small at the bottom."""
    return stack[-1:] + stack[:-1]


def aim_moves(board: tuple, square: int) -> list[FencesMove]:
    """AIM: any non-empty set of the Fences around the Stack, each turned to a
    new orientation (Standing, or pointing toward an Inside square)."""
    choices = []
    for f in sorted(AROUND[square]):
        cell = board[f]
        if is_fence(cell):
            options = [d for d in (UP, *inward(f)) if aim_breaks(board, square, f, d) is None]
            choices.append([None] + [(piece_key(cell), f, d) for d in options])
    moves = []
    for combo in product(*choices):
        picked = tuple(c for c in combo if c is not None)
        if picked:
            moves.append(FencesMove("aim", arg=picked))
    return moves


def aim_breaks(board: tuple, square: int, f: int, d: Direction) -> Broken | None:
    """May the Stack on ``square`` Aim the Fence at ``f`` to ``d``?  A Fence
    beside it, to a new orientation: Standing, or toward an Inside square."""
    if f not in AROUND[square]:
        return Broken.NOT_BESIDE
    if d is board[f].direction:
        return Broken.ALREADY_SO
    if d is not UP and d not in inward(f):
        return Broken.NOT_INWARD
    return None


def one_action_moves(state: FencesPosition, seat: int, action: str, restores_any: bool = False, uniform_dig: str = "noop") -> tuple[FencesMove, ...]:
    """The moves of one action (not WILD) for ``seat``'s Stack as it stands."""
    if action == "DIG":
        return tuple(dig_moves(state.stacks[seat], state.destroyed[seat], restores_any, uniform_dig))
    return _placed_action_moves(state.board, state.square_of(seat), action)


@lru_cache(maxsize=64)
def _placed_action_moves(board: tuple, square: int, action: str) -> tuple[FencesMove, ...]:
    """TIP, SWAP, HOP or AIM's moves for the Stack on ``square``: a pure
    function of the three values, kept by value (a chance node lists them
    for the action's own face, then again for WILD's)."""
    if action == "TIP":
        return tuple(tip_moves(board, square))
    if action == "SWAP":
        return tuple(swap_moves(board, square))
    if action == "HOP":
        return tuple(hop_moves(board, square))
    return tuple(aim_moves(board, square))


@lru_cache(maxsize=256)
def orders(stack: tuple) -> tuple[tuple, ...]:
    """Every distinct reordering of a Stack, in a fixed order (as it stands
    first): a pure function of a few colours, kept by value (every WILD asks)."""
    found = sorted(set(permutations(stack)), key=lambda p: [RANK[c] for c in p])
    found.remove(stack)
    return (stack, *found)


def action_moves(state: FencesPosition, seat: int, face: str, uniform_dig: str = "noop", dig_restores_any: bool = False) -> tuple:
    """The moves a rolled face offers; ``(FAIL,)`` when the action is impossible
    (the Stack is Hit and Damaged).  A Dig of two or more smalls of one colour
    is, by ``uniform_dig``: ``noop`` the move ``dig``, done and changing
    nothing; ``hit`` impossible; ``reroll`` ``()`` (roll again).
    ``dig_restores_any`` (the house rule ``dig-restores-any``) lets a Dig
    restore a destroyed small at any height.

    WILD: every reorder of the Stack (as it stands first), each with every
    TIP, SWAP, HOP and AIM (which the order does not change) and the Digs of
    that order; a reorder then a Dig that gives back the Stack as it stood is
    not offered, unless it is the one Dig there is (one colour, under
    ``noop``).  If no action is possible after any reorder, one ``fail`` per
    reorder: the player chooses which small the Hit takes."""
    if face != "WILD":
        moves = one_action_moves(state, seat, face, dig_restores_any, uniform_dig)
        if moves:
            return tuple(moves)
        if face == "DIG" and uniform_dig == "reroll" and len(state.stacks[seat]) >= 2:
            return ()
        return (FAIL,)
    stack = state.stacks[seat]
    unordered = [m for action in ("TIP", "SWAP", "HOP", "AIM") for m in one_action_moves(state, seat, action)]
    moves = []
    for order in orders(stack):
        moves.extend(reordered_all(unordered, order))
        for move in dig_moves(order, state.destroyed[seat], dig_restores_any, uniform_dig):
            if wild_dig_breaks(stack, order, move) is None:
                moves.append(move.reordered(order))
    if moves:
        return tuple(moves)
    return tuple(FAIL.reordered(order) for order in orders(stack))


def wild_dig_breaks(stack: tuple, order: tuple, move: FencesMove) -> Broken | None:
    """May a WILD reorder of ``stack`` to ``order`` be followed by the Dig
    ``move``?  Not when the Dig gives back the Stack as it stood (the turn
    would change nothing), unless that is the one Dig there is (one colour)."""
    if move.arg is None and dug(order) == stack and len(set(stack)) > 1:
        return Broken.GIVES_BACK_THE_STACK
    return None


# --------------------------------------------------------------------------
# Step 3: move the Stack
# --------------------------------------------------------------------------


def stack_moves(state: FencesPosition, seat: int, outside_attempts: bool = False) -> tuple[FencesMove, ...]:
    """One square north, east, south or west: toward Inside squares only,
    unless ``outside_attempts`` lets the Stack try to move Outside."""
    square = state.square_of(seat)
    if square is None:
        return ()
    return tuple(FencesMove("step", arg=d) for d in COMPASS if step_breaks(square, d, outside_attempts) is None)


def step_breaks(square: int, d: Direction, outside_attempts: bool = False) -> Broken | None:
    """May the Stack on ``square`` step ``d``?  To an Inside square, or
    anywhere with ``outside_attempts`` (an attempt Outside Hits it)."""
    return None if outside_attempts or NEIGHBOUR[square][d] in INSIDE else Broken.OUTSIDE


# --------------------------------------------------------------------------
# Performing a move
# --------------------------------------------------------------------------


class Effect(NamedTuple):
    """What a move did: the new position, the attempt Hits, and the Stacks that
    stayed on their square though "still considered moved" (a bounce, a Swap
    with an Outside Fence).  The variant's ``treehouse_apply_move`` hands it to
    ``treehouse_resolve`` through the engine (:class:`~treehouse.kernel.engine.Applied`)."""

    state: FencesPosition
    hits: tuple = ()
    bounced: frozenset = frozenset()


def attempt_hit(board, stacks, seat: int, square: int, target: int) -> Hit | None:
    """The Hit when ``seat``'s Stack on ``square`` tries to enter ``target``
    (step 3 or a Hop); ``None`` when the square is empty Inside and it may."""
    cell = board[target]
    if target in OUTSIDE:
        return Hit(seat, Cause.OUTSIDE, square=target)
    if cell is None:
        return None
    if is_stack(cell):
        # only the stationary Stack is Hit; the mover's top colour can make it immune
        return Hit(cell, Cause.STACK_MOVED_ONTO, Source(Size.SMALL, stacks[seat][-1], square, seat))
    return Hit(seat, Cause.MOVED_ONTO, fence_source(cell, target))


def bounced(hit: Hit, seat: int, mover_hit_on_stack: bool) -> frozenset:
    """The Stacks considered moved after ``seat``'s Stack tried to move and
    stayed, ``hit`` its attempt's Hit: the mover, unless it tried to move onto
    another Stack (the Hit is that Stack's) and ``mover_hit_on_stack`` is off
    (the seed: "only the stationary Stack is Hit")."""
    return frozenset((seat,)) if hit.seat == seat or mover_hit_on_stack else frozenset()


def direction_to(square: int, neighbour: int) -> Direction:
    return next(d for d in COMPASS if NEIGHBOUR[square][d] == neighbour)


def perform(
    state: FencesPosition,
    seat: int,
    move: FencesMove,
    swap_outside_ignores_colour: bool = True,
    swap_outside_considered_moved: bool = True,
    mover_hit_on_stack: bool = False,
) -> Effect:
    """Play ``move`` for ``seat``: the position after it (the step still to
    advance: :func:`advance`), the attempt Hits it made and the Stacks that
    stayed though considered moved.  A WILD reorder comes first and counts
    for the attempt Hits (a Stack's top colour).  A Stack that tries to move
    onto another Stack stays; it is considered moved (so a line already on
    it Hits it) only with ``mover_hit_on_stack``: by default "only the
    stationary Stack is Hit"."""
    stacks = state.stacks
    if move.order is not None:  # the reorder first: every position below is made with it (_moved, _with_order)
        stacks = (*stacks[:seat], move.order, *stacks[seat + 1 :])
    kind = move.kind
    board = list(state.board)

    if kind == "move":  # step 1
        board[move.arg], board[move.square] = board[move.square], None
        return _moved(state, board, stacks)

    if kind == "aim":
        for _piece, f, d in move.arg:
            board[f] = turned(board[f], d)
        return _moved(state, board, stacks)

    if kind in ("place", "draw"):  # the setup: the small drawn leaves the bag for the Stack
        aside = list(state.aside)
        aside.remove(move.arg)
        stacks = list(stacks)
        stacks[seat] = stacks[seat] + (move.arg,)
        if kind == "place":
            board[move.square] = seat
        return Effect(state._replace(board=tuple(board), stacks=tuple(stacks), aside=tuple(aside)))

    if kind == "tip":  # it points, then slides through the empty Inside squares ahead
        f, d = move.square, move.arg
        end = f
        for n in RAY[f][d]:
            if n not in INSIDE or board[n] is not None:
                break
            end = n
        piece = turned(board[f], d)
        board[f] = None
        board[end] = piece
        return _moved(state, board, stacks)

    if kind == "swap":
        f = move.square
        if f in OUTSIDE:
            # the Stack stays, Hit; it is "still considered moved" (swap_outside_considered_moved),
            # so the lines already on it Hit too, "in addition to any other Hits"
            hit = Hit(seat, Cause.SWAP_OUTSIDE, fence_source(board[f], f))
            hit = ignoring_colour(hit) if swap_outside_ignores_colour else hit
            return Effect(_with_order(state, stacks), (hit,), frozenset((seat,)) if swap_outside_considered_moved else NOBODY)
        board[state.square_of(seat)], board[f] = board[f], seat
        return _moved(state, board, stacks)

    if kind == "hop":  # the Stack over the Fence; it may bounce back
        f, square = move.square, state.square_of(seat)
        d = direction_to(square, f)
        if board[f].direction is UP:
            board[f] = turned(board[f], d)  # a Standing Fence falls to point at the target square
        target = NEIGHBOUR[f][d]
        hit = attempt_hit(board, stacks, seat, square, target)
        if hit is not None:
            return Effect(_with_order(state, stacks).with_board(tuple(board)), (hit,), bounced(hit, seat, mover_hit_on_stack))
        board[square], board[target] = None, seat
        return _moved(state, board, stacks)

    if kind == "hopfence":  # the Fence over the Stack, keeping its orientation
        f, square = move.square, state.square_of(seat)
        far = NEIGHBOUR[square][direction_to(square, f).opposite]
        board[far], board[f] = board[f], None
        return _moved(state, board, stacks)

    if kind == "dig":
        stacks, destroyed = list(stacks), list(state.destroyed)
        if move.arg is None:
            stacks[seat] = dug(stacks[seat])
        else:  # a destroyed small goes back under the Stack
            stacks[seat] = (move.arg, *stacks[seat])
            left = list(destroyed[seat])
            left.remove(move.arg)
            destroyed[seat] = tuple(left)
        return Effect(state._replace(stacks=tuple(stacks), destroyed=tuple(destroyed)))

    if kind == "step":  # step 3
        square = state.square_of(seat)
        target = NEIGHBOUR[square][move.arg]
        hit = attempt_hit(board, stacks, seat, square, target)
        if hit is not None:
            return Effect(_with_order(state, stacks), (hit,), bounced(hit, seat, mover_hit_on_stack))
        board[square], board[target] = None, seat
        return _moved(state, board, stacks)

    # "fail", or any other kind: the rolled action is impossible
    return Effect(_with_order(state, stacks), (Hit(seat, Cause.IMPOSSIBLE),))


#: No Stack considered moved.
NOBODY: frozenset = frozenset()


def _moved(state: FencesPosition, board: list, stacks: tuple) -> Effect:
    """What a move that Hit nothing did: ``state`` with ``board`` and ``stacks``, made in one step."""
    _board, _stacks, destroyed, aside, out, to_move, phase, turn, tallies = state
    return from_fields(Effect, (from_fields(FencesPosition, (tuple(board), stacks, destroyed, aside, out, to_move, phase, turn, tallies)), (), NOBODY))


def _with_order(state: FencesPosition, stacks: tuple) -> FencesPosition:
    """``state`` with ``stacks`` (a WILD's reorder), or ``state`` itself where they are its own."""
    return state if stacks == state.stacks else state.with_stacks(stacks)


# --------------------------------------------------------------------------
# The Hits of a check
# --------------------------------------------------------------------------


class Line(NamedTuple):
    """A Pointing Fence with a clear view of a Stack."""

    fence_square: int
    fence: Pyramid
    stack_square: int
    seat: int


def first_pieces(board, square: int) -> list[tuple[Direction, int, object]]:
    """``(direction, square, cell)`` of the first piece met going each way
    along ``square``'s row and column (north first; none where the way is
    clear to the frame's edge): the lines of sight here, and the bots'
    threats in :mod:`~treehouse.variants.fences.evaluate`."""
    found, rays = [], RAY[square]
    for d in COMPASS:
        for n in rays[d]:
            if board[n] is not None:
                found.append((d, n, board[n]))
                break
    return found


def lines(state: FencesPosition) -> tuple[Line, ...]:
    """Every line of sight from a Pointing Fence to a Stack, Stacks in square
    order: from each Stack, the first piece each way, if it is a Fence
    pointing back at it."""
    return _lines(state.board)


@lru_cache(maxsize=512)
def _lines(board: tuple) -> tuple[Line, ...]:
    """:func:`lines` of a board, from the Stacks standing on it (a seat's
    Stack is on the board exactly while the seat is in): a pure function of
    the board, so a search that meets a board again finds its lines kept
    (keyed by value, never by identity)."""
    found = []
    for square, seat in enumerate(board):
        if isinstance(seat, int):  # is_stack(seat), written out: every new board is scanned
            for d, n, piece in first_pieces(board, square):
                if is_fence(piece) and piece.direction is d.opposite:
                    found.append(Line(n, piece, square, seat))
    return tuple(found)


def line_hits(before: FencesPosition, after: FencesPosition, moved: frozenset = frozenset(), every_check: bool = False) -> list[Hit]:
    """The line Hits of a check from ``before`` to ``after``: each line that is
    new (the Fence moved or turned, the Stack moved, a blocker left) Hits
    (``POINTED_AT``); so does each line already there to a Stack in
    ``moved``, one that stayed though considered moved (``BOUNCED``).  With
    ``every_check`` (``line_hits: every_check``) every line Hits."""
    sightings = _sightings(after.board)
    if every_check:
        return [pointed for _line, pointed, _bounced in sightings]
    if not sightings:
        return []  # no line after the move: nothing to compare with the lines before
    already = _lines(before.board)  # lines(before)
    hits = []
    for line, pointed, bounced in sightings:
        if line not in already:
            hits.append(pointed)
        elif line.seat in moved:
            hits.append(bounced)
    return hits


@lru_cache(maxsize=512)
def _sightings(board: tuple) -> tuple[tuple[Line, Hit, Hit], ...]:
    """Each line of a board (:func:`_lines`) with the Hit it makes when new
    (``POINTED_AT``) and when its Stack was considered moved (``BOUNCED``):
    a pure function of the board, kept by value, so the Hits of a board are
    made once, not at every check that finds them."""
    found = []
    for line in _lines(board):
        source = fence_source(line.fence, line.fence_square)
        found.append((line, Hit(line.seat, Cause.POINTED_AT, source), Hit(line.seat, Cause.BOUNCED, source)))
    return tuple(found)


def one_per_piece(hits, swap_in_addition: bool = True) -> list[Hit]:
    """At most one Hit per piece and Stack: the first a piece makes (an
    attempt comes before a line).  Stepping into a Fence that already points
    at the Stack is then one Hit, not two.  Hits with no piece are never
    merged; nor, with ``swap_in_addition`` (``swap_outside_considered_moved``),
    a Swap with an Outside Fence, which Hits "in addition to any other Hits"
    (docs/rules/fences.md, Hits)."""
    seen, kept = set(), []
    for hit in hits:
        if hit.source is not None and not (swap_in_addition and hit.cause is Cause.SWAP_OUTSIDE):
            key = (hit.seat, hit.source)
            if key in seen:
                continue
            seen.add(key)
        kept.append(hit)
    return kept


def check_hits(before: FencesPosition, after: FencesPosition, effect: Effect | None, rules) -> list[Hit]:
    """The Hits the check after a step finds, in order: the attempt Hits the
    move made (``effect``; ``None`` for a passed step or a move the variant
    did not perform), then the line Hits; one per piece and Stack under
    ``one_hit_per_piece``.  Which of them stand is the ``treehouse_fences_hits``
    hook's to say (the variant asks it)."""
    attempts, moved = (effect.hits, effect.bounced) if effect is not None else ((), frozenset())
    hits = line_hits(before, after, moved, rules.line_hits == "every_check")
    if not attempts:
        return hits  # a Fence points one way, so it makes one line Hit at most: nothing to merge
    hits = [*attempts, *hits]
    if rules.one_hit_per_piece:
        hits = one_per_piece(hits, rules.swap_outside_considered_moved)
    return hits


# --------------------------------------------------------------------------
# Damage
# --------------------------------------------------------------------------


def resolve_damage(state: FencesPosition, hits, check: int) -> tuple[FencesPosition, tuple]:
    """Resolve ``hits`` simultaneously: colour immunity is judged against each
    Stack's top colour before anything is removed; each other Hit removes one
    small, from the top down; a Stack emptied is out at ``check`` and leaves
    the board.  Returns the position and the events: a :class:`HitReport` per
    Hit, in order, then a :class:`StackOut` per Stack emptied."""
    if not hits:
        return state, ()
    stacks = state.stacks
    reports, taken, fell = [], {}, {}
    for hit in hits:
        seat = hit.seat
        stack = stacks[seat]
        top = stack[-1] if stack else None
        lost = taken.get(seat, 0)
        if not stack or immune(hit, top) or lost == len(stack):
            reports.append(from_fields(HitReport, (hit, top, None)))  # out already, saved by colour, or nothing left to lose
            continue
        taken[seat] = lost = lost + 1
        reports.append(from_fields(HitReport, (hit, top, stack[-lost])))
        if lost == len(stack):
            fell[seat] = hit
    if not taken:
        return state, tuple(reports)
    board, stacks, destroyed, out = state.board, list(stacks), list(state.destroyed), state.out
    for seat, lost in taken.items():
        stack = stacks[seat]
        stacks[seat] = stack[: len(stack) - lost]
        destroyed[seat] = with_destroyed(destroyed[seat], stack[len(stack) - lost :])
    if fell:
        board, out = list(board), list(out)
        for seat in fell:
            if seat in board:  # always, in play: Stacks are only Hit once placed
                board[board.index(seat)] = None
            out[seat] = check
        board, out = tuple(board), tuple(out)
    after = from_fields(FencesPosition, (board, tuple(stacks), tuple(destroyed), state.aside, out, *state[5:]))
    if not fell:
        return after, tuple(reports)
    return after, tuple(reports) + tuple(StackOut(seat, check, hit) for seat, hit in sorted(fell.items()))


@lru_cache(maxsize=1024)
def with_destroyed(destroyed: tuple, lost: tuple) -> tuple:
    """A seat's destroyed smalls with the ``lost`` ones added, sorted: a
    pure function of a few colours, kept by value."""
    return sort_colours(destroyed + tuple(reversed(lost)))


def check_number(state: FencesPosition, step: Step) -> int:
    """Which check of the game the one after ``step`` is, from 1: 3 x completed turns + the step (1-3)."""
    return 3 * state.turn + STEP_INDEX[step.name] + 1


# --------------------------------------------------------------------------
# The step and turn advance, and the outcome
# --------------------------------------------------------------------------


def advance(state: FencesPosition, step: Step) -> FencesPosition:
    """The position once the turn's ``step`` is played: the next step of the
    turn, or, after the last (``stack``), the turn counted complete and
    ``fence`` next.  A house rule that performs a move of its own returns
    ``advance(position, step)`` from ``treehouse_apply_move`` (docs/fences-api.md)."""
    index = STEP_INDEX[step.name] + 1
    if index == len(STEPS):
        return state.at_step(0, state.turn + 1)
    return state.at_step(index, state.turn)


def advance_setup(state: FencesPosition, height: int) -> FencesPosition:
    """After a setup step: the next seat round the table draws, or, once
    every Stack is ``height`` high, the first turn begins with the first
    player, the seat after the last drawer (the draws went round the table
    from it); the smalls left in the bag are the ones set aside."""
    seat = (state.to_move + 1) % state.players
    if drawn(state) == state.players * height:
        return state._replace(to_move=seat, phase=0)
    return state._replace(to_move=seat, phase=DRAW_PHASE if state.stacks[seat] else PLACE_PHASE)


def end_turn(state: FencesPosition) -> FencesPosition:
    """The next seat still in plays its turn from step ``fence``; a turn cut
    short (its seat went out, or a step had nothing to do) is counted complete."""
    players, seat = state.players, state.to_move
    for offset in range(1, players + 1):
        if state.stacks[(seat + offset) % players]:
            seat = (seat + offset) % players
            break
    return state._replace(to_move=seat, phase=0, turn=state.turn + (1 if state.phase != 0 else 0))


def outcome(state: FencesPosition, rules) -> Outcome | None:
    """The game's end, if it is over: the last Stack standing wins; the last
    Stacks emptied at one check draw (``all_out_at_once: tie``: share the
    win); at ``turn_limit`` the most smalls win (or it is a draw)."""
    if state.phase >= PLACE_PHASE:  # setting_up, asked after every move in a bot's head
        return None  # Stacks not drawn yet are not out
    stacks = state.stacks
    if not rules.turn_limit and len(stacks) - stacks.count(()) > 1:
        return None  # two Stacks or more in, and no limit: the common case, first
    live = state.live()
    if len(live) == 1:
        return Outcome(live, "last stack standing")
    if not live:
        last = max(state.out)
        together = tuple(i for i, o in enumerate(state.out) if o == last)
        if rules.all_out_at_once == "tie":
            return Outcome(together, "the last stacks were emptied at once: a tie")
        return Outcome((), "the last stacks were emptied at once: a draw")
    limit = rules.turn_limit
    if limit and state.turn >= limit and state.phase == 0:
        if rules.turn_limit_scoring == "draw":
            return Outcome((), f"turn limit {limit}: a draw")
        most = max(len(state.stacks[i]) for i in live)
        return Outcome(tuple(i for i in live if len(state.stacks[i]) == most), f"turn limit {limit}: most smalls")
    return None
