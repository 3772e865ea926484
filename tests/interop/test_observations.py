"""The built-ins' observations hold the whole position (docs/interop.md, "What an observation holds").

Two nodes a seat sees as the same numbers must be the same position with
the same face pending: over random games, the observation is a function
of the position that loses nothing.  And each part of a Fences position
the observation once left out (the turn, when a seat went out, a house
rule's tallies) changes what a seat sees.
"""

from __future__ import annotations

import random

import pytest

from treehouse.config import resolve
import numpy as np

from treehouse.interop.actions import Observation, PlaneObservation
from treehouse.interop.flow import CHANCE, DECISION, TERMINAL, GameFlow, Node

pytestmark = pytest.mark.example("pyramid-race", "fences-house-rules")


def seen_positions(flow: GameFlow, games: int, seed: int, kind=Observation):
    """(observation bytes for seat 0 and seat 1, what the node is) over random games."""
    observation = kind(flow)
    rng = random.Random(seed)
    for _ in range(games):
        node = flow.initial(rng)
        while True:
            if node.position is not None:
                what = (flow.variant.format_position(node.position), node.face if node.kind == DECISION else None)
                yield tuple(observation.encode(node, seat).tobytes() for seat in (0, 1)), what
            if node.kind == TERMINAL:
                break
            if node.kind == CHANCE:
                node = flow.roll(node, flow.draw(node, rng))
            else:
                node = flow.play(node, rng.choice(node.moves))


CASES = [
    ("classic", 2, ()),
    ("classic", 3, ()),
    ("fences", 2, ()),
    ("fences", 3, ()),
    ("fences", 2, ("wild-repair(max=20)",)),
    ("race", 2, ()),
]


@pytest.mark.parametrize("name, players, house_rules", CASES)
def test_no_two_positions_look_the_same(plugins, name, players, house_rules):
    if name == "race":
        pytest.importorskip("pyramid_race")
    if house_rules:
        pytest.importorskip("treehouse_fences_house_rules")
    overrides = [f"house_rules=[{', '.join(house_rules)}]"] if house_rules else []
    effective = resolve(plugins, variant=name, overrides=[*overrides, "turn_cap=80"])
    flow = GameFlow(effective.variant(), players, effective.house_rule_plugins(plugins), turn_cap=effective.turn_cap)
    seen: tuple[dict, dict] = ({}, {})  # per observer: what a seat sees is counted from it
    count = 0
    for views, what in seen_positions(flow, games=4, seed=7):
        for table, view in zip(seen, views):
            assert table.setdefault(view, what) == what, f"two positions look the same: {table[view]} and {what}"
        count += 1
    assert count > 100 and len(seen[0]) > 50


@pytest.fixture(scope="module")
def fences_midgame(plugins):
    """A Fences decision node well into a three-player game, and its observation."""
    flow = GameFlow(plugins.variant("fences")(), 3)
    rng = random.Random(3)
    node = flow.initial(rng)
    while node.kind != DECISION or node.position.turn < 4:
        node = flow.roll(node, flow.draw(node, rng)) if node.kind == CHANCE else flow.play(node, rng.choice(node.moves))
    return flow, node


def test_the_fences_observation_holds_the_turn_and_when_a_seat_went_out(fences_midgame):
    flow, node = fences_midgame
    observation = Observation(flow)
    before = observation.encode(node, 0)
    later = node._replace(position=node.position._replace(turn=node.position.turn + 1))
    assert (observation.encode(later, 0) != before).sum() == 1
    position = node.position
    out_one = position._replace(stacks=((), *position.stacks[1:]), out=(5, *position.out[1:]))
    out_other = out_one._replace(out=(7, *position.out[1:]))
    assert (observation.encode(node._replace(position=out_one), 0) != observation.encode(node._replace(position=out_other), 0)).any()


def test_a_house_rules_tally_is_in_the_observation(plugins):
    pytest.importorskip("treehouse_fences_house_rules")
    effective = resolve(plugins, variant="fences", overrides=["house_rules=[wild-repair(max=2)]"])
    flow = GameFlow(effective.variant(), 2, effective.house_rule_plugins(plugins))
    observation = Observation(flow)
    assert observation.size == Observation(GameFlow(plugins.variant("fences")(), 2)).size + 2  # one count per seat
    node = flow.initial(random.Random(1))
    while node.kind == CHANCE or node.position.setting_up:
        node = flow.roll(node, flow.draw(node, random.Random(0))) if node.kind == CHANCE else flow.play(node, node.moves[0])
    repaired = node._replace(position=node.position.counted("wild-repair", 1))
    mine, theirs = observation.encode(repaired, 0), observation.encode(repaired, 1)
    end = observation.size - len(flow.faces) - 1  # the rule's numbers come before the turn count and the face
    assert list(mine[end - 2 : end]) == [0, 1] and list(theirs[end - 2 : end]) == [1, 0]  # the observer's count first


def test_classic_observes_every_trio_and_the_mover(plugins):
    """Classic's position is the House, the trios and the seat to move: all one-hot."""
    flow = GameFlow(plugins.variant("classic")(), 3)
    node: Node = flow.roll(flow.initial(), "TIP")
    seen = Observation(flow).encode(node, 1)
    assert seen[: 4 * 204].sum() == 4 and seen[4 * 204 : 4 * 204 + 3].tolist() == [0, 0, 1]  # seat 0 is two on from seat 1


@pytest.mark.parametrize("players, house_rules", [(2, ()), (3, ()), (4, ()), (2, ("wild-repair(max=20)",))])
def test_fences_planes_hold_the_whole_position_within_their_bounds(plugins, players, house_rules):
    """The planes lose nothing either (no two positions look the same), and
    every value is within the Box's finite bounds, 0 to 1."""
    if house_rules:
        pytest.importorskip("treehouse_fences_house_rules")
    overrides = [f"house_rules=[{', '.join(house_rules)}]"] if house_rules else []
    effective = resolve(plugins, variant="fences", overrides=[*overrides, "turn_cap=80"])
    flow = GameFlow(effective.variant(), players, effective.house_rule_plugins(plugins), turn_cap=effective.turn_cap)
    planes = PlaneObservation(flow)
    assert planes.shape == (len(planes.channel_names), 7, 7)
    seen: tuple[dict, dict] = ({}, {})
    for views, what in seen_positions(flow, games=3, seed=7, kind=PlaneObservation):
        for table, view in zip(seen, views):
            values = np.frombuffer(view, np.float32)
            assert values.size == np.prod(planes.shape) and values.min() >= 0 and values.max() <= 1
            assert table.setdefault(view, what) == what, f"two positions look the same: {table[view]} and {what}"
    assert len(seen[0]) > 50


def test_the_fences_planes_are_the_board(fences_midgame):
    """Each plane is what its name says, counted from the observer."""
    flow, node = fences_midgame
    planes = PlaneObservation(flow)
    seen = dict(zip(planes.channel_names, planes.encode(node, 2)))
    position = node.position
    assert seen["large"].sum() + seen["medium"].sum() == sum(1 for cell in position.board if cell is not None and type(cell) is not int)
    assert seen["inside"].sum() == 25 and seen["outside"].sum() == 20 and (seen["inside"] * seen["outside"]).sum() == 0
    own = position.square_of(2)
    assert seen["stack of seat +0"][own // 7, own % 7] == 1 and seen["stack of seat +0"].sum() == 1
    levels = sum(seen[name].sum() for name in planes.channel_names if name.startswith("stack level"))
    assert levels == sum(len(stack) for stack in position.stacks)
    bottom = {"red": "r", "orange": "o", "yellow": "y", "green": "g", "blue": "b"}[position.stacks[2][0]]
    assert seen[f"stack level 1 {bottom}"][own // 7, own % 7] == 1
    assert (seen["seat +0 smalls left"] == len(position.stacks[2]) / 3).all()  # a constant plane: the scalar
    assert (seen["turns started"] == node.turn / flow.turn_cap).all()
    faces = sum(seen[f"face {face}"].max() for face in flow.faces)
    assert faces == (0 if node.face is None else 1)
    rng, rolled = random.Random(0), node
    while rolled.kind != DECISION or rolled.face is None:  # on to the next step that rolled
        rolled = flow.roll(rolled, flow.draw(rolled, rng)) if rolled.kind == CHANCE else flow.play(rolled, rolled.moves[0])
    after = dict(zip(planes.channel_names, planes.encode(rolled, 2)))
    assert [face for face in flow.faces if after[f"face {face}"].all()] == [rolled.face]


def test_a_variant_without_planes_says_so_in_one_line(plugins):
    pytest.importorskip("pyramid_race")
    from treehouse.errors import ConfigError
    from treehouse.interop.actions import observer

    flow = GameFlow(plugins.variant("race")(), 2)
    with pytest.raises(ConfigError, match="race has no board planes .*the observation offered is 'vector'"):
        observer(flow, "planes", "env(...)")
    with pytest.raises(ConfigError, match="observation must be one of 'vector', 'planes', not 'cube'"):
        observer(flow, "cube", "env(...)")
