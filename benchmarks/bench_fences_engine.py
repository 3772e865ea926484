"""Fences throughput: the full engine against a bare loop over the same rules.

Run:  python benchmarks/bench_fences_engine.py [--games N] [--chunk C] [--seed S]

Every loop plays two-player random-versus-random Fences games (the defaults
of ``variants/fences.yaml``, turn cap 500) from the same seeds.

* engine: treehouse.kernel.engine.Game with the Fences plugin and random
  bots, through every hook, as a simulation runs it (no record kept);
* engine+record: the same, also recording every event in memory, as
  ``th play`` does;
* engine+house: the engine with both Fences house rules on
  (``variants/fences-house-rules.yaml``): their wrapper takes
  ``treehouse_turn_steps`` off the engine's direct path.  The house rules
  change the games, so this row plays other turns: compare it per turn;
* bare: a plain loop that calls the Fences rules functions itself (the
  legal moves of each step, the move's effect, the Hits and the Damage),
  with the engine's random streams drawn in the engine's order and no
  engine, hooks, variant object or seats.  Unlike classic's bare loop it
  cannot use precomputed tables (the positions are far too many), so the
  ratio measures what the engine and the plugin layer add to the rules,
  not the rules' own cost.

The engine and bare loops play the very same games: the run checks that
they play the same number of turns.  The figure that matters is the ratio
engine/bare measured in the same run (the median of the ratios of
alternating chunks); absolute turns per second depend on the machine and
its load.

Measured on the shared 2-core development machine (3000 games, 30
alternations of 100): engine/bare median 0.789 (quartiles 0.683-0.962),
engine+record/bare 0.752, engine+house/bare 0.748; 3,530 engine turns/s
against 4,390 bare.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from treehouse.config import resolve
from treehouse.kernel.engine import Game
from treehouse.kernel.records import Record
from treehouse.plugins import load_plugins
from treehouse.variants.fences.actions import action_moves, fence_moves, perform, stack_moves
from treehouse.variants.fences.game import STEP_INDEX, STEPS, Fences, FencesRules, advance, setup_position
from treehouse.variants.fences.hits import apply_damage, line_hits

PLAYERS = 2


def engine_games(games: int, seed: int, recorded: bool = False, ruleset: str = "fences") -> int:
    plugins = load_plugins()
    effective = resolve(plugins, ruleset)
    bot = plugins.bot("random").factory
    turns = 0
    for index in range(games):
        record = Record() if recorded else None
        game = effective.new_game(plugins, [bot() for _ in range(PLAYERS)], random.Random(seed + index), record=record)
        game.play()
        turns += game.turn
    return turns


def bare_games(games: int, seed: int, turn_cap: int = 500) -> int:
    rules = FencesRules()
    faces = Fences.die.faces
    swap_colourless, every_check, uniform_dig = rules.swap_outside_ignores_colour, rules.line_hits == "every_check", rules.uniform_dig
    fence, act, stack = STEPS
    turns = 0
    for game_index in range(games):
        rng = random.Random(seed + game_index)
        seat_rngs = [random.Random(rng.getrandbits(64)) for _ in range(PLAYERS)]  # drawn first, as the engine does
        state = setup_position(rules, PLAYERS, rng)
        turn, over = 0, False
        while not over and turn < turn_cap:
            turn += 1
            seat = state.to_move
            choose = seat_rngs[seat].random
            for step in (fence, act, stack):
                if step is act:
                    while True:
                        moves = action_moves(state, seat, faces[int(rng.random() * 6)], uniform_dig)
                        if moves:
                            break
                else:
                    moves = fence_moves(state, seat) if step is fence else stack_moves(state, seat, rules.outside_attempts)
                    if not moves:
                        continue  # no Fence can move: the step is skipped
                move = moves[int(choose() * len(moves))]
                effect = perform(state, seat, move, swap_colourless)
                after = advance(effect.state, step)
                hits = list(effect.hits) + line_hits(state, after, effect.bounced, every_check)
                state = apply_damage(after, hits, 3 * state.turn + STEP_INDEX[step.name] + 1)
                if len(state.live()) < PLAYERS:  # two players: the first Stack emptied ends the game
                    over = True
                    break
            if not over:
                state = state._replace(to_move=1 - seat, phase=0)
        turns += turn
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games for each loop in all (default 3000)")
    parser.add_argument("--chunk", type=int, default=100, help="games per alternation (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engine_games(args.chunk, args.seed)  # warm every loop's caches before timing
    engine_games(args.chunk, args.seed, ruleset="fences-house-rules")
    bare_games(args.chunk, args.seed)
    # The machines are shared and noisy: alternate short chunks of the loops
    # so that all see the same load, and report the median of the chunk ratios.
    loops = {
        "engine": lambda seed: engine_games(args.chunk, seed),
        "engine+record": lambda seed: engine_games(args.chunk, seed, recorded=True),
        "engine+house": lambda seed: engine_games(args.chunk, seed, ruleset="fences-house-rules"),
        "bare": lambda seed: bare_games(args.chunk, seed),
    }
    ratios = {name: [] for name in loops if name != "bare"}
    totals = {name: [0, 0.0] for name in loops}
    for start in range(0, args.games, args.chunk):
        seed = args.seed + start
        rates, played = {}, {}
        for name, run in loops.items():
            began = time.perf_counter()
            turns = run(seed)
            seconds = time.perf_counter() - began
            totals[name][0] += turns
            totals[name][1] += seconds
            rates[name], played[name] = turns / seconds, turns
        if not played["engine"] == played["engine+record"] == played["bare"]:
            raise SystemExit(f"seeds {seed}..: the engine played {played['engine']} turns, the bare loop {played['bare']}: not the same games")
        for name in ratios:
            ratios[name].append(rates[name] / rates["bare"])
    print(f"{'loop':<15}{'games':>8}{'turns':>10}{'seconds':>9}{'turns/s':>12}")
    for name, (turns, seconds) in totals.items():
        print(f"{name:<15}{args.games:>8}{turns:>10}{seconds:>9.2f}{turns / seconds:>12,.0f}")
    for name, values in ratios.items():
        values.sort()
        print(
            f"ratio {name}/bare: median {statistics.median(values):.3f} over {len(values)} alternations "
            f"(quartiles {values[len(values) // 4]:.3f}-{values[3 * len(values) // 4]:.3f})"
        )
    print("engine and bare played the same games (same turns in every chunk)")


if __name__ == "__main__":
    main()
