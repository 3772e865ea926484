"""The node walk (treehouse.interop.flow) is the engine's turn, one roll or decision at a time."""

from __future__ import annotations

import random

import numpy as np
import pytest

from treehouse.bots.random_bot import RandomBot
from treehouse.config import resolve
from treehouse.interop.actions import CONTROLS, Actions, Observation
from treehouse.interop.flow import CHANCE, DECISION, SETUP, TERMINAL, GameFlow, returns
from treehouse.kernel.engine import Game, Outcome


def walk_like_the_engine(flow: GameFlow, seed: int):
    """Walk the nodes with the dice and seats the engine would use for ``seed``."""
    rng = random.Random(seed)
    seat_rngs = [random.Random(rng.getrandbits(64)) for _ in range(flow.players)]
    seat = RandomBot()
    node = flow.initial(rng)
    while node.kind != TERMINAL:
        if node.kind == CHANCE:  # as the engine rolls: the chance node's outcome drawn by the roll hook
            node = flow.roll(node, flow.hooks.treehouse_roll(node.position, node.step, flow.chance_outcomes(node), rng))
        else:
            move = seat.choose(node.position, node.steps[0], node.face, node.moves, seat_rngs[node.mover])
            node = flow.play(node, move)
    return node


CASES = [
    ("classic", 2), ("classic", 3), ("classic", 4), ("classic-wiki", 2),
    ("fences", 2), ("fences", 3), ("fences", 4), ("fences-house-rules", 2), ("race", 3),
]


@pytest.mark.parametrize("name, players", CASES)
def test_the_walk_plays_the_engines_games(plugins, name, players):
    effective = resolve(plugins, variant=name)
    house_rules = effective.house_rule_plugins(plugins)
    for seed in range(6):
        variant = effective.variant()
        game = Game(variant, [RandomBot() for _ in range(players)], random.Random(seed), turn_cap=effective.turn_cap, house_rules=house_rules)
        outcome = game.play()
        node = walk_like_the_engine(GameFlow(variant, players, house_rules, turn_cap=effective.turn_cap), seed)
        assert node.outcome == outcome
        assert node.position == game.state
        assert node.turn == game.turn


def test_a_random_setup_is_a_chance_node_and_a_fixed_one_is_not(plugins):
    fences = GameFlow(plugins.variant("fences")(), 2, layouts=8)
    assert fences.random_setup and fences.initial().kind == SETUP
    assert fences.set_up(fences.initial(), 3) == fences.set_up(fences.initial(), 3)
    assert fences.set_up(fences.initial(), 3).position != fences.set_up(fences.initial(), 4).position
    classic = GameFlow(plugins.variant("classic")(), 2)
    assert not classic.random_setup and classic.initial().kind == CHANCE


def test_a_face_with_nothing_to_play_rolls_again(plugins):
    classic = plugins.variant("classic")()
    flow = GameFlow(classic, 2)
    # the House and both trios as the official rules start them: TIP fits the trees
    node = flow.initial()
    assert flow.roll(node, "TIP").kind == DECISION
    stuck = node._replace(position=classic.parse_position("L^/M^/S^ :: L^/M^/S^ | L^/M^/S^ :: 1"))
    assert flow.roll(stuck, "AIM") is stuck  # nothing to aim anywhere: the same chance node


def test_the_caps_end_the_game_as_a_draw(plugins):
    flow = GameFlow(plugins.variant("classic")(), 2, turn_cap=1)
    node = flow.initial()
    while node.kind != TERMINAL:
        node = flow.roll(node, "TIP") if node.kind == CHANCE else flow.play(node, node.moves[0])
    assert node.outcome in (Outcome((), "turn cap"),) or node.outcome.winners
    capped = GameFlow(plugins.variant("classic")(), 2, max_decisions=1)
    after = capped.play(capped.roll(capped.initial(), "TIP"), capped.roll(capped.initial(), "TIP").moves[0])
    assert after.kind == TERMINAL and after.outcome == Outcome((), "decision cap")


@pytest.mark.parametrize(
    "winners, players, expected",
    [((0,), 2, [1, -1]), ((1,), 4, [-1 / 3, 1, -1 / 3, -1 / 3]), ((0, 2), 4, [1 / 3, -1 / 3, 1 / 3, -1 / 3]), ((), 3, [0, 0, 0]), ((0, 1), 2, [0, 0])],
)
def test_returns_are_zero_sum_and_a_lone_win_is_one(winners, players, expected):
    got = returns(Outcome(winners, "test"), players)
    assert got == pytest.approx(expected)
    assert sum(got) == pytest.approx(0)


@pytest.mark.parametrize("name, players", [("classic", 2), ("classic", 4), ("fences", 2), ("fences", 3), ("fences", 4), ("race", 2)])
def test_every_legal_move_has_its_own_id(plugins, name, players):
    """Random walks: legal ids are distinct and in range, observations have
    their size; classic's ids name the same move in every position."""
    variant = resolve(plugins, variant=name).variant()
    flow = GameFlow(variant, players)
    actions, observation = Actions(flow), Observation(flow)
    rng = random.Random(7)
    seen: dict[int, set] = {}
    for _game in range(4):
        node = flow.initial(random.Random(rng.getrandbits(32)))
        while node.kind != TERMINAL:
            vector = observation.encode(node, node.mover if node.kind == DECISION else 0)
            assert vector.shape == (observation.size,)
            if node.kind == CHANCE:
                node = flow.roll(node, flow.hooks.treehouse_roll(node.position, node.step, flow.chance_outcomes(node), rng))
                continue
            legal = actions.legal(node)
            assert len(legal) == len(node.moves) and all(0 <= a < actions.size for a in legal)
            for action, move in legal.items():
                if action >= CONTROLS and name == "classic":
                    seen.setdefault(action, set()).add((move.target, move.result))
            node = flow.play(node, legal[rng.choice(list(legal))])
    assert all(len(moves) == 1 for moves in seen.values())




@pytest.mark.parametrize(
    "move, text",
    [
        ("tip Mr@b3 e", "tip b3 e"),
        ("swap Mr@b3", "swap b3"),
        ("hop Mr@a2", "hop a2"),
        ("hopfence Mr@a2", "hopfence a2"),
        ("dig", "dig"),
        ("dig +o", "dig +o"),
        ("fail", "fail"),
        ("aim Mr@a2:up,Lb@b1:w", "aim n:up,e:w"),
        ("move Mr@b3 c3", "move b3 e"),
        ("step s", "step s"),
        ("place r c3", "place c3"),
        ("draw b", "draw"),
        ("wild:yr tip Mr@b3 e", "wild:2134 tip b3 e"),
    ],
)
def test_fences_ids_read_back_as_what_the_move_does(plugins, move, text):
    """An id names the squares and directions, not the Fence on the square:
    the Stack of seat 1 is on a1, its colours red then yellow."""
    from treehouse.variants.fences.encoding import FencesActions
    from treehouse.variants.fences.position import FencesPosition

    fences = plugins.variant("fences")()
    position = FencesPosition((), (("red", "yellow"), ("blue",)), ((), ()), (), (0, 0), 0, 1, 0)
    position = position._replace(board=tuple(0 if i == 8 else None for i in range(49)))
    encoding = FencesActions(4)
    assert encoding.describe(encoding.encode(position, fences.parse_move(move))) == text


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

pytestmark = pytest.mark.example("pyramid-race")


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(["classic", "fences", "race"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=40),
)
def test_any_walk_keeps_the_adapters_invariants(plugins, name, players, seed, picks):
    """Whatever the rolls and choices: legal ids are distinct, ascending and
    in range, one per legal move; a node pickles to an equal node; the
    observation has its size and finite numbers."""
    import pickle

    variant = resolve(plugins, variant=name).variant()
    flow = GameFlow(variant, players)
    actions, observation = Actions(flow), Observation(flow)
    rng = random.Random(seed)
    node = flow.initial(rng)
    for pick in picks:
        if node.kind == TERMINAL:
            break
        while node.kind == CHANCE:
            node = flow.roll(node, flow.hooks.treehouse_roll(node.position, node.step, flow.chance_outcomes(node), rng))
        if node.kind != DECISION:
            break
        legal = actions.legal(node)
        ids = list(legal)
        assert ids == sorted(set(ids)) and len(ids) == len(node.moves) and 0 <= ids[0] and ids[-1] < actions.size
        assert pickle.loads(pickle.dumps(node)) == node
        vector = observation.encode(node, pick % players)
        assert vector.shape == (observation.size,) and np.isfinite(vector).all()
        node = flow.play(node, legal[ids[pick % len(ids)]])
