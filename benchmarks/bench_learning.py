"""Learning through the OpenSpiel adapter: tabular Q-learning beats random on a short race.

Run:  python benchmarks/bench_learning.py [--checkpoints 0,1000,3000,10000,30000] [--eval 10000] [--seed 0]
(needs the openspiel extra and examples/pyramid-race)

OpenSpiel's own learner (``open_spiel.python.algorithms.tabular_qlearner.QLearner``,
epsilon-greedy) plays seat 1 of two-player pyramid-race on a short track
with a turn limit (``GAME``: 3 spaces, 5 turns, so seat 1 has three rolls
to bring all three pyramids home, and which pyramid takes which roll
decides it), through ``rl_environment`` (the observation tensor as its
information state: every pyramid's space, the seat to move and the face,
docs/interop.md), against OpenSpiel's uniform random agent in seat 2.  It
trains for a number of episodes, then plays ``--eval`` evaluation games
(greedy, no learning) on fixed seeds: the same seeds at every checkpoint.
Checkpoint 0 is the untrained learner: its Q-table is empty, so it breaks
every tie at random and plays as random does; it is the baseline on the
same seeds.

A row: episodes trained, the learner's wins over the evaluation games, the
win rate with its 95% Wilson interval, the margin over the untrained row,
and the exact win probability of the greedy policy (every state the game
can reach, walked once: no sampling).  The last line is the best a policy
can do against random (the exact optimum, by the same walk).  All
randomness comes from ``--seed``: numpy's global stream (the learner's
exploration and tie-breaks, the random agent) and the chance sampler's.

Measured (docs/interop.md, "Learning through the adapter", 5,000
evaluation games per row): untrained 0.111 exact, as random; after 1,000
episodes 0.134 / 0.187 / 0.133 for seeds 0 / 1 / 2, each clear of the
untrained row's 95% interval; after 30,000, 0.208 / 0.184 / 0.170 (mean
0.187, +7.6 points); the best policy 0.231.  About 5 minutes a seed on the
shared 2-core machine.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import pyspiel
import treehouse.interop.openspiel  # noqa: F401  (registers the games)
from open_spiel.python import rl_environment, rl_tools
from open_spiel.python.algorithms import random_agent, tabular_qlearner

#: A short race against the clock: 3 spaces, no exact finish, bumping, a draw after 5 turns.
GAME = ("treehouse_race", {"players": 2, "length": 3, "exact_finish": False, "bump": True, "turn_cap": 5})
LEARNER = 0
#: The learner's step size and exploration (epsilon-greedy, constant).
STEP_SIZE, EPSILON = 0.3, 0.5


def environment(seed: int) -> rl_environment.Environment:
    name, params = GAME
    return rl_environment.Environment(
        pyspiel.load_game(name, params),
        chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed),
        observation_type=rl_environment.ObservationType.OBSERVATION,
    )


def agents(env: rl_environment.Environment, seed: int) -> list:
    actions = env.action_spec()["num_actions"]
    return [
        tabular_qlearner.QLearner(player_id=LEARNER, num_actions=actions, step_size=STEP_SIZE, epsilon_schedule=rl_tools.ConstantSchedule(EPSILON)),
        random_agent.RandomAgent(player_id=1 - LEARNER, num_actions=actions),
    ]


def play(env: rl_environment.Environment, players: list, evaluation: bool) -> float:
    """One episode; the learner's return."""
    time_step = env.reset()
    while not time_step.last():
        player = time_step.observations["current_player"]
        output = players[player].step(time_step, is_evaluation=evaluation)
        time_step = env.step([output.action])
    for agent in players:  # the last step: the learner learns from the result
        agent.step(time_step, is_evaluation=evaluation)
    return time_step.rewards[LEARNER]


def train(players: list, episodes: int, seed: int) -> None:
    env = environment(seed)
    for _ in range(episodes):
        play(env, players, evaluation=False)


def evaluate(players: list, games: int, seed: int) -> int:
    """Wins of the learner over ``games`` greedy games on the seeds from ``seed``
    (the same games for every checkpoint: the sampler and the opponent restart)."""
    state = np.random.get_state()
    np.random.seed(seed)
    env = environment(seed)
    opponent = random_agent.RandomAgent(player_id=1 - LEARNER, num_actions=env.action_spec()["num_actions"])
    wins = sum(1 for _ in range(games) if play(env, [players[LEARNER], opponent], evaluation=True) > 0)
    np.random.set_state(state)  # evaluation leaves training's stream where it was
    return wins


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def exact_win_probability(q_values: dict | None, best: bool = False) -> float:
    """The exact chance that seat 1 wins against uniform random, playing the
    greedy policy of ``q_values`` (ties shared evenly, as the learner breaks
    them; an empty table is uniform random), or with ``best`` the policy
    that wins most often: every reachable state walked once, memoised."""
    import sys

    name, params = GAME
    game = pyspiel.load_game(name, params)
    memo: dict[str, float] = {}
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

    def value(state) -> float:
        key = str(state)
        if key not in memo:
            if state.is_terminal():
                memo[key] = 1.0 if state.returns()[LEARNER] > 0 else 0.0
            elif state.is_chance_node():
                memo[key] = sum(p * value(state.child(a)) for a, p in state.chance_outcomes())
            else:
                legal = state.legal_actions()
                if state.current_player() == LEARNER and best:
                    memo[key] = max(value(state.child(a)) for a in legal)
                    return memo[key]
                if state.current_player() == LEARNER and q_values is not None:
                    table = q_values.get(str(state.observation_tensor(LEARNER)), {})
                    top = max(table.get(a, 0.0) for a in legal)
                    legal = [a for a in legal if table.get(a, 0.0) == top]
                memo[key] = sum(value(state.child(a)) for a in legal) / len(legal)
        return memo[key]

    return value(game.new_initial_state())


def learning_curve(checkpoints: list[int], games: int, seed: int) -> list[dict]:
    """Train to each checkpoint in turn and evaluate there; rows as dicts."""
    np.random.seed(seed)
    env = environment(seed)
    players = agents(env, seed)
    rows, trained, started = [], 0, time.perf_counter()
    for checkpoint in checkpoints:
        train(players, checkpoint - trained, seed + 1 + checkpoint)
        trained = checkpoint
        wins = evaluate(players, games, seed + 10**6)
        low, high = wilson(wins, games)
        table = {key: dict(values) for key, values in players[LEARNER]._q_values.items()}
        rows.append({"episodes": checkpoint, "wins": wins, "games": games, "rate": wins / games, "low": low, "high": high,
                     "exact": exact_win_probability(table), "states": len(table), "seconds": time.perf_counter() - started})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", default="0,1000,3000,10000,30000", help="episodes trained at each row, ascending")
    parser.add_argument("--eval", type=int, default=10000, help="evaluation games per row")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    checkpoints = [int(x) for x in options.checkpoints.split(",")]
    if checkpoints != sorted(checkpoints) or checkpoints[0] != 0:
        parser.error("--checkpoints must ascend from 0 (the untrained baseline)")
    name, params = GAME
    print(f"{name} {params}: Q-learning (seat 1, step {STEP_SIZE}, epsilon {EPSILON}) against uniform random (seat 2), "
          f"{options.eval:,} evaluation games per row, seed {options.seed}")
    print("| episodes trained | wins | win rate (95% CI) | over untrained | exact win probability | states in the table | seconds |")
    print("|---|---|---|---|---|---|---|")
    base = None
    for row in learning_curve(checkpoints, options.eval, options.seed):
        base = row["rate"] if base is None else base
        print(f"| {row['episodes']:,} | {row['wins']:,} / {row['games']:,} | {row['rate']:.3f} ({row['low']:.3f}–{row['high']:.3f}) "
              f"| {100 * (row['rate'] - base):+.1f} points | {row['exact']:.3f} | {row['states']:,} | {row['seconds']:.0f} |", flush=True)
    print(f"The best policy against random wins with probability {exact_win_probability(None, best=True):.3f}.")


if __name__ == "__main__":
    main()
