"""The compiled search plays any compiled game as the Python search plays its hooks,
and the compiled playout of random seats plays it as the engine does.

Classic, the one built-in variant that offers its game compiled, has one
rolled step a turn.  This test's own small variant, Chase, has what classic
lacks, so that every path of kernel/fast/compiled_search.py is held to the Python
search: a turn of two steps, the second without a roll and skipped when it
has nothing to offer; PASS and REROLL among the choices; faces with nothing
to do; a weighted die; three seats.  Chase answers its hooks in plain Python
and offers the same rules as numba kernels (``treehouse_compiled_game``),
as a third party's variant would, with a playout (its turn's end and its
statistics) for playtest games of random seats, which Fair Chase, on a fair
die, plays (playtest/compiled_playout.py).

Chase: each seat has a runner on a track of ``length`` spaces.  Roll
(faces 1, 2, 3, weighted 3:2:1), then run that far if it fits: on a 1 you
may roll again instead, on a 2 you may pass (and must when it does not fit).
Then, without a roll, push one opponent ahead of you back a space (or pass);
with nobody ahead the step is skipped.  Home first wins.
"""

from __future__ import annotations

import random
from typing import NamedTuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field

from treehouse.bots.search import SearchBot
from treehouse.hookspecs import hookimpl
from treehouse.kernel.fast import compiled
from treehouse.kernel.fast.compiled_game import GOES_ON, PASS, REROLL, CompiledGame, Playout
from treehouse.kernel.die import Die
from treehouse.kernel.engine import PASS as PASS_CHOICE
from treehouse.kernel.engine import REROLL as REROLL_CHOICE
from treehouse.bots.random_bot import RandomBot
from treehouse.kernel.engine import Game, Outcome
from treehouse.kernel.hooks import game_hooks
from treehouse.kernel.records import Record
from treehouse.kernel.turn import Step
from treehouse.kernel.variant import Rules, Variant
from tiers import bits, search_through_the_hooks

pytest.importorskip("numba")
if not compiled.enabled():
    pytest.skip("the compiled core is off", allow_module_level=True)

njit_cached = compiled.njit_cached
from treehouse.kernel.fast.compiled_search import node, play_one_by_one, root  # noqa: E402 (they import numba: after the skips)
from treehouse.kernel.fast.playout_kernels import games  # noqa: E402

RUN, PUSH = Step("run", rolls=True), Step("push", rolls=False)
CHASE_DIE = Die("chase", ("1", "2", "3"), (3, 2, 1))


class ChaseRules(Rules):
    length: int = Field(6, ge=2, le=20, description="Spaces from the start to home.")


class ChasePosition(NamedTuple):
    spaces: tuple[int, ...]
    to_move: int = 0


class ChaseMove(NamedTuple):
    """``run`` to space ``arg``, or ``push`` seat ``arg`` back."""

    kind: str
    arg: int


# -- the compiled game: [step (0 run, 1 push), seat to move, players, spaces...]; tables [length]
S_STEP, S_TO_MOVE, S_PLAYERS, S_FIRST = range(4)


@njit_cached
def _status(tables, position):
    return position[S_TO_MOVE] * 2 + (1 if position[S_STEP] == 0 else 0)


@njit_cached
def _legal(tables, position, face, codes):
    length, mover = tables[0], position[S_TO_MOVE]
    mine = position[S_FIRST + mover]
    if position[S_STEP] == 0:
        target = mine + face + 1
        fits = target <= length
        n = 0
        if fits:
            codes[0] = target
            n = 1
        if face == 0 and fits:
            codes[n] = REROLL
            n += 1
        if face == 1:
            codes[n] = PASS
            n += 1
        return n
    n = 0
    for seat in range(position[S_PLAYERS]):
        if seat != mover and position[S_FIRST + seat] > mine:
            codes[n] = length + 1 + seat
            n += 1
    return n


@njit_cached
def _play(tables, position, code, after):
    after[:] = position
    length, mover = tables[0], position[S_TO_MOVE]
    if code == PASS:
        return GOES_ON
    if code <= length:
        after[S_FIRST + mover] = code
    else:
        after[S_FIRST + code - length - 1] -= 1
    return 1 << mover if after[S_FIRST + mover] == length else GOES_ON


@njit_cached
def _advance(tables, position, after):
    after[:] = position
    if position[S_STEP] == 0:
        after[S_STEP] = 1
    else:
        after[S_STEP] = 0
        after[S_TO_MOVE] = (position[S_TO_MOVE] + 1) % position[S_PLAYERS]


@njit_cached
def _evaluate(tables, position, seat):
    best = -1
    for other in range(position[S_PLAYERS]):
        if other != seat:
            best = max(best, position[S_FIRST + other])
    return float(position[S_FIRST + seat] - best)


@njit_cached
def _turn_ends(tables, position):
    return 1 if position[S_STEP] == 1 else 0


STATISTICS = ("passes", "runs", "pushes")


@njit_cached
def _tally(tables, position, code, counts):
    if code == PASS:
        counts[0] += 1
    elif code >= 0:
        counts[1 if code <= tables[0] else 2] += 1


@njit_cached
def _play_each(tables, position, codes, n, me, winners, values):
    play_one_by_one(_play, _evaluate, tables, position, codes, n, me, winners, values)


@njit_cached
def _search_node(tables, faces, probs, position, depth, me, width, choices, counter):
    """The compiled search's node bound to Chase's kernels, as a variant binds it."""
    return node(_status, _legal, _play, _advance, _evaluate, _play_each, _search_node, tables, faces, probs, position, depth, me, width, choices, counter)


@njit_cached
def _search(tables, faces, probs, position, codes, depth, me, width, choices, counter):
    """The compiled search bound to Chase's kernels (CompiledGame.search)."""
    return root(_status, _legal, _play, _advance, _evaluate, _play_each, _search_node, tables, faces, probs, position, codes, depth, me, width, choices, counter)


@njit_cached
def _playout(tables, start, die, keys, key_starts, seats, turn_cap, lead, choices, ints, faces, counts, last_not_leading):
    """The compiled playout bound to Chase's kernels, as a variant binds it."""
    # the arguments one by one: passed on as *arguments, numba calls the kernels through pointers
    return games(_status, _legal, _play, _advance, _evaluate, _turn_ends, _tally, tables, start, die, keys, key_starts, seats, turn_cap, lead, choices, ints, faces, counts, last_not_leading)


def _outcome(winners, mover):
    return Outcome((mover,), "home")


class Chase(Variant):
    name = "chase"
    description = "A test's race with a push."
    min_players = 2
    max_players = 4
    die = CHASE_DIE
    Rules = ChaseRules

    def players_in(self, state):
        return len(state.spaces)

    def format_position(self, state):
        return f"{' '.join(map(str, state.spaces))} :: {state.to_move + 1}"

    def format_move(self, move):
        return f"{move.kind} {move.arg}"

    @hookimpl
    def treehouse_setup(self, variant, players, rng):
        return ChasePosition((0,) * players, 0)

    @hookimpl
    def treehouse_turn_steps(self, state):
        return (RUN, PUSH)

    @hookimpl
    def treehouse_legal_moves(self, state, step, face):
        mine = state.spaces[state.to_move]
        if step == PUSH:
            return tuple(ChaseMove("push", seat) for seat, space in enumerate(state.spaces) if seat != state.to_move and space > mine)
        roll = int(face)
        run = (ChaseMove("run", mine + roll),) if mine + roll <= self.rules.length else ()
        if roll == 1:
            return run + (REROLL_CHOICE,) if run else ()
        if roll == 2:
            return run + (PASS_CHOICE,)
        return run

    @hookimpl
    def treehouse_apply_move(self, state, step, move):
        spaces = list(state.spaces)
        if move.kind == "run":
            spaces[state.to_move] = move.arg
        else:
            spaces[move.arg] -= 1
        return state._replace(spaces=tuple(spaces))

    @hookimpl
    def treehouse_outcome(self, state, mover):
        return Outcome((mover,), "home") if state.spaces[mover] == self.rules.length else None

    @hookimpl
    def treehouse_end_turn(self, state):
        return state._replace(to_move=(state.to_move + 1) % len(state.spaces))

    @hookimpl
    def treehouse_evaluate(self, state, seat):
        return float(state.spaces[seat] - max(space for other, space in enumerate(state.spaces) if other != seat))

    @hookimpl
    def treehouse_step_statistics(self, before, after, step, move, mover, face):
        if move is PASS_CHOICE:
            return {"passes": 1}
        return {"runs" if move.kind == "run" else "pushes": 1}

    @hookimpl
    def treehouse_compiled_game(self, state, step):
        if not self.hooks.variant_alone("treehouse_legal_moves", "treehouse_apply_move", "treehouse_outcome", "treehouse_evaluate", "treehouse_end_turn"):
            return None
        playout = Playout(_playout, STATISTICS, _outcome)
        tables = np.array([self.rules.length], dtype=np.int64)
        return CompiledGame(_search, tables, 4, {"1": 0, "2": 1, "3": 2}, self.encode, self.code, playout)

    def encode(self, state, step):
        return np.array([0 if step == RUN else 1, state.to_move, len(state.spaces), *state.spaces], dtype=np.int64)

    def code(self, move):
        if move is PASS_CHOICE:
            return PASS
        if move is REROLL_CHOICE:
            return REROLL
        return move.arg if move.kind == "run" else self.rules.length + 1 + move.arg


pytestmark = pytest.mark.usefixtures("compiled_core")


@settings(max_examples=60, deadline=None)
@given(data=st.data(), players=st.integers(2, 3), length=st.integers(3, 8), depth=st.integers(1, 5), width=st.integers(1, 3))
def test_every_move_gets_the_python_searchs_value_bit_for_bit(data, players, length, depth, width):
    variant = Chase(ChaseRules(length=length))
    spaces = tuple(data.draw(st.integers(0, length - 1)) for _ in range(players))
    state = ChasePosition(spaces, data.draw(st.integers(0, players - 1)))
    step = data.draw(st.sampled_from((RUN, PUSH)))
    face = data.draw(st.sampled_from(CHASE_DIE.faces)) if step == RUN else None
    game = Game(variant, [SearchBot() for _ in range(players)], random.Random(0))
    moves = game.hooks.treehouse_legal_moves(state, step, face)
    if not moves:
        return
    bot = SearchBot(depth=depth, width=width)
    bot.seated(game, state.to_move)
    assert bot.model.compiled_values(state, step, moves, state.to_move, depth, width) is not None
    fast = bot.advise(state, step, face, moves)
    with search_through_the_hooks():
        slow = bot.advise(state, step, face, moves)
    assert bits(fast) == bits(slow)


def play(players: int, seed: int) -> list:
    record = Record()
    bots = [SearchBot(depth=4, width=2) if seat % 2 else SearchBot() for seat in range(players)]
    Game(Chase(ChaseRules(length=9)), bots, random.Random(seed), turn_cap=60, record=record).play()
    return record.events


@pytest.mark.parametrize("players", [2, 3])
def test_whole_games_are_the_python_searchs_games(players):
    for seed in range(3):
        fast = play(players, seed)
        with search_through_the_hooks():
            slow = play(players, seed)
        assert len(fast) > 6
        assert fast == slow


class FairChase(Chase):
    """Chase on a fair die: the compiled playout rolls only the kernel's fair die."""

    name = "fair-chase"
    die = Die("chase", ("1", "2", "3"))


@pytest.mark.parametrize("players, length", [(2, 5), (3, 9), (4, 12)])
def test_random_seats_games_are_the_engines_and_observers(players, length):
    """Fair Chase's games of random seats through the compiled playout:
    summary for summary the engine's, counted by the observer (two steps a
    turn, the second skipped with nothing to push, rerolls, passes, a short
    turn cap)."""
    from treehouse.playtest import compiled_playout
    from treehouse.playtest.work import Observer, game_rng, game_seed

    variant = FairChase(ChaseRules(length=length))
    seats = [RandomBot() for _ in range(players)]
    playout = compiled_playout.playout_for(game_hooks(variant), variant, seats, 40)
    assert playout is not None and playout.statistics == STATISTICS
    fast = compiled_playout.play(playout, [game_seed("chase", index) for index in range(40)])
    slow = []
    for index in range(40):
        game = Game(variant, seats, game_rng("chase", index), turn_cap=40)
        observer = Observer(game)
        game.play()
        slow.append(observer.summary(game))
    assert fast == slow
    assert {"passes", "runs", "pushes"} <= {name for summary in slow for name in summary.counters}
    assert any(summary.faces["1"][3] for summary in slow)  # a REROLL chosen


def test_a_weighted_die_is_rolled_by_the_engine():
    """Chase's own die is weighted: its random seats' games are the engine's to play."""
    from treehouse.playtest import compiled_playout

    variant = Chase(ChaseRules())
    assert compiled_playout.playout_for(game_hooks(variant), variant, [RandomBot(), RandomBot()], 40) is None
