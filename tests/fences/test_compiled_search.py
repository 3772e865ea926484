"""Fences' compiled search is the Python search, value for value (docs/rules/tiers.md).

Fences' core binds the generic compiled search (kernel/fast/compiled_search.py)
to its kernels (``status``, ``legal``, ``play``, ``advance``, ``evaluate``:
variants/fences/fast/core.py).  Each test takes the same search bot twice:
as it plays (one compiled call a decision) and with the compiled game
withheld (the Python search over the hooks, bots/search.py, the
specification).  Values must agree bit for bit and the choices exactly,
under every rule option, the house rules that keep the core, and two to
four seats; the kernels' legal moves, and their positions after a move and
at the next step, must be the reference rules'.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from treehouse.bots.greedy import GreedyBot
from treehouse.bots.random_bot import RandomBot
from treehouse.bots.search import SearchBot
from treehouse.config import resolve
from treehouse.kernel.fast.compiled_game import GOES_ON
from treehouse.kernel.turn import Control, play_move, turn_cut_short
from treehouse.variants.fences.fast import looks
from treehouse.variants.fences.rules import STEPS, lines
from seats import Recording
from tiers import FENCES_HOUSE_RULES, FENCES_OPTIONS, bits, search_through_the_hooks

pytestmark = pytest.mark.usefixtures("compiled_core")


def rules_of(plugins, options: dict, house_rules=()):
    overrides = [f"{key}={value}" for key, value in options.items()]
    if house_rules:
        overrides.append(f"house_rules=[{','.join(house_rules)}]")
    return resolve(plugins, variant="fences", overrides=overrides)


def decisions(plugins, effective, kinds, seed, turn_cap):
    """Every decision of one seeded game with these seats, bar the setup's; and the game."""
    seen: list = []
    game = effective.new_game(plugins, [Recording(kind(), seen) for kind in kinds], random.Random(seed))
    game.turn_cap = turn_cap
    game.play()
    return [(state, step, face, moves) for state, step, face, moves in seen if not step.setup], game


def same_search(game, state, step, face, moves, depth=0, width=6) -> None:
    """The compiled search and the Python one: the same values, bit for bit, and the same choice."""
    bot = SearchBot(depth=depth, width=width)
    bot.seated(game, state.to_move)
    assert bot.model.compiled_values(state, step, moves, state.to_move, bot.depth_for(state), width) is not None, "Fences offers its game compiled"
    fast = bot.advise(state, step, face, moves)
    chosen = bot.choose(state, step, face, moves, random.Random(5))
    with search_through_the_hooks():
        slow = bot.advise(state, step, face, moves)
        assert bot.choose(state, step, face, moves, random.Random(5)) == chosen
    assert bits(fast) == bits(slow)


def flags(game):
    return looks.flags_of(game.variant.rules, game.variant.core_verdicts(*game.variant.GAME_HOOKS))


def same_steps(game, state, step, face, moves) -> None:
    """The kernels' legal moves are the reference's, in order; each move
    played (``play``) and the next step reached (``advance``) give the
    reference rules' positions (apply, resolve, the turn ended where it is
    cut short or complete) and outcome."""
    hooks, kernels, tables = game.hooks, looks.kernels(), flags(game)
    encoded = looks.position(state, step)
    assert looks.legal_codes(game.variant.rules, state, step, face) == [looks.code(move) for move in moves]
    codes = np.empty(looks.most_choices(state), dtype=np.int64)
    number = looks.FACE_CODE[face] if step.rolls else -1
    count = kernels.legal(tables, encoded, number, codes)
    assert codes[:count].tolist() == [looks.code(move) for move in moves]
    after, child = np.empty_like(encoded), np.empty_like(encoded)
    for move in moves[:: max(1, len(moves) // 40)]:
        reference, _events = play_move(hooks, state, step, move)
        outcome = hooks.treehouse_outcome(reference, state.to_move)
        winners = kernels.play(tables, encoded, looks.code(move), after)
        if outcome is not None:
            assert winners == sum(1 << seat for seat in outcome.winners), move
            continue
        assert winners == GOES_ON, move
        if not turn_cut_short(state, reference) and step.name == STEPS[-1].name:
            reference = hooks.treehouse_end_turn(reference)
        kernels.advance(tables, after, child)
        expected = looks.encode_position(reference)
        expected[looks.core_layout.P_STEP] = reference.phase
        width = looks.core_layout.LINES_WIDTH
        assert child[:-width].tolist() == expected[:-width].tolist(), (move, state)
        count = child[-width]  # the lines of sight handed on, where they were: the reference's
        if count >= 0:
            found = [tuple(line) for line in child[1 - width :][: 4 * count].reshape(-1, 4).tolist()]
            assert found == [(line.fence_square, looks.FENCE_CODE[line.fence], line.stack_square, line.seat) for line in lines(reference)], move


GAMES = [
    (2, {}, ()),
    (3, {}, ()),
    (4, {}, ()),
    (2, {"line_hits": "every_check", "outside_attempts": "true", "swap_outside_ignores_colour": "false", "start": "corners"}, ()),
    (3, {"one_hit_per_piece": "false", "all_out_at_once": "tie", "uniform_dig": "hit", "turn_limit": 6, "mover_hit_on_stack": "true"}, ()),
    (2, {"sets": "rainbow-xeno", "uniform_dig": "reroll", "turn_limit": 5, "turn_limit_scoring": "draw", "swap_outside_considered_moved": "false"}, ()),
    (2, {"start": "corners"}, ("large-fences-only", "no-colour-immunity")),
]


@pytest.mark.parametrize(("players", "options", "house_rules"), GAMES, ids=[f"{p}-{'-'.join(map(str, o.values())) or 'seed'}-{'+'.join(h)}" for p, o, h in GAMES])
def test_every_decision_of_recorded_games_searches_the_same_on_both_tiers(plugins, players, options, house_rules):
    effective = rules_of(plugins, options, house_rules)
    seen, game = decisions(plugins, effective, [SearchBot] + [GreedyBot] * (players - 1), f"compiled:{players}", 6)
    assert len(seen) > 6
    for state, step, face, moves in seen:
        if any(isinstance(move, Control) for move in moves):
            continue
        same_search(game, state, step, face, moves)
        same_steps(game, state, step, face, moves)


FACES = ("TIP", "SWAP", "HOP", "DIG", "AIM", "WILD")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    options=st.fixed_dictionaries(FENCES_OPTIONS), house_rules=FENCES_HOUSE_RULES, seed=st.integers(0, 2**32), steps=st.integers(0, 120),
    depth=st.integers(1, 3), width=st.integers(1, 6), face=st.sampled_from(FACES),
)
def test_reachable_positions_search_the_same_on_both_tiers_with_every_face(plugins, options, house_rules, seed, steps, depth, width, face):
    """A position ``steps`` decisions into a random game under random rule
    options and house rules, searched ``depth`` steps ``width`` wide, for any face."""
    options = dict(options)
    players = options.pop("players")
    effective = rules_of(plugins, {key: str(value).lower() for key, value in options.items()}, house_rules)
    seen, game = decisions(plugins, effective, [RandomBot] * players, seed, 40)
    seen = [(state, step) for state, step, _face, moves in seen if not any(isinstance(move, Control) for move in moves)]
    if not seen:
        return
    state, step = seen[min(steps, len(seen) - 1)]
    face = face if step.rolls else None
    moves = game.hooks.treehouse_legal_moves(state, step, face)
    if not moves:
        return
    same_search(game, state, step, face, moves, depth, width)
    same_steps(game, state, step, face, moves)


@pytest.mark.parametrize("turn_limit", [0, 5])
@pytest.mark.parametrize("line_hits", ["new", "every_check"])
def test_a_seat_going_out_in_its_own_step_hands_the_turn_on_in_both_tiers(plugins, pos, turn_limit, line_hits):
    """Issue 47's position: a seat emptied in its step 1 plays no more steps.
    The compiled search, like the Python one, goes on with the next seat
    still in, its turn counted complete (and meeting ``turn_limit``)."""
    from treehouse.variants.fences.scenario import layout

    effective = rules_of(plugins, {"turn_limit": turn_limit, "line_hits": line_hits})
    game = effective.new_game(plugins, [RandomBot() for _ in range(3)], random.Random(0))
    state = pos(layout(b4="Lb>", c4="2", d4="1", e5="3"), stacks="y,o,ro", destroyed="gb,rb,y", seat=2, step="fence", turn=4)
    moves = game.hooks.treehouse_legal_moves(state, STEPS[0], None)
    same_steps(game, state, STEPS[0], None, moves)
    for depth in (2, 3):
        same_search(game, state, STEPS[0], None, moves, depth=depth, width=3)


def test_a_house_rule_the_core_cannot_take_in_leaves_the_search_to_the_hooks(plugins):
    """dig-restores-any changes the legal moves: no compiled game; a
    JudgedBySource rule keeps it (its verdicts in the tables)."""
    seen, game = decisions(plugins, rules_of(plugins, {"start": "corners"}, ("dig-restores-any",)), [RandomBot, RandomBot], 1, 3)
    state, step, _face, _moves = seen[-1]
    assert game.hooks.treehouse_compiled_game(state, step) is None
    seen, game = decisions(plugins, rules_of(plugins, {"start": "corners"}, ("large-fences-only",)), [RandomBot, RandomBot], 1, 3)
    state, step, _face, _moves = seen[-1]
    compiled = game.hooks.treehouse_compiled_game(state, step)
    assert compiled is not None and compiled.tables.tolist() == flags(game).tolist()
