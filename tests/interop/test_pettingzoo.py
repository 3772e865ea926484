"""Every variant as a PettingZoo AEC environment: PettingZoo's own api_test and seed_test, masks, seeding."""

from __future__ import annotations

import copy
import pickle
import sys
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is the pettingzoo extra: pip install -e '.[pettingzoo]'")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from treehouse.errors import TreehouseError  # noqa: E402
from treehouse.interop.pettingzoo import DICT_OBSERVATION_WARNINGS, env, raw_env  # noqa: E402

pytestmark = pytest.mark.example("pyramid-race", "fences-house-rules")


def api_and_seed_tests(make):
    """PettingZoo's api_test and seed_test with every warning recorded; the
    warnings left once those PettingZoo exempts its own classic games from
    are taken out (none expected)."""
    from pettingzoo.test import api_test as api_module

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(), num_cycles=200)
        seed_test(make, num_cycles=100)
    exempt = sys.modules[api_module.__module__]
    for words, listed in DICT_OBSERVATION_WARNINGS.items():
        # PettingZoo's own dict-observation classic games are exempt from exactly these
        assert {"connect_four_v3", "tictactoe_v3", "chess_v6"} <= set(getattr(exempt, listed))
    return [str(w.message) for w in caught if str(w.message) not in DICT_OBSERVATION_WARNINGS]


@pytest.mark.parametrize(
    "variant, players, rules",
    [
        ("classic", 2, {}), ("classic", 3, {}), ("classic", 4, {}), ("classic-wiki", 2, {}),
        ("fences", 2, {}), ("fences", 3, {}), ("fences", 4, {"start": "chosen"}), ("race", 3, {}),
        ("fences", 2, {"observation": "planes"}), ("fences", 4, {"observation": "planes"}),
    ],
)
def test_pettingzoos_api_and_seed_tests_pass_with_no_other_warning(variant, players, rules):
    if variant == "race":
        pytest.importorskip("pyramid_race")
    assert api_and_seed_tests(lambda: env(variant=variant, players=players, **rules)) == []


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
        ({"variant": "classic", "render_mode": "rgb_array"}, "render_mode 'rgb_array' is not offered"),
        ({"variant": "fences", "house_rules": "wild-repair(times=2)"}, "house_rules: house rule 'wild-repair' has no option 'times'"),
        ({"variant": "fences", "house_rules": "zzz"}, "house_rules: unknown house rule 'zzz'"),
        ({"variant": "fences", "house_rules": "wild-repair(max=1"}, "house_rules: unbalanced parentheses"),
        ({"variant": "fences", "house_rules": 3}, "house_rules must be a list"),
    ],
)
def test_bad_arguments_are_one_line_naming_the_argument(kwargs, words):
    with pytest.raises(TreehouseError, match=words.replace("(", r"\(")) as error:
        env(**kwargs)
    assert "\n" not in str(error.value) and "--set" not in str(error.value)


def test_house_rules_as_one_text_as_everywhere():
    pytest.importorskip("treehouse_fences_house_rules")
    game = raw_env(variant="fences", house_rules="[wild-repair(max=2), large-fences-only]")
    assert [rule.spec for rule in game.flow.hooks.house_rules] == ["wild-repair(max=2)", "large-fences-only"]
    assert api_and_seed_tests(lambda: env(variant="fences", house_rules="wild-repair(max=2)")) == []


@pytest.mark.parametrize("variant, players", [("classic", 2), ("fences", 3), ("race", 2)])
def test_pettingzoos_render_test_passes_for_the_modes_offered(variant, players, capsys):
    from pettingzoo.test import render_test

    assert env(variant=variant).metadata["render_modes"] == ["human", "ansi"]
    render_test(lambda render_mode=None: env(variant=variant, players=players, render_mode=render_mode))
    assert capsys.readouterr().out.count("[") >= 5  # human mode printed a board and a pending line each time


def test_the_drawing_is_the_one_th_play_draws():
    """ansi returns the game's treehouse_render drawing (what th play prints), then what is pending."""
    import re

    from rich.console import Console

    game = raw_env(variant="fences", players=2, render_mode="ansi")
    game.reset(seed=4)
    text = game.render()
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    console = Console(width=80, record=True, file=__import__("io").StringIO())
    console.print(game.flow.hooks.treehouse_render(game.node.position, 80))
    assert plain.startswith(console.export_text()) and "\x1b[" in text
    assert plain.rstrip().endswith("]") and "┌───a" in plain


def test_a_seat_that_is_out_leaves_agents_at_once():
    """Three-player Fences: the first Stack emptied takes its agent out of
    agents while the other two play on, with a loss's reward (-1/2)."""
    for seed in range(30):
        game = env(variant="fences", players=3)
        game.reset(seed=seed)
        left: dict[str, tuple] = {}
        for agent in game.agent_iter():
            observation, reward, termination, truncation, info = game.last()
            if termination or truncation:
                if info.get("outcome") == "out":
                    left[agent] = (reward, len(game.agents))
                game.step(None)
                if info.get("outcome") == "out":
                    assert agent not in game.agents
                continue
            game.step(game.action_space(agent).sample(observation["action_mask"]))
        early = [entry for entry in left.values() if entry[1] == 3]
        if early:
            assert early[0][0] == -0.5
            return
    raise AssertionError("no Stack was emptied while three were in")


def test_raw_env_refuses_an_illegal_action_in_one_line():
    game = raw_env(variant="classic")
    game.reset(seed=0)
    with pytest.raises(TreehouseError, match="is not legal for player_0"):
        game.step(0)  # pass is not offered at the start: the trees can always tip


@pytest.mark.parametrize("players", [2, 3])
def test_env_ends_the_game_on_an_illegal_action_as_pettingzoos_classic_games_do(players):
    """TerminateIllegalWrapper: the agent who took it gets a loss's reward
    (-1/(players-1), as everywhere), every agent is done, each then steps None."""
    game = env(variant="classic", players=players)
    game.reset(seed=0)
    culprit = game.agent_selection
    game.step(0)
    finished = {}
    for agent in game.agent_iter():
        _observation, reward, termination, truncation, _info = game.last()
        assert termination or truncation
        finished[agent] = reward
        game.step(None)
    assert finished == {agent: (-1.0 / (players - 1) if agent == culprit else 0.0) for agent in game.possible_agents}


def finish(game, pick=7):
    """Play ``game`` to its end from where it stands; what was played and paid."""
    trace = []
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _info = game.last()
        if termination or truncation:
            trace.append((agent, reward))
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        trace.append(int(legal[pick % len(legal)]))
        game.step(trace[-1])
    return trace


@pytest.mark.parametrize("make", [env, raw_env])
def test_both_environments_pickle_and_deep_copy_mid_game(make):
    """EzPickle (the arguments, as PettingZoo's classic games) and the episode
    so far: a copy plays on from the same point with the same draws."""
    game = make(variant="fences", players=3)
    game.reset(seed=5)
    for _ in range(6):
        observation = game.last()[0]
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
    copied, unpickled = copy.deepcopy(game), pickle.loads(pickle.dumps(game))
    assert unpickled.unwrapped.flow.players == 3 and unpickled.unwrapped.node == game.unwrapped.node
    rest = finish(game)
    assert len(rest) > 3 and finish(copied) == rest and finish(unpickled) == rest
    fresh = pickle.loads(pickle.dumps(make(variant="classic", house_decline="reroll")))
    assert fresh.unwrapped.flow.variant.rules.house_decline == "reroll"


def test_the_turn_cap_has_one_spelling():
    assert raw_env(variant="classic", turn_cap=7).flow.turn_cap == 7
    with pytest.raises(TreehouseError, match=r"max_turns: the turn cap is spelled turn_cap") as error:
        env(variant="classic", max_turns=7)
    assert "\n" not in str(error.value)
