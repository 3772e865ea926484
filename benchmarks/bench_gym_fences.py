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
  ``info["action_mask"]`` (40,682 wide), as a loop that uses the mask only.

The figure that matters is the ratio to simulate measured in the same run
(the median over the chunks).  On the shared 2-core machine (1000 games, 20
alternations of 50): gymnasium/simulate median 0.912 (quartiles
0.881-0.975), gymnasium+mask/simulate 0.654 (0.634-0.694); before the legal
ids in ``info`` and the remembered WILD ranks, the mask loop was the only
one, at 0.566 (0.528-0.617).  The table is in docs/interop.md ("What the
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


def main() -> None:
    args = arguments(__doc__.splitlines()[0])
    alternate(
        {
            "simulate": simulate_games,
            "gymnasium": gym_games,
            "gymnasium+mask": lambda games, seed: gym_games(games, seed, scan_mask=True),
        },
        args,
        reference="simulate",
    )


if __name__ == "__main__":
    main()
