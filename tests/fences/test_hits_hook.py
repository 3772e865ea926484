"""The Fences API's hook ``treehouse_fences_hits``: a house rule sees every Hit
a check found (source piece, target Stack, cause) and says which stand; the
bots' evaluation asks the same hook."""

from __future__ import annotations

import random

import pytest

from treehouse.errors import PluginError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.engine import Game, play_move
from treehouse.kernel.hooks import game_hooks
from treehouse.kernel.pieces import Size
from treehouse.variants.fences.evaluate import evaluate, stack_value
from treehouse.variants.fences.game import STEPS
from treehouse.variants.fences.hits import Cause, HitReport, JudgedBySource, Verdict
from treehouse.variants.fences.scenario import layout

FENCE, ACT, STACK = STEPS


class LargeFencesOnly:
    """Medium Fences block but never Hit: the whole house rule is these few lines."""

    name = "large-only-test"

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        standing = yield
        return tuple(hit for hit in standing if hit.source is None or hit.source.size is not Size.MEDIUM)


class Spy:
    name = "spy"

    def __init__(self):
        self.seen = []

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        self.seen.append((step, hits))
        return (yield)


def test_the_hook_receives_each_hit_with_its_source_target_and_cause(pos, fences):
    spy = Spy()
    hooks = game_hooks(fences, [spy])
    state = pos(layout(c3="1", e5="2", a4="Mr>"), stacks="rgby,oygb", step="fence")
    after, events = play_move(hooks, state, FENCE, fences.parse_move("move Mr@a4 a3"))
    (step, hits), *_ = [seen for seen in spy.seen if seen[0] is not None]
    assert step.name == "fence"
    (hit,) = hits
    assert (hit.seat, hit.cause, hit.source.size, hit.source.colour) == (0, Cause.POINTED_AT, Size.MEDIUM, "red")
    assert [e.hit for e in events] == [hit]


def test_a_house_rule_removes_hits_and_the_damage_and_events_follow(pos, fences):
    hooks = game_hooks(fences, [LargeFencesOnly()])
    state = pos(layout(c3="1", e5="2", a4="Mr>"), stacks="rgby,oygb", step="fence")
    after, events = play_move(hooks, state, FENCE, fences.parse_move("move Mr@a4 a3"))
    assert events == () and after.stacks == state.stacks
    state = pos(layout(c3="1", e5="2", a4="Lr>"), stacks="rgby,oygb", step="fence")
    after, events = play_move(hooks, state, FENCE, fences.parse_move("move Lr@a4 a3"))
    assert [e.lost for e in events] == ["yellow"]


def test_the_bots_evaluation_asks_the_same_hook(pos, fences):
    state = pos(layout(c3="1", e5="2", c5="Mrv"), stacks="rgby,oygb", step="fence")
    plain, house = game_hooks(fences), game_hooks(fences, [LargeFencesOnly()])
    assert plain.treehouse_evaluate(state, 0) == evaluate(state, 0)
    # the medium Fence pointing at the Stack is no threat under the house rule: a shield
    assert house.treehouse_evaluate(state, 0) > plain.treehouse_evaluate(state, 0)
    state = pos(layout(c3="1", e5="2", c5="Lrv"), stacks="rgby,oygb", step="fence")
    stand = lambda hits: house.treehouse_fences_hits(state, state, None, hits)  # noqa: E731
    # the large Fence still threatens: a house rule cancelling every Hit would score it higher
    assert stack_value(state, 0, stand) < stack_value(state, 0, lambda hits: ())


def test_whole_games_under_the_house_rule_never_report_a_medium_fence_hit(plugins):
    variant = plugins.variant("fences")()
    bot = plugins.bot("greedy").factory
    seen = []

    class Watch:
        def on_choice(self, *args):
            pass

        def on_step(self, game, mover, step, move, before, after, events):
            seen.extend(e for e in events if isinstance(e, HitReport))

    for seed in range(3):
        Game(variant, [bot(), bot()], random.Random(seed), house_rules=[LargeFencesOnly()], observer=Watch()).play()
    assert seen
    assert all(e.hit.source is None or e.hit.source.size is not Size.MEDIUM for e in seen)


# -- JudgedBySource: a house rule that judges a Hit by its source alone ---------


class DropsMedium(JudgedBySource):
    name = "drops-medium-test"

    def verdict(self, size, cause):
        return Verdict.DROPPED if size is Size.MEDIUM else Verdict.STANDS


def test_a_judged_by_source_rule_removes_the_hits_its_verdicts_drop(pos, fences):
    hooks = game_hooks(fences, [DropsMedium(fences, None)])
    state = pos(layout(c3="1", e5="2", a4="Mr>"), stacks="rgby,oygb", step="fence")
    after, events = play_move(hooks, state, FENCE, fences.parse_move("move Mr@a4 a3"))
    assert events == () and after.stacks == state.stacks
    # per cause, for no piece, Large, Medium, a Stack; a pair no check finds (an Outside attempt by a piece) stands
    by_piece, no_piece = (0, 0, 1, 0), (0, 0, 0, 0)
    assert hooks.variant.core_verdicts(*hooks.variant.LOOK_HOOKS) == by_piece * 4 + no_piece + by_piece + no_piece


class WithAWrapperOfItsOwn(DropsMedium):
    """A JudgedBySource rule that answers the hook itself: its wrapper, not its verdicts, says what it does."""

    name = "own-wrapper-test"

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        return (yield)


class SaysYes(JudgedBySource):
    name = "says-yes-test"

    def verdict(self, size, cause):
        return True


def test_a_judged_by_source_rule_with_its_own_wrapper_is_read_by_that_wrapper(fences):
    hooks = game_hooks(fences, [WithAWrapperOfItsOwn(fences, None)])
    assert hooks.variant.core_verdicts(*hooks.variant.LOOK_HOOKS) == (0,) * 28  # its wrapper lets every Hit stand


def test_a_verdict_that_is_no_verdict_is_one_line_naming_the_rule(pos, fences):
    hooks = game_hooks(fences, [SaysYes(fences, None)])
    state = pos(layout(c3="1", e5="2", a4="Mr>"), stacks="rgby,oygb", step="fence")
    expected = r"house rule SaysYes: verdict\('L', POINTED_AT\) returned True, expected a Verdict \(Verdict.STANDS, Verdict.DROPPED or Verdict.IGNORES_COLOUR\)"
    with pytest.raises(PluginError, match=expected):
        hooks.variant.core_verdicts(*hooks.variant.LOOK_HOOKS)
    with pytest.raises(PluginError, match=r"house rule SaysYes: verdict\("):
        play_move(hooks, state, FENCE, fences.parse_move("move Mr@a4 a3"))
