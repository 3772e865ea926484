"""The readings issues 22 and 47 settled, and the step advance house rules use, through the game's hooks.

Each test plays moves with ``play_move`` over the variant's hooks (the path
the engine takes), so it tests whichever tier answers them.
"""

from __future__ import annotations

from treehouse.kernel.engine import PASS, play_move, turn_cut_short
from treehouse.variants.fences.board import BY_NAME
from treehouse.variants.fences.game import STEPS
from treehouse.variants.fences.hits import Cause, HitReport
from treehouse.variants.fences.rules import advance
from treehouse.variants.fences.scenario import layout

FENCE, ACT, STACK = STEPS


def causes(events):
    return [(e.hit.seat, e.hit.cause, e.lost) for e in events if isinstance(e, HitReport)]


#: Issue 47's example: player 1 (one small, red, on c3, ``Lg<`` on E3 pointing at
#: it) steps north onto player 2 (one small, blue, on c4).
ISSUE_47 = "Lr*Lr*My*Lo*Lo*/My*.....Ly*/Mb*..2..Mg*/Mb*..1..Lg</Mo*.....Ly*/Mo*.....Lg*/Mr*Mr*Mg*Lb*Lb* r,b gyb,roy og 1 stack 0"


def test_a_stack_moving_onto_another_stack_only_the_stationary_stack_is_hit(fences):
    """Seed: "If a Stack moves onto another Stack, only the stationary Stack is Hit"
    (``mover_hit_on_stack: false``, the default): the mover's own line does not Hit
    it, so in issue 47's example player 2 goes out alone and player 1 wins."""
    assert fences.rules.mover_hit_on_stack is False
    state = fences.parse_position(ISSUE_47)
    after, events = play_move(fences, state, STACK, fences.parse_move("step n"))
    assert causes(events) == [(1, Cause.STACK_MOVED_ONTO, "blue")]
    assert after.stacks == (("red",), ()) and fences.treehouse_outcome(after, 0).winners == (0,)


def test_with_mover_hit_on_stack_the_mover_is_considered_moved_and_the_example_is_drawn(fences_class):
    """``mover_hit_on_stack: true`` (the reading before issue 47): the mover is
    "still considered moved", its line Hits it too: both Stacks go out, a draw."""
    fences = fences_class({"mover_hit_on_stack": True})
    state = fences.parse_position(ISSUE_47)
    after, events = play_move(fences, state, STACK, fences.parse_move("step n"))
    assert after.stacks == ((), ()) and fences.treehouse_outcome(after, 0).winners == ()
    assert (0, Cause.BOUNCED, "red") in causes(events)


def test_a_stack_moving_into_another_stack_is_hit_by_a_line_already_on_it_only_with_the_option(pos, fences, fences_class):
    """The mover stays; with ``mover_hit_on_stack`` it is considered moved and the line already on it Hits it."""
    state = pos(layout(c3="1", c4="2", E3="Lg<"), stacks="rgby,oygb", step="stack")
    after, events = play_move(fences, state, STACK, fences.parse_move("step n"))
    assert causes(events) == [(1, Cause.STACK_MOVED_ONTO, "blue")]
    assert after.board[BY_NAME["c3"]] == 0 and after.board[BY_NAME["c4"]] == 1
    moved = fences_class({"mover_hit_on_stack": True})
    after, events = play_move(moved, state, STACK, moved.parse_move("step n"))
    assert causes(events) == [(1, Cause.STACK_MOVED_ONTO, "blue"), (0, Cause.BOUNCED, "yellow")]


def test_a_stack_moving_into_another_stack_of_its_top_colour_with_the_option_is_still_hit_by_the_line(pos, fences_class):
    """Awkward: the collision does no Damage (the stationary Stack's top matches the mover's), the line does."""
    moved = fences_class({"mover_hit_on_stack": True})
    state = pos(layout(c3="1", c4="2", E3="Lg<"), stacks="rgby,obry", step="stack")
    after, events = play_move(moved, state, STACK, moved.parse_move("step n"))
    assert causes(events) == [(1, Cause.STACK_MOVED_ONTO, None), (0, Cause.BOUNCED, "yellow")]


def test_under_every_check_the_line_on_the_mover_hits_whatever_the_option(pos, fences_class):
    """``line_hits: every_check``: every line Hits at every check, the mover's too."""
    state = pos(layout(c3="1", c4="2", E3="Lg<"), stacks="rgby,oygb", step="stack")
    for option in (False, True):
        variant = fences_class({"mover_hit_on_stack": option, "line_hits": "every_check"})
        _after, events = play_move(variant, state, STACK, variant.parse_move("step n"))
        assert causes(events) == [(1, Cause.STACK_MOVED_ONTO, "blue"), (0, Cause.POINTED_AT, "yellow")]


def test_the_stationary_stack_is_not_hit_again_by_its_own_line_when_a_stack_moves_into_it(pos, fences_class):
    """Only the mover can be considered moved: a line already on the stationary Stack does not Hit it again."""
    state = pos(layout(c3="1", c4="2", E4="Lg<"), stacks="rgby,oygb", step="stack")
    for option in (False, True):
        variant = fences_class({"mover_hit_on_stack": option})
        after, events = play_move(variant, state, STACK, variant.parse_move("step n"))
        assert causes(events) == [(1, Cause.STACK_MOVED_ONTO, "blue")]


def test_a_hop_that_bounces_off_a_stack(pos, fences, fences_class):
    """Awkward: a Hop whose target holds another Stack: that Stack is Hit by the collision (only the
    stationary Stack), the hopper bounces back; considered moved, and Hit by the line already on
    it, only with ``mover_hit_on_stack``."""
    state = pos(layout(c2="1", c4="2", c3="Mb>", E2="Lg<"), stacks="rgby,oygb", step="act", empty=("d2", "e2"))
    after, events = play_move(fences, state, ACT, fences.parse_move("hop Mb@c3"))
    assert causes(events) == [(1, Cause.STACK_MOVED_ONTO, "blue")]
    assert after.board[BY_NAME["c2"]] == 0
    moved = fences_class({"mover_hit_on_stack": True})
    after, events = play_move(moved, state, ACT, moved.parse_move("hop Mb@c3"))
    assert causes(events) == [(1, Cause.STACK_MOVED_ONTO, "blue"), (0, Cause.BOUNCED, "yellow")]
    assert after.board[BY_NAME["c2"]] == 0


def test_the_step_advance_goes_fence_act_stack_then_the_next_turn(pos, fences):
    state = pos(layout(c3="1", e5="2"), stacks="rgby,oygb", step="fence", turn=4)
    assert (advance(state, FENCE).step_name, advance(state, FENCE).turn) == ("act", 4)
    assert (advance(state, ACT).step_name, advance(state, ACT).turn) == ("stack", 4)
    assert (advance(state, STACK).step_name, advance(state, STACK).turn) == ("fence", 5)
    assert advance(state, STACK).to_move == state.to_move  # passing the turn on is treehouse_end_turn's
    # the hooks advance the same way, a move or a pass
    moved = fences.treehouse_apply_move(state, FENCE, fences.treehouse_legal_moves(state, FENCE, None)[0]).state
    assert moved.step_name == "act"
    passed = fences.treehouse_resolve(state, state, ACT, PASS, None)
    assert passed.step_name == "stack"


def test_a_seat_that_goes_out_in_its_own_step_plays_no_more_steps(pos, fences_class):
    """Issue 47: a seat emptied in step 1 used to get a step-2 roll and pass,
    a check that under ``line_hits: every_check`` could knock another seat
    out.  The seed checks "at the end of each Step" a player plays; a player
    who is out plays none: its turn ends at the check that emptied it."""
    every = fences_class({"line_hits": "every_check"})
    # seat 2's Stack (one orange small on c4) is pointed at by Lb> on b4 once it steps there... here: a Fence
    # move in step 1 that points Lg< at seat 2's last small (e5's Fence swung onto d4's line)
    state = pos(layout(b4="Lb>", c4="2", d4="1", e5="3"), stacks="y,o,ro", destroyed="gb,rb,y", seat=2, step="fence", turn=4)
    out = [(move, play_move(every, state, FENCE, move)) for move in every.treehouse_legal_moves(state, FENCE, None)]
    gone = [(move, after) for move, (after, _events) in out if not after.stacks[1]]
    assert gone, "some step-1 move empties seat 2"
    for _move, after in gone:
        assert after.to_move == 2 and after.step_name == "fence" and after.turn == 5  # seat 3's turn, from its step 1
        assert turn_cut_short(state, after)
    kept = [after for _move, (after, _events) in out if after.stacks[1]]
    assert all(after.to_move == 1 and after.step_name == "act" for after in kept)  # a seat still in plays on


def test_a_turn_cut_short_counts_complete_for_the_turn_limit(pos, fences_class):
    """The turn that ends when its seat goes out is complete: at ``turn_limit``
    the game ends at that check, on both tiers (the core's look agrees)."""
    limited = fences_class({"turn_limit": 5})
    state = pos(layout(b4="Lb>", c4="2", d4="1", e5="3"), stacks="y,o,ro", destroyed="gb,rb,y", seat=2, step="fence", turn=4)
    for move in limited.treehouse_legal_moves(state, FENCE, None):
        after, _events = play_move(limited, state, FENCE, move)
        ended = limited.treehouse_outcome(after, 1)
        assert (ended is not None) == (not after.stacks[1]), limited.format_move(move)


def test_issue_47_game_23_seat_1_is_not_knocked_out_by_a_phantom_pass(plugins, tmp_path):
    """The issue's game: ``th simulate -v fences --seed 203 -n 60 --set all_out_at_once=tie
    --set line_hits=every_check``, three random seats, game 23, turn 5: player 2
    goes out in step 1, and player 1 is no longer Hit at its passed step 2."""
    from typer.testing import CliRunner

    from treehouse.cli import app
    from treehouse.kernel.records import Record

    done = CliRunner().invoke(app, [
        "simulate", "-v", "fences", "--seed", "203", "-n", "24", "--jobs", "1", "--set", "all_out_at_once=tie", "--set", "line_hits=every_check",
        "--seat", "random", "--seat", "random", "--seat", "random", "--records", str(tmp_path),
    ])  # fmt: skip
    assert done.exit_code == 0, done.output
    events = Record.read(tmp_path / "game-000023.jsonl").events  # as read back: moves and what happened, as text
    turn_5 = [e for e in events if e[1] == 5 and e[2] == 1]
    assert turn_5[:2] == [("move", 5, 1, "fence", "move Mb@c5 N3"), ("resolved", 5, 1, "fence", (
        "Player 2 loses orange (L(blue) at b4 points at it)", "Player 2 is out: the last small went (L(blue) at b4 points at it)",
    ))]  # fmt: skip
    assert all(e[3] == "fence" for e in turn_5)  # no roll and no pass after it: its turn ended there
    following = events[events.index(turn_5[-1]) + 1]
    assert following[1:4] == (6, 2, "fence")  # and the next seat still in, player 3, plays its turn from step 1
    assert not any("Player 1 is out" in line for e in events if e[0] == "resolved" and e[1] == 5 for line in e[4])
