"""Notation round trips and errors, setup for 2-4 players, the turn's steps, rendering, rule sets."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from rich.console import Console

from treehouse.errors import IllegalPositionError, NotationError
from treehouse.kernel.engine import PASS, Game, play_move
from treehouse.kernel.pieces import Direction, Size
from treehouse.variants.fences.board import BY_NAME, INSIDE, NAMES, OUTSIDE, SQUARES, AROUND
from treehouse.variants.fences.game import STEPS
from treehouse.variants.fences.scenario import complete, layout

FENCE, ACT, STACK = STEPS
ROOT = Path(__file__).resolve().parents[2]
START = "Mr*Ly*Mg*Mb*Lb*/Ly*....2Lr*/Mb*.....Mg*/Lo*.....Lr*/Lb*.....My*/Lo*1....Lg*/Lg*Mo*My*Mo*Mr* gbrr,oyog -,- yb 1 fence 0"


# -- the board ---------------------------------------------------------------


def test_the_frame_has_25_inside_and_20_outside_squares_and_no_corners():
    assert len(INSIDE) == 25 and len(OUTSIDE) == 20 and len(SQUARES) == 45
    assert set(AROUND[BY_NAME["N1"]]) == {BY_NAME["N2"], BY_NAME["a5"]}  # not W5: no corner to turn
    assert set(AROUND[BY_NAME["c3"]]) == {BY_NAME[n] for n in ("c4", "d3", "c2", "b3")}
    assert {NAMES[s] for s in AROUND[BY_NAME["a3"]]} == {"a4", "b3", "a2", "W3"}


# -- notation ----------------------------------------------------------------


def test_a_literal_position_round_trips(fences):
    state = fences.parse_position(START)
    assert fences.format_position(state) == START
    assert state.board[BY_NAME["a1"]] == 0 and state.board[BY_NAME["e5"]] == 1
    assert state.board[BY_NAME["N1"]].size is Size.MEDIUM and state.board[BY_NAME["N1"]].colour == "red"
    assert state.stacks[0] == ("green", "blue", "red", "red")
    assert state.aside == ("yellow", "blue") and state.phase == 0 and state.to_move == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setups_round_trip(fences, players):
    for seed in range(20):
        state = fences.treehouse_setup(fences, players, random.Random(seed))
        assert fences.parse_position(fences.format_position(state)) == state
        hash(state)


MOVES = [
    "move Mr@N3 N4", "tip Lb@W2 e", "swap Mr@c4", "hop Mr@c4", "hopfence Lg@W3", "dig", "dig +o",
    "aim Lb@W3:up,Mr@c4:n", "fail", "step n", "wild:gbry tip Lb@W2 e", "wild:rr fail", "wild:r dig +y",
]


@pytest.mark.parametrize("text", MOVES)
def test_moves_round_trip(fences, text):
    move = fences.parse_move(text)
    assert fences.format_move(move) == text
    assert fences.parse_move(fences.format_move(move)) == move
    hash(move)


def test_described_moves(fences):
    assert fences.describe_move(fences.parse_move("move Mr@N3 N4")) == "move fence M(red) at N3 to N4"
    assert fences.describe_move(fences.parse_move("tip Lb@W2 e")) == "tip L(blue) at W2 east"
    assert fences.describe_move(fences.parse_move("wild:gbry dig")).startswith("wild: reorder the stack to yellow, red, blue, green (top first)")  # words: top first; notation: bottom to top
    assert fences.describe_move(PASS) == "pass"


@pytest.mark.parametrize(
    "text, fault",
    [
        ("move Mr@N3", "'move' takes 2"),
        ("jump Mr@c4", "bad move kind 'jump'"),
        ("swap Xr@c4", "bad fence 'Xr@c4'"),
        ("swap Mr@f9", "bad square 'f9'"),
        ("tip Lb@W2 up", "bad direction 'up'"),
        ("aim Mr@c4", "bad aim 'Mr@c4'"),
        ("dig o", "bad restore 'o'"),
        ("wild:gq dig", "bad reorder 'wild:gq'"),
        ("", "an empty move"),
    ],
)
def test_bad_moves_name_the_fault(fences, text, fault):
    with pytest.raises(NotationError) as error:
        fences.parse_move(text)
    assert fault in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize(
    "change, fault, kind",
    [
        (lambda t: t.replace(" 1 fence 0", " 1 fence"), "7 fields", NotationError),
        (lambda t: t.replace("Mr*Ly*", "Mr*Lq*", 1), "bad cell 'Lq*'", NotationError),
        (lambda t: t.replace("/Ly*....2Lr*/", "/Ly*...2Lr*/", 1), "has 6 cells", NotationError),
        (lambda t: t.replace(" fence ", " roll "), "bad step 'roll'", NotationError),
        (lambda t: t.replace("gbrr,oyog", "gbrq,oyog"), "bad colour 'q'", NotationError),
        (lambda t: t.replace("Mr*Ly*", "Mr*Lr*", 1), "large red Fences", IllegalPositionError),
        (lambda t: t.replace("gbrr,oyog", "gbry,oyog"), "small red", IllegalPositionError),
        (lambda t: t.replace("/Lo*1....Lg*/", "/1.....Lg*/", 1), "Outside", IllegalPositionError),
        (lambda t: t.replace(" 1 fence", " 3 fence"), "seat 3 is to move", IllegalPositionError),
        (lambda t: t.replace("Mr*Ly*Mg*", "Mr*1Mg*", 1), "Stacks at", IllegalPositionError),
        (lambda t: t.replace("gbrr,oyog -,- yb", "gbr,oyog -,- ybr"), "starts 4 high", IllegalPositionError),
        (lambda t: t.replace("gbrr,oyog", "gbrr,x4"), "is out but", IllegalPositionError),
    ],
)
def test_bad_positions_name_the_fault(fences, change, fault, kind):
    with pytest.raises(kind) as error:
        fences.parse_position(change(START))
    assert fault in str(error.value) and "\n" not in str(error.value)


def test_a_position_of_five_seats_is_refused(fences):
    with pytest.raises((IllegalPositionError, NotationError)):
        fences.parse_position(START.replace("gbrr,oyog -,-", "g,b,r,r,oyog -,-,-,-,-"))


# -- setup -------------------------------------------------------------------


@pytest.mark.parametrize("players, height, corners", [(2, 4, ("a1", "e5")), (3, 3, ("a1", "a5", "e5")), (4, 2, ("a1", "a5", "e5", "e1"))])
def test_setup_for_each_player_count_with_start_corners(fences_class, players, height, corners):
    fences = fences_class({"start": "corners"})
    state = fences.treehouse_setup(fences, players, random.Random(7))
    assert [NAMES[state.square_of(i)] for i in range(players)] == list(corners)
    assert all(len(s) == height for s in state.stacks)
    assert len(state.aside) == 10 - players * height
    fences_on_ring = [state.board[s] for s in OUTSIDE]
    assert all(f is not None and f.direction is Direction.UP for f in fences_on_ring)
    assert all(state.board[s] is None or type(state.board[s]) is int for s in INSIDE)
    assert state.to_move == 0 and state.phase == 0 and state.turn == 0
    # the same seed, the same layout and draft; another seed, another layout
    assert fences.treehouse_setup(fences, players, random.Random(7)) == state
    assert fences.treehouse_setup(fences, players, random.Random(8)) != state


def test_distinct_draft_and_random_starts(fences_class):
    variant = fences_class({"draft": "distinct", "start": "random"})
    for seed in range(30):
        state = variant.treehouse_setup(variant, 3, random.Random(seed))
        assert all(len(set(s)) == len(s) for s in state.stacks)
        assert all(state.square_of(i) in INSIDE for i in range(3))


def test_heights_must_fit_the_smalls(fences_class):
    with pytest.raises(ValueError):
        fences_class({"stack_height_2p": 6})
    fences_class({"stack_height_2p": 5})  # 2 x 5 = all ten smalls


# -- the turn ----------------------------------------------------------------


def test_a_turn_is_three_steps_and_the_position_says_which_is_next(fences, play):
    state = fences.parse_position(START)
    assert [(s.name, s.rolls) for s in fences.treehouse_turn_steps(state)] == [("fence", False), ("act", True), ("stack", False)]
    move = fences.treehouse_legal_moves(state, FENCE, None)[0]
    after = play(state, FENCE, move)
    assert after.phase == 1 and [s.name for s in fences.treehouse_turn_steps(after)] == ["act", "stack"]


def test_a_typed_position_whose_mover_is_out_passes_and_its_turn_ends(fences, pos):
    """In play a seat's turn ends at the check that empties it; a position typed
    with an out seat to move (th moves) offers only the pass, which ends the turn."""
    state = pos(layout(a5="2", e5="3"), stacks="x2,oyb,gbr", destroyed="rgy,-,-", step="act")
    assert fences.treehouse_legal_moves(state, ACT, "TIP") == (PASS,)
    assert fences.treehouse_legal_moves(state, STACK, None) == ()
    after, _events = play_move(fences, state, ACT, PASS)
    assert (after.to_move, after.phase, after.turn) == (1, 0, 1)


def test_turn_limit_scores_most_smalls_or_a_draw(fences_class, pos):
    state = pos(layout(a1="1", e5="2"), stacks="rgb,oyg", destroyed="y,b", step="fence", turn=60)
    scored = fences_class({"turn_limit": 60})
    assert scored.treehouse_outcome(state, 0).winners == (0, 1)
    state = pos(layout(a1="1", e5="2"), stacks="rgb,oy", destroyed="y,gb", step="fence", turn=60)
    assert scored.treehouse_outcome(state, 0).winners == (0,)
    assert fences_class({"turn_limit": 60, "turn_limit_scoring": "draw"}).treehouse_outcome(state, 0).is_draw
    assert fences_class().treehouse_outcome(state, 0) is None


def test_a_game_through_the_engine(plugins, random_bot):
    variant = plugins.variant("fences")()
    for players in (2, 3, 4):
        game = Game(variant, [random_bot() for _ in range(players)], random.Random(players), turn_cap=500)
        outcome = game.play()
        assert outcome.reason in ("last stack standing", "the last stacks were emptied at once: a tie", "turn cap")
        for winner in outcome.winners:
            assert game.state.stacks[winner] or outcome.reason.startswith("the last")


# -- rendering ---------------------------------------------------------------


@pytest.mark.parametrize("no_color", [False, True])
def test_render_fits_80_columns_with_and_without_colour(fences, no_color):
    state = fences.parse_position(
        complete(layout(a1="1", c3="2", e5="3", e1="4", c4="Lr^", d3="Mb>", b2="Ly<", d1="Mgv"), stacks="rg,by,oy,gb", step="act")
    )
    console = Console(width=80, record=True, no_color=no_color, color_system=None if no_color else "truecolor")
    console.print(fences.treehouse_render(state, 80))
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    for glyph in ("▲", "↑", "→", "←", "↓", "Lr↑", "Mb→", "2:Yb", "1:Gr"):
        assert glyph in text
    assert "Player 1" in text and "top first" in text


def test_render_draws_every_square_a_piece_can_stand_on(fences):
    """The 25 Inside squares and the 20 Outside ones (5 a side, where the seed
    stands the Fences), each once; the frame's four corners are no squares."""
    console = Console(width=80, record=True, no_color=True, color_system=None)
    console.print(fences.render_text(START, 80))
    board = console.export_text().split("\n\n")[0]
    assert board.count("▲") == 20 and board.count("1:") == board.count("2:") == 1
    assert board.count("·") == len(SQUARES) - 22 == 23
    for row in board.splitlines()[1:]:
        if row.strip().endswith(("N", "S")):
            assert row.split()[0][0] in "LM" and len(row.split()) == 6  # five ring squares and the edge's letter


@pytest.mark.parametrize("players", [2, 4])
def test_the_compact_drawing_names_every_outside_square_and_tells_every_stack(fences, players):
    """treehouse_render_compact: nine rows of frame, each Outside square with its
    name in it, the same pieces as the full drawing, the Stacks beside the frame
    (two players) or under it (four: too many for the column), within 80 columns."""
    stacks = "rgby,oyrg" if players == 2 else "rg,by,oy,gb"
    seats = dict(a1="1", e5="2") if players == 2 else dict(a1="1", c3="2", e5="3", e1="4")
    state = fences.parse_position(complete(layout(**seats, c4="Lr^", d3="Mb>", b2="Ly<", d1="Mgv"), stacks=stacks, step="act"))
    console = Console(width=80, record=True, no_color=True, color_system=None)
    console.print(fences.treehouse_render_compact(state, 80))
    lines = console.export_text().rstrip("\n").split("\n")
    assert max(len(line) for line in lines) <= 80
    assert len(lines) == (9 if players == 2 else 9 + 3 * players + 2)
    text = "\n".join(lines)
    for edge in "NSWE":
        for n in range(1, 6):
            assert text.count(f"{edge}{n} ") == 1, (edge, n)
    full = Console(width=80, record=True, no_color=True, color_system=None)
    full.print(fences.treehouse_render(state, 80))
    pieces = lambda drawing: sorted(re.findall(r"[LMS][a-z][▲↑→↓←]|\d:[A-Z][a-z]*", drawing))  # noqa: E731
    assert pieces(text) == pieces(full.export_text())
    for seat in range(players):
        assert f"Player {seat + 1} at " in text
    assert "top first" in text


def test_render_text_shows_a_position_string(fences):
    console = Console(width=80, record=True)
    console.print(fences.render_text(START, 80))
    assert "1:Rrbg" in console.export_text()


# -- rule sets and docs ------------------------------------------------------


def test_the_rule_sets_load_and_list_every_option(plugins, fences_class):
    from treehouse.config import resolve

    import yaml

    text = yaml.safe_load((ROOT / "variants" / "fences.yaml").read_text())
    assert set(text["rules"]) == set(fences_class.Rules.model_fields)
    assert fences_class.Rules(**text["rules"]) == fences_class.Rules()
    assert resolve(plugins, "fences").rules == fences_class.Rules()
    assert resolve(plugins, "fences-every-check").rules.line_hits == "every_check"
    assert resolve(plugins, "fences-scored").rules.turn_limit == 60


def test_every_option_is_documented(fences_class):
    text = (ROOT / "docs" / "rules" / "fences.md").read_text()
    missing = [key for key in fences_class.Rules.model_fields if f"`{key}`" not in text]
    assert missing == []


def test_tallies_count_reset_and_leave_the_notation_when_all_zero(fences):
    text = "Lg*Lg*Mg*.Mb*/Lr*...Lb*2My*/Lo*....My^Mo*/Mb*.....Lr*/Mr*.....Lo*/.1Ly*...Lb*/Mg*Mo*Mr*Ly*. byb,yg g,oo rr 1 act 2"
    state = fences.parse_position(text)
    counted = state.counted("my-rule", 1, 2).counted("a-rule", 0)
    assert counted.tally("my-rule") == (0, 2) and fences.format_position(counted).endswith(" a-rule:1,0;my-rule:0,2")
    assert fences.parse_position(fences.format_position(counted)) == counted
    assert counted.reset_tally("my-rule", 0) == counted  # seat 1 had nothing to forget
    assert counted.reset_tally("my-rule", 1).tallies == (("a-rule", (1, 0)),)
    assert counted.reset_tally("my-rule").reset_tally("a-rule") == state and fences.format_position(state) == text
    assert state.counted("my-rule", 0).counted("my-rule", 0, -1) == state  # counting back to zero is no tally either


def test_a_wild_move_with_one_order_is_said_without_an_empty_reorder(fences):
    # one small, or smalls of one colour, can be stacked one way only: the words say the action alone
    assert fences.describe_move(fences.parse_move("wild:r swap Mr@c2")) == "wild: swap the stack with M(red) at c2"
    assert fences.describe_move(fences.parse_move("wild:rr dig")).startswith("wild: ")
    assert "reorder" not in fences.describe_move(fences.parse_move("wild:rr dig"))
    assert fences.describe_move(fences.parse_move("wild:ry dig")).startswith("wild: reorder the stack to yellow, red (top first), then ")
    assert fences.format_move(fences.parse_move("wild:r swap Mr@c2")) == "wild:r swap Mr@c2"  # the notation keeps the order
