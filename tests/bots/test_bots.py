"""The bots themselves: registration, forced wins, determinism, options, evaluations, th solve."""

from __future__ import annotations

import random
import subprocess

import pytest

from treehouse.bots.options import BotOptionError, make_bot, parse_bot_spec
from treehouse.variants.classic.perfect import PerfectBot
from treehouse.variants.classic.solver import classic_game, value_iteration
from treehouse.errors import TreehouseError, UnknownNameError
from treehouse.kernel.engine import ONE_ROLLED_STEP, Game
from treehouse.variants.classic.game import ClassicPosition
from treehouse.variants.classic.trio import HOUSE, TREE, all_trios, parse_trio
from treehouse.variants.fences.evaluate import WON, evaluate

STEP = ONE_ROLLED_STEP[0]
#: One AIM away from the House (L< S^ M>), with other AIMs that do not win.
NEAR = parse_trio("L> S^ M>")


def test_strength_ladder_is_registered(plugins):
    strengths = {name: plugins.bot(name).strength for name in ("random", "greedy", "search", "perfect")}
    assert strengths["random"] < strengths["greedy"] < strengths["search"] < strengths["perfect"]


def seated(plugins, classic, spec, state):
    bot = make_bot(plugins, spec)
    game = Game(classic, [bot, make_bot(plugins, "random")], random.Random(1))
    game.state = state
    return bot


@pytest.mark.parametrize("spec", ["search", "search(depth=1)", "search(depth=3, width=1)", "search(nodes=50)", "greedy"])
def test_a_win_in_one_move_is_found(plugins, classic, spec):
    state = ClassicPosition(HOUSE, (NEAR, TREE), 0)
    moves = classic.treehouse_legal_moves(state, STEP, "AIM")
    winning = [m for m in moves if m.result == HOUSE]
    assert winning and len(moves) > 1
    for seed in range(5):
        bot = seated(plugins, classic, spec, state)
        assert bot.choose(state, STEP, "AIM", moves, random.Random(seed)) == winning[0]


def test_search_wins_through_the_house_with_a_wild(plugins, classic):
    # Own trio three actions from the House; a WILD can turn the House into it.
    own = parse_trio("L> S^ M^")
    house = parse_trio("L> S< M^")
    state = ClassicPosition(house, (own, TREE), 0)
    moves = classic.treehouse_legal_moves(state, STEP, "WILD")
    bot = seated(plugins, classic, "search", state)
    choice = bot.choose(state, STEP, "WILD", moves, random.Random(0))
    assert choice.target == "house" and choice.result == own


def test_bots_replay_from_the_seed(plugins, classic):
    def play(seed):
        game = Game(classic, [make_bot(plugins, "search(depth=2)"), make_bot(plugins, "greedy")], random.Random(seed))
        game.play()
        return game.turn, game.state, game.outcome

    assert play(3) == play(3)


def test_perfect_plays_from_a_table_and_searches_other_games(plugins, classic):
    subset = [t for t in all_trios() if len(t) == 3 and "".join(s[0].size.value for s in t) == "LSM"]
    bot = PerfectBot.from_solution(value_iteration(classic_game(classic.rules, trios=subset)))
    state = ClassicPosition(HOUSE, (NEAR, NEAR), 0)
    moves = tuple(m for m in classic.treehouse_legal_moves(state, STEP, "AIM") if m.result in subset)
    assert bot.choose(state, STEP, "AIM", moves, random.Random(0)).result == HOUSE
    # no table for other games: it plays as the search bot
    fences = plugins.variant("fences")()
    perfect = make_bot(plugins, "perfect")
    game = Game(fences, [perfect, make_bot(plugins, "random")], random.Random(1))
    assert perfect.fallback is not None and perfect.fallback.depth_for(game.state) == 2
    perfect = make_bot(plugins, "perfect")
    Game(classic, [perfect] + [make_bot(plugins, "random")] * 2, random.Random(1))
    assert perfect.fallback is not None


def test_search_plays_a_variant_without_an_evaluation(plugins, classic):
    from treehouse.plugins import game_hooks

    class Blind(type(classic)):
        treehouse_evaluate = None  # no evaluation: the search plays for outcomes only

    variant = Blind()
    game = Game(variant, [make_bot(plugins, "search(depth=2)"), make_bot(plugins, "greedy")], random.Random(2), turn_cap=300, hooks=game_hooks(variant))
    assert game.play() is not None


# -- bot specs --


def test_specs_parse():
    assert parse_bot_spec("greedy") == ("greedy", {})
    assert parse_bot_spec(" Search( depth=3, width=4 ) ") == ("search", {"depth": 3, "width": 4})
    assert parse_bot_spec("search(seconds=0.5)") == ("search", {"seconds": 0.5})


@pytest.mark.parametrize(
    "spec, message",
    [
        ("alphazero(iterations=abc)", "unknown bot 'alphazero'; known: greedy, mcts, perfect, policy, random, search"),
        ("search(depth=abc)", "bad value 'abc' for option 'depth' of bot 'search' in 'search(depth=abc)': expected int, e.g. depth=0"),
        ("search(iterations=400)", "bot 'search' has no option 'iterations'; its options: depth, width, nodes, seconds"),
        ("search(depth)", "bad option 'depth' in bot 'search(depth)': expected key=value"),
        ("search(depth=2, depth=3)", "option 'depth' is given twice"),
        ("search(depth=-1)", "search: depth is from 0 to 5"),
        ("search(width=0)", "search: width is from 1 to 64, not 0"),
        ("greedy(x=1)", "bot 'greedy' has no option 'x'; its options: (none)"),
        ("search(depth=2", "bad bot 'search(depth=2': expected NAME or NAME(key=value, ...)"),
    ],
)
def test_spec_mistakes_are_one_line(plugins, spec, message):
    with pytest.raises(TreehouseError) as caught:
        make_bot(plugins, spec)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert isinstance(caught.value, (BotOptionError, UnknownNameError)) or "must be" in str(caught.value)


def test_depth_zero_means_automatic_per_turn(plugins, classic):
    bot = make_bot(plugins, "search")
    game = Game(classic, [bot, make_bot(plugins, "random")], random.Random(1))
    assert bot.depth_for(game.state) == 3  # classic: a turn is one step
    fences = plugins.variant("fences")()
    bot = make_bot(plugins, "search")
    game = Game(fences, [bot, make_bot(plugins, "random")], random.Random(1))
    game.play_turn()  # the setup phase: both Stacks drawn and placed
    assert bot.depth_for(game.state) == 2  # a three-step turn: the rest of it
    assert make_bot(plugins, "search(depth=4)").depth_for(game.state) == 4


# -- evaluations --


def test_classic_evaluation_counts_actions_to_the_house(classic):
    assert classic.treehouse_evaluate(ClassicPosition(HOUSE, (TREE, TREE), 0), 0) == 0.0
    near = ClassicPosition(HOUSE, (NEAR, TREE), 0)
    assert classic.treehouse_evaluate(near, 0) == 3.0  # the Tree is 4 actions away, NEAR 1
    assert classic.treehouse_evaluate(near, 1) == -3.0
    assert classic.treehouse_evaluate(ClassicPosition(HOUSE, (HOUSE, TREE), 0), 0) == 100.0
    assert classic.treehouse_evaluate(ClassicPosition(HOUSE, (HOUSE, TREE), 0), 1) == -100.0


def test_fences_evaluation(plugins):
    variant = plugins.variant("fences")({"start": "corners"})
    from treehouse.plugins import game_hooks

    state = game_hooks(variant).treehouse_setup(variant, 2, random.Random(4))
    assert evaluate(state, 0) == pytest.approx(-evaluate(state, 1))
    shorter = state._replace(stacks=(state.stacks[0][:-1], state.stacks[1]))
    assert evaluate(shorter, 0) < evaluate(state, 0)
    board = list(state.board)
    board[board.index(1)] = None
    out = state._replace(board=tuple(board), stacks=(state.stacks[0], ()), out=(0, 3))
    assert evaluate(out, 0) == WON and evaluate(out, 1) == -WON


# -- th solve --


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "3"], "error: th solve solves only 2 players, not 3"),
        (["--variant", "fences"], "error: th solve solves only classic, not fences"),
        (["--set", "dig_in_place=maybe"], "error: --set: rules.dig_in_place"),
    ],
)
def test_th_solve_refuses_in_one_line(args, message):
    done = subprocess.run(["th", "solve", *args], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip().startswith(message) and len(done.stderr.strip().splitlines()) == 1
