"""Fences moves: immutable values, their notation and their plain words.

One :class:`FencesMove` shape serves every step; ``kind`` says which::

    move Mr@N3 N4          step 1: the Fence M red at N3 moves to N4
    tip Lb@W2 e            TIP: Standing L blue at W2 tips to point east, then slides
    swap Mr@c4             SWAP: the Stack trades squares with the Fence at c4
    hop Mr@c4              HOP: the Stack hops over the Fence at c4
    hopfence Mr@c4         HOP: the Fence at c4 hops over the Stack to the far side
    dig                    DIG: the top small goes to the bottom
    dig +o                 DIG: a lone small gets a destroyed orange put under it
    aim Mr@c4:n,Lb@W3:up   AIM: each listed Fence turns to the new direction
    fail                   the rolled action is impossible: the Stack is Hit and Damaged
    wild:gbry tip Lb@W2 e  WILD: reorder the Stack (bottom to top), then an action
    step n                 step 3: the Stack moves (or tries to move) north
    place r c3             setup: the red small just drawn starts the player's Stack on c3
    draw r                 setup: the red small just drawn goes on top of the player's Stack

A Fence is named by size and colour (``Mr``) at its square; directions are
``n e s w`` and ``up`` (Standing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from treehouse.errors import NotationError
from treehouse.kernel.pieces import Direction
from treehouse.variants.fences.board import BY_NAME, INSIDE, NAMES
from treehouse.variants.fences.position import COLOUR_OF, LETTER, from_fields

KINDS = ("move", "tip", "swap", "hop", "hopfence", "dig", "aim", "fail", "step", "place", "draw")
DIR_WORD = {Direction.NORTH: "n", Direction.EAST: "e", Direction.SOUTH: "s", Direction.WEST: "w", Direction.UP: "up"}
WORD_DIR = {w: d for d, w in DIR_WORD.items()}
LONG = {Direction.NORTH: "north", Direction.EAST: "east", Direction.SOUTH: "south", Direction.WEST: "west", Direction.UP: "standing"}
SIZE_LETTERS = ("L", "M")


class FencesMove(NamedTuple):
    kind: str
    piece: str | None = None  # a Fence as size + colour letter, "Mr"
    square: int | None = None  # where that Fence stands
    arg: object = None  # move: the square moved to; tip/step: a Direction; dig: a colour restored;
    #                     aim: ((piece, square, Direction), ...) sorted by square; place/draw: the colour drawn
    #                     (a place move's square is ``square``)
    order: tuple | None = None  # WILD: the Stack reordered, colours bottom to top

    @property
    def wild(self) -> bool:
        return self.order is not None

    def base(self) -> FencesMove:
        """The action without WILD's reorder."""
        return self.reordered(None) if self.order is not None else self

    def reordered(self, order: tuple | None) -> FencesMove:
        """The same action after WILD's reorder ``order`` (``None``: none).
        (Made from its fields, not by ``_replace`` or the constructor's
        Python code: a WILD offers each action under every reorder, tens of
        thousands of moves in a search.)"""
        return from_fields(FencesMove, self[:4] + (order,))


def reordered_all(moves, order: tuple) -> list[FencesMove]:
    """Each of ``moves`` after WILD's reorder ``order``: :meth:`FencesMove.reordered`, for many at once."""
    return [from_fields(FencesMove, (kind, piece, square, arg, order)) for kind, piece, square, arg, _order in moves]


FAIL = FencesMove("fail")
DIG = FencesMove("dig")


def piece_key(piece) -> str:
    """A Fence's name in moves: size letter + colour letter (``Mr``)."""
    return f"{piece.size.value}{LETTER[piece.colour]}"


#: Each kind of move as (notation, words), templates over {fence} {to} {dir} {colour} {turns}.
TEMPLATES = {
    "move": ("move {fence} {to}", "move fence {fence} to {to}"),
    "tip": ("tip {fence} {dir}", "tip {fence} {dir}"),
    "swap": ("swap {fence}", "swap the stack with {fence}"),
    "hop": ("hop {fence}", "hop the stack over {fence}"),
    "hopfence": ("hopfence {fence}", "hop {fence} over the stack"),
    "dig": ("dig", "dig: top small to the bottom"),
    "restore": ("dig +{colour}", "dig: put a destroyed {colour} under the stack"),
    "aim": ("aim {turns}", "aim {turns}"),
    "aim turn": ("{fence}:{dir}", "{fence} {dir}"),
    "step": ("step {dir}", "move the stack {dir}"),
    "place": ("place {colour} {to}", "place the {colour} small drawn on {to}, starting the stack"),
    "draw": ("draw {colour}", "put the {colour} small drawn on top of the stack"),
    "fail": ("fail", "the action is impossible: the stack is hit and damaged"),
    "wild": ("wild:{order} {text}", "wild: reorder the stack to {order} (top first), then {text}"),
    # a Stack of one small, or of one colour, has one order: its words say the action alone (the notation keeps the order)
    "wild one order": ("wild:{order} {text}", "wild: {text}"),
}


class _Spelling(NamedTuple):
    """How moves are spelt: as notation (:func:`format_move`) or in words
    (:func:`describe_move`).  One speller, :func:`_spell`, serves both."""

    index: int  # which of each TEMPLATES pair
    fence: Callable[[str, int], str]
    direction: dict
    colour: Callable[[str], str]
    order: Callable[[tuple], str]
    aim_separator: str
    unknown_as_fail: bool  # words: any other kind reads as the impossible action; notation: as its kind


NOTATION = _Spelling(
    0,
    fence=lambda piece, square: f"{piece}@{NAMES[square]}",
    direction=DIR_WORD,
    colour=LETTER.__getitem__,
    order=lambda order: "".join(LETTER[c] for c in order),
    aim_separator=",",
    unknown_as_fail=False,
)
WORDS = _Spelling(
    1,
    fence=lambda piece, square: f"{piece[0]}({COLOUR_OF[piece[1]]}) at {NAMES[square]}",
    direction=LONG,
    colour=str,
    order=lambda order: ", ".join(reversed(order)),  # words read a Stack top first, as the board shows it
    aim_separator=", ",
    unknown_as_fail=True,
)


def _spell(move: FencesMove, spelling: _Spelling) -> str:
    kind, i = move.kind, spelling.index
    if kind == "dig" and move.arg is not None:
        kind = "restore"
    if kind == "aim":
        turn = TEMPLATES["aim turn"][i]
        turns = spelling.aim_separator.join(
            turn.format(fence=spelling.fence(p, s), dir=spelling.direction[d]) for p, s, d in move.arg
        )
        text = TEMPLATES["aim"][i].format(turns=turns)
    elif kind in TEMPLATES:
        fields = {}
        if move.piece is not None:
            fields["fence"] = spelling.fence(move.piece, move.square)
        if kind == "move":
            fields["to"] = NAMES[move.arg]
        elif kind in ("place", "draw"):
            fields["colour"] = spelling.colour(move.arg)
            if kind == "place":
                fields["to"] = NAMES[move.square]
        elif kind in ("tip", "step"):
            fields["dir"] = spelling.direction[move.arg]
        elif kind == "restore":
            fields["colour"] = spelling.colour(move.arg)
        text = TEMPLATES[kind][i].format(**fields)
    else:
        text = TEMPLATES["fail"][i] if spelling.unknown_as_fail else kind
    if move.order is not None:
        text = TEMPLATES["wild" if len(set(move.order)) > 1 else "wild one order"][i].format(order=spelling.order(move.order), text=text)
    return text


def format_move(move: FencesMove) -> str:
    """The move in notation (``tip Lb@W2 e``); :func:`parse_move` reads it back."""
    return _spell(move, NOTATION)


def _square(token: str, text: str) -> int:
    try:
        return BY_NAME[token]
    except KeyError:
        raise NotationError(
            f"bad square {token!r} in move {text!r}: expected a1..e5 Inside or N1..N5, E1..E5, S1..S5, W1..W5 Outside (case matters)"
        ) from None


def _fence(token: str, text: str) -> tuple[str, int]:
    piece, at, square = token.partition("@")
    if not at or len(piece) != 2 or piece[0] not in SIZE_LETTERS or piece[1] not in COLOUR_OF:
        raise NotationError(f"bad fence {token!r} in move {text!r}: expected SIZE+COLOUR@SQUARE, e.g. 'Mr@c4' (size L/M, colour r/o/y/g/b)")
    return piece, _square(square, text)


def _direction(token: str, text: str, allow_up: bool = False) -> Direction:
    d = WORD_DIR.get(token.lower())
    if d is None or (d is Direction.UP and not allow_up):
        wanted = "n, e, s, w or up" if allow_up else "n, e, s or w"
        raise NotationError(f"bad direction {token!r} in move {text!r}: expected {wanted}")
    return d


def parse_move(text: str) -> FencesMove:
    tokens = text.split()
    if not tokens:
        raise NotationError("an empty move: expected e.g. 'move Mr@N3 N4', 'tip Lb@W2 e', 'step n'")
    order = None
    if tokens[0].lower().startswith("wild:"):
        letters = tokens[0][5:]
        if not letters or any(ch not in COLOUR_OF for ch in letters):
            raise NotationError(f"bad reorder {tokens[0]!r} in move {text!r}: expected 'wild:' and the Stack's colours bottom to top, e.g. 'wild:gbry'")
        order = tuple(COLOUR_OF[ch] for ch in letters)
        tokens = tokens[1:]
        if not tokens:
            raise NotationError(f"move {text!r}: WILD needs an action after the reorder, e.g. 'wild:gbry dig'")
    kind, args = tokens[0].lower(), tokens[1:]
    expected = {"move": 2, "tip": 2, "swap": 1, "hop": 1, "hopfence": 1, "aim": 1, "fail": 0, "step": 1, "place": 2, "draw": 1}
    if kind not in KINDS:
        raise NotationError(f"bad move kind {tokens[0]!r} in {text!r}: expected one of {', '.join(KINDS)} (or wild:ORDER then one)")
    if kind == "dig":
        if len(args) > 1:
            raise NotationError(f"move {text!r}: 'dig' takes nothing or '+COLOUR'")
    elif len(args) != expected[kind]:
        raise NotationError(f"move {text!r}: '{kind}' takes {expected[kind]} argument(s), not {len(args)}")
    if kind == "move":
        piece, square = _fence(args[0], text)
        move = FencesMove("move", piece, square, _square(args[1], text))
    elif kind == "tip":
        piece, square = _fence(args[0], text)
        move = FencesMove("tip", piece, square, _direction(args[1], text))
    elif kind in ("swap", "hop", "hopfence"):
        piece, square = _fence(args[0], text)
        move = FencesMove(kind, piece, square)
    elif kind == "dig":
        if not args:
            move = DIG
        elif len(args[0]) == 2 and args[0][0] == "+" and args[0][1] in COLOUR_OF:
            move = FencesMove("dig", arg=COLOUR_OF[args[0][1]])
        else:
            raise NotationError(f"bad restore {args[0]!r} in move {text!r}: expected '+' and a colour letter, e.g. 'dig +o'")
    elif kind == "aim":
        turns = []
        for part in args[0].split(","):
            ref, colon, word = part.partition(":")
            if not colon:
                raise NotationError(f"bad aim {part!r} in move {text!r}: expected FENCE@SQUARE:DIRECTION, e.g. 'Mr@c4:n'")
            piece, square = _fence(ref, text)
            turns.append((piece, square, _direction(word, text, allow_up=True)))
        move = FencesMove("aim", arg=tuple(sorted(turns, key=lambda t: t[1])))
    elif kind == "step":
        move = FencesMove("step", arg=_direction(args[0], text))
    elif kind in ("place", "draw"):
        if order is not None:
            raise NotationError(f"move {text!r}: '{kind}' is a setup step, not an action, so it takes no 'wild:' reorder")
        if args[0] not in COLOUR_OF:
            raise NotationError(f"bad colour {args[0]!r} in move {text!r}: expected the small drawn, one of r o y g b")
        colour = COLOUR_OF[args[0]]
        if kind == "draw":
            move = FencesMove("draw", arg=colour)
        else:
            square = _square(args[1], text)
            if square not in INSIDE:
                raise NotationError(f"bad square {args[1]!r} in move {text!r}: a Stack is placed on an Inside square, a1..e5")
            move = FencesMove("place", square=square, arg=colour)
    else:
        move = FAIL
    return move.reordered(order) if order is not None else move


def describe_move(move: FencesMove) -> str:
    """The move in plain words: "move fence M(red) at N3 to N4"."""
    return _spell(move, WORDS)


def split_choice(state, move: FencesMove) -> tuple[str, str] | None:
    """A move as two questions for a person, or ``None`` for one question.

    * WILD: the action, then the order (top first, as the board shows a Stack);
    * AIM: which Fences to turn, then their new directions (an AIM of three
      Fences next to the Stack offers dozens of moves: a few sets of Fences,
      then a few ways to turn each set).
    """
    if move.order is not None:
        if move.order == state.stacks[state.to_move]:
            return describe_move(move.base()), "keep the order as it is"
        return describe_move(move.base()), f"reorder to {', '.join(reversed(move.order))}"
    if move.kind == "aim":
        fences = " and ".join(WORDS.fence(piece, square) for piece, square, _d in move.arg)
        turns = ", ".join(f"{NAMES[square]} {LONG[direction]}" for _p, square, direction in move.arg)
        return f"aim {fences}", f"turn {turns}"
    return None
