"""The compiled search (kernel/fast/compiled_search.py) is the Python search, value for value.

Each test takes the same bot twice: once as it plays (the compiled search,
where the variant offers its game compiled) and once with the compiled game
withheld (``Model.compiled_values`` answering ``None``), so it searches
through the hooks.  Values must agree bit for bit, choices and whole games
exactly, under every rule option and with two to four seats.
"""

from __future__ import annotations

import random
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from treehouse.bots.lookahead import Model
from treehouse.bots.search import SearchBot
from treehouse.config import resolve
from treehouse.kernel.fast import compiled
from treehouse.kernel.engine import Control, Game
from treehouse.kernel.records import Record
from treehouse.kernel.turn import ONE_ROLLED_STEP
from treehouse.variants.classic.game import ClassicPosition, ClassicRules
from treehouse.variants.classic.actions import results
from treehouse.variants.classic.trio import HOUSE, TREE, all_trios, mirror
from tiers import CLASSIC_OPTION_SETS, bits, search_through_the_hooks

FACES = ("TIP", "SWAP", "HOP", "DIG", "AIM", "WILD")
STEP = ONE_ROLLED_STEP[0]

OPTION_SETS = CLASSIC_OPTION_SETS
pytestmark = pytest.mark.usefixtures("compiled_core")


def seated(plugins, rules, players: int, bot: SearchBot, seat: int) -> SearchBot:
    variant = plugins.variant("classic")(rules)
    game = Game(variant, [SearchBot() for _ in range(players)], random.Random(0))
    bot.seated(game, seat)
    return bot


def walk(plugins, rules, players: int, seed: int, steps: int):
    """A reachable position still in play: random legal moves from the start."""
    hooks = Game(plugins.variant("classic")(rules), [SearchBot() for _ in range(players)], random.Random(0)).hooks
    rng = random.Random(seed)
    state = ClassicPosition(HOUSE, (TREE,) * players, 0)
    for _ in range(steps):
        moves = [move for move in hooks.treehouse_legal_moves(state, STEP, rng.choice(FACES)) if not isinstance(move, Control)]
        if moves:
            after = hooks.treehouse_apply_move(state, STEP, rng.choice(moves))
            if hooks.treehouse_outcome(after, state.to_move) is not None:
                break
            state = after
        state = hooks.treehouse_end_turn(state)
    return hooks, state


rules = st.builds(ClassicRules, dig_in_place=st.booleans(), house_decline=st.sampled_from(["pass", "reroll"]), mirror_matches=st.booleans())


@settings(max_examples=30, deadline=None)
@given(rules=rules, players=st.integers(2, 4), seed=st.integers(0, 2**32), steps=st.integers(0, 30), depth=st.integers(1, 3), width=st.integers(1, 6), face=st.sampled_from(FACES))
def test_every_move_gets_the_python_searchs_value_bit_for_bit(plugins, rules, players, seed, steps, depth, width, face):
    hooks, state = walk(plugins, rules, players, seed, steps)
    moves = hooks.treehouse_legal_moves(state, STEP, face)
    if not moves:
        return
    bot = seated(plugins, rules, players, SearchBot(depth=depth, width=width), state.to_move)
    assert bot.model.compiled_values(state, STEP, moves, state.to_move, depth, width) is not None, "classic offers its game compiled"
    fast = bot.advise(state, STEP, face, moves)
    with search_through_the_hooks():
        slow = bot.advise(state, STEP, face, moves)
    assert bits(fast) == bits(slow)


def test_a_deeper_and_narrower_search_too(plugins):
    """Depth 4 (two turns of each seat), width 2: the width's ties broken alike at every level."""
    checked = 0
    for seed in range(3):
        hooks, state = walk(plugins, ClassicRules(), 3, seed, 12)
        for face in ("WILD", "TIP"):
            moves = hooks.treehouse_legal_moves(state, STEP, face)
            if moves:
                bot = seated(plugins, ClassicRules(), 3, SearchBot(depth=4, width=2), state.to_move)
                fast = bot.advise(state, STEP, face, moves)
                with search_through_the_hooks():
                    slow = bot.advise(state, STEP, face, moves)
                assert bits(fast) == bits(slow)
                checked += 1
    assert checked >= 3


def play(plugins, rules, seats: int, seed: int) -> list:
    record = Record()
    variant = plugins.variant("classic")(rules)
    Game(variant, [SearchBot() for _ in range(seats)], random.Random(seed), turn_cap=40, record=record).play()
    return record.events


GAMES = [(options, seats) for options in OPTION_SETS for seats in (2, 3)] + [("official", 4), ("everything-off", 4)]


@pytest.mark.parametrize(("options", "seats"), GAMES, ids=[f"{o}-{s}" for o, s in GAMES])
def test_whole_games_of_search_bots_are_the_python_searchs_games(plugins, options, seats):
    rules = OPTION_SETS[options]
    fast = play(plugins, rules, seats, seed=seats)
    with search_through_the_hooks():
        slow = play(plugins, rules, seats, seed=seats)
    assert len(fast) > 4
    assert fast == slow


def test_the_compiled_search_decides_unbudgeted_searches_and_only_those(plugins, monkeypatch):
    """A search with a ``nodes`` or ``seconds`` budget counts its own moves in
    Python; one without decides in one compiled call."""
    answers = []
    real = Model.compiled_values

    def watched(*args):
        answers.append(real(*args))
        return answers[-1]

    monkeypatch.setattr(Model, "compiled_values", watched)
    state = ClassicPosition(HOUSE, (TREE, TREE), 0)
    for bot, used in ((SearchBot(), True), (SearchBot(nodes=500), False), (SearchBot(seconds=5.0), False)):
        seated(plugins, ClassicRules(), 2, bot, 0)
        moves = bot.model.hooks.treehouse_legal_moves(state, STEP, "WILD")
        answers.clear()
        bot.choose(state, STEP, "WILD", moves, random.Random(1))
        assert (bool(answers) and None not in answers) is used, bot.__dict__
        assert bot.last_nodes > 0


def test_a_house_rule_on_a_hook_of_the_turn_leaves_the_search_to_the_hooks(plugins):
    """mirror-matches answers treehouse_outcome: no compiled game, and search bots play through the hooks."""
    effective = resolve(plugins, variant="classic", overrides=["house_rules=[mirror-matches]"])
    game = effective.new_game(plugins, [SearchBot(), SearchBot()], random.Random(2))
    assert game.hooks.treehouse_compiled_game(game.state, STEP) is None
    plain = Game(plugins.variant("classic")(), [SearchBot(), SearchBot()], random.Random(2))
    assert plain.hooks.treehouse_compiled_game(plain.state, STEP) is not None


def test_off_the_core_there_is_no_compiled_game(plugins, monkeypatch):
    monkeypatch.setenv(compiled.COMPILED_ENV, "0")
    compiled.reset_for_tests()
    game = Game(plugins.variant("classic")(ClassicRules(max_players=9)), [SearchBot(), SearchBot()], random.Random(2))
    assert game.hooks.treehouse_compiled_game(game.state, STEP) is None


def one_action_from(house) -> list:
    """The trios one action from the House: a seat holding one can win this turn."""
    return sorted({result for face in FACES[:-1] for result, _words in results(house, face)}, key=all_trios().index)


@settings(max_examples=30, deadline=None)
@given(rules=rules, house=st.sampled_from(all_trios()), data=st.data(), depth=st.integers(1, 3), width=st.integers(1, 6), face=st.sampled_from(FACES))
def test_wins_and_losses_in_the_head_are_valued_alike(plugins, rules, house, data, depth, width, face):
    """Seats a move or two from winning, so the search meets wins and losses
    at every depth (sooner wins worth more), ties and wins on another's turn."""
    near = one_action_from(house)
    players = data.draw(st.integers(2, 4))
    table = tuple(data.draw(st.sampled_from(near) if data.draw(st.booleans()) else st.sampled_from(all_trios())) for _ in range(players))
    assume(house not in table and not (rules.mirror_matches and mirror(house) in table))
    state = ClassicPosition(house, table, data.draw(st.integers(0, players - 1)))
    hooks = Game(plugins.variant("classic")(rules), [SearchBot() for _ in range(players)], random.Random(0)).hooks
    moves = hooks.treehouse_legal_moves(state, STEP, face)
    if not moves:
        return
    bot = seated(plugins, rules, players, SearchBot(depth=depth, width=width), state.to_move)
    fast = bot.advise(state, STEP, face, moves)
    with search_through_the_hooks():
        slow = bot.advise(state, STEP, face, moves)
    assert bits(fast) == bits(slow)
