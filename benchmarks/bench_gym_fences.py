"""Fences through Gymnasium against ``th simulate``'s in-process path, side by side.

Run:  python benchmarks/bench_gym_fences.py --games 200 --chunk 20 [--seed S]
(needs the gymnasium extra)

Both loops play two-player Fences (the rule set's defaults, turn cap 500),
random against random, in alternating chunks of the same seeds
(benchmarks/alternate.py), and count turns:

* simulate: what ``th simulate --variant fences --seat random --seat random``
  runs in its process (``play_chunk``, metrics on; the engine path, as for
  a run too short to load the compiled core);
* gymnasium: ``gymnasium.make("treehouse/Fences-v0", opponents=["random"])``,
  ``reset(seed)``, then ``step`` with a random legal id, as a learner's loop
  does; the ids read from ``info["legal_ids"]`` (no scan of the mask);
* gymnasium+mask: the same, but the ids found by ``np.flatnonzero`` over
  ``info["action_mask"]`` (40,682 wide), as a loop that uses the mask only;
* openspiel: ``pyspiel.load_game("treehouse_fences")`` driven from Python
  (``chance_outcomes``, ``legal_actions``, ``apply_action``), with the
  setup's layout a chance node too (where the extra is installed).

The figure that matters is the ratio to simulate measured in the same run
(the median over the chunks).  On the shared 2-core machine (1000 games, 20
alternations of 50): gymnasium/simulate median 0.912 (quartiles
0.881-0.975), gymnasium+mask/simulate 0.654 (0.634-0.694); before the legal
ids in ``info`` and the remembered WILD ranks, the mask loop was the only
one, at 0.566 (0.528-0.617).  With the openspiel loop, on a busier machine:
gymnasium 0.954 (0.841-1.348), gymnasium+mask 0.694 (0.557-0.861),
openspiel 0.431 (0.377-0.549).  The table is in docs/interop.md ("What the
adapter costs").
"""

from __future__ import annotations

import random

import numpy as np
from alternate import alternate, arguments

import gymnasium
import treehouse.interop.gymnasium  # noqa: F401  (registers the ids)
from treehouse.config import resolve
from treehouse.plugins import load_plugins

VARIANT = "fences"


def simulate_games(games: int, seed: int) -> int:
    from treehouse.playtest.work import Batch, RuleSpec, play_chunk

    effective = resolve(load_plugins(), variant=VARIANT)
    return play_chunk(Batch((RuleSpec.from_effective(effective),), ("random", "random"), seed=seed), 0, games).sides[0].turns_total


_ENV = {}


def gym_games(games: int, seed: int, scan_mask: bool = False) -> int:
    env = _ENV.get("env") or _ENV.setdefault("env", gymnasium.make("treehouse/Fences-v0", opponents=["random"]).unwrapped)
    turns = 0
    for index in range(games):
        rng = random.Random(seed + index)
        _observation, info = env.reset(seed=seed + index)
        while True:
            legal = np.flatnonzero(info["action_mask"]) if scan_mask else info["legal_ids"]
            _observation, _reward, terminated, truncated, info = env.step(int(legal[int(rng.random() * len(legal))]))
            if terminated or truncated:
                break
        turns += env.node.turn
    return turns


def openspiel_games(games: int, seed: int) -> int:
    """Random against random as an OpenSpiel user drives a game from Python (needs the openspiel extra)."""
    import pyspiel

    import treehouse.interop.openspiel  # noqa: F401  (registers the games)

    game = _ENV.get("spiel") or _ENV.setdefault("spiel", pyspiel.load_game("treehouse_fences"))
    turns = 0
    for index in range(games):
        rng = np.random.default_rng(seed + index)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probabilities)))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
        turns += state.node.turn
    return turns


def main() -> None:
    args = arguments(__doc__.splitlines()[0])
    loops = {
        "simulate": simulate_games,
        "gymnasium": gym_games,
        "gymnasium+mask": lambda games, seed: gym_games(games, seed, scan_mask=True),
    }
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("(no OpenSpiel: its loop is left out)")
    else:
        loops["openspiel"] = openspiel_games
    alternate(loops, args, reference="simulate")


if __name__ == "__main__":
    main()
