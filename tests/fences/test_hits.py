"""Hit and Damage resolution: one scenario per Hit rule of the seed, written
as positions in the notation, with the Hits and Damage expected."""

from __future__ import annotations

from treehouse.kernel.engine import PASS, play_move
from treehouse.variants.fences.board import BY_NAME
from treehouse.variants.fences.game import STEPS
from treehouse.kernel.pieces import Size
from treehouse.variants.fences.hits import Cause, Hit, Source
from treehouse.variants.fences.rules import lines, resolve_damage
from treehouse.variants.fences.scenario import layout

FENCE, ACT, STACK = STEPS


def test_a_fence_moved_to_point_at_a_stack_hits_it(pos, play, fences):
    # Mr at a4 points east; moved south to a3 it points along rank 3 at the Stack on c3.
    state = pos(layout(c3="1", e5="2", a4="Mr>"), stacks="rgby,oygb", step="fence")
    move = fences.parse_move("move Mr@a4 a3")
    assert move in fences.treehouse_legal_moves(state, FENCE, None)
    assert [(h.seat, h.colour) for h in fences.hits(state, FENCE, move)] == [(0, "red")]
    after = play(state, FENCE, move)
    assert after.stacks[0] == ("red", "green", "blue")
    assert after.destroyed[0] == ("yellow",)


def test_colour_immunity_the_top_matching_the_fence(pos, play):
    state = pos(layout(c3="1", e5="2", a4="Mr>"), stacks="rgbr,oyyb", step="fence")
    after = play(state, FENCE, "move Mr@a4 a3")
    assert after.stacks[0] == ("red", "green", "blue", "red")  # Hit, but no Damage
    assert after.destroyed[0] == ()


def test_a_stack_that_ends_its_move_in_a_line_is_hit(pos, play):
    # Lb at E2 points west along rank 2; the Stack steps from c3 down to c2.
    state = pos(layout(c3="1", e5="2", E2="Lb<"), stacks="rgby,oygb", step="stack")
    after = play(state, STACK, "step s")
    assert after.board[BY_NAME["c2"]] == 0
    assert after.stacks[0] == ("red", "green", "blue")  # top yellow, Hit by blue: Damaged


def test_a_blocker_moving_away_opens_a_new_line(pos, play, fences):
    # Lg at E3 points west; the Standing Mo on c3 shields the Stack on b3 until it moves.
    state = pos(layout(b3="1", e5="2", E3="Lg<", c3="Mo*"), stacks="rgby,oygb", step="fence")
    move = fences.parse_move("move Mo@c3 c4")
    assert move in fences.treehouse_legal_moves(state, FENCE, None)  # it takes an adjacent Fence away
    after = play(state, FENCE, move)
    assert after.stacks[0] == ("red", "green", "blue")


def test_a_stack_standing_in_a_line_is_not_hit_again_by_default(pos, play, fences_class):
    state = pos(layout(b3="1", e5="2", E3="Lg<"), stacks="rgby,oygb", step="fence")
    # every legal Fence move here leaves Lg's line in place: none Hits again
    variant = fences_class()
    for move in variant.treehouse_legal_moves(state, FENCE, None):
        after = play(state, FENCE, move)
        assert after.stacks[0] == state.stacks[0], variant.format_move(move)


def test_every_check_option_hits_a_standing_line_again(pos, fences_class):
    every = fences_class({"line_hits": "every_check"})
    text = pos(layout(b3="1", e5="2", E3="Lg<"), stacks="rgby,oygb", step="stack")
    state = every.parse_position(every.format_position(text))
    move = every.parse_move("step n")  # b4 is empty: the Stack leaves the line
    after, _events = play_move(every, state, STACK, move)
    assert after.stacks[0] == state.stacks[0]
    # a PASS check (a seat that is out) still Hits every line in every_check mode
    after_pass, _events = play_move(every, state, ACT, PASS)
    assert after_pass.stacks[0] == ("red", "green", "blue")


def test_a_bounce_counts_as_moved_so_its_lines_hit_again(pos, play):
    # The Stack on b3 sits in Lg's line; stepping north into Standing Ly on b4 it bounces:
    # one Hit for the Fence it tried to enter, one for the line it ends in.
    state = pos(layout(b3="1", e5="2", E3="Lg<", b4="Ly*"), stacks="rgyb,oyrb", step="stack")
    after = play(state, STACK, "step n")
    assert after.board[BY_NAME["b3"]] == 0
    assert after.stacks[0] == ("red", "green")
    assert after.destroyed[0] == ("yellow", "blue")


def test_hits_are_resolved_simultaneously_with_immunity_decided_first(pos, play, fences):
    # Stepping from b2 to b3, the Stack (top green, then red) meets two new lines:
    # Lg from E3 (immune) and Mr from b5 pointing south (Damage).  Resolved one by one
    # the red Hit would expose the red small to... nothing: immunity is decided once, first.
    state = pos(layout(b2="1", e5="2", E3="Lg<", b5="Mrv"), stacks="bbrg,oyoy", step="stack")
    move = fences.parse_move("step n")
    hits = fences.hits(state, STACK, move)
    assert sorted(h.colour for h in hits) == ["green", "red"]
    after = play(state, STACK, move)
    assert after.stacks[0] == ("blue", "blue", "red")  # one Damage, not two
    assert after.destroyed[0] == ("green",)


def test_damage_counts_use_the_top_before_removal():
    from treehouse.variants.fences.position import FencesPosition

    board = [None] * 49
    board[BY_NAME["c3"]] = 0
    board[BY_NAME["e5"]] = 1
    state = FencesPosition(tuple(board), (("blue", "red", "green"), ("red",)), ((), ()), (), (0, 0))
    hits = [
        Hit(0, Cause.POINTED_AT, Source(Size.LARGE, "green", BY_NAME["N3"])),
        Hit(0, Cause.POINTED_AT, Source(Size.LARGE, "red", BY_NAME["W3"])),
        Hit(0, Cause.POINTED_AT, Source(Size.MEDIUM, "green", BY_NAME["S3"])),
        Hit(1, Cause.POINTED_AT, Source(Size.LARGE, "red", BY_NAME["E5"])),
    ]
    after, events = resolve_damage(state, hits, check=5)
    assert [e.lost for e in events] == [None, "green", None, None]  # green on top: only the red Hit Damages; seat 2 is red
    assert after.stacks == (("blue", "red"), ("red",))
    assert after.destroyed == (("green",), ())


def test_moving_outside_always_damages(pos, play, fences_class):
    # with outside_attempts: true, the Stack on a1 tries to step west onto W1,
    # where a red Fence stands: red top, still Damaged
    attempts = fences_class({"outside_attempts": True})
    state = pos(layout(a1="1", e5="2", W1="Lr*"), stacks="gbyr,oyob", step="stack")
    assert attempts.parse_move("step w") in attempts.treehouse_legal_moves(state, STACK, None)
    after = play(state, STACK, "step w", attempts)
    assert after.board[BY_NAME["a1"]] == 0
    assert after.stacks[0] == ("green", "blue", "yellow")


def test_step3_moves_to_an_inside_space_only(pos, fences, fences_class):
    """The seed: "Player then must move their Stack one space in any Row or
    Column to an Inside space."  By default (``outside_attempts: false``) step 3
    offers no move toward the Outside; the option ``true`` keeps the attempt."""
    state = pos(layout(a1="1", e5="2"), step="stack")
    words = [fences.format_move(m) for m in fences.treehouse_legal_moves(state, STACK, None)]
    assert words == ["step n", "step e"]
    attempts = fences_class({"outside_attempts": True})
    words = [attempts.format_move(m) for m in attempts.treehouse_legal_moves(state, STACK, None)]
    assert words == ["step n", "step e", "step s", "step w"]


def test_only_the_stationary_stack_is_hit_when_a_stack_moves_into_another(pos, play, fences):
    state = pos(layout(c3="1", d3="2"), stacks="rgby,oygb", step="stack")
    move = fences.parse_move("step e")
    assert [(h.seat, h.colour) for h in fences.hits(state, STACK, move)] == [(1, "yellow")]
    after = play(state, STACK, move)
    assert after.board[BY_NAME["c3"]] == 0 and after.board[BY_NAME["d3"]] == 1
    assert after.stacks == (("red", "green", "blue", "yellow"), ("orange", "yellow", "green"))


def test_a_stack_moving_into_a_stack_of_its_top_colour_does_no_damage(pos, play):
    state = pos(layout(c3="1", d3="2"), stacks="rgby,obgy", step="stack")
    after = play(state, STACK, "step e")
    assert after.stacks == state.stacks


def test_an_emptied_stack_is_out_at_once(pos, play, fences):
    # three players, seat 1's Stack has one small left and steps Outside
    state = pos(layout(a1="1", a5="2", e5="3"), stacks="r,oyb,gbr", destroyed="gy,-,-", step="stack")
    after = play(state, STACK, "step s")
    assert after.stacks[0] == () and after.out[0] == 3
    assert 0 not in after.board
    assert fences.treehouse_outcome(after, 0) is None  # two Stacks still stand
    nxt = fences.treehouse_end_turn(after)
    assert nxt.to_move == 1 and nxt.phase == 0 and nxt.turn == 1
    # seat 3 moving on skips seat 1
    assert fences.treehouse_end_turn(nxt._replace(to_move=2)).to_move == 1


def test_the_last_stack_standing_wins(pos, play, fences):
    state = pos(layout(c3="1", d3="2"), stacks="rgbo,y", destroyed="-,obg", step="stack")
    after = play(state, STACK, "step e")
    assert after.stacks[1] == ()
    outcome = fences.treehouse_outcome(after, 0)
    assert outcome.winners == (0,) and outcome.reason == "last stack standing"


def test_the_last_two_stacks_emptied_at_once_draw(pos, play, fences, fences_class):
    """The seed: "If the Stack becomes empty, the owning Player loses and is
    out of the game."  Both last Stacks emptied at one check: both lose, so
    nobody wins (``all_out_at_once: draw``); ``tie`` keeps the old reading."""
    # One Aim turns two Standing Fences: Lb on c3 to point north at the Stack on c4,
    # My on b4 to point south at the Stack on b3.  Both last smalls go at the same check.
    state = pos(layout(c4="1", b3="2", c3="Lb*", b4="My*"), stacks="r,g", destroyed="gby,bry", step="act")
    move = fences.parse_move("aim Lb@c3:n,My@b4:s")
    assert move in fences.treehouse_legal_moves(state, ACT, "AIM")
    after = play(state, ACT, move)
    assert after.stacks == ((), ())
    assert after.out == (2, 2)  # check 2: the act step of the first turn
    outcome = fences.treehouse_outcome(after, 0)
    assert outcome.winners == () and outcome.is_draw
    tie = fences_class({"all_out_at_once": "tie"}).treehouse_outcome(after, 0)
    assert tie.winners == (0, 1)


def test_adjustments_to_a_stack_never_hit(pos, play):
    # a Dig changes the top colour but makes no Hit, even with a line pointing at the Stack
    state = pos(layout(b3="1", e5="2", E3="Lg<"), stacks="rgby,oygb", step="act")
    after = play(state, ACT, "dig")
    assert after.stacks[0] == ("yellow", "red", "green", "blue")
    assert after.destroyed[0] == ()


def test_lines_stop_at_the_first_piece(pos):
    state = pos(layout(b3="1", e5="2", E3="Lg<"), empty=("c3", "d3", "e3"))
    assert [(l.fence_square, l.seat) for l in lines(state)] == [(BY_NAME["E3"], 0)]
    state = pos(layout(b3="1", d3="2", E3="Lg<"), empty=("c3", "e3"))  # another Stack in between shields it
    assert [(l.fence_square, l.seat) for l in lines(state)] == [(BY_NAME["E3"], 1)]
