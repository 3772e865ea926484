"""Fast paths give the plain paths' answers, for fixed seeds (issue 12).

The plain path is the one tracing takes (``TREEHOUSE_TRACE_PLUGINS``): every
hook through pluggy's own caller, lead tracking through
``treehouse_evaluate`` seat by seat, the engine's general loop.
"""

from __future__ import annotations

import itertools

import pytest

from treehouse.config import resolve
from treehouse.playtest.metrics import summary
from treehouse.playtest.work import Batch, RuleSpec, play_chunk
from treehouse.plugins import TRACE_ENV
from treehouse.variants.classic import distance
from treehouse.variants.classic.trio import all_trios


@pytest.mark.parametrize("overrides", [(), ("dig_in_place=false",), ("mirror_matches=true", "house_decline=reroll")])
@pytest.mark.parametrize("seats", [("random", "random"), ("random", "random", "random")])
def test_simulate_fast_path_equals_the_plain_path(plugins, monkeypatch, capsys, overrides, seats):
    spec = RuleSpec.from_effective(resolve(plugins, variant="classic", overrides=overrides))
    batch = Batch((spec,), seats, seed=17)
    fast = play_chunk(batch, 0, 12, plugins).sides[0]
    monkeypatch.setenv(TRACE_ENV, "1")
    plain = play_chunk(batch, 0, 12, plugins).sides[0]
    capsys.readouterr()  # the trace
    assert summary(fast) == summary(plain)
    assert (fast.lengths, fast.faces, fast.counters) == (plain.lengths, plain.faces, plain.counters)


@pytest.mark.parametrize("dig_in_place, mirror_matches", list(itertools.product((True, False), repeat=2)))
def test_distances_of_interned_and_copied_trios_equal_the_table_by_rank(dig_in_place, mirror_matches):
    trios = all_trios()
    by_rank = distance._targets(dig_in_place, mirror_matches)
    for h, house in enumerate(trios):
        copy = tuple(tuple(stack) for stack in house)  # an equal trio that is not the interned one
        fast = distance.distances_to(trios, house, dig_in_place, mirror_matches)
        assert fast == list(by_rank[h])
        assert distance.distances_to(trios[:3], copy, dig_in_place, mirror_matches) == list(by_rank[h][:3])
