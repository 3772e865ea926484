"""Property tests of the notations: classic, Fences and (when installed) race.

(a) Arbitrary *valid* positions and moves, built from the position types and
    their validity rules (not only ones reached in play), survive
    ``parse(format(x)) == x``.
(b) Any text, and valid notation with characters deleted, duplicated,
    swapped or replaced, given to every parser either reads as a value whose
    notation reads back to the same value, or raises the project's own
    error (a :class:`~treehouse.errors.TreehouseError`: ``NotationError``,
    ``IllegalPositionError``, ``UnknownNameError``), never anything else.
(c) The same for game records: mutated record text given to
    :meth:`Record.loads`, and what loads replayed, raises only the
    project's errors.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from treehouse.errors import TreehouseError
from treehouse.kernel.engine import Control, Game, format_move, parse_move
from treehouse.kernel.pieces import Direction, Pyramid, Size
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.plugins import load_plugins
from treehouse.variants.classic.actions import ACTIONS
from treehouse.variants.classic.game import HOUSE_TARGET, OWN, ClassicMove, ClassicPosition
from treehouse.variants.classic.trio import GLYPHS, all_trios, format_trio, parse_trio
from treehouse.variants.fences.board import INSIDE, SQUARES
from treehouse.variants.fences.moves import FAIL, KINDS, FencesMove
from treehouse.variants.fences.position import COLOURS, COPIES, FENCE_SIZES, GLYPH, LETTER, FencesPosition, fence, sort_colours

pytestmark = pytest.mark.example("pyramid-race")

PLUGINS = load_plugins()
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FEW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

Classic = PLUGINS.variant("classic")
Fences = PLUGINS.variant("fences")
RACE = "race" in PLUGINS.variants
needs_race = pytest.mark.skipif(not RACE, reason="the race example plugin is not installed")


# --------------------------------------------------------------------------
# classic: trios, positions, moves built from their rules
# --------------------------------------------------------------------------

SIZES = (Size.SMALL, Size.MEDIUM, Size.LARGE)
LINE = tuple(GLYPHS)  # up, left, right


@st.composite
def trios(draw):
    """One S, one M and one L, in any order, cut into one to three stacks;
    a piece alone may lie left or right, stacked pieces stand upright."""
    order = draw(st.permutations(SIZES))
    cuts = sorted(draw(st.sets(st.sampled_from((1, 2)), max_size=2)))
    bounds = [0, *cuts, 3]
    stacks = []
    for lo, hi in zip(bounds, bounds[1:]):
        pieces = order[lo:hi]
        if len(pieces) == 1:
            stacks.append((Pyramid(pieces[0], draw(st.sampled_from(LINE))),))
        else:
            stacks.append(tuple(Pyramid(size) for size in pieces))
    return tuple(stacks)


@st.composite
def classic_positions(draw, max_players: int = 4):
    players = draw(st.integers(2, max_players))
    return ClassicPosition(draw(trios()), tuple(draw(trios()) for _ in range(players)), draw(st.integers(0, players - 1)))


@st.composite
def classic_moves(draw):
    return ClassicMove(draw(st.sampled_from((OWN, HOUSE_TARGET))), draw(trios()), draw(st.sampled_from(ACTIONS)))


@SETTINGS
@given(trio=trios())
def test_every_trio_built_from_the_rules_is_one_of_the_204_and_round_trips(trio):
    assert trio in set(all_trios())
    assert parse_trio(format_trio(trio)) == trio


@SETTINGS
@given(state=classic_positions(), max_players=st.integers(4, 12))
def test_classic_positions_round_trip(state, max_players):
    variant = Classic({"max_players": max_players})
    assert variant.parse_position(variant.format_position(state)) == state


@SETTINGS
@given(move=classic_moves())
def test_classic_moves_round_trip_with_their_action(move):
    variant = Classic()
    text = variant.format_move(move)
    again = variant.parse_move(text)
    assert again == move and again.action == move.action and variant.format_move(again) == text
    assert parse_move(variant, text) == move  # through the engine's reader too


# --------------------------------------------------------------------------
# Fences: positions and moves built from their rules
# --------------------------------------------------------------------------

HEIGHT = {2: 4, 3: 3, 4: 2}  # the default rules: smalls in each Stack
SMALLS = tuple(colour for colour in COLOURS for _ in range(COPIES))
FENCE_PIECES = tuple((size, colour) for size in FENCE_SIZES for colour in COLOURS for _ in range(COPIES))
OUTSIDE_FIRST = tuple(sorted(SQUARES))


@st.composite
def fences_positions(draw):
    """Any position the Fences rules allow: 2-4 seats, each Stack (or what is
    left of it) drawn from the ten smalls, every seat in or out, the live
    Stacks on distinct Inside squares, the twenty Fences anywhere else, any
    seat and step to move and any number of turns."""
    players = draw(st.integers(2, 4))
    height = HEIGHT[players]
    bag = list(draw(st.permutations(SMALLS)))
    stacks, destroyed, outs = [], [], []
    for seat in range(players):
        mine = bag[seat * height:(seat + 1) * height]
        kept = draw(st.integers(0, height))
        stacks.append(tuple(mine[:kept]))
        destroyed.append(sort_colours(mine[kept:]))
        outs.append(0 if kept else draw(st.integers(1, 10**6)))
    aside = sort_colours(bag[players * height:])
    board: list = [None] * 49
    live = [seat for seat in range(players) if stacks[seat]]
    homes = draw(st.permutations(sorted(INSIDE)))[: len(live)]
    for seat, square in zip(live, homes):
        board[square] = seat
    free = [square for square in SQUARES if board[square] is None]
    places = draw(st.permutations(free))[: len(FENCE_PIECES)]
    for (size, colour), square in zip(FENCE_PIECES, places):
        board[square] = fence(size, draw(st.sampled_from(tuple(GLYPH))), colour)
    return FencesPosition(
        tuple(board), tuple(stacks), tuple(destroyed), aside, tuple(outs),
        draw(st.integers(0, players - 1)), draw(st.integers(0, 2)), draw(st.integers(0, 10**9)),
    )


PIECE_KEYS = tuple(f"{size.value}{LETTER[colour]}" for size in FENCE_SIZES for colour in COLOURS)
COMPASS = (Direction.NORTH, Direction.EAST, Direction.SOUTH, Direction.WEST)
squares = st.sampled_from(OUTSIDE_FIRST)
pieces = st.sampled_from(PIECE_KEYS)


@st.composite
def fences_moves(draw):
    """Any move of any kind, with or without WILD's reorder."""
    kind = draw(st.sampled_from(KINDS))
    if kind == "move":
        move = FencesMove("move", draw(pieces), draw(squares), draw(squares))
    elif kind == "tip":
        move = FencesMove("tip", draw(pieces), draw(squares), draw(st.sampled_from(COMPASS)))
    elif kind in ("swap", "hop", "hopfence"):
        move = FencesMove(kind, draw(pieces), draw(squares))
    elif kind == "dig":
        move = FencesMove("dig", arg=draw(st.none() | st.sampled_from(COLOURS)))
    elif kind == "aim":
        where = sorted(draw(st.sets(squares, min_size=1, max_size=6)))
        move = FencesMove("aim", arg=tuple((draw(pieces), square, draw(st.sampled_from((*COMPASS, Direction.UP)))) for square in where))
    elif kind == "step":
        move = FencesMove("step", arg=draw(st.sampled_from(COMPASS)))
    else:
        move = FAIL
    if draw(st.booleans()):
        move = move._replace(order=tuple(draw(st.lists(st.sampled_from(COLOURS), min_size=1, max_size=5))))
    return move


@SETTINGS
@given(state=fences_positions())
def test_fences_positions_round_trip(state):
    variant = Fences()
    assert variant.parse_position(variant.format_position(state)) == state


@SETTINGS
@given(move=fences_moves())
def test_fences_moves_round_trip(move):
    variant = Fences()
    text = variant.format_move(move)
    assert variant.parse_move(text) == move
    assert parse_move(variant, text) == move


# --------------------------------------------------------------------------
# race (the example plugin)
# --------------------------------------------------------------------------


def race():
    return PLUGINS.variant("race")()


@st.composite
def race_positions(draw):
    length = race().rules.length
    players = draw(st.integers(2, 6))
    spaces = tuple(tuple(draw(st.integers(0, length)) for _ in range(3)) for _ in range(players))
    return spaces, draw(st.integers(0, players - 1))


@needs_race
@SETTINGS
@given(data=race_positions(), size=st.sampled_from(SIZES), to=st.integers(0, 10**6))
def test_race_positions_and_moves_round_trip(data, size, to):
    variant = race()
    state = variant.parse_position(variant.format_position(_race_position(variant, data)))
    assert state == _race_position(variant, data)
    move = type(variant.parse_move("S1"))(size, to)
    assert variant.parse_move(variant.format_move(move)) == move


def _race_position(variant, data):
    spaces, to_move = data
    return type(variant.parse_position("0 0 0 | 0 0 0 :: 1"))(spaces, to_move)


# --------------------------------------------------------------------------
# (b) any text: a value that round-trips, or the project's error
# --------------------------------------------------------------------------


@st.composite
def mutated(draw, texts):
    """A valid notation with one to four characters deleted, duplicated,
    swapped with the next, replaced or inserted."""
    text = draw(texts)
    alphabet = st.sampled_from(sorted(set(text) | set(" /|:@,+-^<>*.0123456789xX²٣ſ\t\n"))) | st.characters()
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            text = draw(alphabet)
            continue
        i = draw(st.integers(0, len(text) - 1))
        edit = draw(st.sampled_from(("delete", "duplicate", "swap", "replace", "insert")))
        if edit == "delete":
            text = text[:i] + text[i + 1:]
        elif edit == "duplicate":
            text = text[:i] + text[i] + text[i:]
        elif edit == "swap" and i + 1 < len(text):
            text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
        elif edit == "replace":
            text = text[:i] + draw(alphabet) + text[i + 1:]
        else:
            text = text[:i] + draw(alphabet) + text[i:]
    return text


def reads_back_or_refuses(parse, format_, text):
    """``parse(text)`` raises a TreehouseError, or gives a value whose notation reads back to it."""
    try:
        value = parse(text)
    except TreehouseError:
        return
    written = format_(value)
    assert parse(written) == value, (text, written)
    assert format_(parse(written)) == written


def classic_position_text(variant):
    return classic_positions().map(variant.format_position)


CLASSIC = Classic()
FENCES = Fences()

#: name -> (parse, format, valid notation) for every parser
PARSERS = {
    "classic trio": (parse_trio, format_trio, trios().map(format_trio)),
    "classic position": (CLASSIC.parse_position, CLASSIC.format_position, classic_positions().map(CLASSIC.format_position)),
    "classic move": (CLASSIC.parse_move, CLASSIC.format_move, classic_moves().map(CLASSIC.format_move)),
    "classic move (engine)": (
        lambda text: parse_move(CLASSIC, text),
        lambda move: format_move(CLASSIC, move),
        classic_moves().map(CLASSIC.format_move) | st.sampled_from([c.value for c in Control]),
    ),
    "fences position": (FENCES.parse_position, FENCES.format_position, fences_positions().map(FENCES.format_position)),
    "fences move": (FENCES.parse_move, FENCES.format_move, fences_moves().map(FENCES.format_move)),
}
if RACE:
    RACE_VARIANT = race()
    PARSERS["race position"] = (
        RACE_VARIANT.parse_position,
        RACE_VARIANT.format_position,
        race_positions().map(lambda data: RACE_VARIANT.format_position(_race_position(RACE_VARIANT, data))),
    )
    PARSERS["race move"] = (RACE_VARIANT.parse_move, RACE_VARIANT.format_move, st.from_regex(r"[SML][0-9]{1,3}", fullmatch=True))


@pytest.mark.parametrize("name", sorted(PARSERS))
@SETTINGS
@given(data=st.data())
def test_any_text_reads_back_or_is_refused_with_a_notation_error(name, data):
    parse, format_, _ = PARSERS[name]
    reads_back_or_refuses(parse, format_, data.draw(st.text(max_size=60)))


@pytest.mark.parametrize("name", sorted(PARSERS))
@SETTINGS
@given(data=st.data())
def test_mutated_notation_reads_back_or_is_refused_with_a_notation_error(name, data):
    parse, format_, valid = PARSERS[name]
    reads_back_or_refuses(parse, format_, data.draw(mutated(valid)))


@pytest.mark.parametrize(
    "parser, text",
    [
        ("race position", "0 0 ² | 0 0 0 :: 1"),  # '²' is a digit to str.isdigit() but not to int()
        ("race position", "0 0 0 | 0 0 0 :: ²"),
        ("race move", "S²"),
        ("race position", "1" * 5000 + " 0 0 | 0 0 0 :: 1"),  # more digits than int() reads
        ("race move", "S" + "1" * 5000),
        ("classic position", "L< S^ M> :: L^/M^/S^ | L^/M^/S^ :: " + "1" * 5000),
        ("fences move", "step \u212a"),  # the Kelvin sign lower-cases to 'k'
    ],
    ids=["race-superscript-space", "race-superscript-seat", "race-superscript-move", "race-long-space", "race-long-move", "classic-long-seat", "fences-kelvin"],
)
def test_texts_that_trip_int_or_lower_are_refused(parser, text):
    """The race rows are the bugs this file found (a ValueError from int());
    the others guard the same traps in classic and Fences."""
    if parser not in PARSERS:
        pytest.skip(f"{parser} is not installed")
    parse, format_, _ = PARSERS[parser]
    with pytest.raises(TreehouseError):
        parse(text)


# --------------------------------------------------------------------------
# (c) records: mutated record text is loaded, and replayed, or refused
# --------------------------------------------------------------------------


@lru_cache(maxsize=None)
def recorded(variant_name: str, seed: int) -> str:
    """The record text of a short game between random bots."""
    variant = PLUGINS.variant(variant_name)()
    seats = [PLUGINS.bot("random").factory() for _ in range(2)]
    game = Game(variant, seats, random.Random(seed), turn_cap=12, record=Record(meta={"seed": seed}))
    game.play()
    return game.record.dumps()


RECORDS = st.sampled_from([("classic", 1), ("classic", 2), ("fences", 1), ("fences", 3)]).map(lambda key: recorded(*key))


@st.composite
def mutated_records(draw):
    """A record with characters edited, or whole lines dropped, doubled or swapped."""
    text = draw(RECORDS)
    if draw(st.booleans()):
        return draw(mutated(st.just(text)))
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(("drop", "double", "swap", "cut")))
        if edit == "drop" and len(lines) > 1:
            del lines[i]
        elif edit == "double":
            lines.insert(i, lines[i])
        elif edit == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif edit == "cut":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
    return "".join(lines)


def loads_and_replays_or_refuses(text):
    try:
        record = Record.loads(text, source="mutated.jsonl")
    except TreehouseError:
        return
    try:
        replay(record, PLUGINS)
    except TreehouseError:
        pass


@FEW
@given(text=mutated_records())
def test_mutated_records_load_and_replay_or_raise_only_the_projects_errors(text):
    loads_and_replays_or_refuses(text)


@FEW
@given(text=st.text(max_size=200) | st.text(max_size=200).map(lambda t: '{"event":"start","format":"treehouse-record/1",' + t))
def test_any_text_as_a_record_raises_only_the_projects_errors(text):
    loads_and_replays_or_refuses(text)


def test_unmutated_records_replay():
    for key in [("classic", 1), ("fences", 1)]:
        replay(Record.loads(recorded(*key)), PLUGINS)
