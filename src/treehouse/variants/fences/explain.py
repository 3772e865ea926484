"""Why a Fences move is not legal where it was typed: the rule it breaks, in one line.

``th play`` asks (through the ``treehouse_explain_illegal`` hook) when a
person types a well-formed move that is not among the legal ones.  Each check
below mirrors a rule of :mod:`treehouse.variants.fences.rules`; the first
rule the move breaks is named.  ``None`` means no rule was found (the caller
then says only that the move is not legal here).
"""

from __future__ import annotations

from collections import Counter

from treehouse.kernel.pieces import Direction
from treehouse.variants.fences.board import AROUND, INSIDE, NAMES, NEIGHBOUR, OUTSIDE, direction_between, inward, same_line
from treehouse.variants.fences.moves import LONG, FencesMove, format_move, piece_key
from treehouse.variants.fences.rules import OPPOSITE

UP = Direction.UP
#: The rolled action each kind of move is.
ACTION_OF = {"tip": "TIP", "swap": "SWAP", "hop": "HOP", "hopfence": "HOP", "dig": "DIG", "aim": "AIM"}
STEP_WORDS = {
    "fence": "step 1 moves a Fence one space, e.g. {example}",
    "stack": "step 3 moves your Stack one square: step n, e, s or w",
    "place": "this turn places your Stack, e.g. {example}",
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
        return _why_not_place(state, seat, move.square, move.arg, face, example)
    if kind == "step":
        target = NEIGHBOUR[square][move.arg]
        if not rules.outside_attempts and target not in INSIDE:
            return f"with outside_attempts off your Stack may not step Outside ({LONG[move.arg]} of {NAMES[square]})"
        return None
    if kind == "dig":
        return _why_not_dig(stack, state.destroyed[seat], move.arg, restores_any)
    if kind == "aim":
        for piece, at, direction in move.arg:
            reason = _the_fence(board, piece, at)
            if reason:
                return reason
            if at not in AROUND[square]:
                return f"{NAMES[at]} is not next to your Stack at {NAMES[square]}: Aim turns the Fences around it"
            cell = board[at]
            if direction is cell.direction:
                return f"{piece} at {NAMES[at]} already points {LONG[direction]}"
            if direction is not UP and direction not in inward(at):
                return f"a Fence at {NAMES[at]} may point {_directions((UP, *inward(at)))}, not {LONG[direction]}"
        return None
    reason = _the_fence(board, move.piece, move.square)
    if reason:
        return reason
    where, cell = NAMES[move.square], board[move.square]
    if kind == "move":
        return _why_not_fence_move(state, square, move)
    if kind == "tip":
        if cell.direction is not UP:
            return f"{move.piece} at {where} is already Pointing {LONG[cell.direction]}: only a Standing Fence tips"
        if not same_line(move.square, square):
            return f"{where} is not in line with your Stack at {NAMES[square]}: Tip a Standing Fence in its row or column"
        if move.arg not in inward(move.square):
            return f"a Fence at {where} tips toward the Inside: {_directions(inward(move.square))}"
        return None
    if kind == "swap":
        if not same_line(move.square, square):
            return f"{where} is not in line with your Stack at {NAMES[square]}: Swap with a Fence in its row or column"
        return None
    if kind in ("hop", "hopfence"):
        side = direction_between(square, move.square)
        if side is None:
            return f"{where} is not next to your Stack at {NAMES[square]}: Hop over (or with) a Fence beside it"
        if kind == "hop" and move.square in OUTSIDE:
            return f"your Stack cannot hop over the Outside Fence at {where} (it would leave the board); 'hopfence' hops the Fence instead"
        if kind == "hopfence":
            far = NEIGHBOUR[square][side.opposite]
            if far is None:
                return f"there is no square on the far side of your Stack from {where}"
            if board[far] is not None:
                return f"{NAMES[far]}, on the far side of your Stack, is occupied"
        return None
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


def _why_not_fence_move(state, stack_square, move) -> str | None:
    board = state.board
    source, target = move.square, move.arg
    where, to = NAMES[source], NAMES[target]
    direction = direction_between(source, target)
    if direction is None:
        return f"{where} to {to} is not one space: a Fence moves one space north, east, south or west"
    if board[target] is not None:
        return f"{to} is occupied"
    cell = board[source]
    if cell.direction is not UP and direction is cell.direction.opposite:
        return f"a Pointing Fence cannot move backwards ({move.piece} at {where} points {LONG[cell.direction]})"
    around = AROUND[stack_square] if stack_square is not None else ()
    if target not in around and source not in around:
        return "a Fence must move next to your Stack or away from it while any Fence can; this one does neither"
    return None


def _why_not_dig(stack, destroyed, restore, restores_any) -> str | None:
    if restore is None:
        if len(stack) < 2:
            return "a lone small cannot Dig to the bottom; with a destroyed small, 'dig +COLOUR' puts it under"
        if stack[-1:] + stack[:-1] == stack:
            return "your Stack is one colour all through: moving the top small to the bottom changes nothing"
        return None
    if restore not in destroyed:
        have = ", ".join(destroyed) if destroyed else "none"
        return f"you have no destroyed {restore} small to put back (destroyed: {have})"
    if len(stack) != 1 and not restores_any:
        return "a destroyed small goes back only under a lone small"
    return None


def _why_not_place(state, seat, target, colour, drawn, example) -> str | None:
    """Why a setup placement is not allowed: the setup's rule, in words (nothing was rolled)."""
    if drawn is not None and colour != drawn:
        return f"you drew {drawn}: the setup places the small just drawn, e.g. {example}"
    if state.board[target] is not None:
        return f"{NAMES[target]} is occupied: a Stack starts on an empty Inside square"
    if state.players == 2:
        other = state.square_of(1 - seat)
        if other is None:
            return "with two players the first Stack starts on a corner: a1, a5, e1 or e5"
        return f"with two players the second Stack starts on the corner opposite the first: {NAMES[OPPOSITE[other]]}"
    return None
