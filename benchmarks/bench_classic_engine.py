"""Classic Treehouse throughput: the full engine against a bare loop over the same rules.

Run:  python benchmarks/bench_classic_engine.py [--games N] [--seed S]

Both loops play two-player random-versus-random games from the same seeds.

* engine: treehouse.kernel.engine.Game with the classic plugin and random
  bots, through every hook, as a simulation runs it (no record kept);
* engine+record: the same, also recording every event in memory, as
  ``th play`` does;
* simulate: what ``th simulate --variant classic`` runs (one process):
  :func:`treehouse.playtest.work.play_chunk` with its observer counting the
  faces, the decisions, the variant's statistics and the lead (metrics on);
* simulate (engine): the same with the compiled playout withheld, every
  game played through the engine and counted by the observer: the
  reference tier of ``simulate`` (the rows above it use the compiled
  playout of random seats, playtest/compiled_playout.py, loaded first as a
  run of 2,000 games or more loads it);
* th simulate: the command itself (``th simulate --variant classic --jobs 1
  --json``, through Typer's runner in this process; one process, as every
  row here is, where the command's default would hand a long run to a
  worker per CPU): the same games as ``simulate``,
  plus parsing the options, reading the rule set, the metrics and the JSON
  (a few ms an invocation, which a user pays once a run but this row once
  an alternation: raise ``--chunk`` to see it fade).  Typer builds the
  command group once in the process, as in a user's ``th`` (about 20 ms
  that a user pays once, with Python's start and the imports, which no row
  counts);
* openspiel game: the peer reference of the issue, classic written directly
  as an OpenSpiel Python game over the bare loop's tables
  (``openspiel_classic.py``), played random against random through
  ``chance_outcomes``, ``legal_actions`` and ``apply_action`` (needs the
  openspiel extra);
* hook floor: the bare loop's tables and draws, but each thing a turn asks
  of the kernel's hooks (the legal moves, the seat's choice, applying the
  move, the outcome, the end of the turn) a plain function call with that
  hook's arguments, on positions that are plain tuples of integers: the
  cheapest hooks there could be, with no engine around them.  It plays the
  very same games as the bare loop;
* bare:   a plain loop over successor tables precomputed for all 204 trios
  and each action (the same rules: own trio first, else the House or a pass,
  else roll again; WILD on either), with one random.Random and no objects.

The figure that matters is the ratio engine/bare measured in the same run;
absolute turns per second depend on the machine and its load.  The hook floor
runs at about 0.5 of the bare loop here: five calls a turn cost as much as
the rest of a turn, so no engine that asks the hooks a turn's questions one
call at a time can pass that.

Issue 12's goals are simulate/bare >= 0.25 and engine/bare >= 0.5.  Its
figures (engine 0.22, simulate 0.049, the OpenSpiel game 0.083) were taken
against a slower bare loop than this one: here the code as it was when the
issue was filed (commit 805360b) measures engine 0.115 and simulate 0.032,
and the OpenSpiel game 0.046, so this bare loop is about 1.8x as fast as the
issue's.  Read this harness's ratios against those.  To measure an older commit, copy this file and alternate.py
into a worktree of it and run them with that worktree's src first on
PYTHONPATH.
"""

from __future__ import annotations

import random

from alternate import alternate, arguments

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


def classic_batch(seed: int):
    from treehouse.playtest.work import Batch, RuleSpec
    from treehouse.variants.classic.game import ClassicRules

    rules = tuple(sorted(ClassicRules().model_dump(mode="json").items()))
    return Batch((RuleSpec("classic", "classic", rules, TURN_CAP),), ("random", "random"), seed=seed)


def simulate_games(games: int, seed: int) -> int:
    from treehouse.playtest.work import play_chunk

    return play_chunk(classic_batch(seed), 0, games).sides[0].turns_total


def simulate_engine_games(games: int, seed: int) -> int:
    """``simulate`` with the compiled playout withheld: every game through the engine and its observer."""
    from treehouse.playtest.work import _Table, play_chunk

    playout = _Table.compiled_playout
    _Table.compiled_playout = lambda self, load=False: None
    try:
        return play_chunk(classic_batch(seed), 0, games).sides[0].turns_total
    finally:
        _Table.compiled_playout = playout


def load_the_playout() -> bool:
    """Load the compiled playout as a run of 2,000 games or more does (or any
    process where the core is loaded already): then ``simulate`` and ``th
    simulate`` play with it, whatever ``--chunk``.  False where it cannot be
    (the reference tier, or an older commit without it)."""
    from treehouse.playtest import work
    from treehouse.plugins import load_plugins

    table = getattr(work, "_Table")(classic_batch(1).rule_sets[0], ("random", "random"), load_plugins())
    return getattr(table, "compiled_playout", lambda load: None)(load=True) is not None


def cli_games(games: int, seed: int) -> int:
    """``th simulate --variant classic --games N --seed S --json`` as typed, through Typer (in this process)."""
    import json

    import typer.main
    import typer.testing
    from typer.testing import CliRunner

    from treehouse.cli import app

    if not hasattr(cli_games, "command"):
        # Typer builds the command group (every command's options) once a process, as a user's `th` does: not once an alternation
        cli_games.command = typer.main.get_command(app)
        typer.testing._get_command = lambda _app: cli_games.command
    result = CliRunner().invoke(app, ["simulate", "--variant", "classic", "--games", str(games), "--seed", str(seed), "--jobs", "1", "--json"])
    if result.exit_code != 0:
        raise SystemExit(result.output)
    return json.loads(result.stdout)["game_turns_total"]


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


def floor_hooks(tables):
    """The hook floor's five hooks over the bare loop's tables (see the module's docstring)."""
    trios, index, table = tables
    wild = FACES.index("WILD")
    # a move is (on_house, result); positions are (house, trio of seat 0, trio of seat 1, to_move)
    own_moves = [[tuple((False, r) for r in row[face]) for face in range(6)] for row in table]
    house_moves = [[tuple((True, r) for r in row[face]) for face in range(6)] for row in table]
    house_or_pass = [[house_moves[i][face] + (None,) if row[face] else () for face in range(6)] for i, row in enumerate(table)]

    def legal_moves(state, step, face):
        house, first, second, to_move = state
        mine = own_moves[first if to_move == 0 else second][face]
        if face == wild:
            return mine + house_moves[house][face]
        return mine or house_or_pass[house][face]

    def choose(state, step, face, moves, rng):
        return moves[int(rng.random() * len(moves))]

    def apply_move(state, step, move):
        house, first, second, to_move = state
        on_house, result = move
        if on_house:
            return (result, first, second, to_move)
        return (house, result, second, to_move) if to_move == 0 else (house, first, result, to_move)

    def outcome(state, mover):
        house, first, second, _ = state
        return None if house != first and house != second else mover

    def end_turn(state):
        house, first, second, to_move = state
        return (house, first, second, 1 - to_move)

    return legal_moves, choose, apply_move, outcome, end_turn


def hook_floor_games(games: int, seed: int, tables, hooks) -> int:
    """The bare loop's games, with a turn's five hook questions asked as plain calls (see the module's docstring)."""
    trios, index, table = tables
    tree, house0 = index[TREE], index[HOUSE]
    legal_moves, choose, apply_move, outcome, end_turn = hooks
    turns = 0
    for game_index in range(games):
        rng = random.Random(seed + game_index)  # dice and seats draw from one stream, as in the bare loop
        state, turn = (house0, tree, tree, 0), 0
        while turn < TURN_CAP:
            turn += 1
            mover = state[3]
            while True:
                face = int(rng.random() * 6)
                moves = legal_moves(state, None, face)
                if moves:
                    move = choose(state, None, face, moves, rng)
                    break
            if move is not None:  # None: the pass
                state = apply_move(state, None, move)
            if outcome(state, mover) is not None:
                break
            state = end_turn(state)
        turns += turn
    return turns


def main() -> None:
    args = arguments(__doc__.splitlines()[0])
    tables = successor_tables()
    loops = {
        "engine": lambda games, seed: engine_games(games, seed),
        "engine+record": lambda games, seed: engine_games(games, seed, recorded=True),
        "simulate": simulate_games,
        "th simulate": cli_games,
    }
    if load_the_playout():
        loops["simulate (engine)"] = simulate_engine_games
    else:
        print("(the compiled playout is not in use: simulate and th simulate play through the engine)")
    try:
        import pyspiel

        import openspiel_classic
    except ImportError:
        print("(no openspiel game row: the openspiel extra is not installed)")
    else:
        peer = pyspiel.load_game(openspiel_classic.register(tables))
        loops["openspiel game"] = lambda games, seed: openspiel_classic.play(peer, games, seed)
    hooks = floor_hooks(tables)
    loops["hook floor"] = lambda games, seed: hook_floor_games(games, seed, tables, hooks)
    loops["bare"] = lambda games, seed: bare_games(games, seed, tables)
    # the peer game and the floor draw from their generators exactly as the bare loop does: the very same games
    alternate(loops, args, same_games=tuple(name for name in loops if name in ("openspiel game", "hook floor")))
    print("goals (issue 12): simulate/bare >= 0.25, engine/bare >= 0.5")


if __name__ == "__main__":
    main()
