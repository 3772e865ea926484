"""Classic house rules: selected by name in a rule set, composed through hooks."""

from __future__ import annotations

import random

import pytest

from treehouse.config import resolve
from treehouse.errors import PluginError, UnknownNameError
from treehouse.kernel.engine import PASS, REROLL
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.variants.classic.game import ClassicPosition
from treehouse.variants.classic.trio import parse_trio


def test_no_house_moves_never_touches_the_house(plugins, random_bot):
    effective = resolve(plugins, variant="classic", overrides=["house_rules=[no-house-moves]"])
    game = effective.new_game(plugins, [random_bot(), random_bot()], random.Random(3), record=Record())
    game.play()
    moves = [event[4] for event in game.record.events if event[0] == "move"]
    assert moves and all(move not in (PASS, REROLL) and move.target == "own" for move in moves)
    assert game.state.house == parse_trio("L< S^ M>")


def test_a_house_rule_is_recorded_and_replays(plugins, random_bot):
    effective = resolve(plugins, variant="classic", overrides=["house_rules=[no-house-moves]"])
    record = Record()
    game = effective.new_game(plugins, [random_bot(), random_bot()], random.Random(5), record=record)
    game.play()
    assert record.header["house_rules"] == ["no-house-moves"]
    assert replay(Record.loads(record.dumps()), plugins).state == game.state


def test_mirror_matches_house_rule(plugins):
    effective = resolve(plugins, variant="classic", overrides=["house_rules=[mirror-matches]"])
    game = effective.new_game(plugins, [object(), object()], random.Random(0))
    state = ClassicPosition(parse_trio("L< S^ M>"), (parse_trio("M< S^ L>"), parse_trio("L^/M^/S^")), 0)
    assert game.hooks.treehouse_outcome(state, 0).winners == (0,)


def test_unknown_and_foreign_house_rules_are_refused(plugins):
    with pytest.raises(UnknownNameError, match="unknown house rule 'gravity' for classic; known: mirror-matches, no-house-moves$"):
        resolve(plugins, variant="classic", overrides=["house_rules=[gravity]"])
    if "fences" in plugins.variants:
        with pytest.raises(PluginError, match="house rule 'mirror-matches' is written for classic, not fences"):
            resolve(plugins, variant="fences", overrides=["house_rules=[mirror-matches]"])


def test_no_house_moves_is_declared_for_classic_only(plugins):
    """A rule about the House: not offered for Fences (no House), and refused there in one line."""
    if "fences" not in plugins.variants:
        pytest.skip("Fences is not installed")
    assert plugins.house_rules["no-house-moves"].variants == ("classic",)
    assert "no-house-moves" not in {info.name for info in plugins.house_rules_for("fences")}
    with pytest.raises(PluginError, match="house rule 'no-house-moves' is written for classic, not fences"):
        resolve(plugins, variant="fences", overrides=["house_rules=[no-house-moves]"])
