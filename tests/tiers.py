"""What the tests of the two tiers share (docs/rules/tiers.md): classic's
rule options, values compared bit for bit, and the search with its
compiled tier withheld.  (``tests`` is on pytest's path: ``import tiers``.)"""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from treehouse.bots.lookahead import Model
from treehouse.variants.classic.game import ClassicRules

#: Every classic rule option that can change a look or a search.
CLASSIC_OPTION_SETS = {
    "official": ClassicRules(),
    "no-dig-in-place": ClassicRules(dig_in_place=False),
    "mirror-matches": ClassicRules(mirror_matches=True),
    "reroll-decline": ClassicRules(house_decline="reroll"),
    "everything-off": ClassicRules(dig_in_place=False, mirror_matches=True, house_decline="reroll"),
}


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
