"""What the OpenSpiel and PettingZoo adapters cost: random playouts of classic, five ways, in one run.

Run:  python benchmarks/bench_interop.py --games 300 --chunk 30 [--seed S]
(needs the openspiel and pettingzoo extras)

All loops play two-player classic, random against random, in alternating
chunks of the same seeds (benchmarks/alternate.py), and count turns:

* bare: the plain loop over precomputed successor tables (bench_classic_engine.py);
* simulate: what ``th simulate --variant classic`` runs (play_chunk, metrics on);
* flow: treehouse.interop.flow's node walk with the adapter's action ids
  (legal ids computed at every decision, as both adapters do), no framework;
* openspiel: ``pyspiel.load_game("treehouse_classic")`` driven as an
  OpenSpiel user drives a game from Python: ``chance_outcomes``,
  ``legal_actions``, ``apply_action`` until ``is_terminal``;
* pettingzoo: ``treehouse.interop.pettingzoo.env("classic")``, ``reset(seed)``,
  then ``last()`` and ``step`` with a random legal id from the mask.

The figures that matter are the ratios to simulate (the path users run)
measured in the same run; bare shows how far the engine itself is from a
loop with no objects.  On the shared 2-core machine (300 games, 10
alternations of 30): flow/simulate median 0.860 (quartiles 0.781-0.997),
openspiel/simulate 0.395 (0.352-0.419), pettingzoo/simulate 0.474
(0.436-0.519); 6,918 simulate turns/s against 2,674 through OpenSpiel.
"""

from __future__ import annotations

import random

import numpy as np
from alternate import alternate, arguments
from bench_classic_engine import TURN_CAP, bare_games, simulate_games, successor_tables

import pyspiel
import treehouse.interop.openspiel  # noqa: F401  (registers the games)
from treehouse.interop.actions import Actions
from treehouse.interop.flow import CHANCE, TERMINAL, GameFlow
from treehouse.interop.pettingzoo import raw_env
from treehouse.plugins import load_plugins


def flow_games(games: int, seed: int) -> int:
    variant = load_plugins().variant("classic")()
    flow = GameFlow(variant, 2, turn_cap=TURN_CAP)
    actions = Actions(flow)
    turns = 0
    for index in range(games):
        rng = random.Random(seed + index)
        node = flow.initial(rng)
        while node.kind != TERMINAL:
            if node.kind == CHANCE:
                node = flow.roll(node, flow.die.roll(rng))
            else:
                legal = actions.legal(node)
                ids = list(legal)
                node = flow.play(node, legal[ids[int(rng.random() * len(ids))]])
        turns += node.turn
    return turns


def openspiel_games(games: int, seed: int) -> int:
    game = pyspiel.load_game("treehouse_classic", {"turn_cap": TURN_CAP})
    turns = 0
    for index in range(games):
        rng = random.Random(seed + index)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])  # a fair die
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
        turns += state.node.turn
    return turns


def pettingzoo_games(games: int, seed: int) -> int:
    env = raw_env("classic")
    turns = 0
    for index in range(games):
        rng = random.Random(seed + index)
        env.reset(seed=seed + index)
        while env.agents:
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
        turns += env.node.turn
    return turns


def main() -> None:
    args = arguments(__doc__.splitlines()[0])
    tables = successor_tables()
    alternate(
        {
            "bare": lambda games, seed: bare_games(games, seed, tables),
            "simulate": simulate_games,
            "flow": flow_games,
            "openspiel": openspiel_games,
            "pettingzoo": pettingzoo_games,
        },
        args,
        reference="simulate",
    )


if __name__ == "__main__":
    main()
