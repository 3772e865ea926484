"""House rules on Hits read as the core's table (variants/fences/hit_table.py):
a wrapper that judges each Hit by its cause and source size alone is read
as one, whatever its form; one that reads more is not, and says why."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from treehouse.errors import PluginError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.hooks import game_hooks
from treehouse.kernel.pieces import Size
from treehouse.variants.fences.hit_table import ASKED, Refused, table
from treehouse.variants.fences.hits import CAUSES, SOURCE_SIZES, Cause, JudgedBySource, Verdict, ignoring_colour


def wrapper(judge):
    """A plain house rule whose wrapper returns ``judge(state, before, step, standing)``."""

    class Rule:
        @hookimpl(wrapper=True)
        def treehouse_fences_hits(self, state, before, step, hits):
            standing = yield
            return judge(state, before, step, standing)

    return Rule()


def read(fences, plugin):
    """What Fences makes of ``plugin``'s answers: its verdicts, or why they are no table."""
    ((_plugin, verdicts),) = game_hooks(fences, [plugin]).variant.house_rules_on_hits
    return verdicts


def small(hit) -> bool:
    return hit.source is not None and hit.source.size is Size.SMALL


TABLES = {
    "drops a cause": (wrapper(lambda s, b, st, hits: tuple(h for h in hits if h.cause is not Cause.SWAP_OUTSIDE)), {Cause.SWAP_OUTSIDE: Verdict.DROPPED}),
    "ignores colour by size": (wrapper(lambda s, b, st, hits: tuple(ignoring_colour(h) if small(h) else h for h in hits)), {Size.SMALL: Verdict.IGNORES_COLOUR}),
    "_replace, a list": (wrapper(lambda s, b, st, hits: [h._replace(ignores_colour=True) if small(h) else h for h in hits]), {Size.SMALL: Verdict.IGNORES_COLOUR}),
    "a Fence by its seat": (wrapper(lambda s, b, st, hits: tuple(h for h in hits if h.source is None or h.source.seat is not None or h.source.size is not Size.MEDIUM)), {Size.MEDIUM: Verdict.DROPPED}),
    "is_fence": (wrapper(lambda s, b, st, hits: tuple(h for h in hits if h.source is None or h.source.is_fence)), {Size.SMALL: Verdict.DROPPED}),
    "every Hit stands": (wrapper(lambda s, b, st, hits: hits), {}),
}


@pytest.mark.parametrize("plugin, expected", TABLES.values(), ids=TABLES.keys())
def test_a_wrapper_judging_each_hit_by_cause_and_size_is_read_as_a_table(fences, plugin, expected):
    verdicts = read(fences, plugin)
    assert not isinstance(verdicts, Refused), verdicts
    for cause, size in ASKED:
        assert verdicts[cause, size] == expected.get(cause, expected.get(size, Verdict.STANDS)), (cause, size)


REFUSED = {
    "reads the position": (lambda s, b, st, hits: hits if s.turn > 3 else (), "it reads the position"),
    "isinstance of the position": (lambda s, b, st, hits: hits if isinstance(s, tuple) else (), "it reads the position"),
    "reads the position before": (lambda s, b, st, hits: hits if b is s or b.turn else (), "it reads the position"),
    "the evaluation apart": (lambda s, b, st, hits: hits if st is None else (), "it judges a Hit by the step"),
    "one step apart": (lambda s, b, st, hits: () if st is not None and st.name == "act" else hits, "it judges a Hit by the step"),
    "the Stack Hit": (lambda s, b, st, hits: tuple(h for h in hits if h.seat != 0), "it reads the Stack Hit (hit.seat)"),
    "unpacked": (lambda s, b, st, hits: tuple(h for h in hits if (lambda seat, *rest: seat + 1)(*h)), "it reads the Stack Hit (hit.seat)"),
    "the colour": (lambda s, b, st, hits: tuple(h for h in hits if h.colour != "red"), "it reads the source's colour"),
    "the source's square": (lambda s, b, st, hits: tuple(h for h in hits if h.source is None or h.source.square < 7), "it reads the source's square"),
    "the Stack that Hit": (lambda s, b, st, hits: tuple(h for h in hits if h.source is None or h.source.seat in (None, 1)), "it reads the seat of the Stack that Hit"),
    "the square tried": (lambda s, b, st, hits: tuple(h for h in hits if h.square is None or h.square > 3), "it reads the square tried"),
    "the first Hit only": (lambda s, b, st, hits: hits[:1], "it judges a Hit by the other Hits of its check"),
    "how many": (lambda s, b, st, hits: hits if len(hits) < 3 else (), "it judges a Hit by the other Hits of its check"),
    "reordered": (lambda s, b, st, hits: hits[::-1], "it returns Hits it was not given, changed, or out of their order"),
    "a cause changed": (lambda s, b, st, hits: tuple(h._replace(cause=Cause.OUTSIDE) for h in hits), "it returns Hits it was not given, changed"),
    "immunity restored": (lambda s, b, st, hits: tuple(h._replace(ignores_colour=False) for h in hits), "it makes a Hit that ignores colour heed it again"),
    "by ignoring colour": (lambda s, b, st, hits: tuple(h for h in hits if not h.ignores_colour), "it judges a Hit by whether it ignores colour already"),
    "None": (lambda s, b, st, hits: None, "it returns None, not the Hits that stand"),
    "fails": (lambda s, b, st, hits: 1 / 0, "asked about a Hit on its own it failed: ZeroDivisionError: division by zero"),
    "catches everything": (lambda s, b, st, hits: _swallowing(lambda: s.turn, hits), "it reads the position"),
}


def _swallowing(read, hits):
    try:
        read()
    except Exception:  # a rule that swallows its errors still cannot hide a read
        return ()
    return hits


@pytest.mark.parametrize("judge, reason", REFUSED.values(), ids=REFUSED.keys())
def test_a_wrapper_reading_more_is_no_table_and_says_why(fences, judge, reason):
    verdicts = read(fences, wrapper(judge))
    assert isinstance(verdicts, Refused) and verdicts.reason.startswith(reason), verdicts
    hooks = game_hooks(fences, [wrapper(judge)])
    assert hooks.variant.core_verdicts(*hooks.variant.LOOK_HOOKS) is None


class Outright:
    @hookimpl
    def treehouse_fences_hits(self, state, before, step, hits):
        return hits


class OldStyle:
    @hookimpl(hookwrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        yield


@pytest.mark.parametrize("plugin", [Outright(), OldStyle()], ids=["outright", "old-style hookwrapper"])
def test_a_rule_answering_the_hook_other_than_as_a_wrapper_is_no_table(fences, plugin):
    assert read(fences, plugin) == Refused("it answers the hook outright, not as a wrapper (hits = yield)")


class NoStep:
    """A wrapper taking only some of the hook's arguments, as pluggy allows."""

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, hits):
        standing = yield
        return tuple(h for h in standing if h.cause is not Cause.IMPOSSIBLE)


def test_a_wrapper_taking_fewer_arguments_is_asked_with_those(fences):
    assert read(fences, NoStep())[Cause.IMPOSSIBLE, None] is Verdict.DROPPED


VERDICTS = st.fixed_dictionaries({pair: st.sampled_from(Verdict) for pair in ASKED})


@given(verdicts=VERDICTS)
def test_any_table_written_as_a_plain_wrapper_is_read_back_as_it_is(fences_class, verdicts):
    fences = fences_class()

    def judge(state, before, step, hits):
        judged = []
        for hit in hits:
            verdict = verdicts[hit.cause, None if hit.source is None else hit.source.size]
            if verdict is not Verdict.DROPPED:
                judged.append(ignoring_colour(hit) if verdict is Verdict.IGNORES_COLOUR else hit)
        return tuple(judged)

    assert read(fences, wrapper(judge)) == verdicts


class Declared(JudgedBySource):
    def __init__(self, verdicts):
        self.verdicts = verdicts

    def verdict(self, size, cause):
        return self.verdicts.get((cause, size), Verdict.STANDS)


@given(first=VERDICTS, second=VERDICTS)
def test_several_rules_make_one_table_in_either_order_as_their_wrappers_one_inside_another(fences_class, first, second):
    fences = fences_class()
    one, other = type("One", (Declared,), {})(first), type("Other", (Declared,), {})(second)
    tables = [game_hooks(fences, plugins).variant.hit_table for plugins in ([one, other], [other, one])]
    assert tables[0] == tables[1] == table([first, second])
    for index, (cause, size) in enumerate((cause, size) for cause in CAUSES for size in SOURCE_SIZES):
        said = {first.get((cause, size), Verdict.STANDS), second.get((cause, size), Verdict.STANDS)}
        expected = Verdict.DROPPED if Verdict.DROPPED in said else Verdict.IGNORES_COLOUR if Verdict.IGNORES_COLOUR in said else Verdict.STANDS
        assert tables[0][index] == expected


def test_a_verdict_that_is_no_verdict_is_the_rules_error_not_a_reason(fences):
    class SaysYes(JudgedBySource):
        def verdict(self, size, cause):
            return True

    with pytest.raises(PluginError, match=r"house rule SaysYes: verdict\('L', POINTED_AT\) returned True"):
        read(fences, SaysYes(fences, None))
