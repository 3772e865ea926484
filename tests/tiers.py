"""What the tests of the two tiers share (docs/rules/tiers.md): classic's
rule options, values compared bit for bit, and the search with its
compiled tier withheld.  (``tests`` is on pytest's path: ``import tiers``.)"""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from hypothesis import strategies as st

from treehouse.bots.lookahead import Model
from treehouse.hookspecs import hookimpl
from treehouse.kernel.pieces import Size
from treehouse.variants.classic.game import ClassicRules
from treehouse.variants.fences.hits import ignoring_colour

#: Every classic rule option that can change a look or a search.
CLASSIC_OPTION_SETS = {
    "official": ClassicRules(),
    "no-dig-in-place": ClassicRules(dig_in_place=False),
    "mirror-matches": ClassicRules(mirror_matches=True),
    "reroll-decline": ClassicRules(house_decline="reroll"),
    "everything-off": ClassicRules(dig_in_place=False, mirror_matches=True, house_decline="reroll"),
}


#: Every Fences rule option, drawn for hypothesis (and the players).
FENCES_OPTIONS = {
    "players": st.integers(2, 4),
    "line_hits": st.sampled_from(["new", "every_check"]),
    "one_hit_per_piece": st.booleans(),
    "outside_attempts": st.booleans(),
    "swap_outside_ignores_colour": st.booleans(),
    "swap_outside_considered_moved": st.booleans(),
    "mover_hit_on_stack": st.booleans(),
    "first_player": st.sampled_from([1, 2, "drawn"]),
    "uniform_dig": st.sampled_from(["noop", "hit", "reroll"]),
    "all_out_at_once": st.sampled_from(["draw", "tie"]),
    "turn_limit": st.sampled_from([0, 0, 3, 8, 20]),
    "turn_limit_scoring": st.sampled_from(["draw", "most_smalls"]),
    "sets": st.sampled_from(["two-rainbow", "rainbow-xeno"]),
    "start": st.sampled_from(["chosen", "corners", "random"]),
    "draft": st.sampled_from(["random", "distinct"]),
}
#: The example house rules that keep the core, alone and together.
FENCES_HOUSE_RULES = st.sampled_from(
    [(), ("large-fences-only",), ("no-colour-immunity",), ("no-swap-outside",), ("large-fences-only", "no-colour-immunity", "no-swap-outside")]
)


def bits(values) -> list[str]:
    """Floats as their exact hex, so equal means equal bit for bit."""
    assert all(type(value) is float for value in values)
    return [value.hex() for value in values]


@contextmanager
def search_through_the_hooks():
    """The search with the compiled game withheld (``Model.compiled_values``
    answering ``None``): the Python search over the hooks."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Model, "compiled_values", lambda *args, **kwargs: None)
        yield


class SmallsIgnoreColour:
    """Issue 43's Fences house rule as a plain wrapper: a small Stack's Hits Damage whatever the colour."""

    def __init__(self, variant, options):
        pass

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        standing = yield
        return tuple(ignoring_colour(hit) if hit.source is not None and hit.source.size is Size.SMALL else hit for hit in standing)
