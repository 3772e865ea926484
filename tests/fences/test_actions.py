"""Every step and action, on scenario positions written in the notation."""

from __future__ import annotations


from treehouse.kernel.pieces import Direction
from treehouse.variants.fences.board import BY_NAME
from treehouse.variants.fences.game import STEPS
from treehouse.variants.fences.moves import FAIL
from treehouse.variants.fences.scenario import layout

FENCE, ACT, STACK = STEPS


def names(variant, moves):
    return {variant.format_move(m) for m in moves}


def cell(state, name):
    return state.board[BY_NAME[name]]


# -- step 1: move a Fence ----------------------------------------------------


def test_step1_prefers_fences_moved_next_to_the_stack_or_away_from_it(pos, fences):
    # Stack on c3; Mr on c5 can come to c4 (adjacent); Ly on d3 is adjacent and may leave.
    state = pos(layout(c3="1", e1="2", c5="Mr*", d3="Ly*"), step="fence")
    moves = names(fences, fences.treehouse_legal_moves(state, FENCE, None))
    assert moves == {"move Mr@c5 c4", "move Ly@d3 d4", "move Ly@d3 d2", "move Ly@d3 e3"}


def test_step1_falls_back_to_any_fence_when_none_can_come_or_go(pos, fences):
    # Stack on c3 with no Fence within two squares: any Fence may move one space.
    state = pos(layout(c3="1", e1="2", a5="Mg*"), step="fence")
    moves = fences.treehouse_legal_moves(state, FENCE, None)
    words = names(fences, moves)
    assert {"move Mg@a5 b5", "move Mg@a5 a4"} <= words
    assert all(m.kind == "move" for m in moves)
    assert len(moves) > 10


def test_step1_a_pointing_fence_never_moves_backwards(pos, fences):
    # Lr on c5 points north; it may not move south (to c4, next to the Stack), so the rule
    # has nothing near the Stack to offer and every other Fence move is allowed instead.
    state = pos(layout(c3="1", e1="2", c5="Lr^"), step="fence")
    words = names(fences, fences.treehouse_legal_moves(state, FENCE, None))
    assert "move Lr@c5 c4" not in words
    assert {"move Lr@c5 b5", "move Lr@c5 d5"} <= words  # sideways
    state = pos(layout(c3="1", e1="2", c5="Lrv"), step="fence")
    assert names(fences, fences.treehouse_legal_moves(state, FENCE, None)) == {"move Lr@c5 c4"}  # forwards


def test_step1_outside_fences_move_along_their_edge_but_not_round_corners(pos, fences):
    # Lb on W1 is next to the Stack on a1; moving it to W2 takes it away.  It cannot reach
    # S1: the corner between W1 and S1 is not a square.
    from treehouse.variants.fences.board import AROUND

    state = pos(layout(a1="1", e5="2", W1="Lb*"), step="fence", empty=("W2", "S1", "a2", "b1"), spares_inside=True)
    moves = fences.treehouse_legal_moves(state, FENCE, None)
    words = names(fences, moves)
    assert "move Lb@W1 W2" in words and "move Lb@W1 S1" not in words
    around = set(AROUND[BY_NAME["a1"]])
    assert around == {BY_NAME[n] for n in ("a2", "b1", "W1", "S1")}
    assert all(m.arg in around or m.square in around for m in moves)


def test_step1_when_no_fence_can_move_the_step_is_skipped(fences):
    # Every Fence boxed in: the north ring, rank 5 and W5/E5 Standing; rank 4, W4, E4 and W3
    # Pointing north (they may not move back south); the Stack on a3 closes W3's last way.
    from treehouse.variants.fences.scenario import complete

    squares = {"N1": "*", "N2": "*", "N3": "*", "N4": "*", "N5": "*", "a5": "*", "b5": "*", "c5": "*", "d5": "*", "e5": "*",
               "W5": "*", "E5": "*", "a4": "^", "b4": "^", "c4": "^", "d4": "^", "e4": "^", "W4": "^", "E4": "^", "W3": "^"}
    pieces = [f"{size}{c}" for size in "LM" for c in "roygb" for _ in range(2)]
    cells = {name: piece + glyph for (name, glyph), piece in zip(squares.items(), pieces)}
    state = fences.parse_position(complete(layout(a3="1", e1="2", **cells), step="fence"))
    assert fences.treehouse_legal_moves(state, FENCE, None) == ()
    assert [s.name for s in fences.treehouse_turn_steps(state)] == ["fence", "act", "stack"]


# -- TIP --------------------------------------------------------------------


def test_tip_offers_standing_fences_in_the_row_or_column_outside_ones_included(pos, fences):
    state = pos(layout(c3="1", e1="2", c5="Ly*", a4="Mo*", N3="Lb*", W3="Mg*", E3="Lg^"), step="act")
    words = names(fences, fences.treehouse_legal_moves(state, ACT, "TIP"))
    assert {"tip Ly@c5 s", "tip Ly@c5 e", "tip Ly@c5 w", "tip Lb@N3 s", "tip Mg@W3 e"} <= words
    assert "tip Ly@c5 n" not in words  # north of c5 is N3: Outside, not toward an Inside space
    assert not any("Mo@a4" in w for w in words)  # not in the Stack's row or column
    assert not any("Lg@E3" in w for w in words)  # already Pointing
    assert "tip Lb@N3 e" not in words  # along the ring is not toward an Inside space


def test_tip_slides_through_empty_inside_squares_and_stops_before_a_piece(pos, play):
    state = pos(layout(c3="1", e1="2", N3="Lb*"), step="act")
    after = play(state, ACT, "tip Lb@N3 s")
    # slides c5, c4 and stops next to the Stack, pointing at it: a Hit (top yellow, blue Fence)
    assert cell(after, "N3") is None and cell(after, "c4").direction is Direction.SOUTH
    assert after.stacks[0] == ("red", "green", "blue")


def test_tip_stops_at_the_last_inside_square(pos, play):
    state = pos(layout(b3="1", e1="2", W3="Mg*"), step="act")
    after = play(state, ACT, "tip Mg@W3 e")  # blocked at once by the Stack on a3? no: b3, so it slides to a3
    assert cell(after, "a3").direction is Direction.EAST
    state = pos(layout(c3="1", e1="2", c4="Ly*"), step="act")
    after = play(state, ACT, "tip Ly@c4 n")  # up the column: c5, then N3 is Outside, so it stays on c5
    assert cell(after, "c5").direction is Direction.NORTH and cell(after, "c4") is None
    assert after.stacks == state.stacks


def test_tip_impossible_is_a_hit(pos, play, fences):
    # every Fence on the Stack's row and column is Pointing
    state = pos(layout(c3="1", e1="2", W3="Lr^", E3="Lrv", N3="Mr<", S3="Mr>"), stacks="rgbo,ygyb", step="act")
    assert fences.treehouse_legal_moves(state, ACT, "TIP") == (FAIL,)
    after = play(state, ACT, FAIL)
    assert after.stacks[0] == ("red", "green", "blue")  # Damaged though nothing named a colour
    assert after.destroyed[0] == ("orange",)


# -- SWAP -------------------------------------------------------------------


def test_swap_with_an_inside_fence_keeps_its_orientation(pos, play):
    state = pos(layout(c3="1", e1="2", c5="Lr>"), step="act")
    after = play(state, ACT, "swap Lr@c5")
    assert cell(after, "c5") == 0 and cell(after, "c3").direction is Direction.EAST


def test_swap_with_an_outside_fence_hits_and_damages_whatever_the_colour(pos, play, fences_class):
    state = pos(layout(c3="1", e1="2", N3="Ly*"), stacks="rgby,oygb", step="act")
    after = play(state, ACT, "swap Ly@N3")
    assert cell(after, "c3") == 0 and cell(after, "N3").colour == "yellow"
    assert after.stacks[0] == ("red", "green", "blue")  # top yellow, yellow Fence: Damaged anyway
    lenient = fences_class({"swap_outside_ignores_colour": False})
    after = play(state, ACT, "swap Ly@N3", lenient)
    assert after.stacks[0] == ("red", "green", "blue", "yellow")


def test_swap_with_no_fence_in_row_or_column_fails(pos, fences):
    state = pos(layout(c3="1", e1="2"), step="act", empty=("N3", "S3", "W3", "E3"), spares_inside=True)
    assert fences.treehouse_legal_moves(state, ACT, "SWAP") == (FAIL,)
    assert fences.treehouse_legal_moves(state, ACT, "TIP") == (FAIL,)


# -- HOP --------------------------------------------------------------------


def test_hop_over_a_standing_fence_lands_and_the_fence_falls_toward_it(pos, play):
    state = pos(layout(c3="1", e1="2", c4="Ly*"), stacks="rgbo,ygyb", step="act")
    after = play(state, ACT, "hop Ly@c4")
    assert cell(after, "c5") == 0 and cell(after, "c3") is None
    assert cell(after, "c4").direction is Direction.NORTH  # it points at the target square
    assert after.stacks[0] == ("red", "green", "blue")  # ... so the landed Stack is Hit


def test_hop_over_a_pointing_fence_keeps_its_direction(pos, play):
    state = pos(layout(c3="1", e1="2", c4="Ly<"), step="act")
    after = play(state, ACT, "hop Ly@c4")
    assert cell(after, "c5") == 0 and cell(after, "c4").direction is Direction.WEST
    assert after.stacks == state.stacks


def test_hop_bounce_from_the_outside(pos, play, fences):
    """A Hop can still bounce off the Outside under the default
    ``outside_attempts: false`` (which is about step 3 only): the seed's Hop
    "bounces back to the original square, registering any Hit"."""
    # b3 hops west over Ly on a3: the target W3 is Outside, so it bounces back, Damaged.
    state = pos(layout(b3="1", e1="2", a3="Ly*", W3="."), stacks="rgby,oygb", step="act")
    assert fences.parse_move("hop Ly@a3") in fences.treehouse_legal_moves(state, ACT, "HOP")
    after = play(state, ACT, "hop Ly@a3")
    assert cell(after, "b3") == 0
    assert cell(after, "a3").direction is Direction.WEST  # fell toward the target even so
    # two Hits: the Outside attempt (always) and, having moved, nothing else in line: one Damage
    assert after.stacks[0] == ("red", "green", "blue")


def test_hop_bounce_off_a_stack_hits_only_the_stationary_one(pos, play, fences):
    state = pos(layout(c3="1", c5="2", c4="Mr>"), stacks="rgby,oygb", step="act")
    move = fences.parse_move("hop Mr@c4")
    assert [(h.seat, h.colour) for h in fences.hits(state, ACT, move)] == [(1, "yellow")]
    after = play(state, ACT, move)
    assert cell(after, "c3") == 0 and cell(after, "c5") == 1
    assert after.stacks == (("red", "green", "blue", "yellow"), ("orange", "yellow", "green"))


def test_hop_bounce_off_a_fence_is_a_hit_by_that_fence(pos, play):
    state = pos(layout(c3="1", e1="2", c4="Mr>", c5="Lg*"), stacks="rgby,oygb", step="act")
    after = play(state, ACT, "hop Mr@c4")
    assert cell(after, "c3") == 0
    assert after.stacks[0] == ("red", "green", "blue")
    state = pos(layout(c3="1", e1="2", c4="Mr>", c5="Ly*"), stacks="rgby,oygb", step="act")
    assert play(state, ACT, "hop Mr@c4").stacks[0] == state.stacks[0]  # yellow top, yellow Fence


def test_hop_a_fence_over_the_stack(pos, play, fences):
    state = pos(layout(c3="1", e1="2", c4="Mr>", W3="."), step="act")
    words = names(fences, fences.treehouse_legal_moves(state, ACT, "HOP"))
    assert {"hop Mr@c4", "hopfence Mr@c4"} <= words
    after = play(state, ACT, "hopfence Mr@c4")
    assert cell(after, "c4") is None and cell(after, "c2").direction is Direction.EAST
    # an Outside neighbour can be hopped over the Stack too (but the Stack cannot hop onto the ring)
    state = pos(layout(a3="1", e1="2", W3="Lb*"), step="act")
    words = names(fences, fences.treehouse_legal_moves(state, ACT, "HOP"))
    assert words == {"hopfence Lb@W3"}
    assert cell(play(state, ACT, "hopfence Lb@W3"), "b3").colour == "blue"


def test_hop_impossible_without_an_adjacent_fence(pos, fences):
    state = pos(layout(c3="1", e1="2"), step="act")
    assert fences.treehouse_legal_moves(state, ACT, "HOP") == (FAIL,)


# -- DIG --------------------------------------------------------------------


def test_dig_moves_the_top_to_the_bottom(pos, play):
    after = play(pos(layout(c3="1", e1="2")), ACT, "dig")
    assert after.stacks[0] == ("yellow", "red", "green", "blue")


def test_dig_with_one_piece_restores_a_destroyed_one(pos, play, fences):
    state = pos(layout(c3="1", e1="2"), stacks="r,oygb", destroyed="gyb,-", step="act")
    words = names(fences, fences.treehouse_legal_moves(state, ACT, "DIG"))
    assert words == {"dig +y", "dig +g", "dig +b"}
    after = play(state, ACT, "dig +g")
    assert after.stacks[0] == ("green", "red") and after.destroyed[0] == ("yellow", "blue")


def test_a_dig_of_two_or_more_smalls_of_one_colour_is_done_and_changes_nothing(pos, play, fences, fences_class):
    """The seed: "Player must move the top piece of their Stack to the bottom of
    the Stack."  That can always be done with two or more smalls, even of one
    colour: by default (``uniform_dig: noop``) it is done, changes nothing and
    makes no Hit."""
    state = pos(layout(c3="1", e1="2"), stacks="rr,oygb", destroyed="gb,-", step="act")
    assert fences.treehouse_legal_moves(state, ACT, "DIG") == (fences.parse_move("dig"),)
    assert fences.hits(state, ACT, fences.parse_move("dig")) == []
    after = play(state, ACT, "dig")
    assert after.stacks == state.stacks and after.destroyed == state.destroyed and after.board == state.board
    assert after.step_name == "stack"  # the step is played


def test_the_old_readings_of_a_one_colour_dig_stay_as_options(pos, fences_class):
    state = pos(layout(c3="1", e1="2"), stacks="rr,oygb", destroyed="gb,-", step="act")
    assert fences_class({"uniform_dig": "hit"}).treehouse_legal_moves(state, ACT, "DIG") == (FAIL,)
    assert fences_class({"uniform_dig": "reroll"}).treehouse_legal_moves(state, ACT, "DIG") == ()


# -- AIM --------------------------------------------------------------------


def test_aim_turns_adjacent_fences_each_to_a_new_direction(pos, fences):
    state = pos(layout(c3="1", e1="2", c4="Mr^", b3="Ly*"), step="act")
    moves = fences.treehouse_legal_moves(state, ACT, "AIM")
    words = names(fences, moves)
    assert "aim Mr@c4:n" not in words  # it already points north: must change
    assert {"aim Mr@c4:up", "aim Ly@b3:e", "aim Ly@b3:w", "aim Ly@b3:n,Mr@c4:s"} <= words
    # c4: up e s w (4 choices), b3: n e s w (4): (4+1)*(4+1)-1 combinations
    assert len(moves) == 24


def test_aim_an_outside_fence_only_inward_or_standing(pos, fences):
    state = pos(layout(a3="1", e1="2", W3="Lr*"), step="act")
    words = names(fences, fences.treehouse_legal_moves(state, ACT, "AIM"))
    assert words == {"aim Lr@W3:e"}
    state = pos(layout(a3="1", e1="2", W3="Lr>"), step="act")
    assert names(fences, fences.treehouse_legal_moves(state, ACT, "AIM")) == {"aim Lr@W3:up"}


def test_aim_pointing_at_a_stack_hits_it(pos, play):
    state = pos(layout(c3="1", c5="2", c4="Lr*"), stacks="rgby,oygb", step="act")
    after = play(state, ACT, "aim Lr@c4:n")
    assert after.stacks == (("red", "green", "blue", "yellow"), ("orange", "yellow", "green"))


def test_aim_impossible_without_an_adjacent_fence(pos, fences):
    state = pos(layout(c3="1", e1="2"), step="act")
    assert fences.treehouse_legal_moves(state, ACT, "AIM") == (FAIL,)


# -- WILD -------------------------------------------------------------------


def test_wild_reorders_then_acts_and_the_new_top_decides_immunity(pos, play, fences):
    state = pos(layout(c3="1", e1="2", c4="Lr*"), stacks="rgby,oygb", step="act")
    moves = fences.treehouse_legal_moves(state, ACT, "WILD")
    words = names(fences, moves)
    assert "wild:rgby aim Lr@c4:s" in words and "wild:gbyr aim Lr@c4:s" in words
    assert "wild:rgby dig" in words and "wild:gbyr dig" not in words  # that Dig undoes the reorder
    assert {m.base().kind for m in moves} == {"swap", "hop", "hopfence", "dig", "aim", "tip"}
    after = play(state, ACT, "wild:gbyr aim Lr@c4:s")  # red on top faces the red Fence: immune
    assert after.stacks[0] == ("green", "blue", "yellow", "red")
    after = play(state, ACT, "wild:rgby aim Lr@c4:s")
    assert after.stacks[0] == ("red", "green", "blue")


def test_wild_with_nothing_possible_still_reorders_before_the_hit(pos, play, fences, fences_class):
    # no Fence in row, column or around; under uniform_dig: hit a one-colour Stack cannot Dig
    state = pos(layout(c3="1", e1="2"), stacks="rr,oygb", destroyed="gb,-", step="act", empty=("N3", "S3", "W3", "E3"), spares_inside=True)
    assert names(fences, fences.treehouse_legal_moves(state, ACT, "WILD")) == {"wild:rr dig"}  # the seed's Dig: always possible
    strict = fences_class({"uniform_dig": "hit"})
    moves = strict.treehouse_legal_moves(state, ACT, "WILD")
    assert names(strict, moves) == {"wild:rr fail"}
    after = play(state, ACT, moves[0], strict)
    assert after.stacks[0] == ("red",)
    state = pos(layout(c3="1", e1="2"), stacks="rg,oygb", destroyed="rb,-", step="act", empty=("N3", "S3", "W3", "E3"), spares_inside=True)
    moves = fences.treehouse_legal_moves(state, ACT, "WILD")
    assert names(fences, moves) == {"wild:rg dig"}  # "wild:gr dig" would end as it began
    state = pos(layout(c3="1", e1="2"), stacks="r,oygb", destroyed="rgb,-", step="act")
    assert "wild:r dig +g" in names(fences, fences.treehouse_legal_moves(state, ACT, "WILD"))


# -- step 3 ------------------------------------------------------------------


def test_step3_moves_one_space_and_offers_all_four_directions(pos, play, fences):
    state = pos(layout(c3="1", e1="2"), step="stack")
    assert names(fences, fences.treehouse_legal_moves(state, STACK, None)) == {"step n", "step e", "step s", "step w"}
    after = play(state, STACK, "step w")
    assert cell(after, "b3") == 0 and after.phase == 0 and after.turn == 1


def test_step3_into_a_fence_stays_put_and_is_hit(pos, play):
    state = pos(layout(c3="1", e1="2", c4="Mb<"), stacks="rgby,oygb", step="stack")
    after = play(state, STACK, "step n")
    assert cell(after, "c3") == 0 and after.stacks[0] == ("red", "green", "blue")


def test_a_wild_reorder_whose_dig_gives_back_the_stack_is_not_offered_under_any_uniform_dig(pos, fences_class):
    """Issue 47: a Stack ``ry``: ``wild:ry dig`` (giving ``yr``) is offered, ``wild:yr dig``
    (giving ``ry`` again) is not, under every ``uniform_dig`` (docs/rules/fences.md, WILD)."""
    state = pos(layout(c3="1", e1="2"), stacks="ry,oy", destroyed="gb,gb", step="act", empty=("N3", "S3", "W3", "E3"), spares_inside=True)
    for uniform in ("noop", "hit", "reroll"):
        variant = fences_class({"uniform_dig": uniform})
        words = names(variant, variant.treehouse_legal_moves(state, ACT, "WILD"))
        assert "wild:ry dig" in words and "wild:yr dig" not in words, uniform
