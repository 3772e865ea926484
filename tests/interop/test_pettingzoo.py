"""Every variant as a PettingZoo AEC environment: PettingZoo's own api_test and seed_test, masks, seeding."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is the pettingzoo extra: pip install -e '.[pettingzoo]'")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from treehouse.errors import TreehouseError  # noqa: E402
from treehouse.interop.pettingzoo import env, raw_env  # noqa: E402


@pytest.mark.parametrize(
    "variant, players, rules",
    [
        ("classic", 2, {}), ("classic", 3, {}), ("classic", 4, {}), ("classic-wiki", 2, {}),
        ("fences", 2, {}), ("fences", 3, {}), ("fences", 4, {"start": "chosen"}), ("race", 3, {}),
    ],
)
def test_pettingzoos_api_and_seed_tests_pass(variant, players, rules):
    with warnings.catch_warnings():
        # PettingZoo's classic games warn the same: a dict observation with an action mask is not a Box
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(variant=variant, players=players, **rules), num_cycles=200)
        seed_test(lambda: env(variant=variant, players=players, **rules), num_cycles=100)


def play(game, seed, pick):
    game.reset(seed=seed)
    trace = []
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            trace.append((agent, reward, info.get("outcome")))
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[pick % len(legal)])
        trace.append((agent, action))
        game.step(action)
    return trace


def test_the_same_seed_gives_the_same_game_and_chance_is_drawn_inside_step():
    game = env(variant="fences", players=2)
    first = play(game, 11, 3)
    assert first == play(game, 11, 3)
    assert first != play(game, 12, 3)  # another deal and other rolls
    rewards = [entry[1] for entry in first[-2:]]
    assert sorted(rewards) == [-1.0, 1.0] and first[-1][2] == "last stack standing"


def test_only_the_agent_to_move_has_legal_actions():
    game = env(variant="classic", players=3)
    game.reset(seed=1)
    to_move = game.agent_selection
    for agent in game.agents:
        mask = game.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == to_move)
    assert game.observe(to_move)["observation"].shape == game.observation_space(to_move)["observation"].shape


def test_rule_options_and_rule_sets_reach_the_game():
    assert raw_env(variant="classic", house_decline="reroll").flow.variant.rules.house_decline == "reroll"
    assert raw_env(variant="classic-wiki").flow.variant.rules.dig_in_place is False
    assert raw_env(variant="fences", players=3).flow.players == 3


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"variant": "chess"}, "chess"),
        ({"variant": "classic", "house_decline": "maybe"}, "house_decline"),
        ({"variant": "classic", "colour": "red"}, "colour"),
        ({"variant": "classic", "players": 9}, "2 to 4 players"),
        ({"variant": "classic", "render_mode": "human"}, "render_mode"),
    ],
)
def test_bad_arguments_are_one_line(kwargs, words):
    with pytest.raises(TreehouseError, match=words) as error:
        env(**kwargs)
    assert "\n" not in str(error.value)


def test_an_illegal_action_is_refused_in_one_line():
    game = raw_env(variant="classic")
    game.reset(seed=0)
    with pytest.raises(TreehouseError, match="is not legal for player_0"):
        game.step(0)  # pass is not offered at the start: the trees can always tip
