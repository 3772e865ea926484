"""Every game as a single-agent Gymnasium environment against built-in bots: check_env, masks, seeding, arguments."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is the gymnasium extra: pip install -e '.[gymnasium]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from treehouse.errors import ConfigError, TreehouseError  # noqa: E402
from treehouse.interop.gymnasium import TreehouseGymEnv, env_id, register_envs  # noqa: E402
from treehouse.interop.rules import installed_games  # noqa: E402

pytestmark = pytest.mark.example("pyramid-race", "fences-house-rules")


def test_an_id_per_installed_game_named_from_the_registry(plugins):
    ids = register_envs(plugins)
    assert ids == [env_id(name) for name in installed_games(plugins)]
    assert {"treehouse/Classic-v0", "treehouse/Fences-v0", "treehouse/FencesHouseRules-v0"} <= set(ids)
    assert env_id("classic-wiki") == "treehouse/ClassicWiki-v0"
    assert all(ident in gymnasium.registry for ident in ids)


CASES = [
    ("treehouse/Classic-v0", {}),
    ("treehouse/Classic-v0", {"players": 3, "house_rules": "no-house-moves"}),
    ("treehouse/Fences-v0", {"opponents": ["search"]}),
    ("treehouse/Fences-v0", {"players": 3, "render_mode": "ansi"}),
    ("treehouse/Race-v0", {"length": 6}),
    ("treehouse/Fences-v0", {"house_rules": "wild-repair(max=2)"}),
    ("treehouse/Fences-v0", {"house_rules": ["large-fences-only"], "opponents": "greedy"}),
    ("treehouse/Fences-v0", {"observation": "planes"}),
    ("treehouse/Fences-v0", {"observation": "planes", "players": 3, "house_rules": "wild-repair(max=2)"}),
]


@pytest.mark.parametrize("ident, kwargs", CASES)
def test_gymnasiums_env_checker_passes(ident, kwargs):
    if "Race" in ident:
        pytest.importorskip("pyramid_race")
    if "wild-repair" in str(kwargs) or "large-fences-only" in str(kwargs):
        pytest.importorskip("treehouse_fences_house_rules")
    env = gymnasium.make(ident, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not [str(w.message) for w in caught]


def episode(env, seed: int, pick: int = 0):
    """One masked episode: the ``pick``-th legal action each time; its trace and last step."""
    observation, info = env.reset(seed=seed)
    trace = [observation.tobytes()]
    while True:
        legal = np.flatnonzero(info["action_mask"])
        assert (env.unwrapped.action_masks() == info["action_mask"]).all()
        assert info["legal_ids"].tolist() == legal.tolist()  # the same ids, without the scan
        observation, reward, terminated, truncated, info = env.step(int(legal[pick % len(legal)]))
        trace.append((observation.tobytes(), reward))
        if terminated or truncated:
            return trace, reward, terminated, info


def test_an_episode_against_search_ends_with_the_seats_return():
    env = gymnasium.make("treehouse/Classic-v0", opponents=["search"])
    trace, reward, terminated, info = episode(env, seed=5)
    assert terminated and reward in (1.0, -1.0) and info["outcome"]
    assert trace == episode(env, seed=5)[0]  # the seed decides the deal, the rolls and the bot


def test_every_draw_comes_from_the_reset_seed():
    env = gymnasium.make("treehouse/Fences-v0", opponents=["random"])
    first, again, other = (episode(env, seed)[0] for seed in (3, 3, 4))
    assert first == again and first != other
    # reset(seed=None) goes on from the seeded stream, as Gymnasium's np_random does
    env.reset(seed=9)
    follow = env.reset()[0].tobytes()
    env.reset(seed=9)
    assert env.reset()[0].tobytes() == follow


def test_the_agent_may_sit_in_any_seat_and_the_bots_play_the_others():
    env = TreehouseGymEnv("race", opponents=["random", "greedy"], seat=2, length=5)
    observation, info = env.reset(seed=1)
    assert env.node.mover == 2 and info["action_mask"].any()
    assert [bot is None for bot in env.seats] == [False, False, True]


def test_an_illegal_action_ends_the_episode_for_good_as_a_loss():
    env = TreehouseGymEnv("classic", players=3)
    _observation, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _observation, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated and reward == -0.5 and info["illegal_action"] and info["outcome"] == "illegal action"
    assert not info["action_mask"].any() and not env.unwrapped.action_masks().any() and info["legal_ids"].size == 0
    with pytest.raises(TreehouseError, match=r"the episode is over: call reset\(\)"):
        env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert env.reset(seed=0)[1]["action_mask"].any()  # reset starts again


def test_the_environment_pickles_and_deep_copies_mid_episode():
    """EzPickle (the arguments) and the episode so far: a copy plays on with the same draws and bots."""
    import copy
    import pickle

    env = TreehouseGymEnv("fences", opponents=["greedy"])
    _observation, info = env.reset(seed=2)
    for _ in range(3):
        _observation, _reward, _terminated, _truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    assert copies[1].opponents == ("greedy",)

    def rest(game, info):
        trace = []
        while True:
            legal = np.flatnonzero(info["action_mask"])
            observation, reward, terminated, truncated, info = game.step(int(legal[len(legal) // 2]))
            trace.append((observation.tobytes(), reward))
            if terminated or truncated:
                return trace

    expected = rest(env, info)
    assert len(expected) > 2 and all(rest(game, info) == expected for game in copies)


@pytest.mark.filterwarnings("ignore:.*render_mode='rgb_array'")  # Gymnasium's own, before ours
@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"opponents": ["nobody"]}, "opponents: unknown bot 'nobody'"),
        ({"opponents": ["search(bogus=1)"]}, "opponents: "),
        ({"opponents": ["random", "random"], "players": 2}, "opponents: 2 players need 1 opponent (one per other seat), not 2"),
        ({"opponents": 3}, "opponents must be a list of bot specs"),
        ({"house_rules": "zzz"}, "house_rules: unknown house rule 'zzz'"),
        ({"house_rules": "wild-repair(max=1"}, "house_rules: unbalanced parentheses"),
        ({"players": 9}, "players: fences is played by 2 to 4 players, not 9"),
        ({"seat": 5}, "seat must be 0 to 1, not 5"),
        ({"render_mode": "rgb_array"}, "render_mode 'rgb_array' is not offered"),
        ({"start": "nowhere"}, "start: Input should be"),
        ({"max_turns": 9}, "max_turns: the turn cap is spelled turn_cap"),
        ({"observation": "pixels"}, "observation must be one of 'vector', 'planes', not 'pixels'"),
    ],
)
def test_a_bad_argument_is_one_line_naming_it(kwargs, words):
    with pytest.raises(ConfigError) as error:
        gymnasium.make("treehouse/Fences-v0", **kwargs)
    message = str(error.value)
    assert message.startswith("treehouse/Fences-v0: ") and words in message
    assert "\n" not in message and "--set" not in message
