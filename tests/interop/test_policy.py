"""A trained policy at the table: Gymnasium opponents that are callables (self-play), and the ``policy`` bot in th simulate, compare and play."""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest
from typer.testing import CliRunner

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is the gymnasium extra: pip install -e '.[gymnasium]'")

from treehouse.cli import app  # noqa: E402
from treehouse.errors import ConfigError, TreehouseError  # noqa: E402
from treehouse.interop.gymnasium import TreehouseGymEnv  # noqa: E402

runner = CliRunner()

#: A policy file as a user writes one: a random legal id, drawn from the seat's own stream.
POLICY_FILE = '''
def policy(observation, info):
    assert observation.shape == {shape} and 0 <= observation.min() and observation.max() <= 1
    assert info["action_mask"][info["legal_ids"]].all()
    ids = info["legal_ids"]
    return int(ids[int(info["rng"].random() * len(ids))])
'''

#: An importable module holding a policy with its "weights" (a preference per id), pickled by the tests.
POLICY_MODULE = '''
import numpy as np

class Preference:
    def __init__(self, size, seed):
        self.weights = np.random.default_rng(seed).random(size)

    def __call__(self, observation, info):
        ids = info["legal_ids"]
        return int(ids[np.argmax(self.weights[ids])])

def first(observation, info):
    return int(info["legal_ids"][0])

def illegal(observation, info):
    return -3
'''


@pytest.fixture
def policies(tmp_path, monkeypatch):
    (tmp_path / "agent.py").write_text(POLICY_FILE.format(shape=(82, 7, 7)))
    (tmp_path / "my_policies.py").write_text(POLICY_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    import my_policies

    (tmp_path / "preference.pkl").write_bytes(pickle.dumps(my_policies.Preference(40682, 0)))
    return tmp_path


def play(env, seed, act):
    observation, info = env.reset(seed=seed)
    trace = []
    while True:
        action = act(observation, {**info, "rng": random.Random(len(trace))})
        observation, reward, terminated, truncated, info = env.step(action)
        trace.append((action, reward))
        if terminated or truncated:
            return trace


def test_self_play_the_learner_is_its_own_opponent():
    """A callable opponent is a policy: it reads the same kind of observation
    as the agent, from its own seat, with the legal ids and its seat's stream."""
    seen = []

    def learner(observation, info):
        seen.append((observation.shape, type(info["rng"]).__name__, info["legal_ids"].tolist() == np.flatnonzero(info["action_mask"]).tolist()))
        ids = info["legal_ids"]
        return int(ids[int(info["rng"].random() * len(ids))])

    env = gymnasium.make("treehouse/Fences-v0", opponents=[learner], observation="planes")
    first = play(env, 4, learner)
    assert first == play(env, 4, learner)  # the seed decides the opponent's choices too
    assert seen and set(seen) == {((82, 7, 7), "Random", True)}


def test_a_bot_object_is_an_opponent_as_it_is():
    from treehouse.bots.greedy import GreedyBot

    bot = GreedyBot()
    env = TreehouseGymEnv("fences", opponents=[bot])
    assert env.seats[1] is bot and play(env, 1, lambda observation, info: int(info["legal_ids"][0]))


@pytest.mark.parametrize("opponents", [[3], 3.5, [None]])
def test_an_opponent_that_is_none_of_those_is_one_line(opponents):
    with pytest.raises(ConfigError, match="opponents must be a list of bot specs, bots or policies") as error:
        TreehouseGymEnv("fences", opponents=opponents)
    assert "\n" not in str(error.value)


def th(*args):
    return runner.invoke(app, list(args))


def test_th_simulate_seats_a_policy_file_the_same_for_any_jobs(policies):
    spec = f"policy(file={policies / 'agent.py'}, observation=planes)"

    def run(jobs):
        result = th("simulate", "--variant", "fences", "--seat", spec, "--seat", "greedy", "--games", "4", "--seed", "3", "--jobs", str(jobs), "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        return data["wins"], data["turns_total"], data["seat_kinds"]

    one = run(1)
    assert one == run(2) and one[2] == [spec, "greedy"]


def test_th_compare_and_play_seat_a_pickled_policy_and_an_importable_one(policies, tmp_path):
    pickled = f"policy(file={policies / 'preference.pkl'})"
    result = th("compare", "fences", "fences-scored", "--seat", pickled, "--seat", "random", "--games", "2", "--seed", "1")
    assert result.exit_code == 0, result.output
    record = tmp_path / "game.jsonl"
    result = th("play", "--variant", "fences", "--seat", "policy(call=my_policies:first)", "--seat", "random", "--watch", "--plain", "--seed", "3", "--record", str(record))
    assert result.exit_code == 0, result.output
    assert "policy(call=my_policies:first)" in record.read_text()


@pytest.mark.parametrize(
    "options, words",
    [
        ("", "give file=FILE (a .py file defining policy, or a pickled callable) or call=MODULE:NAME, one of them"),
        ("file=nowhere.py", "file='nowhere.py' is not a file"),
        ("call=my_policies", "must be MODULE:NAME"),
        ("call=my_policies:nothing", "has no attribute 'nothing'"),
        ("call=no_such_module:act", "No module named 'no_such_module'"),
        ("call=numpy:pi", "is a float, not a callable"),
        ("file={dir}/my_policies.py", "defines no 'policy'"),
        ("file={dir}/agent.py, call=my_policies:first", "one of them"),
        ("call=my_policies:first, observation=pixels", "observation must be one of 'vector', 'planes', not 'pixels'"),
        ("call=my_policies:illegal", "it chose -3, not a legal action id here; the legal ids are"),
    ],
)
def test_bad_policies_are_one_line(policies, options, words):
    spec = f"policy({options.format(dir=policies)})" if options else "policy"
    result = th("simulate", "--variant", "fences", "--seat", spec, "--seat", "random", "--games", "1", "--seed", "1")
    assert result.exit_code != 0
    assert words in result.output and "Traceback" not in result.output
    assert len([line for line in result.output.strip().splitlines() if line.startswith("error:")]) == 1


def test_the_policy_bot_is_never_picked_unasked(plugins):
    """Without file= or call= it cannot play, so the ladder and the best bot pass it by."""
    from treehouse.playtest.skill import ladder

    assert "policy" in plugins.bots and "policy" not in ladder(plugins, plugins.variant("fences")(), 2)
    with pytest.raises(TreehouseError):
        plugins.bot("policy").factory()


def test_checking_a_policy_spec_runs_none_of_its_code(plugins, tmp_path, monkeypatch):
    """A spec is checked where it is typed (a web table's lobby too); only the
    seat that plays loads it, and the lobby refuses the bot as not ready."""
    from treehouse.bots.options import check_bot_spec, make_bot

    ran = tmp_path / "ran"
    (tmp_path / "side_effect.py").write_text(f"open({str(ran)!r}, 'w').close()\ndef policy(observation, info):\n    return int(info['legal_ids'][0])\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for spec in ("policy(call=side_effect:policy)", f"policy(file={tmp_path / 'side_effect.py'})"):
        assert check_bot_spec(plugins, spec) == spec
        make_bot(plugins, spec)
    assert not ran.exists()
    assert plugins.bot("policy").factory.ready(plugins.variant("fences")(), 2) is False


def test_afterstate_looks_ahead_without_changing_the_episode():
    """env.unwrapped.afterstate(id): what the agent would see after the move
    (its own next step, before any bot or die moves), and nothing changes."""
    env = TreehouseGymEnv("fences", opponents=["random"], observation="planes")
    trace = play(env, 7, lambda observation, info: int(info["legal_ids"][-1]))
    observation, info = env.reset(seed=7)
    looked = [env.afterstate(action) for action in info["legal_ids"]]
    assert all(seen.shape == (82, 7, 7) and reward is None for seen, reward in looked)
    assert len({seen.tobytes() for seen, _reward in looked}) > 1
    assert play(env, 7, lambda observation, info: int(info["legal_ids"][-1])) == trace  # looking changed nothing
    with pytest.raises(TreehouseError, match=r"afterstate: 0 is not a legal action id here"):
        env.afterstate(0)


def test_a_pickled_afterstate_value_sits_at_the_table(tmp_path):
    """What the learning benchmark saves: an AfterstateValue, pickled, seated by th simulate."""
    from treehouse.interop.policy import AfterstateValue

    env = TreehouseGymEnv("fences", observation="planes")
    value = AfterstateValue.for_observation(env.observation_space.shape, env.observer.board.shape[0])
    observer = env.observer
    value.weights[int(np.prod(observer.board.shape)) + observer.scalar_names.index("seat +1 smalls left")] = -1.0  # hurt the opponent
    (tmp_path / "value.pkl").write_bytes(pickle.dumps(value))
    spec = f"policy(file={tmp_path / 'value.pkl'}, observation=planes)"
    result = th("simulate", "--variant", "fences", "--seat", spec, "--seat", "random", "--games", "6", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["seat_kinds"] == [spec, "random"] and sum(data["wins"]) > 0
