"""Why a Fences move is not legal where it was typed: the rule it breaks, in one line.

``th play`` asks (through the ``treehouse_explain_illegal`` hook) when a
person types a well-formed move that is not among the legal ones.  The rules
are not stated again here: each condition a move must meet is one of
:mod:`~treehouse.variants.fences.rules`' ``*_breaks`` functions, which the
move lists filter by, and this module asks the same functions about the
typed move and words the rule they name (:data:`WORDS`).  What is left here
is reading the typed move: is its piece where it says, is it one space, does
it fit the roll.  ``None`` means no rule was found (the caller then says only
that the move is not legal here).
"""

from __future__ import annotations

from collections import Counter

from treehouse.kernel.pieces import Direction
from treehouse.variants.fences.board import INSIDE, NAMES, NEIGHBOUR, direction_between, inward
from treehouse.variants.fences.moves import LONG, FencesMove, format_move, piece_key
from treehouse.variants.fences.rules import (
    OPPOSITE,
    Broken,
    aim_breaks,
    dig_breaks,
    fence_step_breaks,
    hop_breaks,
    hop_fence_breaks,
    nears,
    place_breaks,
    restore_breaks,
    step_breaks,
    swap_breaks,
    tip_breaks,
    wild_dig_breaks,
)

UP = Direction.UP
#: The rolled action each kind of move is.
ACTION_OF = {"tip": "TIP", "swap": "SWAP", "hop": "HOP", "hopfence": "HOP", "dig": "DIG", "aim": "AIM"}
STEP_WORDS = {
    "fence": "step 1 moves a Fence one space, e.g. {example}",
    "stack": "step 3 moves your Stack one square: step n, e, s or w",
    "place": "this turn places your Stack, e.g. {example}",
}
#: The words of each rule a move of a kind may break (``rules.Broken``), with
#: the fields :func:`_fields` fills in: ``where`` (the move's square), ``to``,
#: ``piece``, ``pointing`` (where the Fence points), ``stack`` (the Stack's
#: square), ``direction`` (the move's), ``inward``, ``aimable``, ``far``,
#: ``colour``, ``destroyed`` and ``opposite``.
WORDS = {
    ("move", Broken.OCCUPIED): "{to} is occupied",
    ("move", Broken.OFF_THE_BOARD): "{where} to the {direction} is off the board",
    ("move", Broken.BACKWARDS): "a Pointing Fence cannot move backwards ({piece} at {where} points {pointing})",
    ("move", Broken.NOT_NEAR): "a Fence must move next to your Stack or away from it while any Fence can; this one does neither",
    ("tip", Broken.NOT_STANDING): "{piece} at {where} is already Pointing {pointing}: only a Standing Fence tips",
    ("tip", Broken.NOT_IN_LINE): "{where} is not in line with your Stack at {stack}: Tip a Standing Fence in its row or column",
    ("tip", Broken.NOT_INWARD): "a Fence at {where} tips toward the Inside: {inward}",
    ("swap", Broken.NOT_IN_LINE): "{where} is not in line with your Stack at {stack}: Swap with a Fence in its row or column",
    ("hop", Broken.NOT_BESIDE): "{where} is not next to your Stack at {stack}: Hop over (or with) a Fence beside it",
    ("hop", Broken.OVER_OUTSIDE): "your Stack cannot hop over the Outside Fence at {where} (it would leave the board); 'hopfence' hops the Fence instead",
    ("hopfence", Broken.NOT_BESIDE): "{where} is not next to your Stack at {stack}: Hop over (or with) a Fence beside it",
    ("hopfence", Broken.NO_FAR_SQUARE): "there is no square on the far side of your Stack from {where}",
    ("hopfence", Broken.FAR_OCCUPIED): "{far}, on the far side of your Stack, is occupied",
    ("aim", Broken.NOT_BESIDE): "{where} is not next to your Stack at {stack}: Aim turns the Fences around it",
    ("aim", Broken.ALREADY_SO): "{piece} at {where} already points {direction}",
    ("aim", Broken.NOT_INWARD): "a Fence at {where} may point {aimable}, not {direction}",
    ("dig", Broken.LONE_SMALL): "a lone small cannot Dig to the bottom; with a destroyed small, 'dig +COLOUR' puts it under",
    ("dig", Broken.CHANGES_NOTHING): "your Stack is one colour all through: moving the top small to the bottom changes nothing",
    ("dig", Broken.NOT_DESTROYED): "you have no destroyed {colour} small to put back (destroyed: {destroyed})",
    ("dig", Broken.NOT_UNDER_A_LONE_SMALL): "a destroyed small goes back only under a lone small",
    ("dig", Broken.GIVES_BACK_THE_STACK): "that reorder then Dig gives back your Stack as it stood: choose another order, or another action",
    ("step", Broken.OUTSIDE): "with outside_attempts off your Stack may not step Outside ({direction} of {stack})",
    ("place", Broken.OCCUPIED): "{where} is occupied: a Stack starts on an empty Inside square",
    ("place", Broken.NOT_A_CORNER): "with two players the first Stack starts on a corner: a1, a5, e1 or e5",
    ("place", Broken.NOT_OPPOSITE): "with two players the second Stack starts on the corner opposite the first: {opposite}",
}


def _fence_words(cell) -> str:
    return f"{cell.size.value}({cell.colour})"


def _the_fence(board, piece: str, square: int) -> str | None:
    """Why ``piece`` is not at ``square`` (None when it is)."""
    cell = board[square]
    name = NAMES[square]
    if cell is None:
        return f"{name} is empty: there is no Fence {piece} there"
    if type(cell) is int:
        return f"{name} holds player {cell + 1}'s Stack, not a Fence"
    if piece_key(cell) != piece:
        return f"the Fence at {name} is {piece_key(cell)} ({_fence_words(cell)}), not {piece}"
    return None


def _directions(directions) -> str:
    words = [LONG[d] for d in directions]
    return " or ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " or " + words[-1]


def _said(kind: str, broken: Broken | None, state, seat: int, square: int | None, direction=None, **fields) -> str | None:
    """The words of the rule ``broken`` (None: none is broken) for a move of ``kind`` at ``square``."""
    if broken is None:
        return None
    board, stack = state.board, state.square_of(seat)
    cell = board[square] if square is not None else None
    fence = cell is not None and type(cell) is not int
    values = {
        "where": NAMES[square] if square is not None else "",
        "stack": NAMES[stack] if stack is not None else "",
        "piece": piece_key(cell) if fence else "",
        "pointing": LONG[cell.direction] if fence else "",
        "direction": LONG[direction] if direction is not None else "",
        "inward": _directions(inward(square)) if square is not None else "",
        "aimable": _directions((UP, *inward(square))) if square is not None else "",
        "destroyed": ", ".join(state.destroyed[seat]) or "none",
        **fields,
    }
    return WORDS[kind, broken].format(**values)


def why_illegal(state, step, face, move, legal: tuple, rules, restores_any: bool = False) -> str | None:
    """The rule ``move`` breaks in ``state`` at ``step`` after rolling ``face``, in one line."""
    if not isinstance(move, FencesMove):
        return None
    seat = state.to_move
    example = f"'{format_move(legal[0])}'" if legal and isinstance(legal[0], FencesMove) else "'move Mr@N3 N4'"
    if step.name in STEP_WORDS:
        wanted = {"fence": "move", "stack": "step", "place": "place"}[step.name]
        if move.kind != wanted or move.order is not None:
            return STEP_WORDS[step.name].format(example=example)
    elif step.name == "act":
        reason = _wrong_action(state, seat, face, move, legal)
        if reason:
            return reason
    board = state.board
    square = state.square_of(seat)
    stack = move.order if move.order is not None else state.stacks[seat]
    kind = move.kind
    if kind == "place":
        if face is not None and move.arg != face:
            return f"you drew {face}: the setup places the small just drawn, e.g. {example}"
        if move.square not in INSIDE:
            return f"{NAMES[move.square]} is Outside: a Stack starts on an empty Inside square"
        other = state.square_of(1 - seat) if state.players == 2 else None
        opposite = NAMES[OPPOSITE[other]] if other is not None else ""
        return _said(kind, place_breaks(state, seat, move.square), state, seat, move.square, opposite=opposite)
    if kind == "step":
        return _said(kind, step_breaks(square, move.arg, rules.outside_attempts), state, seat, None, move.arg)
    if kind == "dig":
        if move.arg is None:
            broken = dig_breaks(stack, rules.uniform_dig)
        else:
            broken = restore_breaks(stack, state.destroyed[seat], move.arg, restores_any)
        if broken is None and move.order is not None:
            broken = wild_dig_breaks(state.stacks[seat], move.order, move)
        return _said(kind, broken, state, seat, None, colour=move.arg)
    if kind == "aim":
        for piece, at, direction in move.arg:
            reason = _the_fence(board, piece, at) or _said(kind, aim_breaks(board, square, at, direction), state, seat, at, direction)
            if reason:
                return reason
        return None
    reason = _the_fence(board, move.piece, move.square)
    if reason:
        return reason
    if kind == "move":
        source, target = move.square, move.arg
        direction = direction_between(source, target)
        if direction is None:
            return f"{NAMES[source]} to {NAMES[target]} is not one space: a Fence moves one space north, east, south or west"
        broken = fence_step_breaks(board, source, direction)
        if broken is None and square is not None and not nears(square, source, target):
            broken = Broken.NOT_NEAR  # legal anywhere, but some Fence can move next to the Stack or away from it
        return _said(kind, broken, state, seat, source, direction, to=NAMES[target])
    if kind == "tip":
        return _said(kind, tip_breaks(board, square, move.square, move.arg), state, seat, move.square, move.arg)
    if kind == "swap":
        return _said(kind, swap_breaks(square, move.square), state, seat, move.square)
    if kind == "hop":
        return _said(kind, hop_breaks(square, move.square), state, seat, move.square)
    if kind == "hopfence":
        side = direction_between(square, move.square)
        far = NEIGHBOUR[square][side.opposite] if side is not None else None
        return _said(kind, hop_fence_breaks(board, square, move.square), state, seat, move.square, far=NAMES[far] if far is not None else "")
    return None


def _wrong_action(state, seat, face, move, legal) -> str | None:
    """Why ``move`` does not fit the roll (None when it does)."""
    if move.kind == "fail":
        if all(m.kind == "fail" for m in legal if isinstance(m, FencesMove)):
            return None
        return f"'fail' is only for a rolled action that is impossible, and {face} is possible here"
    action = ACTION_OF.get(move.kind)
    if action is None:
        return f"step 2 plays the rolled action ({face}), e.g. '{format_move(legal[0])}'" if legal else None
    if face == "WILD":
        if move.order is None:
            return f"you rolled WILD: put the reorder first (your Stack bottom to top), e.g. '{format_move(legal[0])}'"
        if Counter(move.order) != Counter(state.stacks[seat]):
            return f"a WILD reorder uses your Stack's own smalls ({', '.join(state.stacks[seat])}), not {', '.join(move.order)}"
        return None
    if move.order is not None:
        return f"'wild:' is only for a WILD roll; you rolled {face}"
    if action != face:
        return f"you rolled {face}, so the action is {face}, not {action}"
    return None
