"""Every variant as an OpenSpiel game: OpenSpiel's own random-simulation checks, and the adapter's contracts."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the openspiel extra: pip install -e '.[openspiel]'")

from treehouse.errors import TreehouseError  # noqa: E402
from treehouse.interop import openspiel as adapter  # noqa: E402
from treehouse.kernel.engine import format_move  # noqa: E402

pytestmark = pytest.mark.example("pyramid-race", "fences-house-rules")


def test_every_variant_and_shipped_rule_set_is_registered():
    names = adapter.register_games()
    for name in ("treehouse_classic", "treehouse_classic_wiki", "treehouse_fences", "treehouse_fences_scored", "treehouse_race"):
        assert name in names
        assert name in pyspiel.registered_names()


@pytest.mark.parametrize(
    "name, players, sims",
    [
        ("treehouse_classic", 2, 4), ("treehouse_classic", 3, 3), ("treehouse_classic", 4, 3),
        ("treehouse_classic_wiki", 2, 3),
        ("treehouse_fences", 2, 5), ("treehouse_fences", 3, 4), ("treehouse_fences", 4, 4),
        ("treehouse_fences_house_rules", 3, 2), ("treehouse_fences_scored", 2, 2),
        ("treehouse_race", 2, 3), ("treehouse_race", 6, 2),
    ],
)
def test_openspiels_random_simulation_checks_pass(name, players, sims):
    """OpenSpiel's own checks (as its Python games are tested): clone, serialize
    and deserialize, legal actions sorted and masked, distinct action strings,
    chance outcomes, observations, returns in bounds and zero-sum."""
    game = pyspiel.load_game(name, {"players": players})
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


SIM_GAMES = [
    ("treehouse_classic", {}), ("treehouse_classic", {"players": 3}),
    ("treehouse_fences", {"turn_cap": 30}), ("treehouse_fences", {"players": 3, "turn_cap": 30}),
    ("treehouse_race", {"players": 3}),
    ("treehouse_fences", {"house_rules": "wild-repair(max=1)", "turn_cap": 30}),
    ("treehouse_fences", {"house_rules": "large-fences-only", "turn_cap": 30}),
]


@pytest.mark.parametrize("name, params", SIM_GAMES)
def test_openspiels_games_sim_test_passes_with_pickling(name, params, capsys):
    """OpenSpiel's own ``games_sim_test.sim_game``, as it runs on every game it
    ships: the game and its type pickle, then a random game in which every
    state is cloned, serialised and pickled at each power of two of actions."""
    if name == "treehouse_race":
        pytest.importorskip("pyramid_race")
    if "house_rules" in params:
        pytest.importorskip("treehouse_fences_house_rules")
    from open_spiel.python.tests.games_sim_test import GamesSimTest

    np.random.seed(0)  # sim_game samples from numpy's global stream
    game = pyspiel.load_game(name, params)
    GamesSimTest().sim_game(game, check_pyspiel_serialization=True, check_pickle_serialization=True)
    assert "terminated with" in capsys.readouterr().out


def _distinct_actions(game) -> int:
    return game.num_distinct_actions()


def test_a_game_crosses_to_a_spawned_process():
    """A spawn-context pool (a fresh interpreter) takes a pickled game: unpickling
    imports treehouse.interop.openspiel, which registers the games again."""
    import multiprocessing

    game = pyspiel.load_game("treehouse_fences", {"players": 3, "turn_cap": 9})
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and type(again) is type(game)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.map(_distinct_actions, [game]) == [game.num_distinct_actions()]


def test_fences_start_chosen_passes_the_checks_too():
    game = pyspiel.load_game("treehouse_fences", {"players": 3, "start": "chosen"})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_game_type_and_info():
    game = pyspiel.load_game("treehouse_fences", {"players": 3})
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    assert game.num_players() == 3
    assert game.max_utility() == 1.0 and game.min_utility() == -0.5
    assert game.get_parameters()["turn_cap"] == 500  # the rule set's turn cap


def test_chance_nodes_are_the_die_with_its_exact_probabilities():
    game = pyspiel.load_game("treehouse_classic")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes] == [
        "roll TIP", "roll SWAP", "roll HOP", "roll DIG", "roll AIM", "roll WILD"]
    assert [p for _, p in outcomes] == pytest.approx([1 / 6] * 6)


def test_fences_deal_is_a_first_chance_node_of_seeded_layouts():
    game = pyspiel.load_game("treehouse_fences", {"layouts": 16})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 16
    a, b = state.child(3), state.child(3)
    assert str(a) == str(b) and str(a) != str(state.child(4))


def test_actions_are_the_variants_notation_and_read_back():
    game = pyspiel.load_game("treehouse_classic", {"players": 3})
    state = game.new_initial_state()
    variant = game.flow.variant
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[5][0])  # WILD: the most moves
            continue
        for action in state.legal_actions():
            text = state.action_to_string(state.current_player(), action)
            if text not in ("pass", "reroll"):
                move = variant.parse_move(text)
                assert game.legal(state.node)[action] == move
                assert text == format_move(variant, move)
        state.apply_action(state.legal_actions()[0])


def test_classic_ids_are_stable_and_documented():
    game = pyspiel.load_game("treehouse_classic")
    state = game.new_initial_state().child(0)  # TIP from the start: the tree tips left or right
    strings = {a: state.action_to_string(0, a) for a in state.legal_actions()}
    # own trio: 2 + rank of the result among the 204 trios
    assert strings == {2 + game.flow.variant.action_encoding(2).encode(None, game.legal(state.node)[a]): s for a, s in strings.items()}
    assert all(2 <= a < 2 + 204 for a in strings)


def test_observations_for_classic_and_fences():
    classic = pyspiel.load_game("treehouse_classic", {"players": 2})
    state = classic.new_initial_state().child(5)  # WILD rolled
    tensor = np.array(state.observation_tensor(1))
    assert tensor.shape == (3 * 204 + 2 + 1 + 6,)  # the trios, the mover, the turn count, the face
    assert tensor[:204].sum() == 1 and tensor[-6:].tolist() == [0, 0, 0, 0, 0, 1]
    assert tensor[-7] == 1  # the first turn has started
    assert tensor[3 * 204 + 1] == 1  # seat 1 sees that the seat to move is the next one round
    assert state.observation_string(0) == "L< S^ M> :: L^/M^/S^ | L^/M^/S^ :: 1 [act rolled WILD]"
    fences = pyspiel.load_game("treehouse_fences", {"players": 4})
    state = fences.new_initial_state().child(0)
    assert "place" in state.observation_string(2)  # the seed's setup: draws and placings come first
    drawn = state.child(state.chance_outcomes()[0][0])
    assert drawn.observation_string(2).endswith("[place drew red]")  # a setup draw is drawn, not rolled (as the table says)
    while "fence" not in state.observation_string(2):
        state = state.child(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    tensor = np.array(state.observation_tensor(2))
    assert tensor.shape == (fences.observation_tensor_size(),)
    board = tensor[: 49 * 18].reshape(49, 18)
    assert board[:, 0].sum() + board[:, 1].sum() == 20  # every Fence, Large or Medium
    assert board[:, 14].sum() == 1 and board[:, 14:].sum() == 4  # each Stack once, seat 3's own first
    assert "fence" in state.observation_string(2)


def test_openspiels_make_observation_gives_the_board_planes():
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("treehouse_fences", {"players": 3})
    planes = make_observation(game, params={"observation": "planes"})
    state = game.new_initial_state()
    while state.is_chance_node() or "fence" not in str(state):
        state = state.child(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    planes.set_from(state, 1)
    assert planes.dict["observation"].shape == (87, 7, 7) and 0 <= planes.tensor.min() and planes.tensor.max() == 1
    assert len(state.observation_tensor(1)) == 930  # the default stays the vector
    with pytest.raises(TreehouseError, match="treehouse_classic: observation='planes': classic has no board planes"):
        make_observation(pyspiel.load_game("treehouse_classic"), params={"observation": "planes"})


def test_serialize_and_clone_keep_the_game():
    game = pyspiel.load_game("treehouse_fences", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(5)  # the layout
    for _ in range(3):  # the first small drawn (a chance node) and placed, the second drawn
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(again) == str(state) and again.history() == state.history()
    assert str(state.clone()) == str(state)
    assert pickle.loads(pickle.dumps(state.node)) == state.node


@pytest.mark.parametrize(
    "params, message",
    [
        ({"players": 7}, "classic is played by 2 to 4 players, not 7"),
        ({"house_decline": "maybe"}, "house_decline"),
        ({"house_rules": "no-such-rule"}, "no-such-rule"),
        ({"turn_cap": 0}, "turn_cap must be at least 1"),
        ({"house_rules": "mirror-matches[on]"}, r"house_rules: bad house rule 'mirror-matches\[on\]': expected NAME or NAME\(key=value"),
        ({"house_rules": "wild-repair(max=1"}, "house_rules: unbalanced parentheses"),
    ],
)
def test_bad_parameters_are_one_line(params, message):
    with pytest.raises(TreehouseError, match=message) as error:
        pyspiel.load_game("treehouse_classic", params)
    assert "\n" not in str(error.value)


def test_the_turn_cap_is_spelled_turn_cap_as_everywhere():
    """OpenSpiel checks parameter names itself, before the game is built: a
    max_turns is refused in one line that lists turn_cap among the parameters."""
    assert pyspiel.load_game("treehouse_classic", {"turn_cap": 3}).get_parameters()["turn_cap"] == 3
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'max_turns'.*turn_cap") as error:
        pyspiel.load_game("treehouse_classic", {"max_turns": 3})
    assert "\n" not in str(error.value)


def test_openspiels_mcts_plays_a_treehouse_game():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("treehouse_classic")
    rng = np.random.RandomState(3)
    bots = [mcts.MCTSBot(game, 2.0, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal() and state.move_number() < 60:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert state.move_number() > 0


def test_an_illegal_action_is_one_line():
    game = pyspiel.load_game("treehouse_classic")
    state = game.new_initial_state().child(0)  # TIP: own moves only, no pass
    with pytest.raises(TreehouseError, match="action 0 is not legal here"):
        state.apply_action(0)


def test_house_rules_with_options_survive_a_game_string():
    """House rules are spelled name(option=value) as everywhere; inside the
    game's string they are percent-escaped (OpenSpiel's strings give commas,
    parentheses and = meanings of their own), so the string loads the same
    game again, and so does a state serialised with it."""
    pytest.importorskip("treehouse_fences_house_rules")
    game = pyspiel.load_game("treehouse_fences", {"house_rules": "wild-repair(max=1), dig-restores-any"})
    assert "house_rules=wild-repair%28max%3D1%29%2Cdig-restores-any" in str(game)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.flow.hooks.house_rule_specs == game.flow.hooks.house_rule_specs == ["wild-repair(max=1)", "dig-restores-any"]
    listed = pyspiel.load_game("treehouse_fences", {"house_rules": "[wild-repair(max=1), dig-restores-any]"})
    assert str(listed) == str(game)
    state = game.new_initial_state()
    state.apply_action(3)  # the layout
    restored_game, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(restored_game) == str(game) and restored.history() == state.history()


@pytest.mark.parametrize("specs", [[], ["dig-restores-any"], ["wild-repair(max=2)"], ["wild-repair(max=1)", "no-house-moves"], ["x(note='a, b=c')"]])
def test_the_house_rules_parameter_round_trips(specs):
    from treehouse.interop.rules import game_string_value, house_rule_list

    written = game_string_value(specs)
    assert not set(written) & set("(),=[]+; ")
    assert house_rule_list(written) == specs


def test_the_information_state_string_is_the_state():
    game = pyspiel.load_game("treehouse_classic")
    assert game.get_type().provides_information_state_string
    state = game.new_initial_state()
    for _ in range(6):
        assert state.information_state_string(0) == state.information_state_string(1) == str(state)
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
