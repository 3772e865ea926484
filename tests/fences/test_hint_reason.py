"""Fences' one-line reason for a hinted move (Variant.hint_reason): what the move changes for the mover's Stack."""

from __future__ import annotations

from treehouse.kernel.variant import legal_moves
from treehouse.variants.fences.scenario import complete, layout


def reason_for(fences, position: str, step_name: str, words: str, face: str | None = None) -> str:
    state = fences.parse_position(position)
    hooks = fences.hooks
    step = next(step for step in hooks.treehouse_turn_steps(state) if step.name == step_name)
    move = next(move for move in legal_moves(hooks, state, step, face) if fences.describe_move(move) == words)
    return fences.hint_reason(state, step, face, move, hooks)


def test_stepping_out_of_a_line_says_so(fences):
    # M(red) at c5 points south at Player 1's Stack on c3 (top yellow): stepping east leaves its line
    position = complete(layout(c3="1", e5="2", c5="Mrv"), stacks="rgby,oygb", seat=1, step="stack")
    assert "leaves the line of M(red) at c5" in reason_for(fences, position, "stack", "move the stack east")


def test_a_shield_of_the_top_colour_is_named(fences):
    # L(yellow) at a3 points east along rank 3: with yellow on top the Stack may stand in its line
    position = complete(layout(c3="1", e5="2", a3="Ly>"), stacks="rgby,oygb", seat=1, step="stack")
    reason = reason_for(fences, position, "stack", "move the stack west")
    assert "keeps yellow on top, facing L(yellow) at a3" in reason, reason
    assert reason.count(";") <= 1 and not reason.endswith(".")  # one line, at most two reasons


def test_a_move_that_changes_nothing_worth_saying_is_called_quiet(fences):
    position = complete(layout(c3="1", e5="2"), stacks="rgby,oygb", seat=1, step="stack")
    assert reason_for(fences, position, "stack", "move the stack north") == "a quiet move: no Fence's line at a Stack, no small and no room to step changes"


def test_a_corner_has_two_squares_to_step_onto_not_the_outside_fences_beside_it(fences):
    # a1 is a corner: step 3 goes north or east only.  W1 and S1 hold Fences of the Stack's top
    # colour (harmless to step onto, were it a step), and count for nothing
    from treehouse.variants.fences.reason import room

    position = complete(layout(a1="1", e5="2", W1="Ly^", S1="My^"), stacks="rgby,oygb", seat=1, step="stack")
    state = fences.parse_position(position)
    assert room(state, 0, fences.hooks) == 2


def test_a_quiet_move_says_what_it_keeps_against_the_next_best(fences):
    from treehouse.variants.fences.reason import QUIET

    position = complete(layout(c3="1", e5="2", c1="Mr*"), stacks="rgby,oygb", seat=1, step="stack")
    state = fences.parse_position(position)
    hooks = fences.hooks
    step = next(step for step in hooks.treehouse_turn_steps(state) if step.name == "stack")
    moves = {fences.describe_move(m): m for m in legal_moves(hooks, state, step, None)}
    north, south = moves["move the stack north"], moves["move the stack south"]
    # north keeps four squares to step onto; south (next to the Standing M(red) at c1, which would Damage) three
    reason = fences.hint_reason(state, step, None, north, hooks, next_best=south)
    assert reason == f"{QUIET}; it keeps 4 squares to step onto unharmed, where the next best leaves 3"
    assert fences.hint_reason(state, step, None, north, hooks) == QUIET  # nothing to compare with
