"""Fences throughput: the full engine against a bare loop over the same rules.

Run:  python benchmarks/bench_fences_engine.py [--games N] [--chunk C] [--seed S]

Every loop plays two-player random-versus-random Fences games (the defaults
of ``variants/fences.yaml`` but ``start: corners``, turn cap 500) from the
same seeds.  The corners start keeps the seed's setup phase (a few draws
before turn 1) out of a benchmark of turns.

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

Measured on the idle 2-core development machine after the seed's defaults,
the Hit events and the chance hook (1500 games, 15 alternations of 100):
engine/bare median 0.718 (quartiles 0.701-0.763), engine+record/bare 0.720,
engine+house/bare 0.668; 8,366 engine turns/s against 11,420 bare.  (Before
them, on a loaded machine: engine/bare 0.789, quartiles 0.683-0.962.)
"""

from __future__ import annotations

import random

from treehouse.config import resolve
from alternate import alternate, arguments

from treehouse.kernel.records import Record
from treehouse.plugins import load_plugins
from treehouse.variants.fences.game import Fences, FencesRules
from treehouse.variants.fences.rules import (
    STEPS, action_moves, advance, check_hits, check_number, fence_moves, perform, resolve_damage, setup_position, stack_moves,
)

PLAYERS = 2
START = ("start=corners",)


def engine_games(games: int, seed: int, recorded: bool = False, ruleset: str = "fences") -> int:
    plugins = load_plugins()
    effective = resolve(plugins, ruleset, overrides=START)
    bot = plugins.bot("random").factory
    turns = 0
    for index in range(games):
        record = Record() if recorded else None
        game = effective.new_game(plugins, [bot() for _ in range(PLAYERS)], random.Random(seed + index), record=record)
        game.play()
        turns += game.turn
    return turns


def bare_games(games: int, seed: int, turn_cap: int = 500) -> int:
    rules = FencesRules(start="corners")
    faces = Fences.die.faces
    swap_colourless, swap_moved, uniform_dig = rules.swap_outside_ignores_colour, rules.swap_outside_considered_moved, rules.uniform_dig
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
                effect = perform(state, seat, move, swap_colourless, swap_moved)
                after = advance(effect.state, step)
                state = resolve_damage(after, check_hits(state, after, effect, rules), check_number(state, step))[0]
                if len(state.live()) < PLAYERS:  # two players: the first Stack emptied ends the game
                    over = True
                    break
            if not over:
                state = state._replace(to_move=1 - seat, phase=0)
        turns += turn
    return turns


def main() -> None:
    args = arguments(__doc__.splitlines()[0])
    alternate(
        {
            "engine": lambda games, seed: engine_games(games, seed),
            "engine+record": lambda games, seed: engine_games(games, seed, recorded=True),
            "engine+house": lambda games, seed: engine_games(games, seed, ruleset="fences-house-rules"),
            "bare": bare_games,
        },
        args,
        same_games=("engine", "engine+record"),
    )


if __name__ == "__main__":
    main()
