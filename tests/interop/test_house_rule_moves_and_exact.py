"""House rules' moves get action ids; chance nodes end, so OpenSpiel's exact algorithms terminate."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("treehouse_fences_house_rules")

import treehouse.interop.openspiel  # noqa: E402,F401  (registers the games)
from open_spiel.python.algorithms import get_all_states, minimax  # noqa: E402

from treehouse.interop.actions import Actions  # noqa: E402
from treehouse.interop.flow import CHANCE, DECISION, TERMINAL, GameFlow  # noqa: E402
from treehouse.kernel.hooks import HouseRule, game_hooks  # noqa: E402
from treehouse.plugins import load_plugins  # noqa: E402
from treehouse_fences_house_rules.wild_repair import Repair, WildRepair  # noqa: E402

pytestmark = pytest.mark.example("pyramid-race", "fences-house-rules")

PARAMS = {"players": 2, "house_rules": "wild-repair(max=20)", "turn_cap": 400}


def _repair_seen(game, seed: int):
    """Play random games until a Repair is legal; (state, action) of one."""
    rng = random.Random(seed)
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probabilities)[0])
                continue
            for action, move in game.legal(state.node).items():
                if isinstance(move, Repair):
                    return state, action
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no Repair came up in 40 random games")


def test_a_repair_move_has_a_stable_id_in_the_rules_own_block():
    game = pyspiel.load_game("treehouse_fences", PARAMS)
    block = game.actions.rule_blocks[0]
    assert block.owner == "house rule wild-repair" and block.size == 5
    state, action = _repair_seen(game, 1)
    assert block.start <= action < block.start + block.size
    colour = game.legal(state.node)[action].colour
    assert action == block.start + ("red", "orange", "yellow", "green", "blue").index(colour)
    assert state.action_to_string(state.current_player(), action).startswith("repair +")
    state.apply_action(action)  # plays: the tally counts it
    assert sum(state.node.position.tally("wild-repair")) >= 1


def test_a_rules_move_without_an_encoding_takes_an_overflow_id():
    class NoIds(WildRepair):
        action_encoding = None

    from treehouse.config import resolve

    plugins = load_plugins()
    effective = resolve(plugins, variant="fences")
    options = plugins.house_rules["wild-repair"].options(max=20)
    hooks = game_hooks(effective.variant(), [HouseRule("wild-repair", NoIds, options, "wild-repair(max=20)")])
    flow = GameFlow(effective.variant(), 2, hooks=hooks, turn_cap=400)
    actions = Actions(flow)
    assert actions.rule_blocks == [] and actions.overflow is not None
    rng = random.Random(3)
    for _ in range(40):
        node = flow.initial(random.Random(rng.random()))
        while node.kind != TERMINAL:
            if node.kind == CHANCE:
                node = flow.roll(node, flow.draw(node, rng))
                continue
            legal = actions.legal(node)
            spilled = {a: m for a, m in legal.items() if isinstance(m, Repair)}
            if spilled:
                assert all(actions.overflow.start <= a < actions.size for a in spilled)
                assert actions.overflowed == {"Repair"}
                return
            node = flow.play(node, rng.choice(list(legal.values())))
    raise AssertionError("no Repair came up")


@pytest.mark.parametrize(
    "name, params",
    [
        ("treehouse_classic", {"players": 2, "turn_cap": 1}),
        ("treehouse_classic", {"players": 2, "turn_cap": 1, "house_rules": "no-house-moves"}),
        ("treehouse_fences", {"players": 2, "turn_cap": 1, "layouts": 1, "start": "random"}),
        ("treehouse_fences", {"players": 2, "turn_cap": 1, "layouts": 1, "start": "random", "house_rules": "wild-repair(max=1)"}),
        ("treehouse_fences", {"players": 2, "turn_cap": 1, "layouts": 1, "start": "random", "house_rules": "large-fences-only"}),
    ],
)
def test_exact_algorithms_terminate_on_small_configurations(name, params):
    """Every state of one turn, and expectiminimax to depth 2: both end (no roll-again cycle)."""
    game = pyspiel.load_game(name, params)
    states = get_all_states.get_all_states(game, include_chance_states=True, to_string=str)
    assert any(state.is_terminal() for state in states.values())
    for state in states.values():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _a, p in outcomes) - 1) < 1e-9
            for action, _p in outcomes:  # every face offered leaves something to do
                assert state.child(action).node.kind == DECISION
    value, _ = minimax.expectiminimax(game.new_initial_state(), 2, lambda state: 0.0, 0)
    assert value == 0.0  # one turn: nobody can have won


def test_expectiminimax_agrees_with_a_table_of_every_race_state():
    """Pyramid race, length 3: the exact value by expectiminimax (OpenSpiel's,
    a tree walk) from a midgame state equals backward induction over the table
    of every state (get_all_states), and it is neither a draw nor a sure thing."""
    pytest.importorskip("pyramid_race")
    game = pyspiel.load_game("treehouse_race", {"length": 3, "players": 2, "turn_cap": 5, "exact_finish": False, "bump": False})
    table = get_all_states.get_all_states(game, include_chance_states=True, to_string=str)
    values: dict[str, float] = {}

    def value(state) -> float:
        key = str(state)
        if key not in values:
            if state.is_terminal():
                values[key] = state.returns()[0]
            elif state.is_chance_node():
                values[key] = sum(p * value(state.child(a)) for a, p in state.chance_outcomes())
            else:
                pick = max if state.current_player() == 0 else min
                values[key] = pick(value(state.child(a)) for a in state.legal_actions())
        return values[key]

    state = game.new_initial_state()
    for action in (4, None, 1, None):  # player 0 rolls a 5, moves; player 1 rolls a 2, moves
        state.apply_action(action if action is not None else state.legal_actions()[0])
    exact, _ = minimax.expectiminimax(state, 100, None, 0)
    assert exact == pytest.approx(value(state))
    assert -1 < exact < 1 and exact != 0
    assert str(state) in table


def test_the_generic_observation_holds_a_race_position():
    """A variant without an observation of its own (pyramid-race) is seen
    through its position's fields: every pyramid's space, then the seat to move."""
    pytest.importorskip("pyramid_race")
    game = pyspiel.load_game("treehouse_race", {"length": 6, "players": 2})
    state = game.new_initial_state()
    state.apply_action(5)  # a 6
    state.apply_action(state.legal_actions()[0])
    spaces = state.node.position.spaces
    seen = state.observation_tensor(0)
    assert list(seen[:6]) == [float(x) for trio in spaces for x in trio] and any(seen[:6])
    other = state.observation_tensor(1)
    assert seen[:7] == other[:7] and seen[7:9] != other[7:9]  # the same board; the mover counted from each seat


def test_value_iteration_over_every_race_state_converges_to_expectiminimax():
    """A tabular value method: Bellman sweeps over the table of every state of
    a small race (length 3, 5 turns) reach a fixed point within the game's
    length, and its value agrees with OpenSpiel's expectiminimax (a tree
    walk) from midgame states (from the start the walk takes half a minute)."""
    pytest.importorskip("pyramid_race")
    game = pyspiel.load_game("treehouse_race", {"length": 3, "players": 2, "turn_cap": 5, "exact_finish": False, "bump": False})
    table = get_all_states.get_all_states(game, include_chance_states=True, to_string=str)
    children: dict[str, tuple] = {}
    for key, state in table.items():
        if state.is_chance_node():
            children[key] = ("chance", [(p, str(state.child(a))) for a, p in state.chance_outcomes()])
        elif not state.is_terminal():
            children[key] = (state.current_player(), [str(state.child(a)) for a in state.legal_actions()])
    values = {key: (state.returns()[0] if state.is_terminal() else 0.0) for key, state in table.items()}
    sweeps = 0
    while True:
        sweeps += 1
        changed = 0.0
        for key, (who, nexts) in children.items():
            if who == "chance":
                new = sum(p * values[k] for p, k in nexts)
            else:
                new = (max if who == 0 else min)(values[k] for k in nexts)
            changed = max(changed, abs(new - values[key]))
            values[key] = new
        if changed < 1e-12:
            break
        assert sweeps <= game.max_game_length() + 1, "value iteration did not settle within the game's length"
    start = game.new_initial_state()
    start.apply_action(2)  # player 0 rolls a 3
    midgame = start.child(start.legal_actions()[0])
    for action in (1, None, 3):  # player 1 rolls a 2, moves; player 0 rolls a 4
        midgame.apply_action(action if action is not None else midgame.legal_actions()[0])
    for state in (midgame, midgame.child(midgame.legal_actions()[-1])):
        exact, _ = minimax.expectiminimax(table[str(state)], 100, None, 0)
        assert values[str(state)] == pytest.approx(exact)
    assert 0 < values[str(start)] < 1  # the first mover is ahead, not sure to win
