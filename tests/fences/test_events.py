"""What resolution reports: one event per Hit, naming the piece, the Stack
and the cause, whether colour saved it and which small it took, and who went
out.  One scenario per cause of the seed's Hit list, written as positions."""

from __future__ import annotations

import random

import pytest

from treehouse.errors import RecordError
from treehouse.kernel.engine import Game, play_move
from treehouse.kernel.pieces import Size
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.variants.fences.board import BY_NAME
from treehouse.variants.fences.game import STEPS
from treehouse.variants.fences.hits import Cause, HitReport, Source, StackOut
from treehouse.variants.fences.scenario import layout

FENCE, ACT, STACK = STEPS


def events_of(variant, state, step, text):
    move = variant.parse_move(text)
    face = None
    if step.rolls:
        face = next(f for f in variant.die.faces if move in variant.treehouse_legal_moves(state, step, f))
    assert move in variant.treehouse_legal_moves(state, step, face), text
    return play_move(variant, state, step, move)


def words(events):
    return [event.describe() for event in events]


def test_if_a_fence_is_moved_or_pointed_such_that_it_is_pointing_at_the_stack(pos, fences):
    """Seed: "If a Fence is moved or Pointed such that it is Pointing (with only empty spaces between) at the Stack." """
    state = pos(layout(c3="1", e5="2", a4="Mr>"), stacks="rgby,oygb", step="fence")
    after, events = events_of(fences, state, FENCE, "move Mr@a4 a3")
    (report,) = events
    assert report.hit.cause is Cause.POINTED_AT
    assert report.hit.source == Source(Size.MEDIUM, "red", BY_NAME["a3"])
    assert (report.hit.seat, report.top, report.lost, report.saved) == (0, "yellow", "yellow", False)
    assert words(events) == ["Player 1 loses yellow (M(red) at a3 points at it)"]


def test_no_damage_occurs_if_the_top_color_of_the_stack_matches_the_fence(pos, fences):
    """Seed: "No Damage occurs if the top color of the Stack matches the color of the Fence or opponent's Stack involved in the Hit." """
    state = pos(layout(c3="1", e5="2", a4="Mr>"), stacks="rgbr,oyyb", step="fence")
    after, events = events_of(fences, state, FENCE, "move Mr@a4 a3")
    (report,) = events
    assert report.saved and report.lost is None
    assert words(events) == ["Player 1 is Hit (M(red) at a3 points at it): red top, no damage"]
    assert after.stacks == state.stacks


def test_if_the_stack_attempts_to_move_onto_a_fence(pos, fences):
    """Seed: "If the Stack attempts to move onto a Fence or Outside square." """
    state = pos(layout(c3="1", e5="2", c4="Mr>"), stacks="rgby,oygb", step="stack")
    after, events = events_of(fences, state, STACK, "step n")
    assert [(e.hit.cause, e.lost) for e in events] == [(Cause.MOVED_ONTO, "yellow")]
    assert words(events) == ["Player 1 loses yellow (moved onto M(red) at c4)"]


def test_if_the_stack_attempts_to_move_onto_an_outside_square_damage_regardless_of_colour(pos, fences_class):
    """Seed: "If the Hit is a Stack attempting to move Outside, Damage occurs regardless of top color of the Stack." """
    variant = fences_class({"outside_attempts": True})
    state = pos(layout(a1="1", e5="2", W1="Lr*"), stacks="gbyr,oyob", step="stack")
    after, events = events_of(variant, state, STACK, "step w")
    (report,) = events
    assert report.hit.cause is Cause.OUTSIDE and report.hit.source is None and report.hit.square == BY_NAME["W1"]
    assert words(events) == ["Player 1 loses red (tried to move Outside at W1)"]


def test_if_another_stack_attempts_to_move_into_the_same_square_only_the_stationary_stack_is_hit(pos, fences):
    """Seed: "If another Stack attempts to move into the same square as the Stack." / "If a Stack moves onto another Stack, only the stationary Stack is Hit." """
    state = pos(layout(c3="1", d3="2"), stacks="rgby,oygb", step="stack")
    after, events = events_of(fences, state, STACK, "step e")
    (report,) = events
    assert report.hit.cause is Cause.STACK_MOVED_ONTO
    assert report.hit.source == Source(Size.SMALL, "yellow", BY_NAME["c3"], 0)
    assert words(events) == ["Player 2 loses blue (player 1's Stack (yellow top) from c3 moved onto it)"]


def test_the_piece_is_still_considered_moved_so_a_bounce_in_a_line_hits(pos, fences):
    """Seed: "Any attempt to move any piece into a non-empty square ... causes the piece to remain in place (the piece is still considered moved), though a Hit occurs and is resolved." """
    # c3 bounces off Mr on c4 (pointing east, away); Lg on E3 already pointed at c3 along rank 3
    state = pos(layout(c3="1", e5="2", c4="Mr>", E3="Lg<"), stacks="rgby,oygb", step="stack")
    after, events = events_of(fences, state, STACK, "step n")
    assert [(e.hit.cause, e.lost) for e in events] == [(Cause.MOVED_ONTO, "yellow"), (Cause.BOUNCED, "blue")]
    assert words(events)[1] == "Player 1 loses blue (bounced in the line of L(green) at E3)"


def test_a_swap_with_an_outside_fence_is_hit_and_damaged(pos, fences):
    """Seed: "If the Fence is Outside, the Stack does not swap positions, but is Hit and Damaged, in addition to any other Hits." """
    state = pos(layout(c3="1", e5="2", N3="Lb*"), stacks="rgby,oygb", step="act")
    after, events = events_of(fences, state, ACT, "swap Lb@N3")
    (report,) = events
    assert report.hit.cause is Cause.SWAP_OUTSIDE and report.hit.ignores_colour
    assert words(events) == ["Player 1 loses yellow (swapped with L(blue) at N3, Outside)"]


def test_a_swap_with_an_outside_fence_leaves_the_stack_considered_moved_so_a_line_on_it_hits_too(pos, fences, fences_class):
    """Seed: "Any attempt to move ... a Stack to an Outside square causes the piece to remain in place (the piece
    is still considered moved)" and the Swap "is Hit and Damaged, in addition to any other Hits"."""
    # Lg on E3 already points west along rank 3 at c3; the Swap with Lb on N3 leaves c3 where it is
    state = pos(layout(c3="1", e5="2", N3="Lb*", E3="Lg<"), stacks="rgby,oygb", step="act")
    after, events = events_of(fences, state, ACT, "swap Lb@N3")
    assert [(e.hit.cause, e.lost) for e in events] == [(Cause.SWAP_OUTSIDE, "yellow"), (Cause.BOUNCED, "blue")]
    assert after.stacks[0] == ("red", "green")
    # the reading before: not considered moved, so the line that was already there does not Hit
    before_reading = fences_class({"swap_outside_considered_moved": False})
    after, events = events_of(before_reading, state, ACT, "swap Lb@N3")
    assert [(e.hit.cause, e.lost) for e in events] == [(Cause.SWAP_OUTSIDE, "yellow")]


def test_a_swap_with_the_outside_fence_that_points_at_the_stack_hits_twice_in_addition(pos, fences, fences_class):
    """Awkward: the Outside Fence swapped with is the one whose line is on the Stack.  The Swap's Hit comes
    "in addition to any other Hits", so one Hit per piece does not merge it with that Fence's line."""
    state = pos(layout(c3="1", e5="2", N3="Lbv"), stacks="rgby,oygb", step="act")
    after, events = events_of(fences, state, ACT, "swap Lb@N3")
    assert [(e.hit.cause, e.lost) for e in events] == [(Cause.SWAP_OUTSIDE, "yellow"), (Cause.BOUNCED, "blue")]
    # its colour protects from the line, not from the Swap (swap_outside_ignores_colour)
    state = pos(layout(c3="1", e5="2", N3="Lbv"), stacks="rgyb,oygb", step="act")
    after, events = events_of(fences, state, ACT, "swap Lb@N3")
    assert [(e.hit.cause, e.lost) for e in events] == [(Cause.SWAP_OUTSIDE, "blue"), (Cause.BOUNCED, None)]
    assert after.stacks[0] == ("red", "green", "yellow")
    # a WILD Swap is the same Swap: the reorder counts for the check
    after, events = events_of(fences, state, ACT, "wild:rgby swap Lb@N3")
    assert [(e.hit.cause, e.lost) for e in events] == [(Cause.SWAP_OUTSIDE, "yellow"), (Cause.BOUNCED, "blue")]
    # the reading before: not moved, so no line Hit at all under line_hits: new ...
    before_reading = fences_class({"swap_outside_considered_moved": False})
    after, events = events_of(before_reading, state, ACT, "swap Lb@N3")
    assert [(e.hit.cause, e.lost) for e in events] == [(Cause.SWAP_OUTSIDE, "blue")]
    # ... and under every_check its line merged with the Swap's Hit (one per piece), as before
    every = fences_class({"swap_outside_considered_moved": False, "line_hits": "every_check"})
    after, events = events_of(every, state, ACT, "swap Lb@N3")
    assert [(e.hit.cause, e.lost) for e in events] == [(Cause.SWAP_OUTSIDE, "blue")]
    every = fences_class({"line_hits": "every_check"})
    after, events = events_of(every, state, ACT, "swap Lb@N3")
    assert [(e.hit.cause, e.lost) for e in events] == [(Cause.SWAP_OUTSIDE, "blue"), (Cause.POINTED_AT, None)]


def test_the_words_of_one_hit_per_piece_name_the_swap_exception(fences_class):
    """Issue 47: ``th rules``, fences.yaml and the how-to-play said "at most once per check"
    while the Swap with an Outside Fence Hits twice (above); they now say so, and only
    while ``swap_outside_considered_moved`` makes the exception."""
    from pathlib import Path

    from treehouse.variants.fences.game import FencesRules

    description = FencesRules.model_fields["one_hit_per_piece"].description
    assert "except a Swap with an Outside Fence" in description and "in addition to any" in description
    yaml = Path(__file__).resolve().parents[2] / "variants" / "fences.yaml"
    line = next(line for line in yaml.read_text().splitlines() if line.strip().startswith("one_hit_per_piece:"))
    assert "not a Swap with an Outside Fence" in line
    assert "except a Swap with an Outside Fence" in fences_class().how_to_play()
    assert "except a Swap" not in fences_class({"swap_outside_considered_moved": False}).how_to_play()


def test_a_swap_with_an_inside_fence_moves_the_stack_and_is_not_an_outside_hit(pos, fences):
    """The Stack that really swaps is moved: a line it arrives in Hits (new), one it left does not."""
    state = pos(layout(c3="1", e1="2", c5="Lb*", E5="Lg<", E3="Lr<"), stacks="rgby,oygb", step="act", empty=("d5", "e5"))
    after, events = events_of(fences, state, ACT, "swap Lb@c5")
    assert after.board[BY_NAME["c5"]] == 0
    assert [(e.hit.cause, e.hit.source.colour, e.lost) for e in events] == [(Cause.POINTED_AT, "green", "yellow")]


def test_if_the_action_is_impossible_then_the_players_stack_is_hit_and_damaged(pos, fences):
    """Seed: "If the action is impossible, then the Player's Stack is Hit and Damaged." """
    state = pos(layout(c3="1", e5="2"), stacks="rgby,oygb", step="act")
    after, events = play_move(fences, state, ACT, fences.parse_move("fail"))
    (report,) = events
    assert report.impossible and report.hit.cause is Cause.IMPOSSIBLE
    assert words(events) == ["Player 1 loses yellow (the rolled action was impossible)"]


def test_if_the_stack_becomes_empty_the_owning_player_loses_and_is_out(pos, fences):
    """Seed: "If the Stack becomes empty, the owning Player loses and is out of the game." """
    state = pos(layout(c3="1", e5="2", a4="Mr>"), stacks="g,oygb", destroyed="rby,-", step="fence")
    after, events = events_of(fences, state, FENCE, "move Mr@a4 a3")
    assert [type(e) for e in events] == [HitReport, StackOut]
    out = events[-1]
    assert (out.seat, out.check, out.fell_to.cause) == (0, 1, Cause.POINTED_AT)
    assert words(events) == ["Player 1 loses green (M(red) at a3 points at it)", "Player 1 is out: the last small went (M(red) at a3 points at it)"]
    assert after.stacks[0] == () and after.out[0] == 1


def test_hits_past_the_last_small_say_nothing_was_left(pos, fences):
    """Seed: "For each Damage to a Stack, remove the top small pyramid of the Stack." (there is no more to remove)"""
    state = pos(layout(b2="1", e5="2", E3="Lo<", b5="Mrv"), stacks="y,oygb", destroyed="brg,-", step="stack")
    after, events = events_of(fences, state, STACK, "step n")
    assert [type(e) for e in events] == [HitReport, HitReport, StackOut]
    assert [e.lost for e in events[:2]] == ["yellow", None]
    assert words(events)[1].endswith(": no small left to lose")
    assert events[2].fell_to == events[0].hit


def test_damage_is_taken_from_the_top_down_one_small_per_damaging_hit(pos, fences):
    """Seed: "Damage from Hits is resolved simultaneously: Each Hit causes one Damage to the Stack." """
    state = pos(layout(b2="1", e5="2", E3="Lo<", b5="Mrv"), stacks="bbgy,oror", step="stack")
    after, events = events_of(fences, state, STACK, "step n")
    assert sorted((e.hit.source.colour, e.lost) for e in events) in (
        [("orange", "green"), ("red", "yellow")],
        [("orange", "yellow"), ("red", "green")],
    )
    assert after.stacks[0] == ("blue", "blue")


# --------------------------------------------------------------------------
# one piece, one Hit per check
# --------------------------------------------------------------------------


def test_a_stack_is_considered_hit_once_by_one_piece_at_a_check(pos, fences):
    """Seed: "A Stack is considered Hit: ... If the Stack attempts to move onto a Fence ... If the Stack ends
    movement in the uninterrupted ... path from a Pointing Fence pointing at the Stack." and "All Hits are
    determined and resolved simultaneously whenever a check is made.": stepping into a Fence that already
    points at the Stack meets both rules, but that one Fence Hits it once."""
    state = pos(layout(c3="1", e5="2", c4="Mrv"), stacks="rgby,oygb", step="stack")
    after, events = events_of(fences, state, STACK, "step n")
    assert [(e.hit.cause, e.lost) for e in events] == [(Cause.MOVED_ONTO, "yellow")]
    assert after.stacks[0] == ("red", "green", "blue")


def test_one_hit_per_piece_off_counts_each_rule_the_piece_meets(pos, fences_class):
    variant = fences_class({"one_hit_per_piece": False})
    state = pos(layout(c3="1", e5="2", c4="Mrv"), stacks="rgby,oygb", step="stack")
    after, events = events_of(variant, state, STACK, "step n")
    assert [(e.hit.cause, e.lost) for e in events] == [(Cause.MOVED_ONTO, "yellow"), (Cause.BOUNCED, "blue")]
    assert after.stacks[0] == ("red", "green")


# --------------------------------------------------------------------------
# the events on the step: observers, records, replay
# --------------------------------------------------------------------------


class Collect:
    def __init__(self):
        self.events = []

    def on_choice(self, game, mover, step, face, moves):
        pass

    def on_step(self, game, mover, step, move, before, after, events):
        self.events.extend(events)


def played(plugins, seed=5):
    variant = plugins.variant("fences")()
    bot = plugins.bot("random").factory
    watch, record = Collect(), Record(meta={"seed": seed})
    game = Game(variant, [bot(), bot()], random.Random(seed), record=record, observer=watch)
    game.play()
    return game, watch, record


def test_a_whole_game_reports_every_loss_and_who_went_out(plugins):
    game, watch, record = played(plugins)
    lost = sum(1 for e in watch.events if isinstance(e, HitReport) and e.lost is not None)
    state = game.state
    assert lost == sum(len(d) for d in state.destroyed) - sum(len(d) for d in game.variant.treehouse_setup(None, 2, random.Random(5)).destroyed)
    outs = [e.seat for e in watch.events if isinstance(e, StackOut)]
    assert outs == [s for s in range(2) if not state.stacks[s]]
    resolved = [line for line in record.lines() if line["event"] == "resolved"]
    assert sum(len(line["happened"]) for line in resolved) == len(watch.events)
    assert all(line["seat"] in (1, 2) for line in resolved)


def test_replay_checks_the_recorded_events(plugins):
    game, watch, record = played(plugins)
    text = record.dumps()
    again = replay(Record.loads(text), plugins)
    assert again.state == game.state
    line = next(line for line in text.splitlines() if '"resolved"' in line and "loses" in line)
    edited = text.replace(line, line.replace("loses", "keeps"), 1)
    with pytest.raises(RecordError, match="the record says .*keeps.* but the replay finds"):
        replay(Record.loads(edited), plugins)


# --------------------------------------------------------------------------
# scenario builders
# --------------------------------------------------------------------------


def test_scenario_spares_stay_outside_unless_asked(fences):
    from treehouse.variants.fences.board import INSIDE
    from treehouse.variants.fences.scenario import complete

    state = fences.parse_position(complete(layout(c3="1", e5="2", a4="Mr>", b2="Lg^")))
    inside = {square for square in INSIDE if state.board[square] is not None and type(state.board[square]) is not int}
    assert inside == {BY_NAME["a4"], BY_NAME["b2"]}  # only the Fences named Inside
    with pytest.raises(ValueError, match="spares_inside=True"):
        complete(layout(c3="1", e5="2"), empty=("N3", "S3"))
    text = complete(layout(c3="1", e5="2"), empty=("N3", "S3"), spares_inside=True)
    state = fences.parse_position(text)
    assert sum(1 for s in INSIDE if state.board[s] is not None and type(state.board[s]) is not int) == 2


# --------------------------------------------------------------------------
# the move list warns of moves that Damage the mover's own Stack
# --------------------------------------------------------------------------


def test_the_move_list_marks_moves_that_damage_the_movers_own_stack(pos, fences):
    from treehouse.cli.menu import Menu
    from treehouse.plugins import game_hooks

    hooks = game_hooks(fences)
    state = pos(layout(c3="1", e5="2", c4="Mr>", E3="Lg<"), stacks="rgby,oygb", step="stack")
    moves = fences.treehouse_legal_moves(state, STACK, None)
    notes = fences.move_notes(state, STACK, moves, hooks)
    # north bounces off Mr (and, considered moved, is Hit again by Lg's line): two smalls;
    # east and west end in Lg's line along rank 3: one; south leaves it
    assert notes == {
        fences.parse_move("step n"): "⚠ you lose 2 smalls",
        fences.parse_move("step e"): "⚠ you lose 1 small",
        fences.parse_move("step w"): "⚠ you lose 1 small",
    }
    words = [entry.words for entry in Menu(fences, state, moves, notes).entries]
    assert "move the stack north ⚠ you lose 2 smalls" in words
    assert "move the stack south" in words  # no Damage, no mark
    # the same resolution: the mark is what playing the move does
    after, _events = play_move(hooks, state, STACK, fences.parse_move("step n"))
    assert len(state.stacks[0]) - len(after.stacks[0]) == 2


def test_a_failed_action_is_marked_with_its_loss_and_going_out(pos, fences):
    from treehouse.plugins import game_hooks

    state = pos(layout(c3="1", e5="2"), stacks="r,oygb", destroyed="gby,-", step="act")
    fail = fences.parse_move("fail")
    assert fences.move_notes(state, ACT, (fail,), game_hooks(fences)) == {fail: "⚠ you lose 1 small, and are out"}
