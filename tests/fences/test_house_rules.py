"""Fences house rules: dig-restores-any and no-colour-immunity, selected by
name in a rule set and composed through the game's hooks (never by calling
the variant directly, so the wrappers are what is tested)."""

from __future__ import annotations

import random

import pytest

from treehouse.config import resolve
from treehouse.errors import PluginError
from treehouse.kernel.engine import play_move
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.plugins import game_hooks
from treehouse.variants.fences.board import BY_NAME
from treehouse.variants.fences.evaluate import evaluate
from treehouse.variants.fences.game import STEPS
from treehouse.variants.fences.house_rules import DigRestoresAny, NoColourImmunity
from treehouse.variants.fences.moves import FAIL
from treehouse.variants.fences.scenario import layout

BOTH = "house_rules=[dig-restores-any,no-colour-immunity]"


@pytest.fixture
def hooks(plugins):
    """The game hooks of a Fences rule set: ``hooks("no-colour-immunity", uniform_dig="reroll")``."""

    def build(*house_rules, **options):
        overrides = [f"house_rules=[{','.join(house_rules)}]"] + [f"{k}={v}" for k, v in options.items()]
        effective = resolve(plugins, variant="fences", overrides=overrides)
        return game_hooks(effective.variant(), effective.house_rule_plugins(plugins))

    return build


def step_of(hooks, state):
    """The step ``state`` is at, as the hooks (and so the house rules) give it."""
    return hooks.treehouse_turn_steps(state)[0]


def moves(hooks, state, face=None):
    return hooks.treehouse_legal_moves(state, step_of(hooks, state), face)


def texts(fences, found):
    return [fences.format_move(m) for m in found]


def play(hooks, fences, state, text):
    step = step_of(hooks, state)
    move = fences.parse_move(text)
    face = _face_of(move) if step.name == "act" else None
    assert move in hooks.treehouse_legal_moves(state, step, face), text
    return play_move(hooks, state, step, move)[0]


def _face_of(move):
    if move.wild:
        return "WILD"
    return {"move": None, "tip": "TIP", "swap": "SWAP", "hop": "HOP", "hopfence": "HOP", "dig": "DIG", "aim": "AIM"}[move.kind]


# -- registration -------------------------------------------------------------


def test_both_are_registered_for_fences_and_only_fences(plugins):
    for name in ("dig-restores-any", "no-colour-immunity"):
        info = plugins.house_rules[name]
        assert info.variants == ("fences",) and info.description
    with pytest.raises(PluginError, match="house rule 'dig-restores-any' is written for fences, not classic"):
        resolve(plugins, variant="classic", overrides=["house_rules=[dig-restores-any]"])


def test_each_sees_the_rules_in_force_and_they_compose(hooks, pos):
    state = pos(layout(c3="1", e1="2"), step="fence")
    assert hooks().treehouse_turn_steps(state) == STEPS  # the steps are the variant's own, plain kernel Steps
    both = hooks("dig-restores-any", "no-colour-immunity")
    assert both.treehouse_turn_steps(state) == STEPS
    names = {impl.plugin_name for impl in both.manager.hook.treehouse_legal_moves.get_hookimpls()}
    assert names == {"fences", "dig-restores-any"}
    # each rule's plugin holds the game's own variant object, so it reads the options in force
    rule = next(p for n, p in both.manager.list_name_plugin() if n == "dig-restores-any")
    assert rule.variant is both.variant
    assert next(p for n, p in hooks("dig-restores-any", uniform_dig="reroll").manager.list_name_plugin() if n == "dig-restores-any").variant.rules.uniform_dig == "reroll"


# -- dig-restores-any ---------------------------------------------------------


def test_a_dig_may_restore_any_lost_small_at_any_height(hooks, fences, pos):
    state = pos(layout(c3="1", e1="2"), stacks="rgy,oygb", destroyed="b,-", step="act")
    assert texts(fences, moves(hooks(), state, "DIG")) == ["dig"]
    assert texts(fences, moves(hooks("dig-restores-any"), state, "DIG")) == ["dig", "dig +b"]
    after = play(hooks("dig-restores-any"), fences, state, "dig +b")
    assert after.stacks[0] == ("blue", "red", "green", "yellow")  # under the Stack, back to full height
    assert after.destroyed[0] == ()
    assert fences.parse_position(fences.format_position(after)) == after


def test_each_lost_colour_is_offered_once(hooks, fences, pos):
    state = pos(layout(c3="1", e1="2"), stacks="ry,oygr", destroyed="bb,-", step="act")
    assert texts(fences, moves(hooks("dig-restores-any"), state, "DIG")) == ["dig", "dig +b"]
    state = pos(layout(c3="1", e1="2"), stacks="ry,oygb", destroyed="gb,-", step="act")
    assert texts(fences, moves(hooks("dig-restores-any"), state, "DIG")) == ["dig", "dig +g", "dig +b"]


def test_a_stack_at_full_height_has_nothing_to_restore(hooks, fences, pos):
    state = pos(layout(c3="1", e1="2"), stacks="rgby,oygb", step="act")
    assert moves(hooks("dig-restores-any"), state, "DIG") == moves(hooks(), state, "DIG")
    assert texts(fences, moves(hooks("dig-restores-any"), state, "DIG")) == ["dig"]


def test_nothing_lost_and_nothing_to_dig_is_still_impossible(hooks, fences_class, pos):
    # four players, Stacks two high: a one-colour Stack with nothing lost
    # (impossible under uniform_dig: hit or reroll; the default noop Digs it, changing nothing)
    four = fences_class()
    text = pos(layout(a1="1", a5="2", e5="3", e1="4"), stacks="rr,oo,yy,gg", step="act")
    state = four.parse_position(four.format_position(text))
    assert moves(hooks("dig-restores-any", uniform_dig="hit"), state, "DIG") == (FAIL,)
    assert moves(hooks("dig-restores-any", uniform_dig="reroll"), state, "DIG") == ()
    assert texts(four, moves(hooks("dig-restores-any"), state, "DIG")) == ["dig"]


def test_a_one_colour_stack_with_losses_restores_instead_of_failing(hooks, fences, pos):
    state = pos(layout(c3="1", e1="2"), stacks="rr,oygb", destroyed="gb,-", step="act")
    assert moves(hooks(uniform_dig="hit"), state, "DIG") == (FAIL,)
    assert moves(hooks(uniform_dig="reroll"), state, "DIG") == ()
    for options in ({"uniform_dig": "hit"}, {"uniform_dig": "reroll"}):
        assert texts(fences, moves(hooks("dig-restores-any", **options), state, "DIG")) == ["dig +g", "dig +b"]
    assert texts(fences, moves(hooks("dig-restores-any"), state, "DIG")) == ["dig", "dig +g", "dig +b"]


def test_a_lone_small_restores_as_without_the_house_rule(hooks, pos):
    state = pos(layout(c3="1", e1="2"), stacks="r,oygb", destroyed="gyb,-", step="act")
    assert moves(hooks("dig-restores-any"), state, "DIG") == moves(hooks(), state, "DIG")
    assert moves(hooks("dig-restores-any"), state, "WILD") == moves(hooks(), state, "WILD")


def test_wild_can_reorder_then_restore(hooks, fences, pos):
    # nothing in row, column or around: only a Dig is possible
    state = pos(layout(c3="1", e1="2"), stacks="rr,oygb", destroyed="gb,-", step="act", empty=("N3", "S3", "W3", "E3"), spares_inside=True)
    assert texts(fences, moves(hooks(uniform_dig="hit"), state, "WILD")) == ["wild:rr fail"]
    assert texts(fences, moves(hooks("dig-restores-any", uniform_dig="hit"), state, "WILD")) == ["wild:rr dig +g", "wild:rr dig +b"]
    assert texts(fences, moves(hooks("dig-restores-any"), state, "WILD")) == ["wild:rr dig", "wild:rr dig +g", "wild:rr dig +b"]
    state = pos(layout(c3="1", e1="2"), stacks="rg,oygb", destroyed="rb,-", step="act", empty=("N3", "S3", "W3", "E3"), spares_inside=True)
    found = texts(fences, moves(hooks("dig-restores-any"), state, "WILD"))
    assert found == ["wild:rg dig", "wild:rg dig +r", "wild:rg dig +b", "wild:gr dig +r", "wild:gr dig +b"]
    after = play(hooks("dig-restores-any"), fences, state, "wild:gr dig +b")
    assert after.stacks[0] == ("blue", "green", "red") and after.destroyed[0] == ("red",)


# -- no-colour-immunity -------------------------------------------------------


def test_a_fence_of_the_top_colour_now_damages(hooks, fences, pos):
    # Mr on a4 points east; moved to a3 it points at the Stack on c3, whose top is red
    state = pos(layout(c3="1", e5="2", a4="Mr>"), stacks="rgbr,oyyb", step="fence")
    assert play(hooks(), fences, state, "move Mr@a4 a3").stacks[0] == ("red", "green", "blue", "red")
    after = play(hooks("no-colour-immunity"), fences, state, "move Mr@a4 a3")
    assert after.stacks[0] == ("red", "green", "blue") and after.destroyed[0] == ("red",)


def test_simultaneous_hits_each_damage(hooks, fences, pos):
    # the docs' example: green on top, a green and a red Fence point at the square it steps to
    state = pos(layout(c3="1", e5="2", c1="Mg^", a2="Lr>"), stacks="bbrg,oyyg", step="stack", empty=("b2", "d2", "e2", "E2"))
    assert play(hooks(), fences, state, "step s").stacks[0] == ("blue", "blue", "red")
    assert play(hooks("no-colour-immunity"), fences, state, "step s").stacks[0] == ("blue", "blue")


def test_stepping_onto_a_fence_of_the_top_colour_damages(hooks, fences, pos):
    state = pos(layout(c3="1", e5="2", c4="My*"), stacks="rgby,orgb", step="stack")
    assert play(hooks(), fences, state, "step n").stacks[0] == ("red", "green", "blue", "yellow")
    assert play(hooks("no-colour-immunity"), fences, state, "step n").stacks[0] == ("red", "green", "blue")


def test_a_stack_moving_into_a_stack_of_the_same_top_colour_damages_it(hooks, fences, pos):
    state = pos(layout(c3="1", c4="2"), stacks="rgby,ogby", step="stack")
    assert play(hooks(), fences, state, "step n").stacks[1] == ("orange", "green", "blue", "yellow")
    after = play(hooks("no-colour-immunity"), fences, state, "step n")
    assert after.stacks[1] == ("orange", "green", "blue") and after.stacks[0] == ("red", "green", "blue", "yellow")


def test_swap_outside_damages_whatever_its_option_says(hooks, fences, pos):
    state = pos(layout(c3="1", e5="2", N3="Lb*"), stacks="rgyb,oyrg", step="act")
    kept = "swap_outside_ignores_colour=false"
    key, value = kept.split("=")
    assert play(hooks(**{key: value}), fences, state, "swap Lb@N3").stacks[0] == ("red", "green", "yellow", "blue")
    for options in ({key: value}, {}):
        after = play(hooks("no-colour-immunity", **options), fences, state, "swap Lb@N3")
        assert after.stacks[0] == ("red", "green", "yellow")


def test_the_hits_lose_their_colour(hooks, pos, fences):
    state = pos(layout(c3="1", e5="2", a4="Mr>"), stacks="rgbr,oyyb", step="fence")
    move = fences.parse_move("move Mr@a4 a3")
    assert [h.colour for h in fences.hits(state, STEPS[0], move)] == ["red"]
    assert [h.colour for h in hooks("no-colour-immunity").variant.hits(state, STEPS[0], move)] == [None]


def test_bots_score_a_fence_of_the_top_colour_as_a_threat(hooks, pos):
    """The bots' evaluation asks the same treehouse_fences_hits hook: no copy of the rule."""
    state = pos(layout(c3="1", e5="2", c5="Mrv"), stacks="rgbr,oyyb", step="fence")
    plain, house = hooks(), hooks("no-colour-immunity")
    assert plain.treehouse_evaluate(state, 0) == evaluate(state, 0)
    assert house.treehouse_evaluate(state, 0) < plain.treehouse_evaluate(state, 0)


# -- whole games --------------------------------------------------------------


def test_the_shipped_rule_set_selects_both(plugins):
    effective = resolve(plugins, "fences-house-rules")
    assert effective.variant_class.name == "fences"
    assert effective.house_rules == ["dig-restores-any", "no-colour-immunity"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seeded_game_with_both_runs_to_the_end_and_replays(plugins, random_bot, players):
    effective = resolve(plugins, "fences-house-rules")
    record = Record()
    game = effective.new_game(plugins, [random_bot() for _ in range(players)], random.Random(11), record=record)
    outcome = game.play()
    assert outcome is not None and outcome.reason != "turn cap"
    assert record.header["house_rules"] == ["dig-restores-any", "no-colour-immunity"]
    assert replay(Record.loads(record.dumps()), plugins).state == game.state
    again = effective.new_game(plugins, [random_bot() for _ in range(players)], random.Random(11))
    again.play()
    assert again.state == game.state and again.outcome == outcome


def test_random_games_restore_above_a_lone_small(plugins, random_bot):
    class Watch:
        restored = 0

        def on_choice(self, game, mover, step, face, moves):
            pass

        def on_step(self, game, mover, step, move, before, after, events):
            if getattr(move, "kind", None) == "dig" and move.arg is not None and len(before.stacks[mover]) >= 2:
                Watch.restored += 1
                assert len(after.stacks[mover]) + len(after.destroyed[mover]) == 4

    effective = resolve(plugins, variant="fences", overrides=[BOTH])
    for seed in range(30):
        effective.new_game(plugins, [random_bot(), random_bot()], random.Random(seed), observer=Watch()).play()
    assert Watch.restored > 0


def test_no_colour_immunity_changes_who_wins(hooks, fences, pos):
    # seat 1 has one small left, red; moving Mr to point at its own Stack is harmless, unless...
    state = pos(layout(c3="1", e5="2", a4="Mr>"), stacks="r,oygb", destroyed="bgy,-", step="fence")
    plain = hooks()
    after = play(plain, fences, state, "move Mr@a4 a3")
    assert after.stacks[0] == ("red",) and plain.treehouse_outcome(after, 0) is None
    house = hooks("no-colour-immunity")
    after = play(house, fences, state, "move Mr@a4 a3")
    assert after.stacks[0] == () and after.board[BY_NAME["c3"]] is None
    outcome = house.treehouse_outcome(after, 0)
    assert outcome.winners == (1,) and outcome.reason == "last stack standing"


def test_dig_restores_any_changes_the_position_reached(hooks, fences, pos):
    # a one-colour Stack rolls DIG: without the house rule that is a failed action and a Damage
    state = pos(layout(c3="1", e1="2"), stacks="rr,oygb", destroyed="gb,-", step="act")
    plain = hooks()
    step = step_of(plain, state)
    after, _events = play_move(plain, state, step, FAIL)
    assert after.stacks[0] == ("red",)
    after = play(hooks("dig-restores-any"), fences, state, "dig +g")
    assert after.stacks[0] == ("green", "red", "red")


def test_house_rule_objects_are_pure(hooks, fences, pos):
    """A rule's plugin holds the game's variant and nothing else: it keeps nothing between calls."""
    for rule in (DigRestoresAny(fences, None), NoColourImmunity(fences, None)):
        assert vars(rule) == {"variant": fences}
    state = pos(layout(c3="1", e1="2"), step="fence")
    h = hooks("dig-restores-any", "no-colour-immunity")
    assert h.treehouse_turn_steps(state) == h.treehouse_turn_steps(state)
