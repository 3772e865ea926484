"""Fences' fast paths give the plain paths' answers, for fixed seeds (issue 12).

The plain paths are written out here as they were before the speed work:
applying a move with ``_replace`` (:func:`plain_perform`), the line Hits as
the lines after less the lines before (:func:`plain_line_hits`), Damage
(:func:`plain_resolve_damage`), and the evaluation through its general
path (a ``stand`` that lets every Hit stand).  Every legal move of every
step of a few seeded games is compared, under a few rule options.
"""

from __future__ import annotations

import random

import pytest

from treehouse.bots.greedy import GreedyBot
from treehouse.bots.random_bot import RandomBot
from treehouse.kernel.engine import PASS, Game
from treehouse.kernel.pieces import Direction, Size
from treehouse.variants.fences.actions import Effect, perform
from treehouse.variants.fences.board import COMPASS, INSIDE, NEIGHBOUR, OUTSIDE, RAY
from treehouse.variants.fences.evaluate import evaluate
from treehouse.variants.fences.hits import (
    Cause,
    Hit,
    HitReport,
    Source,
    StackOut,
    fence_source,
    ignoring_colour,
    line_hits,
    lines,
    resolve_damage,
)
from treehouse.variants.fences.moves import FencesMove
from treehouse.variants.fences.position import FencesPosition, format_position, parse_position, sort_colours, turned

UP = Direction.UP


def plain_attempt(board, stacks, seat: int, square: int, target: int) -> Hit | None:
    cell = board[target]
    if target in OUTSIDE:
        return Hit(seat, Cause.OUTSIDE, square=target)
    if cell is None:
        return None
    if type(cell) is int:
        return Hit(cell, Cause.STACK_MOVED_ONTO, Source(Size.SMALL, stacks[seat][-1], square, seat))
    return Hit(seat, Cause.MOVED_ONTO, fence_source(cell, target))


def plain_perform(
    state: FencesPosition, seat: int, move: FencesMove, swap_outside_ignores_colour: bool = True, swap_outside_moved: bool = True
) -> Effect:
    """Play ``move`` for ``seat``: the board change plus the attempt Hits."""
    if move.order is not None:
        stacks = list(state.stacks)
        stacks[seat] = move.order
        state = state._replace(stacks=tuple(stacks))
    kind = move.kind
    board = list(state.board)
    square = state.square_of(seat)

    if kind == "move":
        board[move.arg], board[move.square] = board[move.square], None
        return Effect(state._replace(board=tuple(board)))

    if kind in ("place", "draw"):
        # the setup: the small drawn leaves the bag for the Stack; no Hit (docs/rules/fences.md, Setup)
        aside = list(state.aside)
        aside.remove(move.arg)
        stacks = list(state.stacks)
        stacks[seat] = stacks[seat] + (move.arg,)
        if kind == "place":
            board[move.square] = seat
        return Effect(state._replace(board=tuple(board), stacks=tuple(stacks), aside=tuple(aside)))

    if kind == "tip":
        f, d = move.square, move.arg
        piece = turned(board[f], d)
        end = f
        for n in RAY[f][d]:
            if n in INSIDE and board[n] is None:
                end = n
            else:
                break
        board[f] = None
        board[end] = piece
        return Effect(state._replace(board=tuple(board)))

    if kind == "swap":
        f = move.square
        if f in OUTSIDE:
            hit = Hit(seat, Cause.SWAP_OUTSIDE, fence_source(board[f], f))
            moved = frozenset((seat,)) if swap_outside_moved else frozenset()  # "still considered moved"
            return Effect(state, (ignoring_colour(hit) if swap_outside_ignores_colour else hit,), moved)
        board[square], board[f] = board[f], seat
        return Effect(state._replace(board=tuple(board)))

    if kind == "hop":
        f = move.square
        d = next(d for d in COMPASS if NEIGHBOUR[square][d] == f)
        target = NEIGHBOUR[f][d]
        if board[f].direction is UP:
            board[f] = turned(board[f], d)  # a Standing Fence falls to point at the target square
        hit = plain_attempt(board, state.stacks, seat, square, target)
        if hit is not None:
            return Effect(state._replace(board=tuple(board)), (hit,), frozenset((seat,)))
        board[square], board[target] = None, seat
        return Effect(state._replace(board=tuple(board)))

    if kind == "hopfence":
        f = move.square
        d = next(d for d in COMPASS if NEIGHBOUR[square][d] == f)
        far = NEIGHBOUR[square][d.opposite]
        board[far], board[f] = board[f], None
        return Effect(state._replace(board=tuple(board)))

    if kind == "dig":
        stacks, destroyed = list(state.stacks), list(state.destroyed)
        stack = stacks[seat]
        if move.arg is None:
            stacks[seat] = stack[-1:] + stack[:-1]
        else:
            stacks[seat] = (move.arg,) + stack
            left = list(destroyed[seat])
            left.remove(move.arg)
            destroyed[seat] = tuple(left)
        return Effect(state._replace(stacks=tuple(stacks), destroyed=tuple(destroyed)))

    if kind == "aim":
        for _piece, f, d in move.arg:
            board[f] = turned(board[f], d)
        return Effect(state._replace(board=tuple(board)))

    if kind == "step":
        target = NEIGHBOUR[square][move.arg]
        hit = plain_attempt(board, state.stacks, seat, square, target)
        if hit is not None:
            return Effect(state, (hit,), frozenset((seat,)))
        board[square], board[target] = None, seat
        return Effect(state._replace(board=tuple(board)))

    # fail: the rolled action is impossible
    return Effect(state, (Hit(seat, Cause.IMPOSSIBLE),))


def plain_resolve_damage(state: FencesPosition, hits, check: int) -> tuple[FencesPosition, tuple]:
    """Resolve ``hits`` simultaneously: remove one top small per Damage, all
    at once; empty Stacks go out at ``check``.  Returns the position and the
    events: a :class:`HitReport` per Hit (in order; the Damaging Hits of a
    Stack take its smalls from the top down) and a :class:`StackOut` per
    Stack emptied."""
    if not hits:
        return state, ()
    stacks = state.stacks
    reports, fell = [], {}
    taken = dict.fromkeys(range(len(stacks)), 0)
    for hit in hits:
        stack = stacks[hit.seat]
        top = stack[-1] if stack else None
        colour = hit.colour
        if not stack or (colour is not None and top == colour):
            reports.append(HitReport(hit, top, None))
            continue
        n = taken[hit.seat]
        if n >= len(stack):
            reports.append(HitReport(hit, top, None))  # nothing left to lose
            continue
        taken[hit.seat] = n + 1
        reports.append(HitReport(hit, top, stack[len(stack) - 1 - n]))
        if n + 1 == len(stack):
            fell[hit.seat] = hit
    if not any(taken.values()):
        return state, tuple(reports)
    board = list(state.board)
    stacks, destroyed, out = list(stacks), list(state.destroyed), list(state.out)
    for seat, n in taken.items():
        if not n:
            continue
        stack = stacks[seat]
        removed = stack[len(stack) - n :]
        stacks[seat] = stack[: len(stack) - n]
        destroyed[seat] = sort_colours(destroyed[seat] + removed)
        if not stacks[seat]:
            if seat in board:  # always, in play: Stacks are only Hit once placed
                board[board.index(seat)] = None
            out[seat] = check
    after = state._replace(board=tuple(board), stacks=tuple(stacks), destroyed=tuple(destroyed), out=tuple(out))
    events = tuple(reports) + tuple(StackOut(seat, check, hit) for seat, hit in sorted(fell.items()))
    return after, events



def plain_line_hits(before, after, moved=frozenset(), every_check=False):
    old = set() if every_check else set(lines(before.board))
    hits = []
    for line in lines(after.board):
        if every_check or line not in old:
            cause = Cause.POINTED_AT
        elif line.seat in moved:
            cause = Cause.BOUNCED
        else:
            continue
        hits.append(Hit(line.seat, cause, fence_source(line.fence, line.fence_square)))
    return hits


class Recorder(GreedyBot):
    """Greedy, noting every choice it is offered."""

    def __init__(self, seen):
        super().__init__()
        self.seen = seen

    def choose(self, state, step, face, moves, rng):
        self.seen.append((state, step, moves))
        return super().choose(state, step, face, moves, rng)


def choices(fences_class, players=2, seed=3, games=4, **options):
    variant = fences_class(fences_class.Rules(**options))
    seen = []
    for game in range(games):
        seats = [Recorder(seen)] + [RandomBot() for _ in range(players - 1)]
        Game(variant, seats, random.Random(f"{seed}:{game}"), turn_cap=60).play()
    return variant, seen


OPTIONS = [
    {},
    {"line_hits": "every_check", "swap_outside_ignores_colour": False, "uniform_dig": "noop"},
    {"one_hit_per_piece": False, "outside_attempts": False, "start": "chosen", "swap_outside_considered_moved": False},
]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players", [2, 3])
def test_every_move_applies_resolves_and_evaluates_as_the_plain_path(fences_class, options, players):
    variant, seen = choices(fences_class, players, **options)
    flag, moved = variant.rules.swap_outside_ignores_colour, variant.rules.swap_outside_considered_moved
    every = variant.rules.line_hits == "every_check"
    compared = 0
    for state, step, moves in seen:
        for move in moves:
            if move is PASS:
                continue
            fast, plain = perform(state, state.to_move, move, flag, moved), plain_perform(state, state.to_move, move, flag, moved)
            assert fast == plain and type(fast.state) is FencesPosition
            if state.setting_up:
                continue
            assert line_hits(state, fast.state, fast.bounced, every) == plain_line_hits(state, plain.state, plain.bounced, every)
            hits = variant.check_hits(fast.state, state, step, fast)
            assert resolve_damage(fast.state, hits, 7) == plain_resolve_damage(plain.state, hits, 7)
            after = resolve_damage(fast.state, hits, 7)[0]
            assert type(after) is FencesPosition and parse_position(format_position(after)) == after
            for seat in range(players):
                assert evaluate(after, seat) == evaluate(after, seat, stand=lambda found: found)
            compared += 1
    assert compared > 300


def test_the_memo_gives_the_plain_answers_in_any_order_and_for_equal_boards(fences_class):
    """The memo of answers about boards (fences/memo.py) finds them by identity:
    moves played from positions in a shuffled order, from copies of the
    positions (equal boards that are other objects), and evaluations in
    between, still give the plain answers."""
    variant, seen = choices(fences_class, 2, seed=8)
    pairs = [(state, step, move) for state, step, moves in seen for move in moves if move is not PASS and not state.setting_up]
    random.Random(1).shuffle(pairs)
    for n, (state, step, move) in enumerate(pairs[:2000]):
        if n % 3 == 0:  # an equal position whose board is another object
            state = state._replace(board=tuple(list(state.board)))
        fast, plain = perform(state, state.to_move, move), plain_perform(state, state.to_move, move)
        assert fast == plain
        assert line_hits(state, fast.state, fast.bounced) == plain_line_hits(state, plain.state, plain.bounced)
        after = resolve_damage(fast.state, variant.check_hits(fast.state, state, step, fast), 4)[0]
        for seat in (0, 1):
            assert evaluate(after, seat) == evaluate(after, seat, stand=lambda found: found)
            assert evaluate(state, seat) == evaluate(state, seat, stand=lambda found: found)
