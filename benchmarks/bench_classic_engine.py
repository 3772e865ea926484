"""Classic Treehouse throughput: the full engine against a bare loop over the same rules.

Run:  python benchmarks/bench_classic_engine.py [--games N] [--seed S]

Both loops play two-player random-versus-random games from the same seeds.

* engine: treehouse.kernel.engine.Game with the classic plugin and random
  bots, through every hook, as a simulation runs it (no record kept);
* engine+record: the same, also recording every event in memory, as
  ``th play`` does;
* bare:   a plain loop over successor tables precomputed for all 204 trios
  and each action (the same rules: own trio first, else the House or a pass,
  else roll again; WILD on either), with one random.Random and no objects.

The figure that matters is the ratio engine/bare measured in the same run;
absolute turns per second depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from treehouse.kernel.engine import Game
from treehouse.kernel.records import Record
from treehouse.plugins import load_plugins
from treehouse.variants.classic.game import action_moves
from treehouse.variants.classic.trio import HOUSE, TREE, all_trios

FACES = ("TIP", "SWAP", "HOP", "DIG", "AIM", "WILD")
TURN_CAP = 1000


def engine_games(games: int, seed: int, recorded: bool = False) -> int:
    plugins = load_plugins()
    variant = plugins.variant("classic")()
    bot = plugins.bot("random").factory
    turns = 0
    for index in range(games):
        record = Record() if recorded else None
        game = Game(variant, [bot(), bot()], random.Random(seed + index), turn_cap=TURN_CAP, record=record)
        game.play()
        turns += game.turn
    return turns


def successor_tables():
    """index tables: succ[trio][face] -> tuple of trio indices (own), for every trio."""
    trios = all_trios()
    index = {t: i for i, t in enumerate(trios)}
    table = []
    for trio in trios:
        row = []
        for face in FACES:
            row.append(tuple(index[m.result] for m in action_moves(trio, face, "own", True)))
        table.append(row)
    return trios, index, table


def bare_games(games: int, seed: int, tables) -> int:
    trios, index, table = tables
    tree, house0 = index[TREE], index[HOUSE]
    wild = FACES.index("WILD")
    turns = 0
    for game_index in range(games):
        rng = random.Random(seed + game_index)
        house, own = house0, [tree, tree]
        mover, turn, over = 0, 0, False
        while not over and turn < TURN_CAP:
            turn += 1
            while True:
                face = int(rng.random() * 6)  # sampled as the kernel's Die and the random bot do
                mine = table[own[mover]][face]
                if face == wild:
                    theirs = table[house][face]
                    k = int(rng.random() * (len(mine) + len(theirs)))
                    if k < len(mine):
                        own[mover] = mine[k]
                    else:
                        house = theirs[k - len(mine)]
                    break
                if mine:
                    own[mover] = mine[int(rng.random() * len(mine))]
                    break
                theirs = table[house][face]
                if theirs:
                    k = int(rng.random() * (len(theirs) + 1))  # the last choice is the pass
                    if k < len(theirs):
                        house = theirs[k]
                    break
            if own[mover] == house or own[1 - mover] == house:
                over = True
            mover = 1 - mover
        turns += turn
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games for each loop in all (default 3000)")
    parser.add_argument("--chunk", type=int, default=100, help="games per alternation (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tables = successor_tables()
    engine_games(args.chunk, args.seed)  # warm both loops' caches before timing
    bare_games(args.chunk, args.seed, tables)
    # The machines are shared and noisy: alternate short chunks of the two loops
    # so that both see the same load, and report the median of the chunk ratios.
    ratios, recorded_ratios = [], []
    totals = {"engine": [0, 0.0], "engine+record": [0, 0.0], "bare": [0, 0.0]}
    for start in range(0, args.games, args.chunk):
        seed = args.seed + start
        rates = {}
        for name, run in (
            ("engine", lambda: engine_games(args.chunk, seed)),
            ("engine+record", lambda: engine_games(args.chunk, seed, recorded=True)),
            ("bare", lambda: bare_games(args.chunk, seed, tables)),
        ):
            began = time.perf_counter()
            turns = run()
            seconds = time.perf_counter() - began
            totals[name][0] += turns
            totals[name][1] += seconds
            rates[name] = turns / seconds
        ratios.append(rates["engine"] / rates["bare"])
        recorded_ratios.append(rates["engine+record"] / rates["bare"])
    print(f"{'loop':<15}{'games':>8}{'turns':>10}{'seconds':>9}{'turns/s':>12}")
    for name, (turns, seconds) in totals.items():
        print(f"{name:<15}{args.games:>8}{turns:>10}{seconds:>9.2f}{turns / seconds:>12,.0f}")
    for name, values in (("engine", ratios), ("engine+record", recorded_ratios)):
        values.sort()
        print(
            f"ratio {name}/bare: median {statistics.median(values):.3f} over {len(values)} alternations "
            f"(quartiles {values[len(values) // 4]:.3f}-{values[3 * len(values) // 4]:.3f})"
        )
    print("goal: engine/bare >= 0.25; floor 0.10")


if __name__ == "__main__":
    main()
