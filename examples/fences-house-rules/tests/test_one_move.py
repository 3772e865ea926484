"""Unit tests of one rule, one move at a time: treehouse.testing.play_one_move on wild-repair."""

from __future__ import annotations

import pytest

from treehouse.hookspecs import hookimpl
from treehouse.kernel.hooks import HouseRule
from treehouse.testing import play_one_move

#: Seat 1 to act at turn 2: its Stack is blue, yellow, blue (bottom to top), a green small destroyed.
ACT = "Lg*Lg*Mg*.Mb*/Lr*...Lb*2My*/Lo*....My^Mo*/Mb*.....Lr*/Mr*.....Lo*/.1Ly*...Lb*/Mg*Mo*Mr*Ly*. byb,yg g,oo rr 1 act 2"
RULE = ["wild-repair(max=1)"]


def test_a_repair_takes_the_small_back_counts_it_and_plays_the_step():
    played = play_one_move("fences", ACT, "repair +g", "WILD", house_rules=RULE)
    after = played.after
    assert after.stacks[0] == ("blue", "yellow", "blue", "green") and after.destroyed[0] == ()
    assert after.tally("wild-repair") == (1, 0)
    assert after.step_name == "stack" and after.to_move == 0  # rules.advance: the act step is played, the turn goes on
    assert played.text.endswith(" 1 stack 2 wild-repair:1,0")
    assert all(isinstance(line, str) and line for line in played.words)


def test_a_repair_is_offered_on_wild_only():
    with pytest.raises(AssertionError, match=r"'repair \+g' is not legal at step 'act' with 'TIP'; legal: tip "):
        play_one_move("fences", ACT, "repair +g", "TIP", house_rules=RULE)
    with pytest.raises(AssertionError, match="step 'act' rolls: name the face"):
        play_one_move("fences", ACT, "repair +g", house_rules=RULE)


def test_a_seat_that_used_its_repairs_has_none_left():
    used = ACT + " wild-repair:1,0"
    with pytest.raises(AssertionError, match="is not legal"):
        play_one_move("fences", used, "repair +g", "WILD", house_rules=RULE)
    again = play_one_move("fences", used, "repair +g", "WILD", house_rules=["wild-repair(max=2)"])
    assert again.after.tally("wild-repair") == (2, 0)


def test_without_the_rule_there_is_no_such_move():
    with pytest.raises(Exception, match="repair"):
        play_one_move("fences", ACT, "repair +g", "WILD")


class MarkedAfterRepair:
    """A rule written as docs/fences-api.md shows: a repaired Stack is marked
    until its seat's next turn (a tally set by the move, reset as the turn
    comes back)."""

    def __init__(self, variant, options) -> None:
        pass

    @hookimpl(wrapper=True)
    def treehouse_resolve(self, state, before, step, move, effect):
        resolved = yield
        if type(move).__name__ != "Repair":
            return resolved
        position = getattr(resolved, "state", resolved)
        marked = position.counted("marked", before.to_move)
        return resolved._replace(state=marked) if hasattr(resolved, "state") else marked

    @hookimpl(wrapper=True)
    def treehouse_end_turn(self, state):
        after = yield
        return after.reset_tally("marked", after.to_move)  # the seat's turn is back: forget


def test_a_memory_lasts_until_the_seats_next_turn():
    rules = [*RULE, HouseRule("marked-after-repair", MarkedAfterRepair)]
    played = play_one_move("fences", ACT, "repair +g", "WILD", house_rules=rules)
    hooks, repaired = played.hooks, played.after
    assert repaired.tally("marked") == (1, 0)
    step = hooks.treehouse_turn_steps(repaired)[0]
    stepped = play_one_move("fences", repaired, hooks.treehouse_legal_moves(repaired, step, None)[0], house_rules=rules).after
    assert stepped.step_name == "fence" and stepped.to_move == 0  # the turn's steps are played; the engine passes the turn on
    theirs = hooks.treehouse_end_turn(stepped)
    assert theirs.to_move == 1 and theirs.tally("marked") == (1, 0)  # seat 2's turn: still marked
    back = hooks.treehouse_end_turn(theirs)
    assert back.to_move == 0 and "marked" not in dict(back.tallies)  # seat 1's turn again: forgotten, and gone from the notation


def test_the_fences_api_pages_one_move_example_runs():
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[3] / "docs" / "fences-api.md").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", page, re.S) if "play_one_move(" in b)
    space: dict = {}
    exec(compile(block, "docs/fences-api.md", "exec"), space)
    tests = [value for name, value in space.items() if name.startswith("test_")]
    assert tests
    for test in tests:
        test()


def test_the_repairs_are_drawn_under_the_board():
    from rich.console import Console

    played = play_one_move("fences", ACT, "repair +g", "WILD", house_rules=["wild-repair(max=3)"])
    console = Console(width=80, record=True, file=__import__("io").StringIO())
    console.print(played.hooks.treehouse_render(played.after, 80))
    assert console.export_text().rstrip().endswith("Repairs (wild-repair, 3 a game): Player 1 1, Player 2 0")


#: ACT with a Rainbow and a Xeno set (``sets: rainbow-xeno``): seat 1's Stack is
#: blue, yellow, cyan; a clear small destroyed.
ACT_XENO = "Lg*Lk*Mg*.Mb*/Lr*...Lb*2My*/Lo*....Mw^Mo*/Mt*.....Lc*/Mr*.....Lp*/.1Ly*...Lt*/Mk*Mp*Mc*Lw*. byc,wg t,op rk 1 act 2"


def test_a_repair_takes_back_a_xeno_colour_under_rainbow_xeno():
    """Issue 47 item 7: the rule's colours are the game's (``clear`` is ``t``), not a table of its own."""
    played = play_one_move("fences", ACT_XENO, "repair +t", "WILD", house_rules=RULE, overrides=["sets=rainbow-xeno"])
    assert played.after.stacks[0] == ("blue", "yellow", "cyan", "clear") and played.after.destroyed[0] == ()
    assert played.text.startswith("Lg*Lk*") and " byct,wg -,op rk 1 stack 2 " in played.text


@pytest.mark.parametrize(("sets", "letters"), [("two-rainbow", "roygb"), ("rainbow-xeno", "roygbcpwkt")])
def test_repair_ids_and_letters_follow_the_game_sets(sets, letters):
    """One id per colour of the game's smalls (the first five as before), and
    only those colours read: a Xeno letter is refused under ``two-rainbow``."""
    import random

    from treehouse.bots.options import make_bot
    from treehouse.config import resolve
    from treehouse.errors import NotationError
    from treehouse.kernel.engine import format_move, parse_move
    from treehouse.plugins import load_plugins
    from treehouse_fences_house_rules.wild_repair import Repair

    plugins = load_plugins()
    effective = resolve(plugins, variant="fences", overrides=["house_rules=[wild-repair]", f"sets={sets}"])
    game = effective.new_game(plugins, [make_bot(plugins, "random"), make_bot(plugins, "random")], random.Random(1))
    rule = next(p for p in game.hooks.plugins_answering("treehouse_format_move") if type(p).__name__ == "WildRepair")
    ids = rule.action_encoding(2)
    assert ids.size == len(letters)
    for index, letter in enumerate(letters):
        move = parse_move(game.variant, f"repair +{letter}")
        assert isinstance(move, Repair) and ids.encode(None, move) == index
        assert format_move(game.variant, move) == ids.describe(index) == f"repair +{letter}"
    if sets == "two-rainbow":
        with pytest.raises(NotationError, match=r"bad repair 'repair \+t': expected 'repair \+C', C one of r o y g b \(e\.g"):
            parse_move(game.variant, "repair +t")
