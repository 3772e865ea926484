"""Games played at once in threads, as ``th serve`` plays its tables, are the
games played one after another: the compiled cores, the shared game hooks
and every memo are shared by all the games of a process, and none of them
may carry one game's answers into another's."""

from __future__ import annotations

import random
from functools import partial

from treehouse.bots.greedy import GreedyBot
from treehouse.bots.search import SearchBot
from treehouse.kernel.engine import Game
from treehouse.kernel.records import Record

#: (variant, seats, seed, turn cap): the looking-ahead bots of both variants, on both cores.
TABLES = [("classic", (SearchBot, SearchBot), 4, 40), ("fences", (GreedyBot, SearchBot), 5, 12), ("classic", (GreedyBot, SearchBot), 6, 40)]


def play(plugins, variant: str, seats, seed: int, turn_cap: int) -> list:
    cls = plugins.variant(variant)
    record = Record()
    Game(cls(cls.Rules()), [seat() for seat in seats], random.Random(seed), turn_cap=turn_cap, record=record).play()
    return record.events


def test_tables_played_at_once_are_the_games_played_alone(plugins, at_once, rules_tier):
    """On the compiled core and on the reference rules alone (``rules_tier``)."""
    alone = [play(plugins, *table) for table in TABLES]
    together: list = [None] * len(TABLES)

    def table(index: int) -> None:
        together[index] = play(plugins, *TABLES[index])

    at_once(*(partial(table, index) for index in range(len(TABLES))))
    assert all(len(events) > 10 for events in alone)
    assert together == alone
